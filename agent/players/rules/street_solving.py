"""Heads-up on a street ``solve`` covers: the street solved in real time over both ranges.

The solve is Libratus's answer once play left its blueprint's tree (Brown and Sandholm 2017,
"Safe and nested subgame solving"). Our range is read from our own policy in the hand (the
context's own range); the opponent's from its actions under the model the context gives for its
seat (the prior, or what the book learned).

``solve`` names the streets (``"river"``, ``"turn"``, ``"flop"``); ``"off-tree"`` and
``"auto"`` solve the flop, turn and river only once a raise of the hand left the blueprint's
tree, and ``"auto"`` only at :data:`AUTO_SOLVE_DEPTH` big blinds or deeper.

At a heads-up decision on a solved street the player solves the whole street, from its first
action, over all 1,326 holdings with both ranges, and plays its hand's row at the node the
street's actions reached, through the solver's one entry point (:mod:`blueprint.realtime`).
The river is solved to its showdowns; the turn and the flop to the next card, each line that
reaches it valued by checking the board down (depth-limited solving, Brown, Sandholm & Amos
2018).
This is the end-game solving of Libratus (Brown & Sandholm 2017, "Safe and nested subgame
solving for imperfect-information games") and the re-solving of DeepStack (Moravčík et al.
2017) in their simplest form: the subgame is the street, and its root ranges come from the
hand's earlier streets.

* **Our range**: Bayes over our own policy (``agent.players.own_range``).
* **The opponent's range**: Bayes over its public actions under an opponent model
  (``agent.players.adaptive``). With ``gadget=True`` the model is left out: the re-solving
  gadget of Burch, Johanson & Bowling (2014) lets each opponent hand leave at the street's
  start with its check-down value.
* Both ranges keep a share ``RANGE_FLOOR`` on every holding the board leaves, so no hand is
  outside the solve.
* **Bets**: the pot (``solve_size=1``, CFRv2's), half the pot and the pot (``POT_FRACTIONS``,
  ``solve_size="two"``, the others') or another size given, and all-in, at most
  ``MAX_RAISES`` bets and raises, plus every size already bet on the street (Brown & Sandholm
  2017); a longer raise war is left to the rules.
* **A bet of a new size** after a solve, with the gadget on, is met by safe nested re-solving
  of the subgame below it.

A solution is kept by (board, earlier history, the street's actions before its root, sizes)
and serves every later decision of the street whose line its tree holds. Its options,
:class:`SolveOptions`: the streets, the gadget, the iterations and the bet size.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Literal

import numpy as np

from agent.abstraction.betting import replay
from agent.boundary.policy import WeightedAction, normalized
from agent.boundary.snapshot import (
    Action,
    ActionRecord,
    Snapshot,
    Street,
    legal_call,
    legal_raise,
    street_paid,
)
from agent.players.history import abstract_histories, hand_start_stacks, left_the_tree
from agent.players.opponents.ranges import replay_range
from agent.players.options import (
    AUTO,
    Options,
    is_optional_bool,
    is_optional_positive_int,
    is_optional_positive_number,
    option,
    resolved,
)
from agent.players.rules.rule import NO_RULE, Context, DecisionRule, Table
from agent.poker.range_equity import HOLDINGS, blocked_mask, holding_index
from blueprint import realtime

POT_FRACTIONS = (0.5, 1.0)  # the bet sizes of the street's tree, as fractions of the pot
TWO_SIZES: Literal["two"] = "two"  # solve_size's value for POT_FRACTIONS
MAX_RAISES = 2  # bets and raises on the street's tree: a longer raise war is left to the rules
ITERATIONS = 100  # DCFR iterations per solve
# solves that start only once a raise of the hand has left the blueprint's tree: on-tree lines
# keep the blueprint and the rules (the solving of Libratus, Brown & Sandholm 2017)
ONLY_OFF_TREE = ("off-tree", "auto")
RANGE_FLOOR = 0.01  # the share of each range spread over every holding the board leaves
FRACTION_DIGITS = 2  # real bet sizes are added to the tree rounded to this many digits
CACHED_SOLUTIONS = 8
SHARED_SOLUTIONS = 8  # solved subgames kept for all the players of a process, by their inputs
FOLD_ACTION, CHECK_ACTION, CALL_ACTION = 0, 1, 2
OPPONENT = 1  # the solve's players: 0 is us (our range first), 1 the opponent
_shared_solutions: dict[tuple, Any] = {}  # shared_solution's, oldest first

# the heads-up streets solved in real time, by name
SOLVED_STREETS = {
    "off": (),
    "river": (Street.RIVER,),
    "turn": (Street.TURN, Street.RIVER),
    "flop": (Street.FLOP, Street.TURN, Street.RIVER),
    "off-tree": (Street.FLOP, Street.TURN, Street.RIVER),
    "auto": (Street.FLOP, Street.TURN, Street.RIVER),  # off-tree, deep stacks only
    "reraised": (Street.FLOP, Street.TURN, Street.RIVER),  # re-raised preflop, deep only
    "called": (Street.FLOP, Street.TURN, Street.RIVER),  # a raise called preflop, deep only
}


class Solve(StrEnum):
    """The heads-up streets solved in real time, by name: the keys of
    :data:`SOLVED_STREETS`."""

    OFF = "off"
    RIVER = "river"
    TURN = "turn"
    FLOP = "flop"
    OFF_TREE = "off-tree"
    RERAISED = "reraised"
    CALLED = "called"
    AUTO = AUTO


# the preflop raises a pot needs, the last of them the opponent's, for a mode that solves only
# the pots where we called one: an open and a re-raise, or any raise
CALLED_RAISES = {Solve.RERAISED: 2, Solve.CALLED: 1}


class Leaves(StrEnum):
    """How a flop or turn solve values the lines that reach the next card: the board checked
    down, or a four-street blueprint's play of the rest of the hand with the opponent choosing
    among its continuations (Modicum: ``blueprint.subgame.continuation`` on the turn,
    ``blueprint.subgame.flop_leaves`` on the flop). ``blueprint``: on the flop and the turn;
    ``turn``: on the turn, the flop checked down; ``auto``: ``blueprint`` where the strategy's
    blueprint covers the river, else the check-down."""

    AUTO = AUTO
    CHECK_DOWN = "check-down"
    TURN = "turn"
    BLUEPRINT = "blueprint"

    def settled(self, four_streets: bool) -> Leaves:
        """``auto`` settled by whether the strategy's blueprint covers the river."""
        if self is not Leaves.AUTO:
            return self
        return Leaves.BLUEPRINT if four_streets else Leaves.CHECK_DOWN

    def plays(self, street: Street) -> bool:
        """Whether a solve of ``street`` takes the blueprint's continuations at its leaves."""
        if street == Street.TURN:
            return self in (Leaves.TURN, Leaves.BLUEPRINT)
        return street == Street.FLOP and self == Leaves.BLUEPRINT


