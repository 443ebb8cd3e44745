"""The typed configuration of the CFR players, checked once, and the choices each game settles.

Three families share one set of option declarations:

* :class:`PlayerConfig`, the fixed strategy (``CFRPlayer``, ``CFRv1Player``,
  ``CFRv2FixedPlayer``): the blueprint, the threshold rule, push/fold, defence, multiway
  rules and real-time solving;
* :class:`AdaptiveConfig`, the adaptive agent: a fixed strategy (``strategy``), the opponent
  model and safe exploiter around it (``exploiter``, :class:`ExploitConfig`), and ``exploit``;
* :class:`CFRv2Config`, the product: a fixed strategy and an exploiter, and ``adapt``, which
  lets the exploiter play only where the stacks carry over (a tournament).

Each is a frozen dataclass whose fields are the options, with str-valued enums for the
choices (so ``"mdf"`` is :attr:`PreflopDefense.MDF`); constructing one checks every value and
raises ValueError naming the option and its valid values. ``from_options`` builds one from
the flat keyword options the player constructors, ``setup_ai()`` and the arena's
``NAME:key=value`` specs pass, and ``option_types`` tells the arena each option's type.

Some options read ``"auto"``: the family's choice for the game being played, which
:func:`settle` makes once per game from PyPokerEngine's ``game_info`` (a cash game, one hand
a game, or a tournament, where the stacks carry over and a bust ends the game). The
exploiter's bound on risk follows Ganzfried and Sandholm (2015), "Safe opponent exploitation".
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar, Final, Literal, Self, get_type_hints

from agent.boundary.equity_share import ALL_OPPONENTS, CASH_PREFLOP_OPPONENTS
from agent.boundary.thresholds import STUDY_THRESHOLDS, Thresholds
from agent.players.blueprint_store import Blueprint
from agent.players.opponents.model import DEFAULT_ORDER_PRIOR

AUTO: Final = "auto"
CFRV1_SIMULATIONS = 50
CFRV2_SIMULATIONS = 10_000
INJECTED = ("config", "rng", "seed")  # a player's keywords besides the options
BY_POSITION = ("blueprint", "simulations")  # the options a player also takes by position
POSITIONAL = inspect.Parameter.POSITIONAL_OR_KEYWORD
KEYWORD = inspect.Parameter.KEYWORD_ONLY
TOURNAMENT_OVERBET_BIAS = 1.0  # "auto" overbet bias in a tournament: all of the prior's gain


class Sizing(StrEnum):
    """The threshold rule's two raise sizes: half the pot and the pot, or the study's minimum
    raise and twice it."""

    POT = "pot"
    STUDY = "study"


class Rule(StrEnum):
    """How a bet is answered where the blueprint does not apply: by minimum defense
    frequency, or by the study's thresholds whatever the bet."""

    MDF = "mdf"
    STUDY = "study"


class Multiway(StrEnum):
    """The rule with two or more opponents: the pot share against random hands, against the
    ranges read from the opponents' actions, the study's thresholds, or the family's choice."""

    SHARE = "share"
    RANGES = "ranges"
    STUDY = "study"
    AUTO = AUTO


class PreflopDefense(StrEnum):
    """How much of our range continues preflop facing a bet the blueprint does not cover."""

    MDF = "mdf"
    ODDS = "odds"
    AUTO = AUTO


class Solve(StrEnum):
    """The heads-up streets solved in real time, by name: the keys of
    :data:`agent.players.subgame_solving.SOLVED_STREETS`."""

    OFF = "off"
    RIVER = "river"
    TURN = "turn"
    FLOP = "flop"
    OFF_TREE = "off-tree"
    AUTO = AUTO


class Answer(StrEnum):
    """Heads-up after the flop and facing a preflop raise: the valued response, the equity
    answer first, the equity answer after the flop only, or the family's choice."""

    AUTO = AUTO
    VALUED = "valued"
    EQUITY = "equity"
    POSTFLOP = "postflop"


class OrderPrior(StrEnum):
    """The prior on how far a new opponent's actions follow its cards: the keys of
    :data:`agent.players.opponents.model.ORDER_PRIORS`."""

    SOUND = "sound"
    FLAT = "flat"


SOUND_PRIOR = OrderPrior(DEFAULT_ORDER_PRIOR)


