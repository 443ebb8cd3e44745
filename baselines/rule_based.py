"""Rule-based: an amateur's heuristics.

The "Rule-based model" of da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo
Simulations", Cardiff University (CM3203), plays "common poker heuristics ... value betting
and only playing stronger starting hands". The rules below pin that description down:

- Preflop: raise to 3 big blinds with a win rate of at least 0.5, else call when calling
  costs at most one big blind (checking included), else fold. The win rate is the starting
  hand's strength heads-up (win or tie against one random hand, from the exact preflop table),
  whatever the number of players: a hand chart, as an amateur plays. When the bet already
  stands at 3 big blinds or more, the strong hand calls.
- After the flop: with a pair or better, bet 3 big blinds on the flop while the pot is at
  most 4 big blinds, else half the pot; facing a bet, call. Without one, check or fold.
  "A pair or better" means the hand with the hole cards is in a stronger category than the
  board alone, so a paired board does not count as a pair for everyone.

>>> from agent.boundary.situations import make_decision
>>> bot = RuleBasedPlayer()
>>> bot.action_probabilities(*make_decision(["Ks", "Qd"], to_call=5, paid=5, pot=15))
[('raise', 30, 1.0)]
>>> bot.action_probabilities(*make_decision(["9s", "9d"], ["9c", "5h", "2d"], pot=40))
[('raise', 30, 1.0)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from agent.boundary.policy import PolicyPlayer, WeightedAction, certain
from agent.boundary.snapshot import Action, Snapshot, Street, check_or_fold, legal_call, legal_raise
from agent.boundary.thresholds import win_rate
from agent.poker.cards import rank_of
from agent.poker.equity import preflop_equity
from agent.poker.evaluator import evaluate

STRONG_START = 0.5
OPEN_RAISE_BIG_BLINDS = 3
FLOP_BET_BIG_BLINDS = 3
SMALL_POT_BIG_BLINDS = 4

# Hand categories, weakest first; phevaluator's rank boundaries (smaller rank = stronger).
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
_CATEGORY_FLOORS = (
    (10, STRAIGHT_FLUSH),
    (166, QUADS),
    (322, FULL_HOUSE),
    (1599, FLUSH),
    (1609, STRAIGHT),
    (2467, TRIPS),
    (3325, TWO_PAIR),
    (6185, PAIR),
)


def category(cards: Sequence[int]) -> int:
    """The hand category of 1 to 7 cards (fewer than five: pairs, trips and quads only).

    >>> from agent.poker.cards import parse_cards
    >>> category(parse_cards(["As", "Ad", "Kc"]))
    1
    >>> category(parse_cards(["2s", "3d", "4c", "5h", "6s", "6d"]))
    4
    """
    if len(cards) >= 5:
        rank = evaluate(cards)
        return next((name for floor, name in _CATEGORY_FLOORS if rank <= floor), HIGH_CARD)
    counts = [*sorted(Counter(rank_of(card) for card in cards).values(), reverse=True), 0, 0]
    if counts[0] == 4:
        return QUADS
    if counts[0] == 3:
        return TRIPS
    if counts[0] == 2:
        return TWO_PAIR if counts[1] == 2 else PAIR
    return HIGH_CARD


def pair_or_better(hole: Sequence[int], board: Sequence[int]) -> bool:
    """A pair or better that the hole cards make: stronger than the board alone.

    >>> from agent.poker.cards import parse_cards
    >>> pair_or_better(parse_cards(["As", "7d"]), parse_cards(["Ac", "9h", "2d"]))
    True
    >>> pair_or_better(parse_cards(["Ks", "7d"]), parse_cards(["9c", "9h", "2d"]))
    False
    """
    made = category([*hole, *board])
    return made >= PAIR and made > category(board)


class RuleBasedPlayer(PolicyPlayer):
    """Raises strong starting hands, value-bets made pairs, otherwise checks or folds."""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        if snapshot.street is Street.PREFLOP:
            return certain(self.preflop(snapshot))
        return certain(self.postflop(snapshot))

    def preflop(self, snapshot: Snapshot) -> Action:
        """Raise to 3 BB with a strong start, else call up to 1 BB, else fold."""
        open_to = OPEN_RAISE_BIG_BLINDS * snapshot.big_blind
        if win_rate(preflop_equity(snapshot.hole)) >= STRONG_START:
            if snapshot.call_amount >= open_to:
                return legal_call(snapshot)
            return legal_raise(snapshot, open_to)
        if snapshot.to_call <= snapshot.big_blind:
            return legal_call(snapshot)
        return check_or_fold(snapshot)

    def postflop(self, snapshot: Snapshot) -> Action:
        """Bet a pair or better (call a bet with it), else check or fold."""
        if not pair_or_better(snapshot.hole, snapshot.board):
            return check_or_fold(snapshot)
        if not snapshot.can_check:
            return legal_call(snapshot)
        small_pot = snapshot.pot <= SMALL_POT_BIG_BLINDS * snapshot.big_blind
        if snapshot.street is Street.FLOP and small_pot:
            size = FLOP_BET_BIG_BLINDS * snapshot.big_blind
        else:
            size = snapshot.pot // 2
        return legal_raise(snapshot, snapshot.call_amount + size)