class SolveRange(StrEnum):
    """Which of our hands a flop or turn solve with check-down leaves covers: every holding
    (our range with ``RANGE_FLOOR`` spread over all of them), or our likely hands only, the
    fewest that carry 98% of our range (``blueprint.subgame.depth_limited.LIKELY_SHARE``),
    a sparse own range whose leaf products
    cost a fraction of the dense ones. With ``likely`` a hand outside them is answered by the
    rules after the solve; with ``split`` by the solve over every holding (``full``'s),
    made only when such a hand is to play; with ``floor`` by the same solve, where those hands
    keep their weight and their rows of the leaf matrix are read through its factors of rank
    ``solve_rank`` (``blueprint.realtime.FLOOR_RANK`` by default)."""

    FULL = "full"
    LIKELY = "likely"
    SPLIT = "split"
    FLOOR = "floor"


def is_solve_size(value: Any) -> bool:
    """None, ``"two"``, or a pot fraction above 0."""
    return value == TWO_SIZES or is_optional_positive_number(value)


@dataclass(frozen=True)
class SolveOptions(Options):
    """The street solving rule's options, each with its help beside it. Those left None take
    the player class's default (``solve``) or the solve mode's (:func:`mode_defaults`)."""

    solve: Solve | None = option(
        None,
        "the heads-up streets solved in real time: river, turn (and river), flop (flop, turn "
        "and river), off-tree (flop, turn and river once a raise left the blueprint's tree), "
        "auto (off-tree where the smaller stack held 75 big blinds or more), reraised (flop, "
        "turn and river where we called a re-raise preflop, as deep), called (the same where we "
        "called any raise preflop) or off (default: "
        "off with a four-street blueprint, which plays every street; else the player's, off in "
        "cfrv1, auto in cfrv2)",
    )
    gadget: bool | None = option(
        None,
        "solve with the check-down re-solving gadget instead of the opponent's range model "
        "(default: off-tree and auto only)",
        is_optional_bool,
        "true or false",
    )
    solve_iterations: int | None = option(
        None,
        "DCFR iterations of each solve (default: 30 off the tree, 100 otherwise)",
        is_optional_positive_int,
        "a positive number",
    )
    solve_size: float | Literal["two"] | None = option(
        None,
        "the bet sizes of the solves' trees: one size, a fraction of the pot (a tree of one "
        "size has about half the nodes), or two (half the pot and the pot) (default: the "
        "player's, the pot in cfrv2, two elsewhere)",
        is_solve_size,
        "a positive pot fraction, or two",
    )
    solve_range: SolveRange = option(
        SolveRange.FULL,
        "which of our hands a flop or turn solve with check-down leaves covers: full (every "
        "holding), likely (the fewest that carry 98% of our range: a sparse own range, its "
        "leaf products about three times cheaper; a hand outside them is answered by the "
        "rules after the solve), split (likely, a hand outside them answered by the solve "
        "of every holding, made only when one is to play) or floor (likely, the hands outside "
        "them solved too, their rows of the leaf matrix read through its factors of rank "
        "solve_rank, 32 by default)",
    )
    solve_rank: int | None = option(
        None,
        "the rank of the leaf matrix in flop and turn solves with check-down leaves: the "
        "board's equity matrix factorised once to that rank, each leaf product two thin ones "
        "(default: the exact matrix; with solve_range=floor, 32 for the floor's rows only)",
        is_optional_positive_int,
        "a positive number",
    )
    leaves: Leaves = option(
        Leaves.AUTO,
        "how a flop or turn solve values the lines that reach the next card: check-down (the "
        "board checked down), blueprint (a four-street blueprint's play of the rest of the "
        "hand, the opponent choosing how it continues: the blueprint or the blueprint biased "
        "to fold, call or raise), turn (blueprint on the turn, check-down on the flop) or auto "
        "(blueprint where the player's blueprint covers the river, else check-down)",
    )


