"""Export hands played inside PyPokerEngine as Poker Hand Histories (PHH), and check them.

PHH is the TOML hand-history format of the University of Toronto Computer Poker Student
Research Group (phh-std, https://github.com/uoftcprg/phh-std); variant ``NT`` is no-limit
Texas hold'em. pokerkit reads, writes and replays it with its own rules engine, which makes it
an independent referee for PyPokerEngine: :func:`replay_final_stacks` replays a history
strictly, and :func:`disagreement_reason` explains a hand pokerkit pays differently.

What the export decides:

* Players in phh-std order (p1 the small blind, p2 the big blind, ... the button); seats with
  no chips are left out; ``finishing_stacks`` are the stacks PyPokerEngine paid.
* ``min_bet`` is the *small* blind: PyPokerEngine's smallest preflop raise goes to big blind
  plus small blind, which pokerkit refuses with the big blind as ``min_bet``.
* Heads-up, PyPokerEngine's button posts the big blind and the small blind acts first on
  every street (PyPokerEngine issue #82), so the export writes ``blinds_or_straddles =
  [big, small]``: pokerkit then opens every street with p1, as the engine did.
* Board cards dealt after all but one player folded are left out; everyone in at the
  showdown shows (``pN sm``).
* Betting that differs from the standard without changing the chips is written as pokerkit
  needs it, with a commentary (``# ...``) saying what the engine did: a raise no one can
  answer or an all-in raise below the call is a call; a check the engine skipped is ``cc``.

The differences that remain are named by :func:`disagreement_reason` (:data:`KNOWN_DEFECTS`:
PyPokerEngine's evaluator and split pots); :func:`pokerkit_compatible` says whether pokerkit
can replay a hand at all.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from phevaluator import evaluate_cards
from pokerkit import HandHistory, State, parse_action, parse_value
from pypokerengine.engine.card import Card
from pypokerengine.engine.hand_evaluator import HandEvaluator

from agent.boundary.snapshot import CHOICE_KINDS
from agent.poker.cards import from_ppe_id, parse_card, to_human, to_ppe_id

STREETS = ("preflop", "flop", "turn", "river")
BOARD_OF_STREET = {"flop": slice(0, 3), "turn": slice(3, 4), "river": slice(4, 5)}
BLINDS = ("SMALLBLIND", "BIGBLIND")

ODD_CHIP = "split pot: PyPokerEngine loses the odd chips"
WHEEL = "PyPokerEngine evaluator: wheel straight A-2-3-4-5 not seen"
HOLE_KICKER = "PyPokerEngine evaluator: hole-card kicker on a board tie"
FLUSH = "PyPokerEngine evaluator: flushes compared by their top card only"
ALL_IN_FOLD = "PyPokerEngine let a player all-in from the forced bets fold"
KNOWN_DEFECTS = (ODD_CHIP, WHEEL, HOLE_KICKER, FLUSH, ALL_IN_FOLD)

_WHEELS = (10, 1609)  # phevaluator's ranks of the 5-high straight flush and straight
_FLUSHES = range(323, 1600)  # phevaluator's ranks of the flushes


@dataclass(frozen=True)
class HandRecord:
    """One hand as PyPokerEngine dealt, played and paid it, by seat of its table.

    ``starting_stacks`` are before antes and blinds; a seat with 0 (a busted player still
    seated, or one the engine seated out, see :func:`hand_record`) takes no part in the hand.
    """

    seat_names: tuple[str, ...]
    starting_stacks: tuple[int, ...]
    hole_cards: tuple[tuple[int, int], ...]  # PyPokerEngine card ids, every seat (busted too)
    board: tuple[int, ...]  # the community cards dealt, PyPokerEngine ids
    small_blind: int
    ante: int
    button: int
    small_blind_seat: int
    big_blind_seat: int
    actions: dict = field(hash=False)  # round_state["action_histories"]
    seat_uuids: tuple[str, ...]
    final_stacks: tuple[int, ...]


def hand_record(
    round_state: dict,
    starting_stacks: Sequence[int],
    hole_cards: Sequence[tuple[int, int]],
    ante: int,
) -> HandRecord:
    """The record of a hand from the ``round_state`` of PyPokerEngine's round result message.

    ``starting_stacks`` are the stacks before the hand. PyPokerEngine empties the stack of a
    player who cannot pay the ante, or the blind that falls to them, and seats them out
    (its Dealer's ``__steal_money_from_poor_player``): such a seat, with no action in the
    history and nothing left, is recorded with a starting stack of 0.
    """
    seats = round_state["seats"]
    acted = {
        entry["uuid"]
        for entries in round_state["action_histories"].values()
        for entry in entries or ()
    }
    return HandRecord(
        seat_names=tuple(seat["name"] for seat in seats),
        starting_stacks=tuple(
            int(stack) if seat["uuid"] in acted or seat["stack"] > 0 else 0
            for seat, stack in zip(seats, starting_stacks, strict=True)
        ),
        hole_cards=tuple((int(first), int(second)) for first, second in hole_cards),
        board=tuple(to_ppe_id(parse_card(card)) for card in round_state["community_card"]),
        small_blind=int(round_state["small_blind_amount"]),
        ante=int(ante),
        button=int(round_state["dealer_btn"]),
        small_blind_seat=int(round_state["small_blind_pos"]),
        big_blind_seat=int(round_state["big_blind_pos"]),
        actions=round_state["action_histories"],
        seat_uuids=tuple(seat["uuid"] for seat in seats),
        final_stacks=tuple(int(seat["stack"]) for seat in seats),
    )


def phh_cards(ppe_ids: Iterable[int]) -> str:
    """PHH's spelling of PyPokerEngine card ids, concatenated.

    >>> phh_cards([1, 52, 23])
    'AcKsTd'
    """
    return "".join(to_human(from_ppe_id(card)) for card in ppe_ids)


def player_seats(record: HandRecord) -> tuple[int, ...]:
    """The seats in the hand in PHH order: the small blind first, round to the button."""
    count = len(record.seat_names)
    around = ((record.small_blind_seat + step) % count for step in range(count))
    seats = tuple(seat for seat in around if record.starting_stacks[seat] > 0)
    if len(seats) < 2 or seats[1] != record.big_blind_seat:
        raise ValueError(
            f"seats {seats} with chips: expected the small blind {record.small_blind_seat}"
            f" followed by the big blind {record.big_blind_seat}"
        )
    return seats


def blinds_or_straddles(record: HandRecord, players: int) -> list[int]:
    """The PHH blinds: ``[small, big, 0, ...]``; heads-up ``[big, small]`` (see the module)."""
    small, big = record.small_blind, 2 * record.small_blind
    if players == 2:
        return [big, small]
    return [small, big] + [0] * (players - 2)


def hand_history(record: HandRecord) -> HandHistory:
    """The hand as a pokerkit ``HandHistory`` (variant NT); ``.dumps()`` gives the PHH text."""
    seats = player_seats(record)
    history = HandHistory(
        variant="NT",
        antes=[record.ante] * len(seats),
        blinds_or_straddles=blinds_or_straddles(record, len(seats)),
        min_bet=record.small_blind,
        starting_stacks=[record.starting_stacks[seat] for seat in seats],
        actions=[],
        players=[record.seat_names[seat] for seat in seats],
        finishing_stacks=[record.final_stacks[seat] for seat in seats],
        seats=[seat + 1 for seat in seats],
        seat_count=len(record.seat_names),
    )
    walk = _Walk(record, seats, new_state=history.create_state)
    return replace(history, actions=walk.lines)


class _Walk:
    """A walk through PyPokerEngine's history that writes the PHH actions as it goes.

    It keeps each player's chips behind, street bet and folding, the player pokerkit would
    start the showdown with (the last one to bet or raise, else the street's first to act),
    and, at the end, what each player put in the pot. ``new_state`` (pokerkit's initial
    state of the hand) serves to find the check PyPokerEngine skipped, if it skipped one.
    """

    def __init__(
        self,
        record: HandRecord,
        seats: tuple[int, ...],
        new_state: Callable[[], State] | None = None,
    ) -> None:
        self.record, self.seats, self.new_state = record, seats, new_state
        self.index = {record.seat_uuids[seat]: i for i, seat in enumerate(seats)}
        self.behind = [record.starting_stacks[seat] for seat in seats]
        self.bets = [0] * len(seats)
        self.folded = [False] * len(seats)  # as pokerkit sees them
        self.engine_folded: set[int] = set()  # all-in players PyPokerEngine let fold
        self.opener = 2 % len(seats)  # preflop: the player after the big blind
        self.shown = False
        self.asked: set[int] = set()  # who acted of their own will on this street
        self.lines = [
            f"d dh p{i + 1} {phh_cards(record.hole_cards[seat])}" for i, seat in enumerate(seats)
        ]
        for street in STREETS:
            self.street(street)

    def in_hand(self) -> list[int]:
        return [i for i, folded in enumerate(self.folded) if not folded]

    def with_chips(self) -> list[int]:
        return [i for i in self.in_hand() if self.behind[i] > 0]

    def engine_in_hand(self) -> list[int]:
        return [i for i in self.in_hand() if i not in self.engine_folded]

    def committed(self) -> list[int]:
        return [
            self.record.starting_stacks[seat] - self.behind[i] for i, seat in enumerate(self.seats)
        ]

    def street(self, street: str) -> None:
        if street != "preflop":
            cards = self.record.board[BOARD_OF_STREET[street]]
            if len(self.in_hand()) < 2 or not cards:
                return
            self.lines.append(f"d db {phh_cards(cards)}")
            self.bets, self.opener, self.asked = [0] * len(self.seats), 0, set()
        contested = len(self.with_chips()) >= 2
        for entry in self.record.actions.get(street) or ():
            self.play(entry)
        if contested:
            self.skipped_checks()
        if self.at_showdown(street):
            self.show()

    def play(self, entry: dict) -> None:
        player, kind = self.index[entry["uuid"]], entry["action"]
        if kind in CHOICE_KINDS:
            self.asked.add(player)
        if kind in CHOICE_KINDS and self.behind[player] == 0:
            self.asked_all_in(player, kind)
        elif kind == "ANTE":
            self.behind[player] -= min(int(entry["amount"]), self.behind[player])
        elif kind == "FOLD":
            self.folded[player] = True
            self.lines.append(f"p{player + 1} f")
        elif kind in BLINDS:
            self.pay_to(player, int(entry["amount"]))
        elif kind == "CALL":
            self.pay_to(player, int(entry["amount"]))
            self.lines.append(f"p{player + 1} cc")
        elif kind == "RAISE":
            self.lines.append(self.raise_line(player, int(entry["amount"])))
            self.pay_to(player, int(entry["amount"]))
        else:
            raise ValueError(f"unknown PyPokerEngine action {kind!r}")

    def skipped_checks(self) -> None:
        """The checks pokerkit asks for where PyPokerEngine ended a street without asking.

        PyPokerEngine ends a street without asking the last player who can still act when
        nothing is bet to them (``RoundManager.__is_everyone_agreed``), say after the only
        other one with chips folded. And it gives the big blind its option only while the
        blind is its sole action (``__is_agreed``): with antes there is an ante too, and in
        an unraised pot the big blind is never asked. Where a player in the hand with chips
        did not act and faces no bet, pokerkit (replaying the lines so far) says who it asks.
        """
        skipped = [
            i for i in self.with_chips() if i not in self.asked and self.bets[i] == max(self.bets)
        ]
        if not skipped or self.new_state is None:
            return
        state = self.new_state()
        try:
            _apply(state, self.lines)
        except ValueError:
            return  # pokerkit refuses the hand already
        while state.actor_index is not None and state.checking_or_calling_amount == 0:
            line = f"p{state.actor_index + 1} cc # PyPokerEngine did not ask: a check"
            self.lines.append(line)
            _apply(state, [line])

    def asked_all_in(self, player: int, kind: str) -> None:
        """PyPokerEngine asks a player the forced bets put all-in; pokerkit does not.

        A call or raise changes nothing and becomes a commentary. A fold forfeits the pot in
        PyPokerEngine; pokerkit keeps the player in, so it is noted and remembered.
        """
        self.lines.append(f"# PyPokerEngine asked p{player + 1}, all-in, who chose {kind.lower()}")
        if kind == "FOLD":
            self.engine_folded.add(player)

    def raise_line(self, player: int, amount: int) -> str:
        top = max(self.bets)
        if amount <= top:
            return f"p{player + 1} cc # PyPokerEngine: all-in raise to {amount}, a call"
        answerable = any(
            self.behind[other] + self.bets[other] > top
            for other in self.in_hand()
            if other != player
        )
        if not answerable:
            return f"p{player + 1} cc # PyPokerEngine: raise to {amount}, nobody can call it"
        self.opener = player
        return f"p{player + 1} cbr {amount}"

    def pay_to(self, player: int, street_total: int) -> None:
        paid = max(0, min(street_total - self.bets[player], self.behind[player]))
        self.behind[player] -= paid
        self.bets[player] += paid

    def at_showdown(self, street: str) -> bool:
        last = street == STREETS[-1] or len(self.with_chips()) <= 1
        return not self.shown and len(self.in_hand()) >= 2 and last

    def show(self) -> None:
        self.shown = True
        count = len(self.seats)
        for step in range(count):
            i = (self.opener + step) % count
            if not self.folded[i]:
                cards = phh_cards(self.record.hole_cards[self.seats[i]])
                self.lines.append(f"p{i + 1} sm {cards}")


def write_phh(path: Path, records: Iterable[HandRecord]) -> None:
    """One hand to a ``.phh`` file, or any number to a ``.phhs`` file (pokerkit reads both).

    A ``.phhs`` file holds the hands as TOML tables ``[1]``, ``[2]``, ... (pokerkit's
    ``HandHistory.dumps_all``; read it back with ``HandHistory.loads_all``).
    """
    histories = [hand_history(record) for record in records]
    if path.suffix == ".phhs":
        text = HandHistory.dumps_all(histories)
    elif path.suffix == ".phh" and len(histories) == 1:
        text = histories[0].dumps()
    else:
        raise ValueError(
            f"{str(path)!r}: one hand goes to a .phh file, several to a .phhs file"
            f" ({len(histories)} given)"
        )
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text + "\n", encoding="utf-8")
    partial.replace(path)


def replay_final_stacks(history: HandHistory) -> list[int]:
    """pokerkit's final stacks after replaying ``history`` with its rules (PHH order).

    Strict: every action must be legal where it stands (pokerkit's own iteration would
    instead fold or check for a player to get past an action it refuses), and the actions
    must finish the hand. Raises ``ValueError`` with pokerkit's reason otherwise.
    """
    state = history.create_state()
    _apply(state, history.actions, history.parse_value)
    if state.status:
        raise ValueError("the actions stop before the hand is over")
    return [int(stack) for stack in state.stacks]


def _apply(state: State, actions: Iterable[str], parse_value: Callable = parse_value) -> None:
    """Apply PHH actions to a pokerkit state, burning the cards it burns before each deal."""
    with warnings.catch_warnings():  # pokerkit warns of a fold when checking is free
        warnings.simplefilter("ignore", UserWarning)
        for action in actions:
            _burn_cards(state)
            parse_action(state, action, parse_value)
        _burn_cards(state)


def _burn_cards(state: State) -> None:
    while state.can_burn_card():
        state.burn_card("??")


def seat_stacks(record: HandRecord, stacks: Sequence[int]) -> tuple[int, ...]:
    """Stacks in PHH order mapped back to the table's seats (busted seats keep theirs)."""
    by_seat = list(record.starting_stacks)
    for seat, stack in zip(player_seats(record), stacks, strict=True):
        by_seat[seat] = int(stack)
    return tuple(by_seat)


def pokerkit_compatible(record: HandRecord) -> bool:
    """Whether pokerkit's rules replay the exported hand to its end (whatever it pays).

    True for heads-up hands too, thanks to the blinds written ``[big, small]``. False where
    pokerkit refuses a raise PyPokerEngine allowed after an all-in raise smaller than a full
    raise: by a player who had acted before it, or who has less than a full raise to call
    (pokerkit: "Short all-in cannot be raised").
    """
    try:
        replay_final_stacks(hand_history(record))
    except ValueError:
        return False
    return True


def disagreement_reason(record: HandRecord, replayed: Sequence[int] | None = None) -> str | None:
    """Why pokerkit's replay pays the hand differently from PyPokerEngine; None if it does not.

    ``replayed`` are pokerkit's final stacks in PHH order (replayed here if not given). The
    reasons are :data:`KNOWN_DEFECTS` (joined by ``"; "`` when there are several),
    ``"pokerkit refuses the history: ..."``, or ``"unexplained: ..."``.
    """
    if replayed is None:
        try:
            replayed = replay_final_stacks(hand_history(record))
        except ValueError as error:
            return f"pokerkit refuses the history: {error}"
    if seat_stacks(record, replayed) == record.final_stacks:
        return None
    walk = _Walk(record, player_seats(record))
    reasons = _showdown_defects(record, walk)
    if any(replayed[player] > 0 for player in walk.engine_folded):
        reasons.add(ALL_IN_FOLD)
    if not reasons:
        return f"unexplained: pokerkit {list(replayed)}, PyPokerEngine {record.final_stacks}"
    return "; ".join(sorted(reasons))


def _showdown_defects(record: HandRecord, walk: _Walk) -> set[str]:
    """The known PyPokerEngine defects that change who is paid what at this hand's showdown.

    Each pot (the main pot, then one per all-in level) is judged twice among the players
    PyPokerEngine held eligible for it: by phevaluator (true rules) and by PyPokerEngine's
    own evaluator, and a pot split among several true winners is checked for odd chips.
    """
    in_hand = walk.engine_in_hand()
    if len(in_hand) < 2 or len(record.board) < 5:
        return set()
    holes = {i: record.hole_cards[walk.seats[i]] for i in in_hand}
    true_rank = {i: _true_rank(holes[i], record.board) for i in in_hand}
    engine_rank = {i: _engine_rank(holes[i], record.board) for i in in_hand}
    defects = set()
    for amount, eligible in pots(walk.committed(), in_hand):
        best = min(true_rank[i] for i in eligible)
        true_winners = {i for i in eligible if true_rank[i] == best}
        top = max(engine_rank[i] for i in eligible)
        engine_winners = {i for i in eligible if engine_rank[i] == top}
        if engine_winners != true_winners:
            defects.add(_evaluator_defect(true_winners, engine_winners, true_rank))
        elif amount % len(true_winners):
            defects.add(ODD_CHIP)
    return defects


def pots(committed: Sequence[int], in_hand: Sequence[int]) -> list[tuple[int, list[int]]]:
    """The main pot and side pots: ``(amount, eligible players)``, smallest level first.

    >>> pots([50, 100, 100, 30], [0, 1, 2])  # player 3 folded
    [(180, [0, 1, 2]), (100, [1, 2])]
    """
    result, previous = [], 0
    for level in sorted({committed[i] for i in in_hand}):
        amount = sum(min(paid, level) - min(paid, previous) for paid in committed)
        result.append((amount, [i for i in in_hand if committed[i] >= level]))
        previous = level
    return result


def _evaluator_defect(
    true_winners: set[int], engine_winners: set[int], true_rank: dict[int, int]
) -> str:
    involved = true_winners | engine_winners
    if any(true_rank[i] in _WHEELS for i in involved):
        return WHEEL
    if engine_winners < true_winners:
        return HOLE_KICKER
    if all(true_rank[i] in _FLUSHES for i in involved):
        return FLUSH
    paid = " ".join(f"p{i + 1}" for i in sorted(engine_winners))
    ranks = {f"p{i + 1}": true_rank[i] for i in sorted(involved)}
    return f"unexplained: PyPokerEngine paid {paid}, true ranks {ranks}"


def _true_rank(hole: tuple[int, int], board: Sequence[int]) -> int:
    """phevaluator's rank of the best five cards: 1 (royal flush) to 7462, lower is better."""
    return evaluate_cards(*(to_human(from_ppe_id(card)) for card in (*hole, *board)))


def _engine_rank(hole: tuple[int, int], board: Sequence[int]) -> int:
    """PyPokerEngine's own score of the hand (higher is better), as its showdown uses it."""
    return HandEvaluator.eval_hand(
        [Card.from_id(card) for card in hole], [Card.from_id(card) for card in board]
    )
