"""CFRv1 and CFRv2's fixed strategy: the MCCFR blueprint preflop and on the flop, the study's
equity thresholds after, with defence by minimum defense frequency and real-time solving.

The players of the study (seed 004, "POKER AI: Using Monte-Carlo CFR with Monte-Carlo
Simulations"), rebuilt on this project's engine. Each decision takes the first rule that
applies:

* short-stacked preflop (15 big blinds or less), the push/fold equilibrium
  (``agent.players.short_stack``);
* with ``preflop_table``, the N-player preflop blueprint (``agent.players.preflop_table``);
* heads-up on a street ``solve`` covers, the street solved in real time over both ranges
  (``agent.players.subgame_solving``), as Libratus solved subgames once play left its
  blueprint's tree (Brown and Sandholm 2017, "Safe and nested subgame solving");
* preflop and on the flop, the blueprint's strategy at the information set the engine's
  history reads as (``agent.players.history``; off-tree bets by the pseudo-harmonic mapping
  of Ganzfried and Sandholm 2013), each abstract action priced on the real pot and stacks;
* elsewhere the threshold rule: heads-up facing a bet, defence by minimum defense frequency
  ``p / (p + b)`` (``agent.players.defense``), ranked within our own range on the turn and
  river (``agent.players.own_range``); with two or more opponents, the hand's share of the
  pot's equity against pot odds (``agent.boundary.equity_share``); otherwise the study's
  thresholds on the win rate (``agent.boundary.thresholds``).

The study acts on a win rate estimated from ``simulations`` deals, so its decision is random:
the number of won deals is Binomial(n, p). Where ``p`` is exact and cheap (heads-up on the
turn and river, preflop from the 169-class table) the player samples each threshold level from
that law, the same policy at a fraction of the cost, and the policy local best response reads
(``policy_table``); elsewhere it simulates the deals with its own generator.

The options and their meaning: :class:`CFRPlayer`; their types and checks:
:class:`agent.players.config.PlayerConfig`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from agent.abstraction.betting import CALL, FOLD, LegalAction, infoset_key, legal_actions
from agent.abstraction.pushfold_table import PushFoldTable, shipped_table
from agent.boundary.equity_share import share_level
from agent.boundary.policy import PolicyPlayer, WeightedAction, certain, normalized, sample_action
from agent.boundary.snapshot import Action, Snapshot, Street, check_or_fold, legal_call, legal_raise
from agent.boundary.threshold_law import binomial_tails, level_cutoffs
from agent.boundary.thresholds import (
    Level,
    level_action,
    threshold_level,
    win_rate,
)
from agent.players.adaptive.model import OpponentModel
from agent.players.adaptive.ranges import replay_range
from agent.players.blueprint_store import Blueprint, load_blueprint
from agent.players.config import (
    CFRV1_SIMULATIONS,
    CFRV2_SIMULATIONS,
    AnyConfig,
    Multiway,
    PlayerConfig,
    PreflopDefense,
    Rule,
    Settled,
    Sizing,
    Solve,
    constructor_signature,
    settle,
)
from agent.players.defense import (
    defends,
    hand_percentiles,
    holding_shares,
    minimum_defense_frequency,
    preflop_odds_frequency,
    raises_for_value,
    sorted_board,
    weighted_percentiles,
)
from agent.players.history import (
    Branch,
    Spot,
    abstract_histories,
    current_spot,
    last_raise_fractions,
    left_the_tree,
)
from agent.players.own_range import (
    OwnRange,
    action_likelihood,
    defended_levels,
    holding_win_rates,
    threshold_levels,
)
from agent.players.preflop_table import load_preflop_table, table_policy
from agent.players.short_stack import (
    PushFoldSpot,
    applies,
    hand_start_stacks,
    preflop_order,
    pushfold_policy,
    read_spot,
)
from agent.players.subgame_solving import (
    ITERATIONS,
    ONLY_OFF_TREE,
    SOLVED_STREETS,
    RealTimeSolver,
    StreetStart,
    solver_ranges,
    street_start,
)
from agent.poker.equity import equity, preflop_equity
from agent.poker.holding_equity import holding_equity
from agent.poker.multiway_equity import NoDeal, multiway_equity
from agent.poker.range_equity import HOLDING_CARDS, holding_index

LOG = logging.getLogger(__name__)
# raise sizes of the threshold rule's two raise levels (min raise, raise twice the minimum)
SIZINGS: dict[str, tuple[str, str] | None] = {Sizing.STUDY: None, Sizing.POT: ("half", "pot")}
SOLVES = tuple(SOLVED_STREETS)  # real-time subgame solving (agent.players.subgame_solving)
AUTO_SOLVE_DEPTH = 75  # big blinds: the shallowest effective stack "auto" solves at
SOLVE_ITERATIONS = ITERATIONS  # DCFR iterations of each real-time solve
# the gadget, iterations and shallowest depth (big blinds; 0: any) of a solve mode: off the
# tree the re-solving gadget and 30 iterations, which answer within the decision-time bounds;
# the other modes no gadget, SOLVE_ITERATIONS and any depth
MODE_DEFAULTS = {Solve.OFF_TREE: (True, 30, 0), Solve.AUTO: (True, 30, AUTO_SOLVE_DEPTH)}
ALL_HOLES = [(int(a), int(b)) for a, b in HOLDING_CARDS]
OVERSIZE_TOLERANCE = 0.05  # pot fractions a raise may exceed the largest abstract size by
OWN_RANGE_FROM = Street.TURN  # the first street whose defence ranks within our own range


class CFRPlayer(PolicyPlayer):
    """The blueprint preflop and on the flop heads-up, the threshold rule everywhere else.

    The options, each with its meaning and default, are the fields of the class's
    ``config_type`` (:class:`agent.players.config.PlayerConfig`), checked once; ``config``
    passes a whole configuration, and options given beside it take its place. ``rng`` /
    ``seed``: the injected randomness (``rng`` wins). ``simulations`` and ``solve`` default to
    the class's ``default_simulations`` and ``default_solve`` (CFRv1: 50 and ``"off"``; CFRv2:
    10,000 and ``"auto"``). ``settled`` holds the ``"auto"`` options as this game plays them
    (:func:`agent.players.config.settle`).
    """

    config_type: ClassVar[type[AnyConfig]] = PlayerConfig
    default_simulations: ClassVar[int] = CFRV2_SIMULATIONS
    default_solve: ClassVar[Solve] = Solve.OFF

    def __init__(
        self,
        blueprint: str | Path | Blueprint | None = None,
        simulations: int | None = None,
        *,
        config: AnyConfig | None = None,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__(rng=rng, seed=seed)
        if blueprint is not None:
            options["blueprint"] = blueprint
        if simulations is not None:
            options["simulations"] = simulations
        self.config: AnyConfig = self.configure(config, **options)
        self.settled: Settled = settle(self.config)  # a cash game until a game's start says
        strategy = self.strategy
        source = strategy.blueprint
        self.blueprint = source if isinstance(source, Blueprint) else load_blueprint(source)
        self.pushfold_table: PushFoldTable | None = shipped_table() if strategy.pushfold else None
        self.preflop_table = load_preflop_table(strategy.preflop_table)
        self._set_up_solving(strategy)
        self.own_range = OwnRange()  # heads-up: our range in this hand, by our own policy
        self.errors = 0  # decisions that fell back to a safe action after an internal error
        self._public: tuple[Any, list[Branch], Spot, bool] | None = None
        self._exact_flop = False  # set while policy_table runs
        self._ranks: tuple[np.ndarray, np.ndarray] | None = None  # _range_ranks'

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass that keeps this constructor shows its family's options as its signature
        (what ``help`` and the arena read); one with its own constructor shows that."""
        super().__init_subclass__(**kwargs)
        own = "__init__" in cls.__dict__
        cls.__signature__ = None if own else constructor_signature(cls.config_type)  # type: ignore[attr-defined]

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
        solve = cls.default_solve if strategy.solve is None else strategy.solve
        gadget, iterations, _ = MODE_DEFAULTS.get(solve, (False, SOLVE_ITERATIONS, 0))
        resolved = replace(
            strategy,
            simulations=cls.default_simulations
            if strategy.simulations is None
            else strategy.simulations,
            solve=solve,
            gadget=gadget if strategy.gadget is None else strategy.gadget,
            solve_iterations=iterations
            if strategy.solve_iterations is None
            else strategy.solve_iterations,
        )
        return resolved if isinstance(config, PlayerConfig) else replace(config, strategy=resolved)

    @property
    def strategy(self) -> PlayerConfig:
        """The fixed strategy's options."""
        return self.config.strategy

    def _set_up_solving(self, strategy: PlayerConfig) -> None:
        """The streets ``solve`` covers, from which depth, and its real-time solver."""
        solve = strategy.solve
        self.solved_streets = SOLVED_STREETS[solve]
        self.solve_only_off_tree = solve in ONLY_OFF_TREE
        self.solve_depth = MODE_DEFAULTS.get(solve, (False, SOLVE_ITERATIONS, 0))[2]
        self.street_solver = None
        if self.solved_streets:
            iterations, gadget = strategy.solve_iterations, strategy.gadget
            self.street_solver = RealTimeSolver(iterations=iterations, gadget=gadget)

    # -- the policy ------------------------------------------------------------------------

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        """The legal actions and their probabilities at ``snapshot``."""
        short = self.short_stack_spot(snapshot)
        if short is not None and self.pushfold_table is not None:
            return pushfold_policy(self.pushfold_table, short, snapshot)
        table = self.nplayer_preflop_policy(snapshot)
        if table is not None:
            return table
        solved = self.solved_policies(snapshot, [snapshot.hole])
        if solved is not None:
            return solved[0]
        branches, spot, oversize = self._public_part(snapshot)
        if branches and not oversize:
            return self.blueprint_policy(snapshot, branches, spot)
        return self.threshold_policy(snapshot)

    def policy_table(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]
    ) -> list[list[WeightedAction]]:
        """``[self.policy(snapshot with hole h) for h in holes]``, computed for all at once.

        The public part (readings, spot, concrete prices) is worked out once; holdings that
        share a card label (a hole class preflop, a class or an equity bucket on the flop)
        share one blueprint mix, and every key is looked up in a single call. This is what
        local best response asks for at every public state. On the flop the threshold rule's
        law is computed from the exact equity of every holding (one pass per board), where a
        single decision samples it by Monte Carlo as the study does: the same distribution of
        actions.
        """
        short = self.short_stack_spot(snapshot)
        if short is not None and self.pushfold_table is not None:
            table = self.pushfold_table
            return [pushfold_policy(table, short, replace(snapshot, hole=hole)) for hole in holes]
        solved = self.solved_policies(snapshot, holes)
        if solved is not None:
            return solved
        self._exact_flop = True  # the law of the flop's Monte Carlo decision, computed exactly
        try:
            return self._policy_table(snapshot, holes)
        finally:
            self._exact_flop = False

    def _policy_table(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]
    ) -> list[list[WeightedAction]]:
        branches, spot, oversize = self._public_part(snapshot)
        if not branches or oversize:
            return [self.threshold_policy(replace(snapshot, hole=hole)) for hole in holes]
        labels, mixes = self._label_mixes(snapshot, holes, branches, spot)
        table: list[list[WeightedAction]] = []
        for hole, label in zip(holes, labels, strict=True):
            mixed, fallback = mixes[label]
            table.append(self._with_fallback(dict(mixed), fallback, replace(snapshot, hole=hole)))
        return table

    def _label_mixes(
        self,
        snapshot: Snapshot,
        holes: Sequence[tuple[int, int]],
        branches: list[Branch],
        spot: Spot,
    ) -> tuple[list[str], dict[str, tuple[dict[Action, float], float]]]:
        """Each hole's card label, and each label's blueprint mix and fallback weight.

        A hole that holds a card of the flop cannot be dealt and has no bucket; it gets the
        label of the first hole that can (its row is any row: ranges give it no weight).
        """
        bp = self.blueprint
        round_index = int(snapshot.street)
        flop = snapshot.board[:3]
        flop_cards = set(flop)
        dealt = [not flop_cards.intersection(hole) for hole in holes]
        if not any(dealt):
            raise ValueError(f"every hole asked about holds a card of the flop {list(flop)!r}")
        stand_in = holes[dealt.index(True)]
        labels = [
            bp.cards.label(round_index, bp.cards.bucket(hole if ok else stand_in, flop))
            for hole, ok in zip(holes, dealt, strict=True)
        ]
        distinct = list(dict.fromkeys(labels))
        keys = [infoset_key(label, branch.history) for label in distinct for branch in branches]
        rows = bp.lookup_many(keys).reshape(len(distinct), len(branches))
        legal = [legal_actions(branch.state, bp.game, bp.actions) for branch in branches]
        concrete = [[self.concrete_action(a, snapshot, spot) for a in acts] for acts in legal]
        mixes = {
            label: self._mix(branches, legal, concrete, label_rows)
            for label, label_rows in zip(distinct, rows, strict=True)
        }
        return labels, mixes

    def _mix(
        self,
        branches: list[Branch],
        legal: list[list[LegalAction]],
        concrete: list[list[Action]],
        rows: np.ndarray,
    ) -> tuple[dict[Action, float], float]:
        """The blueprint's mix over the readings, and the weight of readings with no row."""
        mixed: dict[Action, float] = {}
        fallback = 0.0
        for branch, actions, prices, row in zip(branches, legal, concrete, rows, strict=True):
            strategy = self.blueprint.probabilities[row] if row >= 0 else None
            mass = sum(float(strategy[a.index]) for a in actions) if strategy is not None else 0.0
            if strategy is None or mass <= 0:
                fallback += branch.weight
                continue
            for action, price in zip(actions, prices, strict=True):
                probability = float(strategy[action.index]) / mass
                if probability > 0:
                    mixed[price] = mixed.get(price, 0.0) + branch.weight * probability
        return mixed, fallback

    def _with_fallback(
        self, mixed: dict[Action, float], fallback: float, snapshot: Snapshot
    ) -> list[WeightedAction]:
        """Add the threshold rule's actions for the readings the blueprint has no row for."""
        if fallback > 0:
            for name, amount, probability in self.threshold_policy(snapshot):
                mixed[(name, amount)] = mixed.get((name, amount), 0.0) + fallback * probability
        return normalized([(name, amount, p) for (name, amount), p in mixed.items()])

    def solved_policies(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]
    ) -> list[list[WeightedAction]] | None:
        """A heads-up decision on a street ``solve`` covers: each hole's strategy in the solved
        street (``agent.players.subgame_solving``); None where no solve applies."""
        solved = self._solved_street(snapshot)
        if solved is None:
            return None
        return self.street_solver.policies(snapshot, *solved, holes)

    def _solved_street(self, snapshot: Snapshot) -> tuple[StreetStart, Any] | None:
        """The street's start and its solution, where ``solve`` covers the decision."""
        if snapshot.street not in self.solved_streets:
            return None
        if self.solve_only_off_tree and not self.left_the_tree(snapshot):
            return None
        if self.solve_depth and effective_depth(snapshot) < self.solve_depth:
            return None
        start = street_start(snapshot)
        if start is None:
            return None

        def ranges() -> np.ndarray:
            before = snapshot.history[: start.before]
            own = self.own_range.weights(snapshot.board, start.before, self.action_likelihood)
            model = self.opponent_model(snapshot, start.seats[1])
            theirs = replay_range(before, snapshot.board, start.seats[1], model)
            return solver_ranges(own, theirs, snapshot.board)

        return start, self.street_solver.solution(start, snapshot.history, ranges)

    def left_the_tree(self, snapshot: Snapshot) -> bool:
        """Whether a raise before this street was none of the blueprint's sizes (within the
        tolerance of an over-size raise) or beyond its raise cap: with ``solve="off-tree"``
        the street is solved then, and played by the blueprint and the rules otherwise."""
        bp = self.blueprint
        return left_the_tree(snapshot, bp.game, bp.actions, OVERSIZE_TOLERANCE)

    def opponent_model(self, snapshot: Snapshot, seat: int) -> OpponentModel:
        """The model of the player at ``seat`` a solve reads its range with: the prior, a
        sound player's frequencies (the adaptive agent: what it has learned of that player)."""
        return OpponentModel()

    def short_stack_spot(self, snapshot: Snapshot) -> PushFoldSpot | None:
        """The push/fold spot of a short-stacked preflop decision, when the table covers it."""
        if self.pushfold_table is None or snapshot.street != Street.PREFLOP:
            return None
        spot = read_spot(snapshot)
        if spot is None or spot.players < self.strategy.pushfold_players:
            return None
        return spot if applies(self.pushfold_table, spot) else None

    def nplayer_preflop_policy(self, snapshot: Snapshot) -> list[WeightedAction] | None:
        """With ``preflop_table``, a preflop decision of 3 to 6 players deeper than push/fold:
        the N-player preflop blueprint's mix (None where it does not apply)."""
        if self.preflop_table is None:
            return None
        return table_policy(self.preflop_table, snapshot)

    def oversize_raise(self, snapshot: Snapshot) -> bool:
        """Rule ``mdf``: facing a raise above the abstraction's largest size (by a margin)."""
        if self.strategy.rule != Rule.MDF or snapshot.to_call == 0:
            return False
        fractions = last_raise_fractions(snapshot, self.blueprint.actions)
        return fractions is not None and fractions[0] > fractions[1] + OVERSIZE_TOLERANCE

    def blueprint_policy(
        self, snapshot: Snapshot, branches: list[Branch], spot: Spot
    ) -> list[WeightedAction]:
        """The blueprint's strategy mixed over the readings of the history, priced on ``spot``.

        Readings whose information set is missing (or has no mass on a legal action) get the
        threshold rule instead.
        """
        bp = self.blueprint
        round_index = int(snapshot.street)
        label = bp.cards.label(round_index, bp.cards.bucket(snapshot.hole, snapshot.board[:3]))
        rows = bp.lookup_many([infoset_key(label, branch.history) for branch in branches])
        legal = [legal_actions(branch.state, bp.game, bp.actions) for branch in branches]
        concrete = [[self.concrete_action(a, snapshot, spot) for a in acts] for acts in legal]
        mixed, fallback = self._mix(branches, legal, concrete, rows)
        return self._with_fallback(mixed, fallback, snapshot)

    def concrete_action(self, action: LegalAction, snapshot: Snapshot, spot: Spot) -> Action:
        """The engine action of an abstract one, priced on the real pot and stacks."""
        if action.index == FOLD:
            return check_or_fold(snapshot)  # never fold when checking is free
        if action.index == CALL:
            return legal_call(snapshot)
        size = self.blueprint.actions.raise_sizes[action.index - 2]
        if size == "min" and snapshot.min_raise is not None:
            return legal_raise(snapshot, snapshot.min_raise)
        if size == "allin" and snapshot.max_raise is not None:
            return legal_raise(snapshot, snapshot.max_raise)
        return legal_raise(snapshot, spot.raise_amount(size))

    def threshold_policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        """The study's threshold rule on a win rate against the opponents in the hand.

        Rule ``mdf``, heads-up, facing a bet: :meth:`defense_policy` instead.
        """
        opponents = max(1, snapshot.opponents)
        if opponents == 1 and self.strategy.rule == Rule.MDF and snapshot.to_call > 0:
            return self.defense_policy(snapshot)
        if opponents > 1 and self.settled.multiway != Multiway.STUDY:
            priced = self.priced_opponents(snapshot)
            rate = self.multiway_win_rate(snapshot, priced)
            level = share_level(
                rate, opponents=priced, to_call=snapshot.to_call, pot=snapshot.contested_pot
            )
            return certain(self.level_action(level, snapshot))
        exact = self.exact_win_rate(snapshot) if opponents == 1 else None
        if exact is None:
            return certain(self.level_action(self.sampled_level(snapshot), snapshot))
        return self.level_distribution(exact, snapshot)

    def sampled_level(self, snapshot: Snapshot) -> Level:
        """The study's level on a win rate estimated from ``simulations`` deals."""
        opponents = max(1, snapshot.opponents)
        rate = self.sampled_win_rate(snapshot)
        return threshold_level(rate, snapshot.street, opponents, self.strategy.thresholds)

    def priced_opponents(self, snapshot: Snapshot) -> int:
        """The opponents the share rule prices a hand against: everyone in the hand, but
        preflop with ``multiway="share"`` at most ``preflop_opponents``
        (:mod:`agent.boundary.equity_share`)."""
        if snapshot.street == Street.PREFLOP and self.settled.multiway == Multiway.SHARE:
            return min(snapshot.opponents, self.settled.preflop_opponents)
        return snapshot.opponents

    def multiway_win_rate(self, snapshot: Snapshot, opponents: int | None = None) -> float:
        """The win rate the multiway share rule acts on: against the opponents' ranges with
        ``multiway="ranges"`` (where their models leave each a holding), else ``opponents``
        random hands (by default, one for each opponent in the hand)."""
        ranged = (
            self.ranged_win_rate(snapshot) if self.settled.multiway == Multiway.RANGES else None
        )
        return self.sampled_win_rate(snapshot, opponents) if ranged is None else ranged

    def ranged_win_rate(self, snapshot: Snapshot) -> float | None:
        """The win rate against each opponent's range, read from its actions in the hand under
        ``opponent_model``, from ``simulations`` deals; None where a model leaves some
        opponent no holding."""
        ranges = [
            replay_range(
                snapshot.history, snapshot.board, seat, self.opponent_model(snapshot, seat)
            )
            for seat in snapshot.in_hand
            if seat != snapshot.seat
        ]
        try:
            estimate = multiway_equity(
                snapshot.hole, snapshot.board, ranges, self.strategy.simulations, self.rng
            )
        except NoDeal:
            return None
        return win_rate(estimate)

    def sampled_win_rate(self, snapshot: Snapshot, opponents: int | None = None) -> float:
        """The win rate against ``opponents`` random hands (by default, the opponents in the
        hand), from ``simulations`` deals."""
        count = snapshot.opponents if opponents is None else opponents
        estimate = equity(
            snapshot.hole,
            snapshot.board,
            opponents=min(max(1, count), 22),
            simulations=self.strategy.simulations,
            rng=self.rng,
        )
        return win_rate(estimate)

    def defense_policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        """Facing a bet: fold below the minimum defense frequency, else call; raise for value.

        The hand continues when it ranks in the top MDF share of the holdings the board
        leaves possible (``agent.players.defense``); in the top third of that share it takes the
        threshold rule's action, at least a call (so it raises where the study would).
        """
        percentile = self.defense_percentile(snapshot)
        frequency = self.defense_frequency(snapshot)
        if not defends(percentile, snapshot.to_call, snapshot.contested_pot, frequency):
            return certain(check_or_fold(snapshot))
        if not raises_for_value(
            percentile, snapshot.to_call, snapshot.contested_pot, frequency=frequency
        ):
            return certain(legal_call(snapshot))
        exact = self.exact_win_rate(snapshot)
        if exact is not None:
            return self.level_distribution(exact, snapshot, floor=Level.CALL)
        level = max(self.sampled_level(snapshot), Level.CALL)
        return certain(self.level_action(level, snapshot))

    def defense_frequency(self, snapshot: Snapshot) -> float:
        """The share of our range that continues facing a bet: the minimum defense frequency;
        preflop with ``preflop_defense="odds"``, at least the holdings whose pot share
        covers the price of the call (``agent.players.defense.preflop_odds_frequency``)."""
        mdf = minimum_defense_frequency(snapshot.to_call, snapshot.contested_pot)
        if self.settled.preflop_defense != PreflopDefense.ODDS or snapshot.street != Street.PREFLOP:
            return mdf
        return max(mdf, preflop_odds_frequency(snapshot.to_call, snapshot.contested_pot))

    def defense_percentile(self, snapshot: Snapshot) -> float:
        """On the turn and river, the hand's strength rank within our own range as our
        actions so far reveal it (``agent.players.own_range``); among all holdings before
        the turn, or when we have not acted yet."""
        weights = self._own_range_weights(snapshot)
        if weights is None:
            return float(hand_percentiles(snapshot.board)[snapshot.hole[0], snapshot.hole[1]])
        ranks = self._range_ranks(sorted_board(snapshot.board), len(snapshot.history))
        return float(ranks[holding_index(*snapshot.hole)])

    def _own_range_weights(self, snapshot: Snapshot) -> np.ndarray | None:
        """Our range's weights where the defence ranks within it (turn and river), else None.

        Preflop and on the flop, off-tree bets are mostly large re-raises against a narrow
        range of ours; ranking within it folds hands far ahead of a loose bot's raising range
        (most of all, folding to 4-bets), so those streets keep the ranking among all
        holdings.
        """
        if snapshot.street < OWN_RANGE_FROM or not self.strategy.own_range:
            return None  # (the range is recorded for river solving even with own_range=False)
        return self.own_range.weights(snapshot.board, len(snapshot.history), self.action_likelihood)

    def _range_ranks(self, board: tuple[int, ...], history_length: int) -> np.ndarray:
        """Every holding's rank within our range on ``board``, kept while the range is: the
        range's own array (``OwnRange.weights`` answers with the same one until we act again
        or a hand starts), not the board and history length, which a duplicate match's mirror
        hand repeats with other actions of ours."""
        weights = self.own_range.weights(board, history_length, self.action_likelihood)
        if self._ranks is None or self._ranks[0] is not weights:  # an array per board, too
            self._ranks = (weights, weighted_percentiles(holding_shares(board), weights))
        return self._ranks[1]

    def remember_own_action(self, snapshot: Snapshot, action: Action) -> None:
        """Heads-up, rule ``mdf`` or real-time solving: remember our action, for the range it
        reveals."""
        tracked = (
            self.strategy.own_range and self.strategy.rule == Rule.MDF
        ) or self.street_solver is not None
        if tracked and len(preflop_order(snapshot)) == 2:
            self.own_range.record(len(snapshot.history), snapshot, action)

    def action_likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        """``P(action | holding)`` at ``snapshot`` for each of the 1,326 holdings.

        Where the blueprint or the push/fold table decides: :meth:`policy_table`; where a
        solved street does, its solution (``agent.players.subgame_solving``). Where the
        threshold rule does: the level of each holding's exact win rate, in one vectorised
        pass. That is the mode of the rule's n-simulation law (at 10,000 simulations the
        estimate is within 0.01 of the rate 95% of the time), a model of our range far
        cheaper than the law holding by holding.
        """
        branches, spot, oversize = self._public_part(snapshot)
        if self.short_stack_spot(snapshot) is not None:
            return action_likelihood(action, self.policy_table(snapshot, ALL_HOLES))
        solved = self._solved_street(snapshot)
        if solved is not None:
            likelihood = self.street_solver.likelihood(snapshot, *solved, action)
            if likelihood is not None:
                return likelihood
        if not branches or oversize:
            return self._threshold_likelihood(snapshot, action)
        labels, mixes = self._label_mixes(snapshot, ALL_HOLES, branches, spot)
        by_label = {
            label: (mixed.get(action, 0.0), fallback, sum(mixed.values()) + fallback)
            for label, (mixed, fallback) in mixes.items()
        }
        blueprint, fallback, total = np.array([by_label[label] for label in labels]).T
        if fallback.any():
            blueprint = blueprint + fallback * self._threshold_likelihood(snapshot, action)
        return blueprint / total

    def _threshold_likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        """The threshold rule's likelihood of ``action``, vectorised (see above)."""
        levels = threshold_levels(
            holding_win_rates(snapshot.board), snapshot.street, self.strategy.thresholds
        )
        if snapshot.to_call > 0 and self.strategy.rule == Rule.MDF:
            ranks = self._defense_ranks(snapshot)
            levels = defended_levels(levels, ranks, self.defense_frequency(snapshot))
        matches = np.array([self.level_action(level, snapshot) == action for level in Level])
        return matches[levels].astype(np.float64)

    def _defense_ranks(self, snapshot: Snapshot) -> np.ndarray:
        """Every holding's :meth:`defense_percentile` at ``snapshot``, as a vector."""
        if self._own_range_weights(snapshot) is None:
            table = hand_percentiles(snapshot.board)
            return table[HOLDING_CARDS[:, 0], HOLDING_CARDS[:, 1]]
        return self._range_ranks(sorted_board(snapshot.board), len(snapshot.history))

    def level_action(self, level: Level, snapshot: Snapshot) -> Action:
        """The legal engine action of a threshold level, with this player's raise sizes."""
        sizes = SIZINGS[self.strategy.sizing]
        if sizes is None or level < Level.MIN_RAISE:
            return level_action(level, snapshot)
        size = sizes[0] if level == Level.MIN_RAISE else sizes[1]
        return legal_raise(snapshot, current_spot(snapshot).raise_amount(size))

    def exact_win_rate(self, snapshot: Snapshot) -> float | None:
        """The heads-up win rate (win or tie) where it is exact and cheap, else None.

        Turn and river: one all-holdings pass per board; preflop: the 169-class table; the
        flop only inside :meth:`policy_table` (the exact pass, once per flop, is worth its
        cost for all holdings but not for one decision, which simulates instead).
        """
        if snapshot.street >= Street.TURN or (snapshot.street == Street.FLOP and self._exact_flop):
            board = holding_equity(snapshot.board)
            return float(board.win_rate[snapshot.hole[0], snapshot.hole[1]])
        if snapshot.street == Street.PREFLOP:
            return win_rate(preflop_equity(snapshot.hole))
        return None

    def level_distribution(
        self, rate: float, snapshot: Snapshot, floor: Level = Level.PASS
    ) -> list[WeightedAction]:
        """The actions of the threshold levels, weighted by the law of an n-simulation estimate.

        Levels below ``floor`` are played as ``floor``.
        """
        cutoffs = level_cutoffs(
            self.strategy.simulations, snapshot.street, 1, self.strategy.thresholds
        )
        tails = [*binomial_tails(self.strategy.simulations, rate, cutoffs), 0.0]  # P(level >= l)
        mixed: dict[Action, float] = {}
        for level in Level:
            below = 1.0 if level == Level.PASS else tails[level - 1]
            probability = below - tails[level]
            if probability > 1e-12:
                action = self.level_action(max(level, floor), snapshot)
                mixed[action] = mixed.get(action, 0.0) + probability
        return normalized([(name, amount, p) for (name, amount), p in mixed.items()])

    def _public_part(self, snapshot: Snapshot) -> tuple[list[Branch], Spot, bool]:
        """Readings, real spot and over-size flag, cached for repeated calls in one public state."""
        if snapshot.street > Street.FLOP:
            return [], current_spot(snapshot), False
        public = (
            snapshot.street,
            snapshot.board,
            snapshot.seat,
            snapshot.pot,
            snapshot.stacks,
            snapshot.call_amount,
            snapshot.min_raise,
            snapshot.max_raise,
            snapshot.history,
            snapshot.in_hand,
        )
        if self._public is None or self._public[0] != public:
            bp = self.blueprint
            branches = abstract_histories(snapshot, bp.game, bp.actions)
            oversize = bool(branches) and self.oversize_raise(snapshot)
            self._public = (public, branches, current_spot(snapshot), oversize)
        return self._public[1], self._public[2], self._public[3]

    # -- the engine's entry point ----------------------------------------------------------

    def receive_game_start_message(self, game_info: Mapping[str, Any]) -> None:
        """Settle the ``"auto"`` options for this game: whether it carries the stacks over
        (a tournament) decides them (:func:`agent.players.config.settle`)."""
        super().receive_game_start_message(game_info)
        self.settled = settle(self.config, game_info)

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
            self.remember_own_action(snapshot, action)
            return action
        except Exception:  # the engine must always get a legal action from us
            self.errors += 1
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
        self.remember_own_action(snapshot, (str(action[0]), int(action[1])))

    def receive_round_start_message(
        self, round_count: int, hole_card: Sequence[str], seats: Sequence[Any]
    ) -> None:
        """A new hand: forget our range in the last one."""
        self.own_range.reset()


