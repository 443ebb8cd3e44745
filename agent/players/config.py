"""The typed configuration of the CFR players, checked once, and the choices each game settles.

Three families compose the same option declarations:

* :class:`PlayerConfig`, the fixed strategy (``CFRPlayer``, ``CFRv1Player``,
  ``CFRv2FixedPlayer``): the composition of its rules' options, each declared in the rule
  module that reads it (the blueprint, the small blind's blueprint, the threshold rule,
  defence, push/fold, the multiway rule and real-time solving: ``agent.players.rules``);
* :class:`AdaptiveConfig`, the adaptive agent: a fixed strategy (``strategy``), the opponent
  model and safe exploiter around it (``exploiter``, :class:`ExploitConfig`), and ``exploit``;
* :class:`CFRv2Config`, the product: a fixed strategy and an exploiter, and ``adapt``, which
  lets the exploiter play only where the stacks carry over (a tournament).

Each is a frozen dataclass whose fields are options or parts holding options
(:mod:`agent.players.options`), with str-valued enums for the choices (so ``"mdf"`` is
``PreflopDefense.MDF``); constructing one checks every value and raises ValueError naming the
option and its valid values. ``from_options`` builds one from the flat keyword options the
player constructors, ``setup_ai()`` and the arena's ``NAME:key=value`` specs pass, and
``option_types`` tells the arena each option's type.

Some options read ``"auto"``: the family's choice for the game being played, which
:func:`settle` makes once per game from PyPokerEngine's ``game_info`` (a cash game, one hand
a game, or a tournament, where the stacks carry over and a bust ends the game). The
exploiter's bound on risk follows Ganzfried and Sandholm (2015), "Safe opponent exploitation".
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar, Literal

from agent.boundary.equity_share import ALL_OPPONENTS, CASH_PREFLOP_OPPONENTS
from agent.players.blueprint_store import blueprint_rounds
from agent.players.opponents.model import DEFAULT_ORDER_PRIOR
from agent.players.options import (
    AUTO,
    Options,
    is_at_least_zero,
    is_auto_or_share,
    is_bool,
    is_share,
    option,
    option_types,
)
from agent.players.rules.big_blind import BigBlindOptions
from agent.players.rules.blueprint import BlueprintOptions
from agent.players.rules.defence import DefenceOptions, PreflopDefense
from agent.players.rules.multiway import Multiway, MultiwayOptions
from agent.players.rules.postflop import PostflopOptions
from agent.players.rules.pushfold import PushFoldOptions
from agent.players.rules.shallow import ShallowOptions
from agent.players.rules.small_blind import SmallBlindOptions
from agent.players.rules.street_solving import Leaves, Solve, SolveOptions
from agent.players.rules.threshold import ThresholdOptions

CFRV1_SIMULATIONS = 50
CFRV2_SIMULATIONS = 10_000
INJECTED = ("config", "rng", "seed")  # a player's keywords besides the options
BY_POSITION = ("blueprint", "simulations")  # the options a player also takes by position
POSITIONAL = inspect.Parameter.POSITIONAL_OR_KEYWORD
KEYWORD = inspect.Parameter.KEYWORD_ONLY
TOURNAMENT_OVERBET_BIAS = 1.0  # "auto" overbet bias in a tournament: all of the prior's gain


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


@dataclass(frozen=True)
class PlayerConfig(Options):
    """The fixed strategy's options (``agent.players.player.CFRPlayer``): the composition of
    its rules' options, each part held by the rule that reads it, its options exposed flat
    (``PlayerConfig.from_options(simulations=500)`` sets ``threshold.simulations``).

    ``"auto"`` for ``multiway`` and ``preflop_defense`` is the fixed strategy's ``"share"`` and
    ``"mdf"``; the adaptive families settle it per game (:func:`settle`). ``simulations`` and
    ``solve`` left None take the player class's defaults; ``gadget`` and ``solve_iterations``
    left None the solve mode's; ``"auto"`` for ``preflop_opponents`` is settled at each game's
    start (:func:`settle`).
    """

    parts: ClassVar[Mapping[str, tuple[str, ...] | None]] = {
        "blueprint": None,
        "threshold": None,
        "defence": None,
        "pushfold": None,
        "multiway": None,
        "solving": None,
        "small_blind": None,
        "big_blind": None,
        "postflop": None,
        "shallow": None,
    }

    blueprint: BlueprintOptions = BlueprintOptions()
    threshold: ThresholdOptions = ThresholdOptions()
    defence: DefenceOptions = DefenceOptions()
    pushfold: PushFoldOptions = PushFoldOptions()
    multiway: MultiwayOptions = MultiwayOptions()
    solving: SolveOptions = SolveOptions()
    small_blind: SmallBlindOptions = SmallBlindOptions()
    big_blind: BigBlindOptions = BigBlindOptions()
    postflop: PostflopOptions = PostflopOptions()
    shallow: ShallowOptions = ShallowOptions()

    def __post_init__(self) -> None:
        super().__post_init__()
        postflop = self.postflop.postflop_blueprint
        if postflop is not None and blueprint_rounds(postflop) < 4:
            raise ValueError(
                f"postflop_blueprint={postflop}: it plays the turn and the river, so it must be "
                "a four-street blueprint (streets)"
            )
        leaves = self.solving.leaves
        if leaves in (Leaves.BLUEPRINT, Leaves.TURN) and (
            blueprint_rounds(self.blueprint.blueprint) < 4
        ):
            raise ValueError(
                f"leaves={leaves.value} plays the river from the blueprint: it needs a "
                "four-street one (blueprint=streets)"
            )

    @property
    def strategy(self) -> PlayerConfig:
        """The fixed strategy's options: these."""
        return self


