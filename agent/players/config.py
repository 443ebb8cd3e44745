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
from typing import Any, ClassVar, Final, Literal, Self, TypeVar, get_type_hints

from agent.boundary.equity_share import ALL_OPPONENTS, CASH_PREFLOP_OPPONENTS
from agent.boundary.snapshot import Street
from agent.boundary.thresholds import STUDY_THRESHOLDS, Thresholds
from agent.players.blueprint_store import Blueprint, resolve_blueprint_path
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


# the heads-up streets solved in real time, by name (agent.players.rules.street_solving)
SOLVED_STREETS = {
    "off": (),
    "river": (Street.RIVER,),
    "turn": (Street.TURN, Street.RIVER),
    "flop": (Street.FLOP, Street.TURN, Street.RIVER),
    "off-tree": (Street.FLOP, Street.TURN, Street.RIVER),
    "auto": (Street.FLOP, Street.TURN, Street.RIVER),  # off-tree, deep stacks only (player)
}


class Solve(StrEnum):
    """The heads-up streets solved in real time, by name: the keys of
    :data:`SOLVED_STREETS`."""

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


Check = Callable[[Any], bool]
T = TypeVar("T")


def resolved(value: T | None, name: str) -> T:
    """An option the player class resolved (None replaced by its default when the player was
    configured: :meth:`agent.players.player.CFRPlayer.configure`); ValueError if it was not."""
    if value is None:
        raise ValueError(f"{name} is unresolved: build the configuration through a player class")
    return value


def option(default: Any, help: str, check: Check | None = None, expected: str = "") -> Any:
    """A configuration field: its default, its help (what ``arena`` prints beside it), and
    for values an enum does not cover, its check and the sentence that says what it
    accepts."""
    metadata: dict[str, Any] = {"help": help}
    if check is not None:
        metadata |= {"check": check, "expected": expected}
    return field(default=default, metadata=metadata)


def option_help(kind: type, name: str) -> str:
    """The help of keyword option ``name`` of configuration class ``kind`` (parts included)."""
    parts: Mapping[str, tuple[str, ...] | None] = getattr(kind, "parts", {})
    hints = get_type_hints(kind)
    for spec in fields(kind):
        if spec.name == name and spec.name not in parts:
            return str(spec.metadata.get("help", ""))
        if spec.name in parts and name in _part_names(hints[spec.name], parts[spec.name]):
            return option_help(hints[spec.name], name)
    raise ValueError(f"no option {name!r}")


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
    """None, a loaded blueprint, a shipped one's name, or a file that exists."""
    if value is None or isinstance(value, Blueprint):
        return True
    return isinstance(value, str | Path) and resolve_blueprint_path(value).is_file()


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
    def option_defaults(cls) -> dict[str, Any]:
        """Each keyword option's default (:meth:`option_values` of the defaults)."""
        return cls().option_values()

    @classmethod
    def option_help(cls, name: str) -> str:
        """The help of keyword option ``name`` (:func:`option_help`)."""
        return option_help(cls, name)

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
    """The fixed strategy's options (``agent.players.player.CFRPlayer``), each with its help
    beside it.

    ``"auto"`` for ``multiway`` and ``preflop_defense`` is the fixed strategy's ``"share"`` and
    ``"mdf"``; the adaptive families settle it per game (:func:`settle`). ``simulations`` and
    ``solve`` left None take the player class's defaults; ``gadget`` and ``solve_iterations``
    left None the solve mode's; ``"auto"`` for ``preflop_opponents`` is settled at each game's
    start (:func:`settle`).
    """

    blueprint: str | Path | Blueprint | None = option(
        None,
        "the strategy table: a path to a strategy CSV, study (the shipped min-raise one, the "
        "default) or sizes (the shipped pot-relative one)",
        _blueprint,
        "a blueprint file that exists, study or sizes",
    )
    simulations: int | None = option(
        None,
        "the size of the study's Monte Carlo win-rate estimate (default: the player's, 50 in "
        "cfrv1, 10,000 in cfrv2)",
        _optional_positive_int,
        "a positive number",
    )
    thresholds: Thresholds = option(
        STUDY_THRESHOLDS,
        "the study's win rates per street and level (agent.boundary.thresholds.Thresholds)",
        _thresholds,
        "a Thresholds",
    )
    sizing: Sizing = option(
        Sizing.POT,
        "the threshold rule's raise sizes: pot (half the pot and the pot, on the real pot) or "
        "study (the minimum raise and twice it, exactly the study's rule)",
    )
    rule: Rule = option(
        Rule.MDF,
        "how a bet is answered where the blueprint does not apply: mdf (heads-up, continue "
        "with the minimum defense frequency of the holdings ranked by equity, and answer a "
        "raise above the abstraction's largest size the same way) or study (the threshold "
        "rule whatever the bet; an over-size raise read as the largest abstract size)",
    )
    pushfold: bool = option(
        True,
        "at 15 big blinds or less preflop, play the push/fold equilibrium (false: the rules "
        "below at every depth)",
        _is_bool,
        "true or false",
    )
    pushfold_players: int = option(
        3,
        "the fewest players dealt in for push/fold (2 plays it heads-up too)",
        _table_size,
        "2 to 10",
    )
    own_range: bool = option(
        True,
        "heads-up with rule mdf, rank the hand for the minimum defense frequency within our "
        "own range on the turn and river, as our actions reveal it (false: among all holdings)",
        _is_bool,
        "true or false",
    )
    multiway: Multiway = option(
        Multiway.SHARE,
        "with two or more opponents: share (the hand's share of the pot's equity against pot "
        "odds), ranges (the same against each opponent's range read from its actions), study "
        "(the study's thresholds raised to the number of opponents) or auto",
    )
    preflop_defense: PreflopDefense = option(
        PreflopDefense.MDF,
        "how much of our range continues preflop facing a bet the blueprint does not cover: "
        "mdf (the minimum defense frequency), odds (at least the holdings whose pot share "
        "covers the call's price) or auto",
    )
    solve: Solve | None = option(
        None,
        "the heads-up streets solved in real time: river, turn (and river), flop (flop, turn "
        "and river), off-tree (flop, turn and river once a raise left the blueprint's tree), "
        "auto (off-tree where the smaller stack held 75 big blinds or more) or off (default: "
        "the player's, off in cfrv1, auto in cfrv2)",
    )
    gadget: bool | None = option(
        None,
        "solve with the check-down re-solving gadget instead of the opponent's range model "
        "(default: off-tree and auto only)",
        _optional_bool,
        "true or false",
    )
    solve_iterations: int | None = option(
        None,
        "DCFR iterations of each solve (default: 30 off the tree, 100 otherwise)",
        _optional_positive_int,
        "a positive number",
    )
    solve_size: float | None = option(
        None,
        "one bet size, a fraction of the pot, for the solves' trees instead of half the pot "
        "and the pot (a tree of one size has about half the nodes)",
        _optional_positive_number,
        "a positive pot fraction",
    )
    small_blind_blueprint: str | Path | Blueprint | None = option(
        None,
        "heads-up preflop as the small blind at 75 big blinds or deeper, play this "
        "blueprint's preflop (a path, study or sizes; default: blueprint everywhere)",
        _blueprint,
        "a blueprint file that exists, study or sizes",
    )
    preflop_opponents: int | Literal["auto"] = option(
        AUTO,
        "the share rule prices a preflop hand against at most this many opponents (auto: 1 "
        "in a cash game, all of them in a tournament)",
        _auto_or_opponents,
        f"auto or 1 to {ALL_OPPONENTS}",
    )

    @property
    def strategy(self) -> PlayerConfig:
        """The fixed strategy's options: these."""
        return self


