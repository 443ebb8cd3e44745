"""From PyPokerEngine's recorded actions to the blueprint's abstract betting history.

The blueprint keys an information set by the string of abstract action letters since the deal
(``agent.abstraction.betting``: ``c`` call/check, ``r`` minimum raise, ``h`` half-pot raise, ...).
A real hand only approximately follows the abstraction: the opponent raises to any amount. This
module replays the engine's ``action_histories`` (read into a
:class:`agent.boundary.snapshot.Snapshot`) street by street, keeping two states side by side:

* the *real* spot (:class:`Spot`): pot, street totals, stacks and the last raise, exactly as
  the engine has them (antes included), which gives every abstract size its real chip amount;
* the *abstract* states of ``agent.abstraction.betting.replay``, in which each action is a letter.

A call is ``c``. A raise becomes the abstract raise sizes that are legal at the abstract node,
each priced on the real spot; a real raise that equals one of them is that letter, one in
between two of them is either neighbour with the probabilities of the pseudo-harmonic mapping
(``agent.abstraction.translation``). So one real history gives a few weighted abstract histories
(:class:`Branch`); a branch dies when the real hand leaves the abstract tree (a raise after
the abstraction's raise cap, a street that ends in one and not the other).

Heads-up only: the blueprint is a two-player strategy. In PyPokerEngine heads-up the small
blind is abstract player 0 and acts first on every street (its issue #82), which is also the
order of ``agent.abstraction.betting``; positions are read from the blinds posted, never assumed.

Reference: Ganzfried and Sandholm, "Action Translation in Extensive-Form Games with Large
Action Spaces" (IJCAI 2013) for the mapping; da Luz, "Poker AI: Using Monte-Carlo CFR with
Monte-Carlo Simulations", Cardiff University (CM3203), for keying by history.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from agent.abstraction.betting import (
    CALL,
    FOLD,
    RAISE_SIZES,
    ActionAbstraction,
    BettingState,
    GameConfig,
    apply_action,
    initial_state,
    legal_actions,
)
from agent.abstraction.translation import translate
from agent.boundary.snapshot import CHOICE_KINDS, ActionRecord, Snapshot, Street

MAX_BRANCHES = 16
MIN_WEIGHT = 1e-3
_BLINDS = ("SMALLBLIND", "BIGBLIND")


@dataclass(frozen=True)
class Spot:
    """The real betting spot of the player to act (chips as the engine counts them)."""

    pot: int  # every chip in the middle, antes and this street's bets included
    raise_to: int  # the largest street total (0 when nobody has bet this street)
    raise_add: int  # the increment of the last raise (0 when nobody has bet)
    own: int  # the acting player's street total
    stack: int  # the acting player's chips behind
    big_blind: int

    @property
    def owed(self) -> int:
        """Chips the player must add to call."""
        return max(0, self.raise_to - self.own)

    @property
    def min_raise_to(self) -> int:
        """The engine's minimum raise-to: last bet plus its increment, at least the big blind."""
        return self.raise_to + self.raise_add if self.raise_to > 0 else self.big_blind

    @property
    def max_raise_to(self) -> int:
        """The street total of an all-in."""
        return self.own + self.stack

    def raise_amount(self, size: str) -> int:
        """The real raise-to amount of an abstract size, priced like ``betting.raise_amount``.

        >>> spot = Spot(pot=30, raise_to=20, raise_add=10, own=10, stack=500, big_blind=10)
        >>> spot.raise_amount("min"), spot.raise_amount("half"), spot.raise_amount("pot")
        (30, 40, 60)
        >>> spot.raise_amount("allin")
        510
        """
        low, high = self.min_raise_to, self.max_raise_to
        fraction = RAISE_SIZES[size][1]
        if size == "allin":
            return high
        if fraction is None:
            return min(low, high)
        wanted = self.raise_to + round(fraction * (self.pot + self.owed))
        return min(max(wanted, low), high)

    def pot_fraction(self, amount: int) -> float:
        """A raise-to ``amount`` as a fraction of the pot after calling.

        >>> spot = Spot(pot=30, raise_to=20, raise_add=10, own=10, stack=500, big_blind=10)
        >>> spot.pot_fraction(60)
        1.0
        """
        return (amount - self.raise_to) / max(1, self.pot + self.owed)

    def raise_options(self, letters: str, actions: ActionAbstraction) -> list[tuple[int, str]]:
        """``(amount, letter)`` of the given abstract raise letters on this spot, by amount.

        Letters that land on the same amount are offered once (the first in column order).
        """
        by_amount: dict[int, str] = {}
        for size in actions.raise_sizes:
            letter = RAISE_SIZES[size][0]
            if letter in letters:
                by_amount.setdefault(self.raise_amount(size), letter)
        return sorted(by_amount.items())