@dataclass(frozen=True)
class ExploitConfig(Options):
    """The opponent model's and the safe exploiter's options, each with its help beside it
    (their meaning in full: ``agent.players.adaptive.player.AdaptivePlayer``)."""

    allowance: float = option(
        100.0,
        "big blinds a deviation may risk beyond the chips won",
        is_at_least_zero,
        "big blinds, 0 or more",
    )
    margin: float = option(
        0.1,
        "the share of the stake a deviation must gain over the mix",
        is_at_least_zero,
        "a share of the stake, 0 or more",
    )
    bias: float = option(
        0.5,
        "the share of a deviation's gain against the prior taken as valuation bias, preflop",
        is_share,
        "a share of the prior's gain, 0 to 1",
    )
    postflop_bias: float = option(
        0.0,
        "the same after the flop",
        is_share,
        "a share of the prior's gain, 0 to 1",
    )
    overbet_bias: float | Literal["auto"] = option(
        AUTO,
        "the same for overbets and shoves (auto: all of it in a tournament, bias in a cash game)",
        is_auto_or_share,
        "auto or a share of the prior's gain, 0 to 1",
    )
    risk: float = option(
        1.0,
        "risk aversion per starting stack in a tournament, against a sound opponent",
        is_at_least_zero,
        "an aversion per starting stack, 0 or more",
    )
    timid_risk: float = option(
        6.0,
        "risk aversion per starting stack in a tournament, against a timid opponent",
        is_at_least_zero,
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


ADAPTIVE_STRATEGY = PlayerConfig.from_options(
    multiway=Multiway.AUTO, preflop_defense=PreflopDefense.ODDS, solve=Solve.OFF
)
# the product's keyword options: those the docs' "Which bot for which job" recommends, and
# the ceiling on the blueprint's folds its results archive measures; a ``config`` sets any other
PRODUCT_OPTIONS = (
    "blueprint",
    "solve",
    "gadget",
    "solve_iterations",
    "solve_size",
    "solve_range",
    "solve_rank",
    "small_blind_blueprint",
    "small_blind_open",
    "big_blind_blueprint",
    "postflop_blueprint",
    "postflop_from",
    "shallow_blueprint",
    "defend",
    "leaves",
)
PRODUCT_STRATEGY = PlayerConfig.from_options(
    multiway=Multiway.AUTO, preflop_defense=PreflopDefense.AUTO
)


@dataclass(frozen=True)
class AdaptiveConfig(Options):
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
        is_bool,
        "true or false",
    )


@dataclass(frozen=True)
class CFRv2Config(Options):
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
        is_bool,
        "true or false",
    )
    bounded_shove: bool = option(
        False,
        "where the fixed strategy plays (a cash game), heads-up facing a raise before the "
        "flop, shove instead of folding where the shove gains against the strongest range "
        "the opponent's counted rates allow (it learns from hand to hand)",
        is_bool,
        "true or false",
    )
    bounded_value: bool = option(
        False,
        "where the fixed strategy plays (a cash game), heads-up against an opponent whose "
        "counted rates say it rarely raises, bet for value, check instead of bluffing and "
        "complete the small blind where the gain is bounded above 0 (it learns from hand to "
        "hand)",
        is_bool,
        "true or false",
    )


AnyConfig = PlayerConfig | AdaptiveConfig | CFRv2Config


@dataclass(frozen=True)
class Settled:
    """The options one game plays with, every ``"auto"`` decided (:func:`settle`).

    ``aversion`` and ``timid_aversion``: the exploiter's risk aversion per chip (0 in a cash
    game); ``equity_answers``: heads-up after the flop, the equity answer first;
    ``preflop_answers``: facing a preflop raise too; ``bounded_shove``: where the fixed strategy
    plays, its folds to a preflop raise shoved where the opponent's counts bound the gain
    (:mod:`agent.players.exploitation.bounded_shove`); ``bounded_value``: there, the bounded
    value line (:mod:`agent.players.exploitation.bounded_value`)."""

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
    bounded_shove: bool = False
    bounded_value: bool = False


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
    does not, the fixed strategy's choices, and ``bounded_shove`` and ``bounded_value`` where
    chosen. In both,
    ``answer`` the equity answer in a tournament; ``overbet_bias`` all of the prior's gain in a
    tournament, else ``bias``; the risk aversion ``risk`` and ``timid_risk`` per starting stack
    in a tournament, else 0.
    """
    tournament = stacks_carry_over(game_info)
    chosen_multiway = config.strategy.multiway.multiway
    chosen_defense = config.strategy.defence.preflop_defense
    opponents = config.strategy.multiway.preflop_opponents
    fixed = Settled(
        tournament=tournament,
        multiway=_unless_auto(chosen_multiway, Multiway.SHARE),
        preflop_defense=_unless_auto(chosen_defense, PreflopDefense.MDF),
        preflop_opponents=_preflop_opponents(opponents, tournament),
    )
    if isinstance(config, PlayerConfig):
        return fixed
    exploit = config.exploit if isinstance(config, AdaptiveConfig) else config.adapt and tournament
    multiway = Multiway.RANGES if tournament else Multiway.SHARE
    if isinstance(config, CFRv2Config) and not exploit:
        multiway = Multiway.SHARE
    defense = PreflopDefense.ODDS if exploit else PreflopDefense.MDF
    product = config if isinstance(config, CFRv2Config) and not exploit else None
    return replace(
        fixed,
        exploit=exploit,
        bounded_shove=product is not None and product.bounded_shove,
        bounded_value=product is not None and product.bounded_value,
        multiway=_unless_auto(chosen_multiway, multiway),
        preflop_defense=_unless_auto(chosen_defense, defense),
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


def constructor_signature(kind: type[Options]) -> inspect.Signature:
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