@dataclass(frozen=True)
class StreetStart:
    """The public state at the street's first action, seen from the deciding player (0).

    ``board`` is the street's (three cards: the flop, four: the turn, five: the river);
    ``stacks`` and ``pot`` are chips at the street's start; ``first`` is 0 when we act
    first; ``before`` is the length of the hand's history before the street; ``records`` are
    the street's actions so far.
    """

    board: tuple[int, ...]
    pot: int
    stacks: tuple[int, int]
    first: int
    seats: tuple[int, int]
    before: int
    records: tuple[ActionRecord, ...]

    @property
    def half(self) -> float:
        """Each player's share of the pot at the street's start: the tree's root contribution."""
        return self.pot / 2.0

    @property
    def limit(self) -> float:
        """The most either player can have in, in tree units (the effective stack's all-in)."""
        return self.half + min(self.stacks)


def street_start(snapshot: Snapshot) -> StreetStart | None:
    """The street's start of a heads-up flop, turn or river decision (None elsewhere:
    preflop, more than two players at the street's start, or no chips behind)."""
    if snapshot.street == Street.PREFLOP or len(snapshot.in_hand) != 2:
        return None
    us = snapshot.seat
    them = next(seat for seat in snapshot.in_hand if seat != us)
    records = snapshot.street_history(snapshot.street)
    if any(record.seat not in (us, them) for record in records):
        return None  # a third player acted on this street: it did not start heads-up
    paid = {seat: street_paid(records, snapshot.street, seat) for seat in (us, them)}
    stacks = (snapshot.stacks[us] + paid[us], snapshot.stacks[them] + paid[them])
    if min(stacks) <= 0:
        return None
    first = 0 if not records or records[0].seat == us else 1
    before = len(snapshot.history) - len(records)
    pot = snapshot.pot - paid[us] - paid[them]
    return StreetStart(snapshot.board, pot, stacks, first, (us, them), before, records)


def street_bets(
    start: StreetStart,
) -> Iterator[tuple[ActionRecord, int, tuple[float, float], tuple[float, float]]]:
    """Each of the street's actions so far with its actor (0: us) and both players' chips on
    the street before and after it (ours first), capped at the effective stack."""
    bets = (0.0, 0.0)
    cap = float(min(start.stacks))
    for record in start.records:
        actor = start.seats.index(record.seat)
        after = list(bets)
        if record.kind == "RAISE":
            after[actor] = min(float(record.amount), cap)
        elif record.kind == "CALL":
            after[actor] = max(bets)
        yield record, actor, bets, (after[0], after[1])
        bets = (after[0], after[1])


def raise_fractions(start: StreetStart) -> list[float | None]:
    """Each of the street's actions so far as a pot fraction, as the tree measures a raise:
    its increment over the bet it faces, over the pot after a call, rounded to
    ``FRACTION_DIGITS`` (None: a check, a call or an all-in)."""
    fractions: list[float | None] = []
    for record, actor, bets, _ in street_bets(start):
        fraction = None
        if record.kind == "RAISE" and start.half + record.amount < start.limit - 0.5:
            theirs, mine = bets[1 - actor], bets[actor]
            pot_after_call = start.pot + bets[0] + bets[1] + theirs - mine
            fraction = round((record.amount - theirs) / pot_after_call, FRACTION_DIGITS)
        fractions.append(fraction)
    return fractions


def real_fractions(start: StreetStart, own: tuple[float, ...] = POT_FRACTIONS) -> tuple[float, ...]:
    """The pot fractions of the street's bets and raises so far that the tree's own sizes
    ``own`` lack (all-ins left out, and a size too small to show at ``FRACTION_DIGITS``: the
    tree reads it as its nearest size)."""
    sizes = {fraction for fraction in raise_fractions(start) if fraction}
    return tuple(sorted(sizes - set(own)))


def tree_node(tree: Any, start: StreetStart, first: int = 0) -> int | None:
    """The node the street's actions from the ``first``-th on lead to, in a tree rooted
    after the ``first`` before them (None: a line the tree does not hold); a raise is read as
    the tree's nearest size."""
    node: int | None = 0
    for record in start.records[first:]:
        actor = start.seats.index(record.seat)
        if int(tree.player[node]) != actor:
            return None
        node = _matching_child(tree, tree.children(node), record, start, actor)
        if node is None:
            return None
    return node


