"""On every street its blueprint covers, the MCCFR blueprint's strategy at the information set
the engine's history reads as.

A blueprint trained to the flop (the shipped ones) covers preflop and the flop; one trained
to the river (``blueprint train --streets 4``) covers every street, its turn and river buckets
computed from the board as the trainer computes them (``agent.abstraction.equity_buckets``).

The engine's history is read as one or more abstract histories (``agent.players.history``;
off-tree bets by the pseudo-harmonic mapping of Ganzfried and Sandholm 2013), each weighted;
the blueprint's strategy is mixed over them and each abstract action priced on the real pot
and stacks. Readings with no row in the blueprint (or no mass on a legal action) take the
rules after this one in the strategy (``fallback``). With rule ``mdf``, a raise above the
abstraction's largest size (by :data:`OVERSIZE_TOLERANCE` of the pot) is left to those rules
too. ``where`` narrows the spots the rule applies to (the small blind's own blueprint:
:mod:`.small_blind`). Its option, :class:`BlueprintOptions`: which blueprint; the rule reads
``rule`` of the defence rule's options (:class:`.defence.DefenceOptions`), which answers the
raises left to it, and their ``defend``, which caps the share of our range it folds to a bet
(:mod:`.blueprint_defence`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agent.abstraction.betting import CALL, FOLD, LegalAction, infoset_key, legal_actions
from agent.boundary.policy import WeightedAction, normalized
from agent.boundary.snapshot import (
    Action,
    Snapshot,
    check_or_fold,
    legal_call,
    legal_raise,
)
from agent.players.blueprint_store import Blueprint
from agent.players.history import (
    Branch,
    Spot,
    abstract_histories,
    current_spot,
    last_raise_fractions,
)
from agent.players.options import Options, blueprint_option
from agent.players.rules.blueprint_defence import DEFENDED_STREETS, Defend, called_folds
from agent.players.rules.defence import (
    Rule,
    holding_shares,
    minimum_defense_frequency,
    sorted_board,
)
from agent.players.rules.pushfold import ALL_HOLES
from agent.players.rules.rule import NO_RULE, Context, DecisionRule, Table
from agent.players.rules.street_solving import OVERSIZE_TOLERANCE
from agent.poker.range_equity import blocked_mask, holding_index

KEPT_BOARDS = 8  # boards whose labels of all holdings are kept
FEW_HOLES = 64  # more holes than this are labelled from the labels of all holdings
Mix = tuple[dict[Action, float], float]  # a mix over engine actions, and its fallback weight


@dataclass(frozen=True)
class BlueprintOptions(Options):
    """The blueprint rule's option, with its help beside it."""

    blueprint: str | Path | Blueprint | None = blueprint_option(
        "the strategy table: a path to a strategy CSV, study (the shipped min-raise one, the "
        "default), sizes (the shipped pot-relative one, preflop and flop) or streets (the "
        "shipped four-street pot-relative one)",
    )


def everywhere(snapshot: Snapshot) -> bool:
    """Every spot: the shipped blueprint's rule narrows nothing."""
    return True


def never(snapshot: Snapshot) -> bool:
    """No spot: a second blueprint's rule whose option is None never applies."""
    return False


