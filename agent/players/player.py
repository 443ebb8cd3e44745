"""The CFR players: a thin PyPokerEngine adapter over a fixed strategy, and the compositions
the registry names.

A :class:`CFRPlayer` converts the engine's messages into typed snapshots and plays the policy
of what it composes:

* the fixed strategy (:class:`agent.players.strategy.FixedStrategy`): an ordered list of
  decision rules (push/fold, the N-player preflop table, street solving, the MCCFR blueprint,
  defence, multiway pricing, the study's thresholds), each testable alone;
* for the families whose configuration has an exploiter part (``adaptive`` and ``cfrv2``),
  the opponent book (:class:`agent.players.opponents.book.OpponentBook`), the budget
  (:mod:`agent.players.exploitation.budget`) and the exploiter wrapped around the fixed strategy
  (:class:`agent.players.exploitation.exploiter.Exploiter`), which plays where the game's settled
  options say it exploits.

The players of the study (seed 004, "POKER AI: Using Monte-Carlo CFR with Monte-Carlo
Simulations") are :class:`CFRv1Player` and :class:`CFRv2FixedPlayer`; the product's
:class:`agent.players.cfrv2.CFRv2Player` and the experiment
:class:`agent.players.adaptive.player.AdaptivePlayer` are compositions of the same parts.

The options and their meaning: :mod:`agent.players.config`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, Literal

import numpy as np

from agent.boundary.policy import Decision, PolicyPlayer, WeightedAction, make_rng, sample_action
from agent.boundary.snapshot import Action, Snapshot
from agent.players.blueprint_store import Blueprint, blueprint_rounds, load_blueprint
from agent.players.config import (
    BY_POSITION,
    CFRV1_SIMULATIONS,
    CFRV2_SIMULATIONS,
    AnyConfig,
    ExploitConfig,
    PlayerConfig,
    Settled,
    constructor_signature,
    settle,
)
from agent.players.exploitation.budget import AnyBudget, Winnings
from agent.players.exploitation.exploiter import Exploiter
from agent.players.opponents.book import OpponentBook
from agent.players.opponents.model import OpponentModel
from agent.players.rules.rule import Context
from agent.players.rules.street_solving import TWO_SIZES, Solve, mode_defaults
from agent.players.strategy import FixedStrategy
from blueprint.realtime import compile_in_background, running

LOG = logging.getLogger(__name__)


def _loaded(source: str | Path | Blueprint | None) -> Blueprint:
    """A blueprint option's blueprint: as given, or loaded once per process (None: the
    shipped one)."""
    return source if isinstance(source, Blueprint) else load_blueprint(source)


def _optional(source: str | Path | Blueprint | None) -> Blueprint | None:
    """A second blueprint's option loaded (None: no such blueprint, not the shipped one)."""
    return None if source is None else _loaded(source)