def street_root(start: StreetStart) -> Any:
    """The subgame root after the street's actions so far (``river.RiverRoot``, chips in
    the solve's order: ours first), bets capped at the effective stack."""
    bets, raises, last_raise = (0.0, 0.0), 0, 0.0
    for record, actor, before, bets in street_bets(start):
        if record.kind == "RAISE":
            last_raise = max(bets[actor] - before[1 - actor], last_raise)
            raises += 1
    return realtime.street_root(bets, raises, last_raise)


def _matching_child(
    tree: Any, children: np.ndarray, record: ActionRecord, start: StreetStart, actor: int
) -> int | None:
    actions = [int(tree.action[child]) for child in children]
    if record.kind == "CALL":
        for wanted in (CALL_ACTION, CHECK_ACTION):
            if wanted in actions:
                return int(children[actions.index(wanted)])
        return None
    if record.kind != "RAISE":
        return None
    raises = [child for child, action in zip(children, actions, strict=True) if action > 2]
    if not raises:
        return None
    target = start.half + record.amount
    gaps = [abs(float(tree.contribution[child][actor]) - target) for child in raises]
    return int(raises[int(np.argmin(gaps))])


def solver_ranges(own: np.ndarray | None, theirs: np.ndarray, board: Sequence[int]) -> np.ndarray:
    """Both ranges at the street's start, normalised, with ``RANGE_FLOOR`` spread over every
    holding the board leaves (``own`` None: we have not acted, uniform)."""
    live = (~blocked_mask(list(board))).astype(np.float64)
    uniform = live / live.sum()
    ranges = np.empty((2, HOLDINGS))
    for row, weights in enumerate((own, theirs)):
        if weights is None or float((weights * live).sum()) <= 0:
            ranges[row] = uniform
            continue
        shaped = weights * live / float((weights * live).sum())
        ranges[row] = (1.0 - RANGE_FLOOR) * shaped + RANGE_FLOOR * uniform
    return ranges


@dataclass(frozen=True, eq=False)
class StreetSolution:
    """A solved subgame of a street and where its tree starts: after the street's first
    ``offset`` actions (0: the street's start; more: a re-solve below an off-tree bet)."""

    solution: Any  # blueprint.subgame.river.RiverSolution
    prefix: tuple[ActionRecord, ...] = ()  # the street's actions before the tree's root
    # solve_range=split: the same subgame solved over every holding, for the hands a sparse
    # own range left out; made on the first call (None where it cannot be made)
    complete: Callable[[], StreetSolution | None] | None = None
    # the lines (the street's actions) it was taken up at: a later decision reuses it only on
    # a line through one of them (a copy asked about other lines solves as the player would)
    made_at: tuple[tuple[ActionRecord, ...], ...] = ((),)

    @property
    def offset(self) -> int:
        """How many of the street's actions precede the tree's root."""
        return len(self.prefix)

    @property
    def tree(self) -> Any:
        """The subgame's public betting tree."""
        return self.solution.tree

    def node(self, start: StreetStart) -> int | None:
        """The node the street's actions lead to (``tree_node``)."""
        return tree_node(self.tree, start, self.offset)

    def on_line(self, start: StreetStart) -> bool:
        """Whether the street's actions pass through a line it was taken up at."""
        return any(start.records[: len(line)] == line for line in self.made_at)

    def holds(self, start: StreetStart) -> bool:
        """Whether the tree holds the street's actions after its root, each raise at a size
        of its own (all-ins aside)."""
        if start.records[: self.offset] != self.prefix:
            return False
        sizes = self.solution.abstraction.pot_fractions
        later = raise_fractions(start)[self.offset :]
        return all(f is None or f in sizes for f in later) and self.node(start) is not None