class Budget(StrEnum):
    """What the exploiter may risk beyond its allowance: the chips it has won, or the
    opponents' gifts in expectation less the risks its deviations took (Ganzfried and
    Sandholm 2015; :mod:`agent.players.exploitation.budget`)."""

    WINNINGS = "winnings"
    GIFTS = "gifts"


Check = Callable[[Any], bool]


def _accepts(check: Check, expected: str) -> dict[str, Any]:
    """A field's metadata for values an enum does not cover: its check, and the sentence that
    says what it accepts."""
    return {"check": check, "expected": expected}


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _optional_bool(value: Any) -> bool:
    return value is None or isinstance(value, bool)


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and value >= 1


def _optional_positive_int(value: Any) -> bool:
    return value is None or _positive_int(value)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not math.isnan(value)


def _at_least_zero(value: Any) -> bool:
    return _number(value) and value >= 0


def _share(value: Any) -> bool:
    return _number(value) and 0 <= value <= 1


def _auto_or_share(value: Any) -> bool:
    return value == AUTO or _share(value)


def _auto_or_opponents(value: Any) -> bool:
    return value == AUTO or (isinstance(value, int) and 1 <= value <= ALL_OPPONENTS)


def _table_size(value: Any) -> bool:
    return isinstance(value, int) and 2 <= value <= 10


def _blueprint(value: Any) -> bool:
    return value is None or isinstance(value, str | Path | Blueprint)


def _preflop_table(value: Any) -> bool:
    return isinstance(value, bool | str | Path)


def _optional_positive_number(value: Any) -> bool:
    return value is None or (_number(value) and value > 0)


def _thresholds(value: Any) -> bool:
    return isinstance(value, Thresholds)


class _Options:
    """Checking and building for a dataclass whose fields are options (mixed into each config)."""

    parts: ClassVar[Mapping[str, tuple[str, ...] | None]] = {}

    def __post_init__(self) -> None:
        hints = get_type_hints(type(self))
        for spec in fields(self):  # type: ignore[arg-type]
            value, hint = getattr(self, spec.name), hints[spec.name]
            if spec.name in self.parts and not isinstance(value, hint):
                raise ValueError(f"{spec.name}={value!r}: expected {hint.__name__}(...)")
            kind = _enum_of(hint)
            if kind is not None and value is not None:
                object.__setattr__(self, spec.name, _choice(spec.name, value, kind))
                continue
            check = spec.metadata.get("check")
            if check is not None and not check(value):
                raise ValueError(f"{spec.name}={value!r}: expected {spec.metadata['expected']}")
            if float in getattr(hint, "__args__", (hint,)) and _number(value):
                object.__setattr__(self, spec.name, float(value))  # a number given as an int

    @classmethod
    def option_types(cls) -> dict[str, Any]:
        """Each keyword option of this family and its type, in order (:func:`option_types`):
        what the arena reads to turn ``key=value`` text into a value."""
        return option_types(cls)

    @classmethod
    def from_options(cls, **options: Any) -> Self:
        """The family's defaults with ``options`` (flat keywords) in their place, checked."""
        return cls().with_options(**options)

    def option_values(self) -> dict[str, Any]:
        """Each keyword option's value, parts flattened as in :func:`option_types`."""
        values: dict[str, Any] = {}
        for spec in fields(self):  # type: ignore[arg-type]
            value = getattr(self, spec.name)
            if spec.name not in self.parts:
                values[spec.name] = value
                continue
            inner = value.option_values()
            values |= {
                name: inner[name] for name in _part_names(type(value), self.parts[spec.name])
            }
        return values

    def with_options(self, **options: Any) -> Self:
        """This configuration with ``options`` (flat keywords) in place, checked."""
        names = option_types(type(self))
        unknown = [key for key in options if key not in names]
        if unknown:
            raise ValueError(f"no option {unknown[0]!r} (the options: {', '.join(names)})")
        changes: dict[str, Any] = {}
        for part, exposed in self.parts.items():
            inner = getattr(self, part)
            keys = _part_names(type(inner), exposed)
            given = {key: options.pop(key) for key in keys if key in options}
            if given:
                changes[part] = inner.with_options(**given)
        return replace(self, **changes, **options)  # type: ignore[type-var]


def _enum_of(hint: Any) -> type[StrEnum] | None:
    """The StrEnum a field's type names (``Solve | None`` included), else None."""
    for member in getattr(hint, "__args__", (hint,)):
        if isinstance(member, type) and issubclass(member, StrEnum):
            return member
    return None