class BlueprintRule:
    """The blueprint's mix over the readings of the history, priced on the real spot."""

    def __init__(
        self,
        context: Context,
        blueprint: Blueprint | None = None,
        name: str = "blueprint",
        where: Callable[[Snapshot], bool] = everywhere,
    ) -> None:
        self.context = context
        self.name = name
        self.where = where
        self.fallback: DecisionRule = NO_RULE  # the rules after this one (the strategy's)
        self.blueprint = context.blueprint if blueprint is None else blueprint
        self._public: tuple[Any, list[Branch], Spot, bool] | None = None
        self._called: tuple[Any, np.ndarray] | None = None  # called_shares', by public state
        self._all_labels: dict[tuple[int, tuple[int, ...]], list[str]] = {}  # _labels'
        self._all_mixes: tuple[Any, list[str], dict[str, Mix]] | None = None  # _label_mixes'
        self._detail = ""

    def applies(self, snapshot: Snapshot) -> bool:
        """On a street the blueprint's game covers (``game.rounds``; where ``where`` holds),
        where the history reads onto the blueprint's tree and no raise is above its largest
        size (rule ``mdf``)."""
        if not self.covers(snapshot) or not self.where(snapshot):
            return False
        branches, _, oversize = self.readings(snapshot)
        return bool(branches) and not oversize

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        branches, spot, _ = self.readings(snapshot)
        bp = self.blueprint
        label = bp.cards.label(int(snapshot.street), bp.cards.bucket(snapshot.hole, snapshot.board))
        keys = [infoset_key(label, branch.history) for branch in branches]
        rows = bp.lookup_many(keys)
        legal = [legal_actions(branch.state, bp.game, bp.actions) for branch in branches]
        concrete = [[self.concrete_action(a, snapshot, spot) for a in acts] for acts in legal]
        mixed, fallback = self._mix(branches, legal, concrete, rows)
        called = self.called_share(snapshot, snapshot.hole)
        policy = self._with_fallback(self._defended(mixed, called, snapshot), fallback, snapshot)
        self._detail = self._describe(branches, keys, rows, fallback)
        if called > 0:
            self._detail += f"; {called:.0%} of its fold called (defend mdf)"
        return policy

    def detail(self) -> str:
        """The rows read (the infoset key of each reading of the history, and its weight),
        and the share the rules after this one played, where a reading has no row."""
        return self._detail

    def _describe(
        self, branches: list[Branch], keys: list[str], rows: np.ndarray, fallback: float
    ) -> str:
        read = [
            f"{key} ({branch.weight:.0%})" if len(branches) > 1 else key
            for branch, key, row in zip(branches, keys, rows, strict=True)
            if row >= 0
        ]
        text = "row " + ", ".join(read) if read else f"no row for {keys[0]}"
        played_by = self.fallback.detail()  # the rule list's: the rule that played it
        if fallback > 0 and played_by:
            text += f"; {fallback:.0%} by {played_by}"
        return text

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        """Holdings that share a card label (a hole class preflop, a class or an equity bucket
        on the flop) share one mix, and every key is looked up in a single call."""
        branches, spot, _ = self.readings(snapshot)
        labels, mixes = self._label_mixes(snapshot, holes, branches, spot)
        rows: Table = []
        by_label: dict[str, list[WeightedAction]] = {}  # a label's policy, where no hole counts
        for hole, label in zip(holes, labels, strict=True):
            mixed, fallback = mixes[label]
            called = self.called_share(snapshot, hole)
            if fallback <= 0 and called <= 0:
                if label not in by_label:
                    by_label[label] = self._with_fallback(dict(mixed), fallback, snapshot)
                rows.append(list(by_label[label]))
                continue
            mixed = self._defended(mixed, called, snapshot)
            rows.append(self._with_fallback(mixed, fallback, snapshot.with_hole(hole)))
        return rows

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        branches, spot, _ = self.readings(snapshot)
        labels, mixes = self._label_mixes(snapshot, ALL_HOLES, branches, spot)
        by_label = {
            label: (mixed.get(action, 0.0), fallback, sum(mixed.values()) + fallback)
            for label, (mixed, fallback) in mixes.items()
        }
        blueprint, fallback, total = np.array([by_label[label] for label in labels]).T
        called, fold = self.called_shares(snapshot), check_or_fold(snapshot)
        if called is not None and action in (fold, legal_call(snapshot)):
            folds = np.array([mixes[label][0].get(fold, 0.0) for label in labels])
            blueprint = blueprint + (-1.0 if action == fold else 1.0) * called * folds
        if fallback.any():
            blueprint = blueprint + fallback * self.fallback.likelihood(snapshot, action)
        return blueprint / total

    def defends(self, snapshot: Snapshot) -> bool:
        """Option ``defend="mdf"``, heads-up, facing a bet preflop or on the flop."""
        return (
            self.context.options.defence.defend == Defend.MDF
            and snapshot.to_call > 0
            and snapshot.street in DEFENDED_STREETS
            and max(1, snapshot.opponents) == 1
        )

    def called_share(self, snapshot: Snapshot, hole: tuple[int, int]) -> float:
        """The share of ``hole``'s fold that calls instead (0 where the rule does not defend)."""
        called = self.called_shares(snapshot)
        if called is None or set(hole).intersection(snapshot.board):
            return 0.0
        return float(called[holding_index(*hole)])

    def called_shares(self, snapshot: Snapshot) -> np.ndarray | None:
        """Each of the 1,326 holdings' share of its fold that calls instead, so that our range
        folds at most ``1 - MDF`` of itself (:func:`.blueprint_defence.called_folds`); None
        where the rule does not defend. Kept for repeated calls in one public state."""
        if not self.defends(snapshot):
            return None
        public = self._public_key(snapshot)
        if self._called is not None and self._called[0] == public:
            return self._called[1]
        branches, spot, _ = self.readings(snapshot)
        labels, mixes = self._label_mixes(snapshot, ALL_HOLES, branches, spot)
        fold = check_or_fold(snapshot)
        share = {
            label: mixed.get(fold, 0.0) / (sum(mixed.values()) + fallback)
            for label, (mixed, fallback) in mixes.items()
        }
        folds = np.array([share[label] for label in labels])
        board = sorted_board(snapshot.board)
        weights = self.context.own_weights(snapshot.board, len(snapshot.history))
        if weights is None:  # before our first action: every holding the board leaves
            weights = (~blocked_mask(list(board))).astype(np.float64)
        ceiling = 1.0 - minimum_defense_frequency(snapshot.to_call, snapshot.contested_pot)
        called = called_folds(folds, weights, holding_shares(board), ceiling)
        self._called = (public, called)
        return called

    def _defended(
        self, mixed: dict[Action, float], called: float, snapshot: Snapshot
    ) -> dict[Action, float]:
        """``mixed`` with ``called`` of its fold moved to the call."""
        mixed = dict(mixed)
        if called <= 0:
            return mixed
        fold, call = check_or_fold(snapshot), legal_call(snapshot)
        moved = called * mixed.get(fold, 0.0)
        mixed[fold] -= moved
        mixed[call] = mixed.get(call, 0.0) + moved
        return mixed

    def covers(self, snapshot: Snapshot) -> bool:
        """Whether the blueprint's game plays the snapshot's street (preflop and the flop for a
        two-round blueprint, every street for a four-round one)."""
        return snapshot.street < self.blueprint.game.rounds

    def readings(self, snapshot: Snapshot) -> tuple[list[Branch], Spot, bool]:
        """The history's readings, the real spot, and whether a raise is over the largest
        size; kept for repeated calls in one public state (none on a street the blueprint
        does not cover)."""
        if not self.covers(snapshot):
            return [], current_spot(snapshot), False
        public = self._public_key(snapshot)
        if self._public is None or self._public[0] != public:
            bp = self.blueprint
            snapped = self.context.snapped_open(snapshot, bp.actions)
            branches = abstract_histories(snapshot, bp.game, bp.actions, snapped=snapped)
            oversize = bool(branches) and self.oversize_raise(snapshot)
            self._public = (public, branches, current_spot(snapshot), oversize)
        return self._public[1], self._public[2], self._public[3]

    @staticmethod
    def _public_key(snapshot: Snapshot) -> tuple[Any, ...]:
        """What the rule's readings, and so its mixes, depend on: the public state."""
        return (
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

    def oversize_raise(self, snapshot: Snapshot) -> bool:
        """Rule ``mdf``: facing a raise above the abstraction's largest size (by a margin)."""
        if self.context.options.defence.rule != Rule.MDF or snapshot.to_call == 0:
            return False
        fractions = last_raise_fractions(snapshot, self.blueprint.actions)
        return fractions is not None and fractions[0] > fractions[1] + OVERSIZE_TOLERANCE

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

    def _label_mixes(
        self,
        snapshot: Snapshot,
        holes: Sequence[tuple[int, int]],
        branches: list[Branch],
        spot: Spot,
    ) -> tuple[list[str], dict[str, Mix]]:
        """Each hole's card label, and each label's mix and fallback weight.

        A hole that holds a card of the board cannot be dealt and has no bucket; it gets the
        label of the first hole that can (its row is any row: ranges give it no weight).
        Those of all 1,326 holdings are kept for the last public state: the defence, our
        range and local best response's table each read them there.
        """
        public = self._public_key(snapshot) if holes is ALL_HOLES else None
        if public is not None and self._all_mixes is not None and self._all_mixes[0] == public:
            return self._all_mixes[1], self._all_mixes[2]
        labels, mixes = self._hole_mixes(snapshot, holes, branches, spot)
        if public is not None:
            self._all_mixes = (public, labels, mixes)
        return labels, mixes

    def _hole_mixes(
        self,
        snapshot: Snapshot,
        holes: Sequence[tuple[int, int]],
        branches: list[Branch],
        spot: Spot,
    ) -> tuple[list[str], dict[str, Mix]]:
        bp = self.blueprint
        labels = self._labels(snapshot, holes)
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

    def _labels(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> list[str]:
        """Each hole's card label on the snapshot's board (a stand-in's where it holds a board
        card); on the turn and river every holding's bucket comes from one table a board.
        The labels of all 1,326 holdings are kept for the last few boards: our range and the
        defence read them at every decision of a hand, and many dealt holes (local best
        response's) are labelled from them."""
        key = (int(snapshot.street), snapshot.board)
        if holes is not ALL_HOLES:
            dealt = not set(snapshot.board).intersection(card for hole in holes for card in hole)
            if not dealt or (len(holes) <= FEW_HOLES and key not in self._all_labels):
                return self._hole_labels(snapshot, holes)  # a hole not dealt: its stand-in
            every = self._labels(snapshot, ALL_HOLES)  # a dealt hole's label is its own
            return [every[holding_index(*hole)] for hole in holes]
        if key not in self._all_labels:
            if len(self._all_labels) >= KEPT_BOARDS:
                self._all_labels.clear()
            self._all_labels[key] = self._hole_labels(snapshot, holes)
        return self._all_labels[key]

    def _hole_labels(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> list[str]:
        cards = self.blueprint.cards
        round_index = int(snapshot.street)
        board = snapshot.board
        on_board = set(board)
        dealt = [not on_board.intersection(hole) for hole in holes]
        if not any(dealt):
            raise ValueError(f"every hole asked about holds a card of the board {list(board)!r}")
        stand_in = holes[dealt.index(True)]
        chosen = [hole if ok else stand_in for hole, ok in zip(holes, dealt, strict=True)]
        if round_index < 2:
            return [cards.label(round_index, cards.bucket(hole, board)) for hole in chosen]
        table = cards.board_buckets(board)
        names = [cards.label(round_index, b) for b in range(cards.num_buckets[round_index])]
        return [names[table[first, second]] for first, second in chosen]

    def _mix(
        self,
        branches: list[Branch],
        legal: list[list[LegalAction]],
        concrete: list[list[Action]],
        rows: np.ndarray,
    ) -> Mix:
        """The blueprint's mix over the readings, and the weight of readings with no row."""
        probabilities = self.blueprint.probabilities
        mixed: dict[Action, float] = {}
        fallback = 0.0
        for branch, actions, prices, row in zip(branches, legal, concrete, rows, strict=True):
            strategy = probabilities[row] if row >= 0 else None
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
        """Add the fallback rules' actions for the readings the blueprint has no row for."""
        if fallback > 0:
            rest = self.fallback.policy(snapshot)
            for name, amount, probability in rest:
                mixed[(name, amount)] = mixed.get((name, amount), 0.0) + fallback * probability
        return normalized([(name, amount, p) for (name, amount), p in mixed.items()])


def second_blueprint_rule(
    context: Context, blueprint: Blueprint | None, name: str, where: Callable[[Snapshot], bool]
) -> BlueprintRule:
    """The rule of a blueprint an option adds beside the strategy's own (the small blind's,
    the postflop one): ``blueprint`` where ``where`` holds, never where the option is None."""
    if blueprint is None:
        return BlueprintRule(context, name=name, where=never)
    return BlueprintRule(context, blueprint, name=name, where=where)