class RealTimeSolver:
    """Solves flop, turn and river subgames and reads the deciding player's strategy, keeping
    recent ones; its iterations and sizes are the options the configuration checked."""

    def __init__(
        self,
        iterations: int = ITERATIONS,
        gadget: bool = False,
        sizes: tuple[float, ...] = POT_FRACTIONS,
        sparse: bool = False,
        split: bool = False,
        rank: int | None = None,
    ) -> None:
        self.iterations = iterations
        # the leaf matrix's rank in flop and turn solves (None: exact); with ``sparse``, the
        # rank through which our other hands are solved (None: they are dropped)
        self.rank = rank
        self.sparse = sparse  # flop and turn solves over our likely hands only
        self.split = split  # the hands a sparse own range leaves out: a solve of every holding
        self.sizes = tuple(sorted(sizes))  # the bet sizes of every tree, as pot fractions
        self.gadget_player = OPPONENT if gadget else None  # the check-down re-solving gadget
        self.solves = 0  # subgames taken up so far (streets and re-solves below a bet; a street
        # another player of the process solved on the same inputs counts: shared_solution)
        self.nested_solves = 0  # of which re-solves below an off-tree bet
        self._solutions: dict[tuple, StreetSolution] = {}

    def solution(
        self,
        start: StreetStart,
        history: Sequence[ActionRecord],
        ranges_of: Any,
        leaves_of: Any = None,
    ) -> StreetSolution:
        """The solved street of ``start`` (``ranges_of()`` gives both ranges when a solve of
        the street is needed, ``leaves_of()`` a flop or turn solve's continuation leaves, or
        None to check the board down): the earliest kept solution whose tree holds the street's
        actions at their sizes; else, with the gadget, a re-solve below the opponent's last
        bet when it left a kept tree; else the street solved with its real sizes added."""
        base = (start.board, start.stacks, start.first, tuple(history[: start.before]))
        held = self._holding(base, start)
        if held is not None:
            return held
        if self.gadget_player is not None:
            nested = self._below_off_tree_bet(base, start)
            if nested is not None:
                return nested
        fractions = tuple(sorted(self.sizes + real_fractions(start, self.sizes)))
        abstraction = realtime.bet_tree(fractions, MAX_RAISES)
        key = (base, (), abstraction)
        kept = self._solutions.get(key)
        if kept is not None and not kept.on_line(start):  # the same solve, taken up here too
            self._solutions[key] = replace(kept, made_at=(*kept.made_at, start.records))
        if key not in self._solutions:
            leaves = None if leaves_of is None else leaves_of()
            ranges = ranges_of()
            solved = self._solve(start, abstraction, ranges, leaves)
            complete = None
            if self.split and solved.subgame.own_rows is not None:

                def every_holding() -> StreetSolution:
                    return StreetSolution(self._solve(start, abstraction, ranges, leaves, True))

                complete = functools.cache(every_holding)
            self._keep(key, StreetSolution(solved, complete=complete, made_at=(start.records,)))
        return self._solutions[key]

    def _keep(self, key: tuple, solved: StreetSolution) -> None:
        if len(self._solutions) >= CACHED_SOLUTIONS:
            self._solutions.pop(next(iter(self._solutions)))
        self._solutions[key] = solved
        self.solves += 1

    def _holding(self, base: tuple, start: StreetStart) -> StreetSolution | None:
        """The earliest kept solution of the street, made on a line the street's actions
        pass through, whose tree holds its actions. A player asked only along the hand's line
        reuses every earlier solve of the street; local best response's copy of it, asked
        about lines the hand did not take, never plays one line by a solve made for another,
        so it answers each line as the player would have."""
        for (kept_base, _, _), solved in self._solutions.items():
            if kept_base == base and solved.on_line(start) and solved.holds(start):
                return solved
        return None

    def _below_off_tree_bet(self, base: tuple, start: StreetStart) -> StreetSolution | None:
        """A re-solve below the opponent's last raise, where a kept tree holds the line up to
        it but not its size (``blueprint.subgame.nested``); None where that does not apply."""
        records = start.records
        if not records or records[-1].kind != "RAISE":
            return None
        if start.seats.index(records[-1].seat) != OPPONENT:
            return None
        before = replace(start, records=records[:-1])
        parent = self._holding(base, before)
        if parent is None:
            return None
        node = parent.node(before)
        if node is None or int(parent.tree.player[node]) != OPPONENT:
            return None
        if not any(int(parent.tree.action[c]) > CALL_ACTION for c in parent.tree.children(node)):
            return None  # the tree allows no raise there: a raise war is left to the rules
        sizes = realtime.bet_tree(self.sizes, MAX_RAISES)
        try:
            solution = realtime.resolve_below(
                parent.solution, node, street_root(start), sizes, self.iterations
            )
        except ValueError:  # our solved strategy never reaches the node: solve the street
            return None
        complete = None
        if self.split and solution.subgame.own_rows is not None and parent.complete is not None:
            root, parent_complete = street_root(start), parent.complete

            def every_holding() -> StreetSolution | None:
                whole = parent_complete()
                if whole is None:
                    return None
                try:
                    below = realtime.resolve_below(
                        whole.solution, node, root, sizes, self.iterations
                    )
                except ValueError:  # the solve of every holding never reaches the node
                    return None
                return StreetSolution(below, records)

            complete = functools.cache(every_holding)
        solved = StreetSolution(solution, records, complete)  # holds() keeps it to its prefix
        self._keep((base, records, None), solved)
        self.nested_solves += 1
        return solved

    def _solve(
        self,
        start: StreetStart,
        abstraction: Any,
        ranges: np.ndarray,
        leaves: Any = None,
        every_holding: bool = False,
    ) -> Any:
        """The street's solution from its inputs: solved here, or by another player of the
        process on the same inputs (``shared_solution``); ``every_holding``: over every
        holding, sparse or not."""
        sparse = self.sparse and not every_holding
        inputs = (start.board, start.pot, start.stacks, start.first, abstraction, leaves)
        key = (*inputs, self.iterations, self.gadget_player, sparse, self.rank, ranges.tobytes())
        return shared_solution(
            key, lambda: self._solve_now(start, abstraction, ranges, leaves, sparse)
        )

    def _solve_now(
        self,
        start: StreetStart,
        abstraction: Any,
        ranges: np.ndarray,
        leaves: Any = None,
        sparse: bool = False,
    ) -> Any:
        stacks = (float(start.stacks[0]), float(start.stacks[1]))
        return realtime.solve_street(
            start.board,
            float(start.pot),
            stacks,
            start.first,
            ranges,
            abstraction,
            self.iterations,
            self.gadget_player,
            leaves,
            sparse,
            self.rank,
        )

    def policies(
        self,
        snapshot: Snapshot,
        start: StreetStart,
        solved: StreetSolution,
        holes: Sequence[tuple[int, int]],
    ) -> list[list[WeightedAction] | None] | None:
        """Each hole's legal actions and probabilities at ``snapshot`` (None: off the tree; a
        hole's None: the solution has no strategy for it)."""
        priced = priced_node(snapshot, start, solved)
        if priced is None:
            return None
        node, prices = priced
        strategy = solved.solution.node_strategy(node)[[holding_index(*hole) for hole in holes]]
        missing = strategy.sum(axis=1) <= 0
        whole = solved.complete() if missing.any() and solved.complete is not None else None
        if whole is not None and whole.node(start) == node:
            rest = whole.solution.node_strategy(node)[[holding_index(*h) for h in holes]]
            strategy[missing] = rest[missing]
        same_price = len(set(prices)) < len(prices)  # tree actions priced the same: added up
        return [
            None
            if sum(probabilities) <= 0
            else merged(prices, probabilities)
            if same_price
            else normalized(
                [(*price, p) for price, p in zip(prices, probabilities, strict=True) if p > 0]
            )
            for probabilities in strategy.tolist()
        ]

    def likelihood(
        self, snapshot: Snapshot, start: StreetStart, solved: StreetSolution, action: Action
    ) -> np.ndarray | None:
        """``P(action | holding)`` for the 1,326 holdings at ``snapshot``, 0 for holdings the
        board blocks (None: off the tree, or not our node)."""
        priced = priced_node(snapshot, start, solved)
        if priced is None:
            return None
        node, prices = priced
        matches = np.array([price == action for price in prices], dtype=np.float64)
        return solved.solution.node_strategy(node) @ matches

    def unsolved(
        self, snapshot: Snapshot, start: StreetStart, solved: StreetSolution
    ) -> np.ndarray | None:
        """``bool[1326]``: the holdings a sparse own range left without a strategy at
        ``snapshot``'s node (None: a solve of every holding, or not our node)."""
        if solved.solution.subgame.solves_every_hand:
            return None
        priced = priced_node(snapshot, start, solved)
        if priced is None:
            return None
        return solved.solution.node_strategy(priced[0]).sum(axis=1) <= 0