@dataclass(frozen=True)
class Branch:
    """One abstract reading of the real history, with its probability."""

    history: str
    state: BettingState
    weight: float


def heads_up_seats(snapshot: Snapshot) -> tuple[int, int] | None:
    """``(small blind seat, big blind seat)`` if exactly two players were dealt in, else None."""
    dealt = {record.seat for record in snapshot.history} | set(snapshot.in_hand)
    if len(dealt) != 2:
        return None
    small = next(
        (r.seat for r in snapshot.history if r.kind == "SMALLBLIND"), snapshot.small_blind_seat
    )
    if small not in dealt:
        return None
    big = next(seat for seat in dealt if seat != small)
    return small, big


def current_spot(snapshot: Snapshot) -> Spot:
    """The real spot of the decision in ``snapshot``."""
    raise_add = 0
    for record in snapshot.street_history():
        if record.kind in ("RAISE", *_BLINDS):
            raise_add = record.raise_by
    return Spot(
        pot=snapshot.pot,
        raise_to=snapshot.call_amount,
        raise_add=raise_add,
        own=snapshot.paid,
        stack=snapshot.stack,
        big_blind=snapshot.big_blind,
    )


class _RealHand:
    """The real pot, street totals and stacks, advanced one engine record at a time."""

    def __init__(self, snapshot: Snapshot, seats: tuple[int, int]) -> None:
        paid = {seat: 0 for seat in seats}
        for record in snapshot.history:
            paid[record.seat] = paid.get(record.seat, 0) + record.paid
        self.stack = {seat: snapshot.stacks[seat] + paid[seat] for seat in seats}
        self.big_blind = snapshot.big_blind
        self.street = Street.PREFLOP
        self.pot = 0
        self.total = {seat: 0 for seat in seats}
        self.raise_to = 0
        self.raise_add = 0

    def spot(self, seat: int) -> Spot:
        return Spot(
            pot=self.pot,
            raise_to=self.raise_to,
            raise_add=self.raise_add,
            own=self.total[seat],
            stack=self.stack[seat],
            big_blind=self.big_blind,
        )

    def enter(self, street: Street) -> None:
        """Start a new street: no bets yet."""
        if street != self.street:
            self.street = street
            self.total = dict.fromkeys(self.total, 0)
            self.raise_to = self.raise_add = 0

    def advance(self, record: ActionRecord) -> None:
        self.enter(record.street)
        self.pot += record.paid
        self.stack[record.seat] -= record.paid
        if record.kind in ("ANTE", "FOLD"):
            return
        self.total[record.seat] = record.amount
        if record.kind in ("RAISE", *_BLINDS) and record.amount >= self.raise_to:
            self.raise_to, self.raise_add = record.amount, record.raise_by


