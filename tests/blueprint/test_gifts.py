"""Gifts and the safe-exploitation budget (blueprint.gifts) on Kuhn and Leduc, exact answers.

Kuhn with player 0 on the equilibrium of J-bet a = 1/6 (K bets 1/2, Q never; after
pass-bet Q calls 1/2, K always, J never); player 1 is the opponent.
"""

import numpy as np
import pytest

from blueprint.best_response import best_response_value, expected_value, nash_conv
from blueprint.cfr import PRESETS, FullWidthSolver
from blueprint.gifts import (
    GiftBudget,
    action_values,
    credited_gifts,
    expected_gifts,
    hidden_gifts,
    node_range,
    player_reach,
    range_gift,
    risk,
)
from blueprint.kuhn import GAME_VALUE, kuhn_equilibrium, kuhn_game
from blueprint.leduc import leduc_game
from blueprint.tree import DECISION, FOLD
from tests.blueprint.gift_match import budgeted_match

KUHN = kuhn_game()
TREE, DEALS = KUHN.tree, KUHN.deals
EQUILIBRIUM = kuhn_equilibrium(KUHN, 1.0 / 6.0)
ROOT, AFTER_PASS, AFTER_BET, _ = KUHN.decision_nodes
J, Q, K = 0, 1, 2
PASS, BET = 0, 1


def profile(ours: np.ndarray, theirs: np.ndarray, opponent: int = 1) -> np.ndarray:
    """One table: ``ours`` on our rows, ``theirs`` on the opponent's."""
    return np.where(TREE.infoset_player()[:, None] == opponent, theirs, ours)


def calling_station() -> np.ndarray:
    """Bets or calls at every decision."""
    table = TREE.new_table()
    table[:, BET] = 1.0
    return table


def test_folding_a_king_to_a_bet_gives_up_the_pot() -> None:
    """Player 1 holds K facing a bet. Player 0 bets only J and K, and K is player 1's, so it
    holds J: calling wins player 0's 2 chips, folding loses player 1's ante: -1. The gift of
    the fold is 2 - (-1) = 3, the whole pot. Holding Q, player 0's bets are J (1/2 x 1/6)
    and K (1/2 x 1/2), so J 1/4, K 3/4: calling is worth 2/4 - 2 x 3/4 = -1, as folding:
    no gift either way (Q mixes)."""
    values = action_values(TREE, DEALS, EQUILIBRIUM, opponent=1)
    rows = TREE.infoset_rows(AFTER_BET)
    assert values.value[rows[K]] == pytest.approx([-1.0, 2.0])
    assert values.gifts()[rows[K]] == pytest.approx([3.0, 0.0])
    assert values.value[rows[Q]] == pytest.approx([-1.0, -1.0])
    assert values.gifts()[rows[Q]] == pytest.approx([0.0, 0.0])


def test_checking_behind_with_a_king_gives_up_three_elevenths() -> None:
    """After player 0 passes, player 1 holds K: player 0 passed J with 5/6 and Q always, so
    J 5/11, Q 6/11. Passing wins the ante: 1. Betting wins 1 from J (it folds) and from Q,
    which calls 1/2, 1/2 x 2 + 1/2 x 1 = 3/2: 5/11 + 9/11 = 14/11. Gift of the pass: 3/11."""
    gifts = action_values(TREE, DEALS, EQUILIBRIUM, opponent=1).gifts()
    assert gifts[TREE.infoset_rows(AFTER_PASS)[K]] == pytest.approx([3.0 / 11.0, 0.0])


def test_equilibrium_continuation_agrees_with_best_response_where_reached() -> None:
    """Where the equilibrium reaches a row its mix plays only best actions (indifference), so
    the values with its continuation equal those with the best response's."""
    best = action_values(TREE, DEALS, EQUILIBRIUM, opponent=1)
    mix = action_values(TREE, DEALS, EQUILIBRIUM, opponent=1, continuation=EQUILIBRIUM)
    reached = best.mass > 0
    np.testing.assert_allclose(mix.value[reached], best.value[reached])


@pytest.mark.parametrize("alpha", [0.0, 1.0 / 6.0, 1.0 / 3.0])
@pytest.mark.parametrize("opponent", [0, 1])
def test_equilibrium_play_gives_no_gifts(alpha: float, opponent: int) -> None:
    table = kuhn_equilibrium(KUHN, alpha)
    assert expected_gifts(TREE, DEALS, table, table, opponent) == pytest.approx(0.0, abs=1e-12)


