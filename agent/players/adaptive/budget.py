"""The exploiter's budget: what a deviation from the fixed strategy may put at risk.

Ganzfried and Sandholm 2015 ("Safe opponent exploitation") keep an exploiting player safe by
risking, beyond a fixed allowance, only what the opponents have given it. :class:`Winnings`
counts what was given as the chips won over the hands played (forced bets aside).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agent.boundary.snapshot import read_history
from agent.players.adaptive.decisions import FORCED


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

    def end_hand(self, round_state: Mapping[str, Any], own: str | None) -> None:
        """A hand ended: add what it won, forced bets (blinds, antes) aside."""
        uuids = [seat["uuid"] for seat in round_state["seats"]]
        if own not in uuids or self._start_stack is None:
            return
        me = uuids.index(own)
        history = read_history(round_state)
        forced = sum(r.paid for r in history if r.seat == me and r.kind in FORCED)
        self.won += int(round_state["seats"][me]["stack"]) - self._start_stack - forced