def _choice(name: str, value: Any, kind: type[StrEnum]) -> StrEnum:
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(member.value for member in kind)
        raise ValueError(f"{name}={value!r}: expected one of {choices}") from None


def _part_names(kind: type, exposed: tuple[str, ...] | None) -> tuple[str, ...]:
    return tuple(option_types(kind)) if exposed is None else exposed


def option_types(kind: type) -> dict[str, Any]:
    """Each keyword option of a configuration class and its type, parts flattened in order:
    what the arena reads to turn ``key=value`` text into a value."""
    hints = get_type_hints(kind)
    parts: Mapping[str, tuple[str, ...] | None] = getattr(kind, "parts", {})
    types: dict[str, Any] = {}
    for spec in fields(kind):
        if spec.name not in parts:
            types[spec.name] = hints[spec.name]
            continue
        inner = option_types(hints[spec.name])
        for name in _part_names(hints[spec.name], parts[spec.name]):
            types[name] = inner[name]
    return types


@dataclass(frozen=True)
class PlayerConfig(_Options):
    """The fixed strategy's options (``agent.players.player.CFRPlayer``).

    ``blueprint``: a path to a strategy CSV (the shipped min-raise ``data/blueprint.csv.xz`` by
    default, also named ``"study"``; ``"sizes"``: the shipped pot-relative one) or a loaded
    ``Blueprint``;
    ``simulations``: the size of the study's Monte Carlo win-rate estimate;
    ``thresholds``: the study's win rates per street and level
    (:class:`agent.boundary.thresholds.Thresholds`);
    ``sizing``: the threshold rule's raise sizes, ``"pot"`` (half the pot and the pot, on the real
    pot; the default) or ``"study"`` (the minimum raise and twice it, exactly the study's rule);
    ``rule``: how a bet is answered where the blueprint does not apply, ``"mdf"`` (heads-up:
    continue with the minimum defense frequency of the holdings, ranked by exact equity, and answer
    a raise above the abstraction's largest size the same way; :mod:`agent.players.defense`; the
    default) or ``"study"`` (the threshold rule whatever the bet; an over-size raise is read as the
    largest abstract size);
    ``pushfold``: at 15 big blinds or less preflop, play the push/fold equilibrium (the default;
    ``False`` keeps the rules below at every depth) with at least ``pushfold_players`` players dealt
    in (3 by default; 2 plays it heads-up too);
    ``own_range``: heads-up, rule ``mdf``, rank the hand for the minimum defense frequency within
    our own range on the turn and river, as our actions in the hand reveal it
    (``agent.players.own_range``; the default), not among all holdings (``False``);
    ``multiway``: with two or more opponents in the hand, act on the hand's share of the pot's
    equity with pot odds (``"share"``, :mod:`agent.boundary.equity_share`; the default), the same
    with the equity against each opponent's range read from its actions under a sound player's model
    (``"ranges"``, :mod:`agent.poker.multiway_equity`; the adaptive agent reads them with what it
    has learned), or on the study's thresholds raised to the number of opponents (``"study"``);
    ``preflop_opponents``: the share rule prices a preflop hand against at most this many opponents;
    ``"auto"`` (the default): 1 in a cash game (one hand a game), all of them (9) in a tournament
    (:mod:`agent.boundary.equity_share`);
    ``preflop_defense``: how much of our range continues preflop facing a bet the blueprint does not
    cover: the minimum defense frequency (``"mdf"``, the default) or at least the holdings whose pot
    share covers the call's price (``"odds"``);
    ``solve``: ``"river"`` solves every heads-up river in real time over both ranges and plays the
    solution (``agent.players.subgame_solving``), ``"turn"`` the turn and the river, ``"flop"`` the
    flop, turn and river, ``"off-tree"`` the flop, turn and river once a preflop or flop raise has
    left the blueprint's tree, ``"auto"`` the same where the smaller stack dealt in held
    ``AUTO_SOLVE_DEPTH`` (``agent.players.rules.street_solving``) big blinds or more at the
    hand's start;
    ``"off"`` plays the rules below there; ``None`` (the default): the player class's
    ``default_solve``, ``"off"`` in ``CFRPlayer`` and ``CFRv1Player``, ``"auto"`` in
    ``CFRv2FixedPlayer`` and the product's ``CFRv2Player``;
    ``gadget``: solve with the check-down re-solving gadget instead of the opponent's range model
    (``blueprint.subgame.river.check_down_gadget``; by default off the tree only: ``"off-tree"`` and
    ``"auto"``);
    ``solve_iterations``: DCFR iterations of each solve (by default 30 off the tree, 100 otherwise;
    fewer answer sooner, farther from the subgame's equilibrium);
    ``solve_size``: one bet size, a fraction of the pot, for the solves' trees instead of half
    the pot and the pot (None, the default); a tree of one size has about half the nodes, so a
    solve does about half the work;
    ``facing_bets``: with ``"off-tree"`` and ``"auto"``, also solve the street in play once the
    opponent's bet or raise on it leaves the blueprint's tree (the flop) or meets the rules (the
    turn and the river), where the blueprint's mapping or the rules would answer it (``False``,
    the default: only from the street after a raise left the tree; the other modes refuse
    it);
    ``small_blind_blueprint``: heads-up preflop as the small blind, at ``AUTO_SOLVE_DEPTH`` (75)
    big blinds or deeper, play this blueprint's preflop (``agent.players.rules.small_blind``;
    None, the default: ``blueprint`` everywhere);
    ``preflop_all_in``: heads-up preflop at ``AUTO_SOLVE_DEPTH`` big blinds or deeper, facing an
    all-in, answer with the all-in subgame's equilibrium over both ranges
    (``agent.players.rules.all_in``; ``False``, the default, leaves it to the defence rule);
    ``preflop_table``: at tables of 3 to 6 players deeper than push/fold, play preflop from the
    N-player preflop blueprint (``agent.players.preflop_table``): ``True`` the table built into
    ``agent/data`` by ``python -m blueprint.preflop_build``, or a path to such a file; ``False``
    (the default) keeps the multiway rule there.

    ``"auto"`` for ``multiway`` and ``preflop_defense`` is the fixed strategy's ``"share"`` and
    ``"mdf"``; the adaptive families settle it per game (:func:`settle`). ``simulations`` and
    ``solve`` left None take the player class's defaults; ``gadget`` and ``solve_iterations``
    left None the solve mode's; ``"auto"`` for ``preflop_opponents`` is settled at each game's
    start (:func:`settle`).
    """

    blueprint: str | Path | Blueprint | None = field(
        default=None, metadata=_accepts(_blueprint, "a path, study or sizes")
    )
    simulations: int | None = field(
        default=None, metadata=_accepts(_optional_positive_int, "a positive number")
    )
    thresholds: Thresholds = field(
        default=STUDY_THRESHOLDS, metadata=_accepts(_thresholds, "a Thresholds")
    )
    sizing: Sizing = Sizing.POT
    rule: Rule = Rule.MDF
    pushfold: bool = field(default=True, metadata=_accepts(_is_bool, "true or false"))
    pushfold_players: int = field(default=3, metadata=_accepts(_table_size, "2 to 10"))
    own_range: bool = field(default=True, metadata=_accepts(_is_bool, "true or false"))
    multiway: Multiway = Multiway.SHARE
    preflop_defense: PreflopDefense = PreflopDefense.MDF
    solve: Solve | None = None
    gadget: bool | None = field(default=None, metadata=_accepts(_optional_bool, "true or false"))
    solve_iterations: int | None = field(
        default=None, metadata=_accepts(_optional_positive_int, "a positive number")
    )
    solve_size: float | None = field(
        default=None, metadata=_accepts(_optional_positive_number, "a positive pot fraction")
    )
    facing_bets: bool = field(default=False, metadata=_accepts(_is_bool, "true or false"))
    preflop_table: bool | str | Path = field(
        default=False, metadata=_accepts(_preflop_table, "true, false or a file")
    )
    small_blind_blueprint: str | Path | Blueprint | None = field(
        default=None, metadata=_accepts(_blueprint, "a path, study or sizes")
    )
    preflop_all_in: bool = field(default=False, metadata=_accepts(_is_bool, "true or false"))
    preflop_opponents: int | Literal["auto"] = field(
        default=AUTO, metadata=_accepts(_auto_or_opponents, f"auto or 1 to {ALL_OPPONENTS}")
    )

    @property
    def strategy(self) -> PlayerConfig:
        """The fixed strategy's options: these."""
        return self