@dataclass(frozen=True)
class ExploitConfig(_Options):
    """The opponent model's and the safe exploiter's options, each with its help beside it
    (their meaning in full: ``agent.players.adaptive.player.AdaptivePlayer``)."""

    allowance: float = option(
        100.0,
        "big blinds a deviation may risk beyond the chips won",
        _at_least_zero,
        "big blinds, 0 or more",
    )
    margin: float = option(
        0.1,
        "the share of the stake a deviation must gain over the mix",
        _at_least_zero,
        "a share of the stake, 0 or more",
    )
    bias: float = option(
        0.5,
        "the share of a deviation's gain against the prior taken as valuation bias, preflop",
        _share,
        "a share of the prior's gain, 0 to 1",
    )
    postflop_bias: float = option(
        0.0,
        "the same after the flop",
        _share,
        "a share of the prior's gain, 0 to 1",
    )
    overbet_bias: float | Literal["auto"] = option(
        AUTO,
        "the same for overbets and shoves (auto: all of it in a tournament, bias in a cash game)",
        _auto_or_share,
        "auto or a share of the prior's gain, 0 to 1",
    )
    risk: float = option(
        1.0,
        "risk aversion per starting stack in a tournament, against a sound opponent",
        _at_least_zero,
        "an aversion per starting stack, 0 or more",
    )
    timid_risk: float = option(
        6.0,
        "risk aversion per starting stack in a tournament, against a timid opponent",
        _at_least_zero,
        "an aversion per starting stack, 0 or more",
    )
    answer: Answer = option(
        Answer.AUTO,
        "heads-up after the flop and facing a preflop raise: valued (the valued response), "
        "equity (the equity answer first), postflop (the equity answer after the flop only) "
        "or auto (equity in a tournament)",
    )
    order_prior: OrderPrior = option(
        SOUND_PRIOR,
        "the model's prior on how far a new opponent's actions follow its cards: sound, or "
        "flat (every weight alike, so the first showdowns decide)",
    )


ADAPTIVE_STRATEGY = PlayerConfig(
    multiway=Multiway.AUTO, preflop_defense=PreflopDefense.ODDS, solve=Solve.OFF
)
# the product's keyword options: those the docs' "Which bot for which job" recommends; a
# ``config`` sets any other
PRODUCT_OPTIONS = (
    "blueprint",
    "solve",
    "gadget",
    "solve_iterations",
    "solve_size",
    "small_blind_blueprint",
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
    exploit: bool = option(
        True,
        "play the best response to each opponent's model (false: keep the models, play the "
        "fixed strategy)",
        _is_bool,
        "true or false",
    )


@dataclass(frozen=True)
class CFRv2Config(_Options):
    """The product: the fixed strategy in cash games; where the stacks carry over and
    ``adapt``, the exploiter around it. Its keyword options are the strategy's
    :data:`PRODUCT_OPTIONS` and ``adapt``; a ``config`` may set the others. Its strategy's
    defaults: ``multiway="auto"``, ``preflop_defense="auto"``."""

    parts: ClassVar[Mapping[str, tuple[str, ...] | None]] = {
        "strategy": PRODUCT_OPTIONS,
        "exploiter": (),
    }

    strategy: PlayerConfig = PRODUCT_STRATEGY
    exploiter: ExploitConfig = ExploitConfig()
    adapt: bool = option(
        True,
        "in a game that carries the stacks over (a tournament), play the best response to "
        "each opponent's model (false: the fixed strategy there too)",
        _is_bool,
        "true or false",
    )


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