def test_gifts_add_up_to_what_we_win_above_the_game_value() -> None:
    """For any opponent strategy, u(eq, tau) = game value + its expected gifts (exactly)."""
    rng = np.random.default_rng(7)
    for _ in range(5):
        theirs = rng.dirichlet([1.0, 1.0], size=TREE.num_infosets)
        won = expected_value(TREE, DEALS, profile(EQUILIBRIUM, theirs))
        gifts = expected_gifts(TREE, DEALS, EQUILIBRIUM, theirs, opponent=1)
        assert won == pytest.approx(GAME_VALUE + gifts, abs=1e-12)


def test_a_calling_station_gives_one_sixth_and_the_budget_credits_eleven_ninety_sixths() -> None:
    """Always bet or call, as player 1. Calling a bet with J (1/3 x player 0 betting from Q
    or K: (0 + 1/2) / 2 = 1/4; gift 1, the chips lost instead of the ante) gives 1/12;
    betting Q after a pass (1/3 x (5/6 + 1) / 2 = 1/3; gift 3/8) gives 1/12: 1/6 in all.
    The J calls are shown down, all credited. The Q bets are credited only when player 0
    calls with K and sees the Q (1/3 x 1/2 x 1/2 = 1/12 of hands, 3/8 each: 1/32); when it
    folds J the holding stays hidden and betting is no mistake with K: credited 0.
    Credited: 1/12 + 1/32 = 11/96 <= 1/6."""
    station = calling_station()
    values = action_values(TREE, DEALS, EQUILIBRIUM, opponent=1)
    reach = DEALS.weight * player_reach(TREE, DEALS, EQUILIBRIUM, 0)
    credited = reach * player_reach(TREE, DEALS, station, 1) * credited_gifts(TREE, DEALS, values)
    assert credited.sum() == pytest.approx(11.0 / 96.0)
    assert expected_gifts(TREE, DEALS, EQUILIBRIUM, station, 1) == pytest.approx(1.0 / 6.0)
    won = expected_value(TREE, DEALS, profile(EQUILIBRIUM, station))
    assert won - GAME_VALUE == pytest.approx(1.0 / 6.0)


def test_a_hidden_fold_is_credited_nothing_but_its_range_average_is_three_eighths() -> None:
    """Facing a bet, player 1's holdings weigh J 3, Q 4, K 1 (player 0's bets from the other
    two cards: 1/2 + 0, 1/6 + 1/2, 1/6 + 0, in sixths x 6): K 1/8. Only K's fold is a gift
    (3), so the range average credits 3/8 for every fold, even the equilibrium's own folds
    of J; the hidden-holding bound credits 0 (folding J is no mistake)."""
    values = action_values(TREE, DEALS, EQUILIBRIUM, opponent=1)
    weights = node_range(TREE, DEALS, EQUILIBRIUM, AFTER_BET, player=1)
    assert weights == pytest.approx([3.0 / 8.0, 4.0 / 8.0, 1.0 / 8.0])
    assert range_gift(TREE, values, AFTER_BET, weights)[PASS] == pytest.approx(3.0 / 8.0)
    assert hidden_gifts(TREE, values, AFTER_BET) == pytest.approx([0.0, 0.0])


def _prior_range_credit(tree, deals, values) -> np.ndarray:
    """A credit that values a hidden fold by the range average instead of the lower bound."""
    credited = credited_gifts(tree, deals, values)
    hidden = np.zeros(tree.num_nodes)
    for node in np.flatnonzero(tree.kind == DECISION):
        first, count = int(tree.first_child[node]), int(tree.num_children[node])
        hidden[first : first + count] = hidden[node]
        if tree.player[node] == values.opponent:
            weights = node_range(tree, deals, EQUILIBRIUM, int(node), values.opponent)
            hidden[first : first + count] += range_gift(tree, values, int(node), weights)
    return np.where((tree.kind == FOLD)[:, None], hidden[:, None], credited)


def deviation() -> np.ndarray:
    """Player 0 bets Q at the root with 0.6 (the equilibrium never does)."""
    table = EQUILIBRIUM.copy()
    table[TREE.infoset_rows(ROOT)[Q]] = [0.4, 0.6]
    return table


def test_deviation_risk_is_what_a_best_response_takes_from_it() -> None:
    """Betting Q 0.6 of the time. The best response folds J to the bet (as it checked J
    behind a pass: +1 for player 0 either way) and calls with K, where a pass had lost 3/2
    (K bets, Q calls 1/2: -2, folds 1/2: -1) and the bet loses 2. Only the deal (Q, K), 1/6
    of hands, changes: 1/6 x 0.6 x 1/2 = 1/20. The equilibrium risks nothing."""
    assert risk(TREE, DEALS, deviation(), 0, GAME_VALUE) == pytest.approx(1.0 / 20.0)
    assert risk(TREE, DEALS, EQUILIBRIUM, 0, GAME_VALUE) == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("hands", [1, 2, 3])