def shared_solution(key: tuple, solve: Callable[[], Any]) -> Any:
    """The solution of the subgame that ``key`` (every input of the solve) describes, kept for
    every player of the process (the ``SHARED_SOLUTIONS`` latest). Local best response's copy
    of a solving bot solves each of the bot's subgames on the same inputs: a solve is
    deterministic, so sharing it halves the work and changes no answer."""
    if key in _shared_solutions:
        return _shared_solutions[key]
    if len(_shared_solutions) >= SHARED_SOLUTIONS:
        _shared_solutions.pop(next(iter(_shared_solutions)))
    _shared_solutions[key] = solution = solve()
    return solution


def priced_node(
    snapshot: Snapshot, start: StreetStart, solved: StreetSolution
) -> tuple[int, list[Action]] | None:
    """Our node in the solved tree at ``snapshot`` and its children's engine actions (None:
    off the tree, or not our node)."""
    node = solved.node(start)
    if node is None or int(solved.tree.player[node]) != 0:
        return None
    children = solved.tree.children(node)
    return node, [engine_action(solved.tree, child, start, snapshot) for child in children]


def engine_action(tree: Any, child: int, start: StreetStart, snapshot: Snapshot) -> Action:
    """The legal engine action of a tree action at the deciding player's node."""
    action = int(tree.action[child])
    if action == FOLD_ACTION:
        return ("fold", 0)
    if action in (CHECK_ACTION, CALL_ACTION):
        return legal_call(snapshot)
    street_total = float(tree.contribution[child][0]) - start.half
    if street_total >= start.limit - start.half - 0.5:
        street_total = snapshot.max_raise if snapshot.max_raise is not None else street_total
    return legal_raise(snapshot, round(street_total))


def street_prefix(history: str, game: Any, actions: Any, street: Street) -> str | None:
    """The part of an abstract history before ``street``'s first action (None: the history
    does not reach it)."""
    for end in range(len(history) + 1):
        if replay(game, actions, history[:end]).round == int(street):
            return history[:end]
    return None


