"""The exploiter's budget: what a deviation from the fixed strategy may put at risk.

Ganzfried and Sandholm 2015 ("Safe opponent exploitation") keep an exploiting player safe by
risking, beyond a fixed allowance, only what the opponents have given it. Two budgets count
what was given:

* :class:`Winnings`: the chips won over the hands played (forced bets aside). Mostly luck:
  the cards that fell, not the opponent's mistakes, so a best responder that loses by bad
  luck refills it;
* :class:`Gifts`: the opponents' gifts in expectation, the value they gave up by actions
  worse than their best against our strategy, read from our strategy's values (a solved
  street's, :mod:`.gifts`; a river call against our range, :mod:`.river_gifts`), less the
  risk of every deviation played. Only lower bounds of the gifts are credited, so against an
  opponent that gives none the deviations never risk more than the allowance in all.

Both offer ``available(big_blind)``, ``start_hand``, ``observe`` (each decision of ours),
``charge`` (a deviation played) and ``end_hand``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agent.boundary.snapshot import ActionRecord, Snapshot, Street, read_history
from agent.players.adaptive.book import PPE_DEUCE
from agent.players.adaptive.decisions import FORCED
from agent.players.adaptive.gifts import hand_street_gifts
from agent.players.adaptive.ranges import holdings_of_ranks
from agent.players.adaptive.river_gifts import OwnWeights, river_gift
from agent.players.subgame_solving import StreetSolution, StreetStart
from agent.poker.cards import parse_cards

Solved = tuple[StreetStart, StreetSolution]
SolvedOf = Callable[[Snapshot], Solved | None]


class Winnings:
    """A budget of ``allowance`` big blinds plus the chips won over the hands played."""

    def __init__(self, allowance: float) -> None:
        self.allowance = allowance
        self.won = 0  # chips won over the hands this budget has counted
        self._start_stack: int | None = None

    def available(self, big_blind: int) -> float:
        """Chips a deviation may put at risk: the allowance plus what has been won."""
        return self.allowance * big_blind + self.won

    def start_hand(self, seats: Sequence[Any], own: str | None) -> None:
        """A hand starts: remember our stack."""
        self._start_stack = next(
            (int(seat["stack"]) for seat in seats if seat["uuid"] == own), None
        )

    def observe(self, snapshot: Snapshot) -> None:
        """A decision of ours: the chips won are read at the hand's end, nothing to keep."""

    def charge(self, chips: float) -> None:
        """A deviation played: what it risked shows in the chips won, nothing to count."""

    def end_hand(
        self, round_state: Mapping[str, Any], own: str | None, hand_info: Sequence[Any] = ()
    ) -> None:
        """A hand ended: add what it won, forced bets (blinds, antes) aside."""
        uuids = [seat["uuid"] for seat in round_state["seats"]]
        if own not in uuids or self._start_stack is None:
            return
        me = uuids.index(own)
        history = read_history(round_state)
        forced = sum(r.paid for r in history if r.seat == me and r.kind in FORCED)
        self.won += int(round_state["seats"][me]["stack"]) - self._start_stack - forced


class Gifts:
    """A budget of ``allowance`` big blinds plus the gifts credited less the risks charged.

    ``own_weights(board, history_length)``: our range in the hand in progress before the
    decision at ``history_length`` (the fixed strategy's context's ``own_weights``);
    ``solved_of(snapshot)``: the street's start and solution where a decision's street was
    solved in real time, else None (the fixed strategy's ``solving.solved``).
    """

    def __init__(self, allowance: float, own_weights: OwnWeights, solved_of: SolvedOf) -> None:
        self.allowance = allowance
        self.credited = 0.0  # chips of gifts credited
        self.charged = 0.0  # chips the deviations played put at risk
        self._own_weights = own_weights
        self._solved_of = solved_of
        self._hole: tuple[int, int] | None = None  # our cards in the hand in progress
        self._solved: dict[Street, Solved] = {}  # the hand's solved streets

    def available(self, big_blind: int) -> float:
        """Chips a deviation may put at risk: the allowance, plus the gifts, less the risks."""
        return self.allowance * big_blind + self.credited - self.charged

    def charge(self, chips: float) -> None:
        """A deviation played put ``chips`` at risk."""
        if chips < 0:
            raise ValueError(f"a deviation risks 0 chips or more, got {chips}")
        self.charged += chips

    def credit(self, chips: float) -> None:
        """An opponent gave ``chips`` in expectation."""
        if chips < 0:
            raise ValueError(f"a gift is 0 chips or more, got {chips}")
        self.credited += chips

    def start_hand(self, seats: Sequence[Any], own: str | None) -> None:
        """A hand starts: forget the last one's cards and solved streets."""
        self._hole = None
        self._solved = {}

    def observe(self, snapshot: Snapshot) -> None:
        """A decision of ours: remember our cards, and the street's solution where it was
        solved (the last one seen on a street is the one its line is read on)."""
        self._hole = snapshot.hole
        solved = self._solved_of(snapshot)
        if solved is not None:
            self._solved[snapshot.street] = solved

    def end_hand(
        self, round_state: Mapping[str, Any], own: str | None, hand_info: Sequence[Any] = ()
    ) -> None:
        """A hand ended: credit its gifts (:meth:`hand_gifts`); ``hand_info``: the engine's
        showdown, the hands shown."""
        uuids = [seat["uuid"] for seat in round_state["seats"]]
        if own not in uuids or self._hole is None:
            return
        board = parse_cards(list(round_state["community_card"]))
        dead = [*self._hole, *board]
        shown = {
            uuids.index(entry["uuid"]): holdings_of_ranks(
                int(entry["hand"]["hole"]["high"]) - PPE_DEUCE,
                int(entry["hand"]["hole"]["low"]) - PPE_DEUCE,
                dead,
            ).tolist()
            for entry in hand_info
            if entry["uuid"] != own and entry["uuid"] in uuids
        }
        self.credit(self.hand_gifts(read_history(round_state), board, uuids.index(own), shown))

    def hand_gifts(
        self,
        history: Sequence[ActionRecord],
        board: Sequence[int],
        own_seat: int,
        shown: Mapping[int, Sequence[int]],
    ) -> float:
        """The hand's gifts: the solved streets' (:func:`.gifts.hand_street_gifts`), and the
        river call's against our range where the river was not solved
        (:func:`.river_gifts.river_gift`). ``shown``: each seat that showed its cards, and
        the holdings it can have held."""
        total = 0.0
        if self._solved:
            opponent = next(iter(self._solved.values()))[0].seats[1]
            holdings = shown.get(opponent)
            if holdings is not None and len(holdings) == 0:
                holdings = None
            total += hand_street_gifts(self._solved, history, holdings)
        if Street.RIVER not in self._solved:
            total += river_gift(history, board, own_seat, shown, self._own_weights)
        return total


AnyBudget = Winnings | Gifts