@dataclass(frozen=True)
class ExploitConfig(_Options):
    """The opponent model's and the safe exploiter's options (their meaning:
    ``agent.players.adaptive.player.AdaptivePlayer``).

    ``budget``: what a deviation may put at risk beyond ``allowance`` big blinds:
    ``"winnings"`` (the chips won, forced bets aside; the default) or ``"gifts"`` (the
    opponents' gifts in expectation, credited from our strategy's values, less the risk each
    deviation played took; :class:`agent.players.exploitation.budget.Gifts`).
    """

    allowance: float = field(
        default=100.0, metadata=_accepts(_at_least_zero, "big blinds, 0 or more")
    )
    margin: float = field(
        default=0.1, metadata=_accepts(_at_least_zero, "a share of the stake, 0 or more")
    )
    bias: float = field(
        default=0.5, metadata=_accepts(_share, "a share of the prior's gain, 0 to 1")
    )
    postflop_bias: float = field(
        default=0.0, metadata=_accepts(_share, "a share of the prior's gain, 0 to 1")
    )
    overbet_bias: float | Literal["auto"] = field(
        default=AUTO,
        metadata=_accepts(_auto_or_share, "auto or a share of the prior's gain, 0 to 1"),
    )
    risk: float = field(
        default=1.0, metadata=_accepts(_at_least_zero, "an aversion per starting stack, 0 or more")
    )
    timid_risk: float = field(
        default=6.0, metadata=_accepts(_at_least_zero, "an aversion per starting stack, 0 or more")
    )
    answer: Answer = Answer.AUTO
    order_prior: OrderPrior = SOUND_PRIOR
    budget: Budget = Budget.WINNINGS