def merged(
    prices: Sequence[Action], probabilities: Sequence[float] | np.ndarray
) -> list[WeightedAction]:
    """The actions with positive probability, tree actions priced the same added up."""
    mixed: dict[Action, float] = {}
    for price, probability in zip(prices, probabilities, strict=True):
        if probability > 0:
            mixed[price] = mixed.get(price, 0.0) + float(probability)
    return normalized([(name, amount, p) for (name, amount), p in mixed.items()])


AUTO_SOLVE_DEPTH = 75  # big blinds: the shallowest effective stack "auto" solves at
SOLVE_ITERATIONS = ITERATIONS  # DCFR iterations of each real-time solve
# the gadget, iterations and shallowest depth (big blinds; 0: any) of a solve mode: off the
# tree and in re-raised pots the re-solving gadget and 30 iterations, which answer within the
# decision-time bounds; the other modes no gadget, SOLVE_ITERATIONS and any depth
MODE_DEFAULTS = {
    Solve.OFF_TREE: (True, 30, 0),
    Solve.AUTO: (True, 30, AUTO_SOLVE_DEPTH),
    Solve.RERAISED: (True, 30, AUTO_SOLVE_DEPTH),
    Solve.CALLED: (True, 30, AUTO_SOLVE_DEPTH),
}
OVERSIZE_TOLERANCE = 0.05  # pot fractions a raise may exceed the largest abstract size by


def solve_sizes(solve_size: float | Literal["two"] | None) -> tuple[float, ...]:
    """The pot fractions a solve's tree bets: ``POT_FRACTIONS`` for ``"two"`` (and None, an
    option no player has settled), else the one size."""
    if solve_size is None or solve_size == TWO_SIZES:
        return POT_FRACTIONS
    return (float(solve_size),)


def mode_defaults(solve: Solve) -> tuple[bool, int, int]:
    """The gadget, iterations and shallowest depth (big blinds; 0: any) of a solve mode."""
    return MODE_DEFAULTS.get(solve, (False, SOLVE_ITERATIONS, 0))


def solve_rank(options: SolveOptions) -> int | None:
    """The leaf matrix's rank in the solves: ``solve_rank``, else ``realtime.FLOOR_RANK`` for
    ``solve_range=floor``'s other hands, else None (the exact matrix)."""
    if options.solve_rank is None and options.solve_range == SolveRange.FLOOR:
        return realtime.FLOOR_RANK
    return options.solve_rank


def called_preflop(snapshot: Snapshot, raises_needed: int) -> bool:
    """Whether the hand's preflop held ``raises_needed`` raises or more, the last of them the
    opponent's: we called it (2: an open and a re-raise, :data:`CALLED_RAISES`)."""
    raises = [r for r in snapshot.history if r.street == Street.PREFLOP and r.kind == "RAISE"]
    return len(raises) >= raises_needed and raises[-1].seat != snapshot.seat


def effective_depth(snapshot: Snapshot) -> float:
    """The smallest stack dealt in at the hand's start, in big blinds (public: a copy of the
    player reading the same hand agrees)."""
    return min(hand_start_stacks(snapshot).values()) / snapshot.big_blind


def started_deep(snapshot: Snapshot) -> bool:
    """Every stack dealt in started the hand at :data:`AUTO_SOLVE_DEPTH` big blinds or more:
    where the deep rules (the blinds' blueprints, the postflop and shallow blueprints) play."""
    return effective_depth(snapshot) >= AUTO_SOLVE_DEPTH


