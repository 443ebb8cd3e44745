"""The preflop all-in table and the exact heads-up push/fold equilibrium against the Nash chart.

The chart: the heads-up push/fold Nash chart (no ante) as published in list form by
super-turbo-poker-tips.com: pushing ranges at whole-BB stacks from its "Heads-Up Push-Fold
Table" (http://www.super-turbo-poker-tips.com/push-fold.html) and calling ranges from its
"Game Theory Optimal Heads-Up Calling Strategy", derived from Chen & Ankenman's "The
Mathematics of Poker" (http://www.super-turbo-poker-tips.com/game-theory.html). The lists
agree with the HoldemResources chart's examples (http://www.holdemresources.net/h/
poker-theory/hune/usage.html: T3s is pushed up to 7.7 BB, Q2o called up to 5.6 BB, 63s
pushed only between 5.1 and 7.1 BB). Its percentage labels count something else: the ranges
themselves hold 774 / 1326 = 58.4% (push) and 494 / 1326 = 37.3% (call) of hands at 10 BB.

A hand whose chart threshold lies within 1 BB of 10 BB (in the 9 BB range but not in the
11 BB push or 12 BB call range) may flip either way: the chart's thresholds are where the
exact equilibrium turns, and our table's equity noise (standard error 0.002) and the
solver's 0.01 mbb/g tolerance move a threshold by a fraction of a BB. Every other hand must
agree. At 5 and 15 BB only the range sizes are compared (within 1.5 points).
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from agent.abstraction.preflop_matchup_table import load_matchups, shipped_matchups
from agent.abstraction.pushfold_table import shipped_table
from agent.poker.cards import HOLE_CLASSES, RANKS
from blueprint.best_response import exploitability, to_mbb
from blueprint.preflop_matchups import (
    class_combo_array,
    class_index,
    combo_pair_counts,
    main,
    matchup_kernel,
)
from blueprint.pushfold_hu import (
    pushfold_game,
    range_fraction,
    solve_hu_pushfold,
    strategy_columns,
)

PUSH_CHART = {  # stack (BB) -> pushing range, super-turbo-poker-tips.com/push-fold.html
    5: "22,A2,K2,Q2,J3,J2s,T6,T2s,96,94s,86,84s,76,74s,63s,53s,43s",
    9: "22,A2,K2,Q6,Q2s,J8,J3s,T7,T4s,97,95s,87,84s,76,74s,64s,53s,43s",
    10: "22,A2,K2,Q7,Q2s,J8,J3s,T8,T4s,97,95s,87,84s,76,74s,64s,53s,43s",
    11: "22,A2,K2,Q8,Q2s,J8,J4s,T8,T5s,98,95s,87,85s,74s,64s,53s",
    15: "22,A2,K6,K2s,Q9,Q4s,J9,J6s,T8,T6s,98,96s,85s,75s,64s,54s",
}
CALL_CHART = {  # stack (BB) -> calling range, super-turbo-poker-tips.com/game-theory.html
    5: "22,A2,K2,Q2,J5,J2s,T7,T4s,97,95s,86s,76s",
    9: "22,A2,K4,K2s,Q8,Q6s,J9,J8s,T8s",
    10: "22,A2,K5,K2s,Q9,Q7s,JT,J8s,T9s",
    12: "22,A2,K7,K4s,QT,Q8s,JT,J9s",
    15: "22,A2,K9,K7s,QT,Q9s,JTs",
}
TOLERANCE_MBB = 0.01


def expand_range(text: str) -> set[str]:
    """Classes of a chart range: '22' is 22+, 'K5' K5o+ and K5s+, 'Q7s' Q7s+ (up to QJs)."""
    classes: set[str] = set()
    for token in text.split(","):
        high, low = RANKS.index(token[0]), RANKS.index(token[1])
        if high == low:
            classes.update(RANKS[r] * 2 for r in range(low, 13))
            continue
        suits = token[2:] or "so"
        for kicker in range(low, high):
            classes.update(RANKS[high] + RANKS[kicker] + suit for suit in suits)
    return classes


def chart_mask(text: str) -> np.ndarray:
    """The range as a boolean vector in ``HOLE_CLASSES`` order."""
    members = expand_range(text)
    return np.array([name in members for name in HOLE_CLASSES])


@pytest.fixture(scope="module")
def matchups():
    return shipped_matchups()


@pytest.fixture(scope="module")
def ten_bb(matchups):
    return solve_hu_pushfold(10.0, tolerance_mbb=TOLERANCE_MBB, matchups=matchups)


def test_combo_pair_counts_are_exact():
    counts = combo_pair_counts()
    expected = {("AA", "AA"): 6, ("AA", "KK"): 36, ("AKs", "AKo"): 24, ("AA", "AKs"): 12,
                ("AKo", "AKo"): 12 * 7, ("72o", "22"): 12 * 3}  # fmt: skip
    for (first, second), count in expected.items():
        assert counts[class_index(first), class_index(second)] == count
    assert (counts == counts.T).all()
    assert counts.sum() == 1326 * 1225


def test_shipped_table_matches_known_equities(matchups):
    win, tie = matchups.win, matchups.tie
    aa, kk, ako, deuces = (class_index(n) for n in ("AA", "KK", "AKo", "22"))
    assert win[aa, kk] == pytest.approx(0.8195, abs=0.006)  # PokerStove: 81.95% / 0.46%
    assert tie[aa, kk] == pytest.approx(0.0046, abs=0.002)
    assert win[ako, deuces] == pytest.approx(0.47, abs=0.01)
    assert win[aa, aa] == pytest.approx(0.0217, abs=0.003)
    np.testing.assert_array_equal(matchups.win, matchups.loss.T)
    np.testing.assert_array_equal(matchups.tie, matchups.tie.T)
    np.testing.assert_allclose(matchups.win + matchups.tie + matchups.loss, 1.0, atol=1e-5)
    assert matchups.pairs.dtype == np.int16 and matchups.win.dtype == np.float32


def test_kernel_is_seeded_and_agrees_with_the_table(matchups):
    combos, counts = class_combo_array()
    first = np.array([class_index("AA"), class_index("AKo")], dtype=np.int64)
    second = np.array([class_index("KK"), class_index("22")], dtype=np.int64)
    stats = matchup_kernel(combos, counts, first, second, 20_000, 7)
    np.random.default_rng().random(10)  # disturb the global generators: no effect expected
    np.testing.assert_array_equal(stats, matchup_kernel(combos, counts, first, second, 20_000, 7))
    win = stats[:, 0] / stats[:, 3]
    np.testing.assert_allclose(win, matchups.win[first, second], atol=0.015)


def test_command_writes_a_loadable_table(tmp_path):
    out = tmp_path / "matchups.npz"
    result = CliRunner().invoke(main, ["--samples", "1", "--seed", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    table = load_matchups(out)
    assert table.win.shape == (169, 169) and table.samples == 1
    bad = CliRunner().invoke(main, ["--samples", "0", "--out", str(out)])
    assert bad.exit_code != 0 and "positive" in bad.output


def test_deals_carry_the_whole_chance_distribution(matchups):
    game = pushfold_game(10.0, matchups=matchups)
    assert game.tree.num_infosets == 2 * 169
    assert game.deals.weight.sum() == pytest.approx(1.0, abs=1e-12)
    expected_equity = np.sum(game.deals.weight * (game.deals.showdown + 1) / 2)
    assert expected_equity == pytest.approx(0.5, abs=1e-6)  # the all-in is fair a priori


def test_ten_bb_solution_is_unexploitable(ten_bb, matchups):
    assert 0 <= ten_bb.exploitability_mbb < TOLERANCE_MBB
    game = pushfold_game(10.0, matchups=matchups)
    table = game.tree.new_table()
    root, facing = game.decision_nodes
    table[game.tree.infoset_rows(root), 1] = ten_bb.push
    table[game.tree.infoset_rows(root), 0] = 1 - ten_bb.push
    table[game.tree.infoset_rows(facing), 1] = ten_bb.call
    table[game.tree.infoset_rows(facing), 0] = 1 - ten_bb.call
    assert to_mbb(exploitability(game.tree, game.deals, table)) < TOLERANCE_MBB
    np.testing.assert_array_equal(strategy_columns(game, table)[0], ten_bb.push)


@pytest.mark.parametrize(
    ("side", "lower", "upper"), [("push", 9, 11), ("call", 9, 12)]
)  # fmt: skip
def test_ten_bb_agrees_with_the_nash_chart(ten_bb, side, lower, upper):
    chart = PUSH_CHART if side == "push" else CALL_CHART
    ours = getattr(ten_bb, side) > 0.5
    expected = chart_mask(chart[10])
    near = chart_mask(chart[lower]) & ~chart_mask(chart[upper])  # threshold within 1 BB of 10
    differ = [HOLE_CLASSES[i] for i in np.flatnonzero((ours != expected) & ~near)]
    assert differ == []
    assert range_fraction(getattr(ten_bb, side)) == pytest.approx(
        range_fraction(expected.astype(float)), abs=0.015
    )


def test_chart_range_sizes_are_the_known_ones():
    assert range_fraction(chart_mask(PUSH_CHART[10]).astype(float)) == pytest.approx(774 / 1326)
    assert range_fraction(chart_mask(CALL_CHART[10]).astype(float)) == pytest.approx(494 / 1326)


@pytest.mark.parametrize("stack", [5, 15])
def test_range_sizes_follow_the_chart(stack, matchups):
    solution = solve_hu_pushfold(float(stack), tolerance_mbb=0.05, matchups=matchups)
    for ours, chart in ((solution.push, PUSH_CHART), (solution.call, CALL_CHART)):
        expected = range_fraction(chart_mask(chart[stack]).astype(float))
        assert range_fraction(ours) == pytest.approx(expected, abs=0.015)


def test_an_ante_widens_both_ranges(ten_bb, matchups):
    ante = solve_hu_pushfold(10.0, ante_bb=0.125, tolerance_mbb=0.05, matchups=matchups)
    assert ante.exploitability_mbb < 0.05
    assert range_fraction(ante.push) > range_fraction(ten_bb.push) + 0.02
    assert range_fraction(ante.call) > range_fraction(ten_bb.call) + 0.02


def test_the_shipped_heads_up_table_is_the_exact_solution(ten_bb):
    """data/pushfold.npz's heads-up 10 BB entry is the exact equilibrium, rounded to 1/32."""
    shipped = shipped_table().nearest(2, 10.0, 0.0)
    assert np.abs(shipped[0, 0] - ten_bb.push).max() <= 1 / 64 + 1e-3
    assert np.abs(shipped[1, 1] - ten_bb.call).max() <= 1 / 64 + 1e-3
    assert not shipped[0, 1].any() and not shipped[1, 0].any()  # unreachable histories