class CFRPlayer(PolicyPlayer):
    """A PyPokerEngine player over a fixed strategy, and an exploiter where configured.

    The options, each with its meaning and default, are the fields of the class's
    ``config_type`` (:mod:`agent.players.config`), checked once; ``config`` passes a whole
    configuration, and options given beside it take its place. ``rng`` / ``seed``: the
    injected randomness (``rng`` wins). ``simulations`` defaults to the class's
    ``default_simulations``; ``solve`` to ``"off"`` with a blueprint of every street (it plays
    the whole hand by lookup, and a solve would value the streets after it as a check-down),
    else to the class's ``default_solve``; ``solve_size`` to the class's ``default_solve_size``
    (``"two"``: half the pot and the pot). ``settled`` holds the ``"auto"`` options
    as this game plays them (:func:`agent.players.config.settle`).

    ``fixed`` is the fixed strategy; ``exploiter``, ``book`` and ``budget`` are None for a
    configuration with no exploiter part. ``learns``: its policy depends on the hands it has
    seen, so local best response reads it by :meth:`learned_policy_table`; ``model_type``:
    the class of each new opponent's model (a benchmark may tell one a baseline's tell).
    """

    config_type: ClassVar[type[AnyConfig]] = PlayerConfig
    default_simulations: ClassVar[int] = CFRV2_SIMULATIONS
    default_solve: ClassVar[Solve] = Solve.OFF
    default_solve_size: ClassVar[float | Literal["two"]] = TWO_SIZES
    learns: ClassVar[bool] = False
    learns_always: ClassVar[bool] = True  # with a book: learn in every game, not only where
    # it exploits
    model_type: ClassVar[type[OpponentModel]] = OpponentModel

    def __init__(
        self,
        *by_position: Any,
        config: AnyConfig | None = None,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
        **options: Any,
    ) -> None:
        """The options by keyword; ``blueprint`` and ``simulations`` also by position."""
        self.config: AnyConfig = self.configure(config, **_with_positional(by_position, options))
        strategy = self.config.strategy
        self.context = Context(
            options=strategy,
            blueprint=_loaded(strategy.blueprint.blueprint),
            rng=make_rng(rng, seed),
            settled=settle(self.config),  # a cash game until a game's start says
            small_blind_blueprint=_optional(strategy.small_blind.small_blind_blueprint),
            big_blind_blueprint=_optional(strategy.big_blind.big_blind_blueprint),
            small_blind_open=_optional(strategy.small_blind.small_blind_open),
            postflop_blueprint=_optional(strategy.postflop.postflop_blueprint),
            shallow_blueprint=_optional(strategy.shallow.shallow_blueprint),
        )
        self.fixed = FixedStrategy(self.context)
        self.book: OpponentBook | None = None
        self.budget: AnyBudget | None = None
        self.exploiter: Exploiter | None = None
        options_of_exploiter = getattr(self.config, "exploiter", None)
        if options_of_exploiter is not None:
            self._wrap_in_exploiter(options_of_exploiter)
        self.errors = 0  # decisions that fell back to a safe action after an internal error
        self.last_decision: Decision | None = None  # the rule that played the last policy
        self.compilation = compile_in_background()  # the warm-up process on a cold cache
        self.context.compiling = running(self.compilation)

    def _wrap_in_exploiter(self, options: ExploitConfig) -> None:
        """The opponent book, the budget and the exploiter around the fixed strategy; the
        context reads opponents' ranges from the book."""
        self.book = OpponentBook(self.model_type, options.order_prior)
        self.budget = Winnings(options.allowance)
        self.exploiter = Exploiter(self.fixed, self.book, self.budget, options)
        self.context.book = self.book

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass that keeps this constructor shows its family's options as its signature
        (what ``help`` and the arena read); one with its own constructor shows that."""
        super().__init_subclass__(**kwargs)
        own = "__init__" in cls.__dict__
        cls.__signature__ = None if own else constructor_signature(cls.config_type)

    @classmethod
    def configure(cls, config: AnyConfig | None = None, **options: Any) -> AnyConfig:
        """``config`` (by default the family's defaults) with ``options`` in place, checked,
        and the class's defaults for ``simulations`` and ``solve`` and the solve mode's for
        ``gadget`` and ``solve_iterations`` where they are None."""
        if config is None:
            config = cls.config_type()
        elif not isinstance(config, cls.config_type):
            expected = cls.config_type.__name__
            raise ValueError(f"config={config!r}: expected a {expected}")
        config = config.with_options(**options)
        strategy = config.strategy
        threshold, solving = strategy.threshold, strategy.solving
        simulations = threshold.simulations
        solve = solving.solve
        four_streets = blueprint_rounds(strategy.blueprint.blueprint) == 4
        if solve is None:
            solve = Solve.OFF if four_streets else cls.default_solve
        gadget, iterations, _ = mode_defaults(solve)
        resolved = replace(
            strategy,
            threshold=replace(
                threshold,
                simulations=cls.default_simulations if simulations is None else simulations,
            ),
            solving=replace(
                solving,
                solve=solve,
                gadget=gadget if solving.gadget is None else solving.gadget,
                solve_iterations=iterations
                if solving.solve_iterations is None
                else solving.solve_iterations,
                leaves=solving.leaves.settled(four_streets),
                solve_size=cls.default_solve_size
                if solving.solve_size is None
                else solving.solve_size,
            ),
        )
        return resolved if isinstance(config, PlayerConfig) else replace(config, strategy=resolved)

    @property
    def rng(self) -> np.random.Generator:
        """The only randomness the player uses (an arena may replace it at every hand)."""
        return self.context.rng

    @rng.setter
    def rng(self, generator: np.random.Generator) -> None:
        self.context.rng = generator

    @property
    def strategy(self) -> PlayerConfig:
        """The fixed strategy's options."""
        return self.config.strategy

    @property
    def settled(self) -> Settled:
        """This game's options, every ``"auto"`` decided."""
        return self.context.settled

    @property
    def blueprint(self) -> Blueprint:
        """The blueprint the fixed strategy reads."""
        return self.context.blueprint

    # -- the policy ------------------------------------------------------------------------

    @property
    def played(self) -> Exploiter | FixedStrategy:
        """The strategy the player plays: the exploiter where it has one, else the fixed one
        (also in a hand that started while the kernels compile: the exploiter reads them)."""
        if self.exploiter is None or self.context.compiling:
            return self.fixed
        return self.exploiter

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        """The legal actions and their probabilities at ``snapshot``; ``last_decision`` then
        says which rule played them."""
        played = self.played
        policy = played.policy(snapshot)
        self.last_decision = played.last_decision
        return policy

    def policy_table(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]
    ) -> list[list[WeightedAction]]:
        """The fixed strategy's ``[policy(snapshot with hole h) for h in holes]``, computed
        for all at once: what local best response reads of a player that does not learn."""
        return self.fixed.policy_table(snapshot, holes)

    def learned_policy_table(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]
    ) -> list[list[WeightedAction]]:
        """``[self.policy(snapshot with hole h) for h in holes]``, what it has learned
        included: what local best response reads of a player that learns."""
        return self.played.policy_table(snapshot, holes)

    def action_likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        """``P(action | holding)`` at ``snapshot`` for each of the 1,326 holdings, by the fixed
        strategy (what our own range is read with)."""
        return self.fixed.likelihood(snapshot, action)

    # -- the engine's entry points ---------------------------------------------------------

    def snapshot(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
    ) -> Snapshot:
        """The engine's dicts as a typed snapshot; the book remembers who sits where."""
        if self.book is not None:
            self.book.seat(round_state)
        return super().snapshot(valid_actions, hole_card, round_state)

    def receive_game_start_message(self, game_info: Mapping[str, Any]) -> None:
        """Settle the ``"auto"`` options for this game: whether it carries the stacks over
        (a tournament) decides them (:func:`agent.players.config.settle`)."""
        super().receive_game_start_message(game_info)
        self.context.settled = settle(self.config, game_info)

    def declare_action(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
    ) -> Action:
        """Sample an action from the policy and remember it (heads-up, for our range); after
        an internal error, check or fold safely."""
        try:
            snapshot = self.snapshot(valid_actions, hole_card, round_state)
            action = sample_action(self.policy(snapshot), self.rng)
            self.fixed.remember(snapshot, action)
            return action
        except Exception:  # the engine must always get a legal action from us
            self.errors += 1
            self.last_decision = Decision("error", "checked or folded after an internal error")
            LOG.exception("CFR player fell back to check/fold after an internal error")
            return _safe_action(valid_actions)

    def observe_own_decision(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
        action: Action,
    ) -> None:
        """A copy of this player is told a decision the player made (local best response
        reads the policy from a copy): remember it for our range, as the player did."""
        snapshot = self.snapshot(valid_actions, hole_card, round_state)
        self.fixed.remember(snapshot, (str(action[0]), int(action[1])))

    def receive_round_start_message(
        self, round_count: int, hole_card: Sequence[str], seats: Sequence[Any]
    ) -> None:
        """A new hand: forget our range in the last one; the book and the budget start it. The
        hand plays without the kernels if the warm-up process is still compiling them."""
        self.context.own_range.reset()
        self.context.compiling = running(self.compilation)
        own = getattr(self, "uuid", None)
        if self.book is not None and self.budget is not None:
            self.book.start_hand(hole_card, seats, own)
            self.budget.start_hand(seats, own)

    def receive_round_result_message(
        self, winners: Sequence[Any], hand_info: Sequence[Any], round_state: Mapping[str, Any]
    ) -> None:
        """Where the player keeps a book: learn from the hand (a model update must never stop
        the game; nor read the kernels while they compile)."""
        settled = self.settled
        if self.book is None or not (
            self.learns_always or settled.exploit or settled.bounded_shove or settled.bounded_value
        ):
            return
        if self.context.compiling:
            return
        try:
            self.learn(hand_info, round_state)
        except Exception:
            self.errors += 1
            LOG.exception("the player could not learn from a hand's result")

    def learn(self, hand_info: Sequence[Any], round_state: Mapping[str, Any]) -> None:
        """Count every opponent action of the hand, learn from shown hands where ranges are
        read with the model (the bounded answers read counts alone), and add to the budget
        what the hand gave (the chips won, or the gifts: the shown hands are read)."""
        own = getattr(self, "uuid", None)
        if self.book is not None and self.budget is not None:
            reads_ranges = self.learns_always or self.settled.exploit
            self.book.learn(hand_info, round_state, own, shown=reads_ranges)
            self.budget.end_hand(round_state, own, hand_info)