def abstract_histories(
    snapshot: Snapshot,
    game: GameConfig,
    actions: ActionAbstraction,
    max_branches: int = MAX_BRANCHES,
    snapped: int | None = None,
) -> list[Branch]:
    """The weighted abstract histories of a heads-up decision on a street ``game`` plays
    (``game.rounds``: preflop and the flop for a two-round game, every street for four).

    Returns an empty list when the hand is not heads-up, the street is past the game's last
    round, or no reading of the real history stays on the abstract tree with this player to
    act. Weights sum to 1; at most ``max_branches`` of the likeliest readings are kept. The
    raise at index ``snapped`` of the history, unless all in, reads as the smallest abstract
    raise (:func:`own_open`: our open from another blueprint, played on as this one's).
    """
    seats = heads_up_seats(snapshot)
    if seats is None or snapshot.street >= game.rounds:
        return []
    player_of = {seats[0]: 0, seats[1]: 1}
    real = _RealHand(snapshot, seats)
    branches = [Branch("", initial_state(game), 1.0)]
    for index, record in enumerate(snapshot.history):
        real.enter(record.street)
        if record.kind in CHOICE_KINDS:
            spot = real.spot(record.seat)
            readings = (
                _smallest_raise(spot, actions)
                if index == snapped and not _all_in(record, spot)
                else _readings(record, spot, actions)
            )
            player = player_of[record.seat]
            branches = _step(branches, readings, player, game, actions, max_branches)
            if not branches:
                return []
        real.advance(record)
    me = player_of.get(snapshot.seat)
    alive = [
        b
        for b in branches
        if not b.state.terminal and b.state.round == snapshot.street and b.state.to_act == me
    ]
    return _normalize(alive)


def _readings(record: ActionRecord, spot: Spot, actions: ActionAbstraction):
    """A function from an abstract state to the ``(action index, probability)`` readings."""

    def read(state: BettingState, game: GameConfig) -> list[tuple[int, float]]:
        legal = legal_actions(state, game, actions)
        if record.kind == "FOLD":
            return [(FOLD, 1.0)] if any(a.index == FOLD for a in legal) else []
        if record.kind == "CALL":
            return [(CALL, 1.0)]
        letters = "".join(a.letter for a in legal if a.index > CALL)
        options = spot.raise_options(letters, actions)
        if not options:
            return []
        fractions = [spot.pot_fraction(amount) for amount, _ in options]
        bet = max(0.0, spot.pot_fraction(record.amount))
        return [
            (actions.letters.index(options[i][1]), probability)
            for i, probability in translate(bet, fractions)
        ]

    return read


def _smallest_raise(spot: Spot, actions: ActionAbstraction):
    """A function from an abstract state to its smallest legal raise, read with certainty."""

    def read(state: BettingState, game: GameConfig) -> list[tuple[int, float]]:
        legal = legal_actions(state, game, actions)
        options = spot.raise_options("".join(a.letter for a in legal if a.index > CALL), actions)
        if not options:
            return []
        return [(actions.letters.index(min(options)[1]), 1.0)]

    return read


def _all_in(record: ActionRecord, spot: Spot) -> bool:
    """Whether a raise puts the raiser's whole stack in."""
    return record.amount >= spot.own + spot.stack


def first_action(snapshot: Snapshot) -> int | None:
    """The index in the history of our first action of the hand (None: we have not acted;
    blinds and antes are not actions)."""
    return next(
        (
            index
            for index, record in enumerate(snapshot.history)
            if record.seat == snapshot.seat and record.kind in CHOICE_KINDS
        ),
        None,
    )


def own_open(snapshot: Snapshot) -> int | None:
    """The index in the history of our open as the heads-up small blind: our first action of
    the hand, when it is a raise (None otherwise, or when the hand is not heads-up)."""
    seats = heads_up_seats(snapshot)
    first = first_action(snapshot)
    if seats is None or seats[0] != snapshot.seat or first is None:
        return None
    return first if snapshot.history[first].kind == "RAISE" else None


def _step(
    branches: list[Branch],
    read,
    player: int,
    game: GameConfig,
    actions: ActionAbstraction,
    max_branches: int,
) -> list[Branch]:
    grown: list[Branch] = []
    for branch in branches:
        if branch.state.terminal or branch.state.to_act != player:
            continue
        for index, probability in read(branch.state, game):
            if probability <= 0:
                continue
            state = apply_action(branch.state, game, actions, index)
            grown.append(Branch(state.history, state, branch.weight * probability))
    if not grown:
        return []
    heaviest = max(b.weight for b in grown)
    grown = [b for b in grown if b.weight >= MIN_WEIGHT * heaviest]
    grown.sort(key=lambda b: -b.weight)
    return _normalize(grown[:max_branches])


def _normalize(branches: list[Branch]) -> list[Branch]:
    total = sum(b.weight for b in branches)
    if total <= 0:
        return []
    return [replace(b, weight=b.weight / total) for b in branches]