ADAPTIVE_STRATEGY = PlayerConfig(
    multiway=Multiway.AUTO, preflop_defense=PreflopDefense.ODDS, solve=Solve.OFF
)
PRODUCT_STRATEGY = PlayerConfig(multiway=Multiway.AUTO, preflop_defense=PreflopDefense.AUTO)


@dataclass(frozen=True)
class AdaptiveConfig(_Options):
    """The adaptive agent: a fixed strategy, the exploiter around it, and ``exploit`` (False:
    keep the models but play the fixed strategy, for measuring). Its strategy's defaults:
    ``multiway="auto"``, ``preflop_defense="odds"``, ``solve="off"``."""

    parts: ClassVar[Mapping[str, tuple[str, ...] | None]] = {"strategy": None, "exploiter": None}

    strategy: PlayerConfig = ADAPTIVE_STRATEGY
    exploiter: ExploitConfig = ExploitConfig()
    exploit: bool = field(default=True, metadata=_accepts(_is_bool, "true or false"))


@dataclass(frozen=True)
class CFRv2Config(_Options):
    """The product: the fixed strategy in cash games; where the stacks carry over and
    ``adapt``, the exploiter around it. Of the exploiter's options only ``order_prior`` is a
    keyword; a ``config`` may set the others. Its strategy's defaults: ``multiway="auto"``,
    ``preflop_defense="auto"``."""

    parts: ClassVar[Mapping[str, tuple[str, ...] | None]] = {
        "strategy": None,
        "exploiter": ("order_prior",),
    }

    strategy: PlayerConfig = PRODUCT_STRATEGY
    exploiter: ExploitConfig = ExploitConfig()
    adapt: bool = field(default=True, metadata=_accepts(_is_bool, "true or false"))


AnyConfig = PlayerConfig | AdaptiveConfig | CFRv2Config


@dataclass(frozen=True)
class Settled:
    """The options one game plays with, every ``"auto"`` decided (:func:`settle`).

    ``aversion`` and ``timid_aversion``: the exploiter's risk aversion per chip (0 in a cash
    game); ``equity_answers``: heads-up after the flop, the equity answer first;
    ``preflop_answers``: facing a preflop raise too."""

    tournament: bool = False
    exploit: bool = False
    multiway: Multiway = Multiway.SHARE
    preflop_defense: PreflopDefense = PreflopDefense.MDF
    preflop_opponents: int = CASH_PREFLOP_OPPONENTS
    equity_answers: bool = False
    preflop_answers: bool = False
    overbet_bias: float = 0.0
    aversion: float = 0.0
    timid_aversion: float = 0.0