def _with_positional(by_position: tuple[Any, ...], options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with the positional arguments named (:data:`BY_POSITION`); None given by
    position leaves the option to its default."""
    if len(by_position) > len(BY_POSITION):
        raise TypeError(f"a player takes at most {len(BY_POSITION)} options by position")
    named = dict(options)
    for name, value in zip(BY_POSITION, by_position, strict=False):
        if name in named:
            raise TypeError(f"{name} given by position and by keyword")
        if value is not None:
            named[name] = value
    return named


def _safe_action(valid_actions: Sequence[Mapping[str, Any]]) -> Action:
    amounts = {entry["action"]: entry["amount"] for entry in valid_actions}
    call = amounts.get("call", 0)
    return ("call", int(call)) if call == 0 else ("fold", 0)


CFRPlayer.__signature__ = constructor_signature(PlayerConfig)


class CFRv1Player(CFRPlayer):
    """The study's CFRv1: the blueprint preflop and on the flop, 50-simulation thresholds."""

    default_simulations = CFRV1_SIMULATIONS


class CFRv2FixedPlayer(CFRPlayer):
    """CFRv2's fixed strategy, the same against every opponent: the blueprint on the streets
    it covers (preflop and the flop for the shipped ones), 10,000-simulation thresholds;
    heads-up at 75 big blinds or deeper, the flop, turn and river solved in real time once a
    raise left the blueprint's tree (``solve="auto"``; ``solve="off"`` plays the study's rules
    there), on trees of one bet size, the pot (``solve_size=1``; ``"two"`` adds half the pot).
    The product's :class:`agent.players.cfrv2.CFRv2Player` plays it in cash games, and
    adds the opponent model in tournaments."""

    default_simulations = CFRV2_SIMULATIONS
    default_solve = Solve.AUTO
    default_solve_size = 1.0