def _safe_action(valid_actions: Sequence[Mapping[str, Any]]) -> Action:
    amounts = {entry["action"]: entry["amount"] for entry in valid_actions}
    call = amounts.get("call", 0)
    return ("call", int(call)) if call == 0 else ("fold", 0)


CFRPlayer.__signature__ = constructor_signature(PlayerConfig)  # type: ignore[attr-defined]


class CFRv1Player(CFRPlayer):
    """The study's CFRv1: the blueprint preflop and on the flop, 50-simulation thresholds."""

    default_simulations = CFRV1_SIMULATIONS


class CFRv2FixedPlayer(CFRPlayer):
    """CFRv2's fixed strategy, the same against every opponent: the blueprint preflop and on
    the flop, 10,000-simulation thresholds; heads-up at 75 big blinds or deeper, the flop,
    turn and river solved in real time once a raise left the blueprint's tree
    (``solve="auto"``; ``solve="off"`` plays the study's rules there). The product's
    :class:`agent.players.cfrv2.CFRv2Player` plays it in cash games, and adds the opponent
    model in tournaments."""

    default_simulations = CFRV2_SIMULATIONS
    default_solve = Solve.AUTO


def effective_depth(snapshot: Snapshot) -> float:
    """The smallest stack dealt in at the hand's start, in big blinds (public: a copy of the
    player reading the same hand agrees)."""
    return min(hand_start_stacks(snapshot).values()) / snapshot.big_blind