class StreetSolvingRule:
    """The solved street's strategy at a heads-up decision ``solve`` covers."""

    name = "solve"

    def __init__(self, context: Context) -> None:
        options = context.options.solving
        solve = resolved(options.solve, "solve")
        self.context = context
        self.streets = SOLVED_STREETS[solve]
        self.only_off_tree = solve in ONLY_OFF_TREE
        self.called_raises = CALLED_RAISES.get(solve, 0)
        self.depth = mode_defaults(solve)[2]
        self.sizes = solve_sizes(options.solve_size)
        # the player's configure settles auto, and PlayerConfig rejects blueprint leaves
        # without a river; a strategy built without configure settles it here
        self.leaves = options.leaves
        if self.streets and self.leaves == Leaves.AUTO:
            self.leaves = self.leaves.settled(context.blueprint.game.rounds >= 4)
        self.solver: RealTimeSolver | None = None
        if self.streets:
            self.solver = RealTimeSolver(
                iterations=resolved(options.solve_iterations, "solve_iterations"),
                gadget=resolved(options.gadget, "gadget"),
                sizes=self.sizes,
                sparse=options.solve_range != SolveRange.FULL,
                split=options.solve_range == SolveRange.SPLIT,
                rank=solve_rank(options),
            )
        self._detail = ""
        self.fallback: DecisionRule = NO_RULE  # the rules after this one (the strategy's)

    def applies(self, snapshot: Snapshot) -> bool:
        """Heads-up on a street ``solve`` covers (off the tree and deep enough, where the mode
        asks), at a decision whose node the street's solution holds: the street is solved here
        (once, and kept for its later decisions)."""
        if self.solver is None or snapshot.street not in self.streets:
            return False
        if self.only_off_tree and not self.left_the_tree(snapshot):
            return False
        if self.called_raises and not called_preflop(snapshot, self.called_raises):
            return False
        if self.depth and effective_depth(snapshot) < self.depth:
            return False
        if street_start(snapshot) is None:
            return False
        start, solution = self.solved(snapshot)
        return priced_node(snapshot, start, solution) is not None

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        start, solution = self.solved(snapshot)
        rows = self.running_solver().policies(snapshot, start, solution, [snapshot.hole])
        if rows is None or rows[0] is None:  # no strategy for the holding: the rules after
            policy = self.fallback.policy(snapshot)
            played_by = self.fallback.detail()
            self._detail = f"no strategy for the hand at the node; played by {played_by}"
            return policy
        policy = rows[0]
        solver = self.running_solver()
        sizes = "/".join(f"{size:g}" for size in self.sizes)
        gadget = ", gadget" if solver.gadget_player is not None else ""
        street = snapshot.street.name.lower()
        later = "turn and river" if snapshot.street == Street.FLOP else "river"
        leaves = f", the blueprint's {later} at its leaves" if solution.solution.leaves else ""
        self._detail = (
            f"{street}, bets {sizes} pot/all-in, {solver.iterations} iterations{gadget}{leaves}"
        )
        return policy

    def detail(self) -> str:
        """The street solved, its tree's bet sizes and the solve's iterations."""
        return self._detail

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        """The solution's rows; the rules after this one answer the holes it has no strategy
        for (every hole, off the tree)."""
        start, solution = self.solved(snapshot)
        rows = self.running_solver().policies(snapshot, start, solution, holes)
        if rows is None:
            return self.fallback.policy_table(snapshot, holes)
        missing = [hole for hole, row in zip(holes, rows, strict=True) if row is None]
        answered = iter(self.fallback.policy_table(snapshot, missing) if missing else [])
        return [next(answered) if row is None else row for row in rows]

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        start, solution = self.solved(snapshot)
        likelihood = self.running_solver().likelihood(snapshot, start, solution, action)
        if likelihood is None:
            raise ValueError("the street's solution does not hold the decision")
        unsolved = self.running_solver().unsolved(snapshot, start, solution)
        if unsolved is not None:  # the hands a sparse own range left to the rules after it
            likelihood = np.where(unsolved, self.fallback.likelihood(snapshot, action), likelihood)
        return likelihood

    def running_solver(self) -> RealTimeSolver:
        if self.solver is None:
            raise ValueError("solve=off: no street is solved")
        return self.solver

    def solved(self, snapshot: Snapshot) -> tuple[StreetStart, Any]:
        """The street's start and its solution, where the rule applies."""
        start = street_start(snapshot)
        if start is None:
            raise ValueError("the solver cannot read the street's start")

        def ranges() -> np.ndarray:
            context = self.context
            before = snapshot.history[: start.before]
            own = context.own_weights(snapshot.board, start.before)
            model = context.opponent_model(snapshot, start.seats[1])
            theirs = replay_range(before, snapshot.board, start.seats[1], model)
            return solver_ranges(own, theirs, snapshot.board)

        def leaves() -> Any:
            return self.continuation_leaves(snapshot)

        return start, self.running_solver().solution(start, snapshot.history, ranges, leaves)

    def continuation_leaves(self, snapshot: Snapshot) -> Any:
        """On a flop or turn whose solves ``leaves`` gives the blueprint's continuations: the
        blueprint's play of the rest of the hand for the solve's leaves, from its likeliest
        reading of the hand before the street (None elsewhere, or where no reading holds:
        the board is checked down)."""
        if not self.leaves.plays(snapshot.street):
            return None
        bp = self.context.blueprint
        snapped = self.context.snapped_open(snapshot, bp.actions)
        branches = abstract_histories(snapshot, bp.game, bp.actions, snapped=snapped)
        if not branches:
            return None
        branch = max(branches, key=lambda b: b.weight)
        prefix = street_prefix(branch.history, bp.game, bp.actions, snapshot.street)
        if prefix is None:
            return None
        first_player = 0 if branch.state.to_act == 0 else 1  # are we the small blind?
        buckets = bp.cards.num_buckets
        turn_buckets = buckets[2] if snapshot.street == Street.FLOP else None
        return realtime.blueprint_leaves(
            bp.game, bp.actions, bp.action_rows, buckets[3], prefix, first_player, turn_buckets
        )

    def left_the_tree(self, snapshot: Snapshot) -> bool:
        """Whether a raise before this street was none of the blueprint's sizes (within the
        tolerance of an over-size raise) or beyond its raise cap."""
        bp = self.context.blueprint
        snapped = self.context.snapped_open(snapshot, bp.actions)
        return left_the_tree(snapshot, bp.game, bp.actions, OVERSIZE_TOLERANCE, snapped=snapped)