def stacks_carry_over(game_info: Mapping[str, Any] | None) -> bool:
    """True for a PyPokerEngine game of more than one hand from a starting stack: a
    tournament, where a bust ends the game; False for one hand a game (a cash game)."""
    rule = (game_info or {}).get("rule", {})
    stack, hands = rule.get("initial_stack"), rule.get("max_round")
    return isinstance(hands, int) and hands > 1 and isinstance(stack, int) and stack > 0


def settle(config: AnyConfig, game_info: Mapping[str, Any] | None = None) -> Settled:
    """Every ``"auto"`` option decided for the game ``game_info`` starts (None: before any
    game, played as a cash game).

    The fixed strategy: ``multiway`` share, ``preflop_defense`` mdf, ``preflop_opponents`` 1
    in a cash game and all in a tournament. The adaptive agent exploits where ``exploit``;
    ``multiway`` the learned ranges in a tournament; ``preflop_defense`` by the call's price
    where it exploits. The product exploits where ``adapt`` and the stacks carry over; where it
    does not, the fixed strategy's choices. In both, ``answer`` the equity answer in a
    tournament; ``overbet_bias`` all of the prior's gain in a tournament, else ``bias``; the
    risk aversion ``risk`` and ``timid_risk`` per starting stack in a tournament, else 0.
    """
    tournament = stacks_carry_over(game_info)
    strategy = config.strategy
    opponents = strategy.preflop_opponents
    fixed = Settled(
        tournament=tournament,
        multiway=_unless_auto(strategy.multiway, Multiway.SHARE),
        preflop_defense=_unless_auto(strategy.preflop_defense, PreflopDefense.MDF),
        preflop_opponents=_preflop_opponents(opponents, tournament),
    )
    if isinstance(config, PlayerConfig):
        return fixed
    exploit = config.exploit if isinstance(config, AdaptiveConfig) else config.adapt and tournament
    multiway = Multiway.RANGES if tournament else Multiway.SHARE
    if isinstance(config, CFRv2Config) and not exploit:
        multiway = Multiway.SHARE
    defense = PreflopDefense.ODDS if exploit else PreflopDefense.MDF
    return replace(
        fixed,
        exploit=exploit,
        multiway=_unless_auto(strategy.multiway, multiway),
        preflop_defense=_unless_auto(strategy.preflop_defense, defense),
        **_exploiter_settled(config.exploiter, game_info, tournament),
    )


def _unless_auto(choice: Any, settled: Any) -> Any:
    return settled if choice == AUTO else choice


def _preflop_opponents(choice: int | str, tournament: bool) -> int:
    if choice != AUTO:
        return int(choice)
    return ALL_OPPONENTS if tournament else CASH_PREFLOP_OPPONENTS


def _exploiter_settled(
    exploiter: ExploitConfig, game_info: Mapping[str, Any] | None, tournament: bool
) -> dict[str, Any]:
    answer = exploiter.answer
    stack = (game_info or {}).get("rule", {}).get("initial_stack") if tournament else None
    overbet = exploiter.overbet_bias
    if overbet == AUTO:
        overbet = TOURNAMENT_OVERBET_BIAS if tournament else exploiter.bias
    return {
        "equity_answers": answer in (Answer.EQUITY, Answer.POSTFLOP)
        or (answer == Answer.AUTO and tournament),
        "preflop_answers": answer == Answer.EQUITY or (answer == Answer.AUTO and tournament),
        "overbet_bias": float(overbet),
        "aversion": exploiter.risk / stack if stack else 0.0,
        "timid_aversion": exploiter.timid_risk / stack if stack else 0.0,
    }


def constructor_signature(kind: type[_Options]) -> inspect.Signature:
    """The signature of a player built from configuration class ``kind``: ``blueprint`` and
    ``simulations`` by position or keyword, the other options by keyword, each with the
    family's default, then ``config`` (a whole configuration) and the injected ``rng`` or
    ``seed``."""
    defaults = kind().option_values()
    parameters = [
        inspect.Parameter(
            name,
            POSITIONAL if name in BY_POSITION else KEYWORD,
            default=defaults[name],
            annotation=hint,
        )
        for name, hint in option_types(kind).items()
    ]
    parameters += [inspect.Parameter(name, KEYWORD, default=None) for name in INJECTED]
    return inspect.Signature(parameters)