def last_raise_fractions(
    snapshot: Snapshot, actions: ActionAbstraction
) -> tuple[float, float] | None:
    """The current street's last raise as a pot fraction, beside the largest abstract size.

    Both are fractions of the pot after calling at the spot where the raise was made (the
    mapping's units, ``Spot.pot_fraction``); the abstract sizes are priced on that spot,
    ``allin`` at the raiser's stack. None when nobody has raised this street (blinds are not
    raises) or the hand is not heads-up. A raise above the largest size is one the
    pseudo-harmonic mapping can only read as that size: an all-in read as a min-raise.
    """
    found: tuple[float, float] | None = None
    for _, record, spot in _raise_spots(snapshot):
        if record.street == snapshot.street:
            found = (spot.pot_fraction(record.amount), max(_size_fractions(spot, actions)))
    return found


def _raise_spots(snapshot: Snapshot) -> Iterator[tuple[int, ActionRecord, Spot]]:
    """Each raise of a heads-up hand's history, by its index, with the real spot its raiser
    faced (none when the hand is not heads-up)."""
    seats = heads_up_seats(snapshot)
    if seats is None:
        return
    real = _RealHand(snapshot, seats)
    for index, record in enumerate(snapshot.history):
        real.enter(record.street)
        if record.kind == "RAISE":
            yield index, record, real.spot(record.seat)
        real.advance(record)


def left_the_tree(
    snapshot: Snapshot,
    game: GameConfig,
    actions: ActionAbstraction,
    tolerance: float,
    current_street: bool = False,
    snapped: int | None = None,
) -> bool:
    """Whether a raise before the current street, on a street the blueprint's game covers
    (``game.rounds``: preflop and the flop, or every street), was off the abstraction's tree:
    none of its sizes, priced on the spot where it was made, within ``tolerance`` pot
    fractions of it, or a raise beyond the abstraction's cap for that player on its street.
    The blueprint's later streets then read a line it was never trained on (the mapping only
    approximates it), and the rules' later ones answer it. With ``current_street`` the
    current street's raises so far count too; the raise at index ``snapped``, read as the
    smallest size (:func:`abstract_histories`), counts as on the tree unless all in.
    Heads-up only (False otherwise).
    """
    last = snapshot.street + 1 if current_street else snapshot.street
    raises: dict[tuple[Street, int], int] = {}
    for index, record, spot in _raise_spots(snapshot):
        if record.street >= min(last, game.rounds):
            break
        key = (record.street, record.seat)
        raises[key] = raises.get(key, 0) + 1
        read_as_smallest = index == snapped and not _all_in(record, spot)
        off = not read_as_smallest and _off_sizes(record, spot, actions, tolerance)
        if raises[key] > actions.raise_cap or off:
            return True
    return False


def _off_sizes(
    record: ActionRecord, spot: Spot, actions: ActionAbstraction, tolerance: float
) -> bool:
    """Whether raise ``record`` is more than ``tolerance`` pot fractions from every size."""
    bet = spot.pot_fraction(record.amount)
    return all(abs(bet - size) > tolerance for size in _size_fractions(spot, actions))


def _size_fractions(spot: Spot, actions: ActionAbstraction) -> list[float]:
    """The abstraction's raise sizes priced on ``spot``, as pot fractions."""
    return [spot.pot_fraction(spot.raise_amount(size)) for size in actions.raise_sizes]


def preflop_order(snapshot: Snapshot) -> list[int]:
    """The seats dealt into the hand, in preflop order (the big blind last)."""
    dealt = set(snapshot.in_hand) | {
        record.seat for record in snapshot.history if record.street == Street.PREFLOP
    }
    seats = len(snapshot.stacks)
    after_big_blind = [(snapshot.big_blind_seat + k) % seats for k in range(1, seats + 1)]
    return [seat for seat in after_big_blind if seat in dealt]


def hand_start_stacks(snapshot: Snapshot) -> dict[int, int]:
    """Each dealt seat's chips before the hand: its stack plus everything it put in."""
    start = {seat: snapshot.stacks[seat] for seat in preflop_order(snapshot)}
    for record in snapshot.history:
        if record.seat in start:
            start[record.seat] += record.paid
    return start
