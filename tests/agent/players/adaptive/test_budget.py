"""The exploiter's budgets (adaptive.budget): the gifts of a river call read from our own range
(adaptive.river_gifts), the budget's arithmetic, the risk a deviation is charged, and the
gift budget at the table.

The river spot of the worked examples: board Kh 9d 5c 2s 2h; we bet 40 into 40, the
opponent calls 40 for a pot of 120. Folding is worth 0 to it, calling ``share * 120 - 40``.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
import pytest
from pypokerengine.engine.dealer import Dealer
from pypokerengine.engine.deck import Deck
from pypokerengine.engine.player import Player
from pypokerengine.engine.table import Table

from agent.boundary.policy import PolicyPlayer, certain
from agent.boundary.situations import make_decision
from agent.boundary.snapshot import ActionRecord, Snapshot, Street, legal_call
from agent.players.adaptive.budget import Gifts, Winnings
from agent.players.adaptive.decisions import Earlier, Facing, Kind, Situation
from agent.players.adaptive.exploiter import FOLD_RISK, deviation_risk
from agent.players.adaptive.gifts import hand_street_gifts
from agent.players.adaptive.model import OpponentModel
from agent.players.adaptive.player import AdaptivePlayer
from agent.players.adaptive.ranges import holdings_of_ranks
from agent.players.adaptive.river_gifts import (
    call_gift,
    last_river_call,
    least_call_gift,
    river_gift,
)
from agent.players.subgame_solving import StreetSolution, StreetStart
from agent.poker.cards import parse_cards, rank_of
from agent.poker.evaluator import evaluate
from agent.poker.range_equity import HOLDING_CARDS, HOLDINGS, holding_index
from baselines.fish import FishPlayer
from blueprint.subgame.river import BetAbstraction, RiverSpot, solve_river

BOARD = parse_cards(["Kh", "9d", "5c", "2s", "2h"])
CALL, POT = 40, 120
BIG_BLIND = 10


def station_model(hands: int = 500) -> OpponentModel:
    """A model that has seen an opponent check and call ``hands`` times in every situation."""
    model = OpponentModel()
    for street in Street:
        for facing in Facing:
            for earlier in Earlier:
                for _ in range(hands):
                    model.count(Situation(street, facing, earlier), Kind.PASSIVE)
    return model


def index(cards: str) -> int:
    return holding_index(*parse_cards(cards.split()))


def range_of(weights: dict[str, float]) -> np.ndarray:
    our_range = np.zeros(HOLDINGS)
    for cards, weight in weights.items():
        our_range[index(cards)] = weight
    return our_range


def enumerated_share(holding: int, board: list[int], our_range: np.ndarray) -> float:
    """The pot share ``holding`` wins against ``our_range``, hand by hand (ties half)."""
    theirs = evaluate([*HOLDING_CARDS[holding].tolist(), *board])  # lower is stronger
    won = total = 0.0
    for ours in np.flatnonzero(our_range):
        if set(HOLDING_CARDS[ours]) & set(HOLDING_CARDS[holding]):
            continue
        rank = evaluate([*HOLDING_CARDS[ours].tolist(), *board])
        won += our_range[ours] * (1.0 if theirs < rank else 0.5 if theirs == rank else 0.0)
        total += our_range[ours]
    return won / total


# -- the river gift of a call ------------------------------------------------------------------


def test_calling_with_the_worst_hand_against_only_better_hands_gives_the_call():
    """4c3d (deuces, K 9 5 kickers) loses to every hand of ours: calling is worth -40, folding
    0, the gift is the call; quad deuces beat all of them: no gift."""
    better = range_of({"Ac Ad": 1.0, "Ks Qs": 1.0, "Qd Js": 1.0, "7c 6c": 1.0})
    assert least_call_gift([index("4c 3d")], BOARD, better, CALL, POT) == pytest.approx(CALL)
    assert least_call_gift([index("2c 2d")], BOARD, better, CALL, POT) == 0.0


def test_a_mixed_range_is_valued_as_hand_by_hand_enumeration():
    """9c8c (nines and deuces) against aces up (weight 2), kings up (1), 9h7h (the same two
    pair: a tie, 1) and 7c6c (deuces, 1): it wins (0.5 + 1) / 5 = 0.3 of the pot, so calling
    is worth 36 - 40 and the gift is 4. Shown as a nine and an eight, it may hold 9h8x, which
    removes the tie from our range: a share of 1/4 and a gift of 10; the least over the
    twelve holdings of those ranks is credited, 4."""
    mixed = range_of({"Ac Ad": 2.0, "Ks Qs": 1.0, "9h 7h": 1.0, "7c 6c": 1.0})
    nines = index("9c 8c")
    assert enumerated_share(nines, BOARD, mixed) == pytest.approx(0.3)
    assert least_call_gift([nines], BOARD, mixed, CALL, POT) == pytest.approx(4.0)
    candidates = holdings_of_ranks(rank_of(BOARD[1]), rank_of(parse_cards(["8c"])[0]), BOARD)
    assert len(candidates) == 12
    expected = [call_gift(enumerated_share(h, BOARD, mixed), CALL, POT) for h in candidates]
    assert sorted(set(np.round(expected, 9))) == [4.0, 10.0]
    assert least_call_gift(candidates, BOARD, mixed, CALL, POT) == pytest.approx(min(expected))


def river_hand(last: str, paid: int) -> list[ActionRecord]:
    """Seat 0 (us) and seat 1: blinds, 20 each preflop, checks to the river, our bet of 40,
    and the opponent's ``last`` action for ``paid`` chips."""
    return [
        ActionRecord(Street.PREFLOP, 1, "SMALLBLIND", 5, 5, 5),
        ActionRecord(Street.PREFLOP, 0, "BIGBLIND", 10, 10, 5),
        ActionRecord(Street.PREFLOP, 1, "RAISE", 20, 15, 10),
        ActionRecord(Street.PREFLOP, 0, "CALL", 20, 10, 0),
        *[ActionRecord(street, seat, "CALL", 0, 0, 0) for street in (2, 3) for seat in (1, 0)],
        ActionRecord(Street.RIVER, 1, "CALL", 0, 0, 0),
        ActionRecord(Street.RIVER, 0, "RAISE", 40, 40, 40),
        ActionRecord(Street.RIVER, 1, last, paid if last == "CALL" else 0, paid, 0),
    ]