def test_a_match_long_best_responder_cannot_push_the_budgeted_agent_below_the_value(
    hands: int,
) -> None:
    """The opponent sees the budget and best-responds to the whole rule: it gives no gift,
    the budget stays 0, the agent never deviates and wins exactly the game value a hand."""
    outcome = budgeted_match(TREE, DEALS, (EQUILIBRIUM, deviation()), 0, GAME_VALUE, hands)
    assert outcome.total == pytest.approx(hands * GAME_VALUE, abs=1e-12)
    assert outcome.final_budget == pytest.approx(0.0, abs=1e-12)
    assert outcome.total - hands * GAME_VALUE >= outcome.final_budget - 1e-12


def test_crediting_hidden_folds_by_the_range_average_is_exploited() -> None:
    """With the range-average credit, folding J to a bet or bluffing J after a pass (no
    mistakes) fills the budget; the best responder does so, lets the agent deviate and then
    takes the deviation's whole risk (1/20) each time: the total falls below the value by
    exactly risk x expected deviating hands, while the budget it holds stays positive."""
    strategies = (EQUILIBRIUM, deviation())
    outcome = budgeted_match(TREE, DEALS, strategies, 0, GAME_VALUE, 2, credit=_prior_range_credit)
    assert outcome.deviations > 0.1
    assert outcome.final_budget > 0.1
    assert outcome.total == pytest.approx(2 * GAME_VALUE - outcome.deviations / 20.0)


def test_a_calling_station_pays_for_the_deviations_it_is_exploited_by() -> None:
    """Against the station the equilibrium wins 1/9 a hand (the game value plus its gifts,
    1/6), the Q-betting deviation 0.1 more: a Q bet wins 2 from the J that calls it, where
    passing won 1/2 (the J bets, Q calls half), and loses 2 to the K, where passing lost 3/2:
    +1/2 a bet, bet in 0.6 x 1/3 of hands. Each hand
    credits 11/96 in expectation, the deviation costs 1/20 of budget: over four hands the
    agent deviates in some, and wins exactly 4/9 + 0.1 x its expected deviating hands."""
    outcome = budgeted_match(
        TREE, DEALS, (EQUILIBRIUM, deviation()), 0, GAME_VALUE, 4, opponent=calling_station()
    )
    assert outcome.deviations > 0.5
    assert outcome.total == pytest.approx(4.0 / 9.0 + 0.1 * outcome.deviations)
    assert outcome.total - 4 * GAME_VALUE >= outcome.final_budget


def test_budget_allows_only_what_it_holds() -> None:
    budget = GiftBudget().settled(gifts=0.25, risk=0.0)
    assert budget.allows(0.25) and not budget.allows(0.26)
    assert budget.settled(gifts=0.0, risk=0.25).balance == pytest.approx(0.0)
    with pytest.raises(ValueError, match="exceeds the budget"):
        budget.settled(gifts=1.0, risk=0.5)
    with pytest.raises(ValueError, match="non-negative"):
        budget.settled(gifts=-0.1, risk=0.0)


def test_leduc_gifts_of_a_near_equilibrium_are_bounded_by_its_nash_conv() -> None:
    """A profile's own expected gifts to player p's opponent equal p's best-response gain
    against it (the identity), which is at most NashConv: exact values, not sampled."""
    game = leduc_game()
    solver = FullWidthSolver(game.tree, game.deals, PRESETS["dcfr"])
    solver.run(100)
    policy = solver.average_strategy()
    conv = nash_conv(game.tree, game.deals, policy)
    value = expected_value(game.tree, game.deals, policy)
    for opponent in (0, 1):
        gifts = expected_gifts(game.tree, game.deals, policy, policy, opponent)
        gain = best_response_value(game.tree, game.deals, policy, opponent) - (
            value if opponent == 0 else -value
        )
        assert gifts == pytest.approx(gain, abs=1e-12)
        assert 0.0 <= gifts <= conv


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="opponent must be 0 or 1"):
        action_values(TREE, DEALS, EQUILIBRIUM, opponent=2)
    with pytest.raises(ValueError, match="policy has shape"):
        action_values(TREE, DEALS, EQUILIBRIUM[:, :1], opponent=1)
    with pytest.raises(ValueError, match="weights must be 3"):
        range_gift(TREE, action_values(TREE, DEALS, EQUILIBRIUM, 1), AFTER_BET, np.zeros(3))