def test_the_hand_history_gives_the_call_its_pot_and_our_range_there():
    """The call is the history's last record; our range is asked for before it (our bet
    counted); a fold, an unshown call, or a call of a bet for less than it is credited as
    the history says."""
    history = river_hand("CALL", 40)
    mixed = range_of({"Ac Ad": 2.0, "Ks Qs": 1.0, "9h 7h": 1.0, "7c 6c": 1.0})
    asked = []

    def own_weights(board, history_length):
        asked.append(history_length)
        return mixed

    called = last_river_call(history, own_seat=0)
    assert (called.index, called.seat, called.call, called.pot) == (len(history) - 1, 1, 40, 120)
    shown = {1: [index("9c 8c")]}
    assert river_gift(history, BOARD, 0, shown, own_weights) == pytest.approx(4.0)
    assert asked == [len(history) - 1]
    assert river_gift(history, BOARD, 0, {}, own_weights) == 0.0  # not shown
    assert river_gift(river_hand("FOLD", 0), BOARD, 0, shown, own_weights) == 0.0
    assert river_gift(history, BOARD, 0, shown, lambda board, length: None) == 0.0
    all_in = river_hand("CALL", 30)  # all in for 30 of our 40: it plays for 2 x 50
    assert last_river_call(all_in, own_seat=0).pot == 100
    assert river_gift(all_in, BOARD, 0, shown, own_weights) == pytest.approx(0.0)  # 30 - 30


def test_a_solved_river_is_credited_from_its_solution_and_not_twice():
    """A river solved over pot 10 and stacks of 10: our shove, its call with 4c3d, which
    every hand of our range beats. The solution's values credit the call's gift, 10; our own
    range would credit the same 10, but only where the river was not solved."""
    better = {"Ac Ad": 1.0, "Ks Qs": 1.0, "Qd Js": 1.0, "7c 6c": 1.0}
    ranges = np.stack([range_of(better), range_of({"4c 3d": 1.0, "2c 2d": 1.0})])
    spot = RiverSpot(tuple(BOARD), 10.0, (10.0, 10.0), 0, ranges)
    abstraction = BetAbstraction(pot_fractions=(), all_in=True, max_raises=1)
    solution = solve_river(spot, abstraction, iterations=50, target_pot_fraction=None)
    shove = ActionRecord(Street.RIVER, 0, "RAISE", 10, 10, 10)
    call = ActionRecord(Street.RIVER, 1, "CALL", 10, 10, 0)
    start = StreetStart(tuple(BOARD), 10, (10, 10), 0, (0, 1), 0, (shove,))
    decision = SimpleNamespace(hole=tuple(parse_cards(["Ac", "Ad"])), street=Street.RIVER)
    shown = {1: [index("4c 3d")]}

    def own_weights(board, history_length):
        return range_of(better)

    assert river_gift([shove, call], BOARD, 0, shown, own_weights) == pytest.approx(10.0)
    solved = (start, StreetSolution(solution))
    assert hand_street_gifts({Street.RIVER: solved}, [shove, call], shown[1]) == pytest.approx(10.0)
    for kept in (None, solved):
        budget = Gifts(1.0, own_weights, lambda snapshot, kept=kept: kept)
        budget.start_hand([], "us")
        budget.observe(decision)
        assert budget.hand_gifts([shove, call], BOARD, 0, shown) == pytest.approx(10.0)


# -- the budgets' arithmetic --------------------------------------------------------------------


def test_the_gift_budget_is_the_allowance_plus_the_gifts_less_the_risks():
    budget = Gifts(2.0, lambda board, length: None, lambda snapshot: None)
    assert budget.available(BIG_BLIND) == 20.0
    budget.credit(7.5)
    budget.charge(12.0)
    budget.charge(0.0)
    assert budget.available(BIG_BLIND) == pytest.approx(15.5)
    with pytest.raises(ValueError, match="0 chips or more"):
        budget.charge(-1.0)
    with pytest.raises(ValueError, match="0 chips or more"):
        budget.credit(-1.0)


def test_the_winnings_budget_counts_chips_won_and_ignores_charges():
    budget = Winnings(2.0)
    seats = [{"uuid": "us", "stack": 100}, {"uuid": "them", "stack": 100}]
    budget.start_hand(seats, "us")
    budget.charge(50.0)
    history = {"preflop": [{"action": "BIGBLIND", "amount": 10, "add_amount": 5, "uuid": "us"}]}
    end = {"seats": [{"uuid": "us", "stack": 115}, seats[1]], "action_histories": history}
    budget.end_hand(end, "us")
    assert budget.won == 115 - 100 - 10  # the stack's change, less the big blind posted
    assert budget.available(BIG_BLIND) == 25.0


# -- the risk a deviation is charged --------------------------------------------------------


def test_a_deviation_played_is_charged_its_chips_beyond_the_mix():
    """On the turn the fixed strategy bets 100 into 100 with top pair; against a station it
    shoves 1,000: 900 chips beyond the mix, charged once, within the 1,000 chips of a
    100-big-blind allowance."""
    player = AdaptivePlayer(budget="gifts", seed=0)
    player.book.models["p1"] = station_model()
    snapshot = player.snapshot(*make_decision(["Ah", "Td"], ["As", "8c", "5d", "3h"], pot=100))
    assert player.fixed.policy(snapshot) == [("raise", 100, 1.0)]
    assert player.exploiter.policy(snapshot) == certain(("raise", 1000))
    assert player.budget.charged == 900.0
    assert player.budget.available(snapshot.big_blind) == 100.0
    assert player.learned_policy_table(snapshot, [snapshot.hole]) == [[("raise", 100, 1.0)]]


def test_a_fold_instead_of_a_call_risks_a_share_of_the_pot():
    snapshot = Snapshot.from_ppe(
        *make_decision(["7h", "2d"], ["As", "8c", "5d", "3h"], pot=200, to_call=100), "p0"
    )
    fold = deviation_risk(snapshot, ("fold", 0), [("call", 100, 1.0)])
    assert fold == FOLD_RISK * snapshot.contested_pot == 100.0
    assert deviation_risk(snapshot, ("call", 100), [("fold", 0, 0.5), ("call", 100, 0.5)]) == 50
    assert deviation_risk(snapshot, ("call", 100), [("call", 100, 1.0)]) == 0.0


# -- at the table ---------------------------------------------------------------------------------


class CheckFold(PolicyPlayer):
    """Checks where checking is free, folds to every bet: shows no hand it called a bet with,
    so it is credited no gift."""

    def policy(self, snapshot: Snapshot) -> list:
        return certain(legal_call(snapshot) if snapshot.to_call == 0 else ("fold", 0))


def play_hands(ours: AdaptivePlayer, theirs: PolicyPlayer, hands: int, seed: int) -> None:
    """``hands`` hands of 100 big blinds, each dealt afresh from a seeded deck, the button
    alternating; the same two uuids throughout, so the book keeps its model."""
    deals = random.Random(seed)
    for hand in range(hands):
        dealer = Dealer(BIG_BLIND // 2, 100 * BIG_BLIND, 0)
        dealer.set_verbose(0)
        table = Table(cheat_deck=Deck(cheat=True, cheat_card_ids=deals.sample(range(1, 53), 52)))
        seats = [("us", ours), ("them", theirs)]
        for uuid, bot in seats if hand % 2 else seats[::-1]:
            bot.set_uuid(uuid)
            dealer.message_handler.register_algorithm(uuid, bot)
            table.seats.sitdown(Player(uuid, 100 * BIG_BLIND, uuid))
        dealer.table = table
        dealer.start_game(1)


def test_against_an_opponent_that_gives_no_gift_it_risks_at_most_the_allowance():
    """With an allowance of 3 big blinds it bets into a bot that folds to every bet until
    the allowance is spent, then plays the fixed strategy: no gift is ever credited, and the
    risks charged never pass the allowance."""
    player = AdaptivePlayer(budget="gifts", allowance=3, seed=0)
    play_hands(player, CheckFold(seed=1), hands=30, seed=7)
    assert player.errors == 0
    assert player.exploiter.deviations > 0
    assert player.budget.credited == 0.0
    assert 0.0 < player.budget.charged <= 3 * BIG_BLIND


def test_it_plays_and_is_credited_the_gifts_of_a_calling_station():
    """A station calls our river bets with hands that lose to our range: gifts are
    credited, and nothing fails."""
    player = AdaptivePlayer(budget="gifts", seed=0)
    play_hands(player, FishPlayer(seed=1), hands=30, seed=11)
    assert player.errors == 0
    assert player.budget.credited > 0.0
    assert player.budget.available(BIG_BLIND) == pytest.approx(
        1000.0 + player.budget.credited - player.budget.charged
    )
