"""Student's t intervals: the quantile against published values, a CI computed by hand, and
the same interval from every path (match_stats, mean_ci, RunningStats)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from arena.commands.helpers import interval_note, learning_warning
from arena.match import MatchConfig, rows_stats
from arena.stats import RunningStats, match_stats, mean_ci, t95, t_quantile


@pytest.mark.parametrize(
    ("df", "expected", "digits"),
    [(1, 12.7062, 4), (2, 4.302653, 6), (4, 2.776445, 6), (30, 2.042272, 6), (120, 1.979930, 6)],
)
def test_t_quantile_matches_the_published_table(df: int, expected: float, digits: int) -> None:
    assert round(t_quantile(0.975, df), digits) == expected


def test_t_quantile_tends_to_the_normal_one_and_is_continuous_at_the_series_limit() -> None:
    assert round(t_quantile(0.975, 10**9), 6) == 1.959964
    assert t_quantile(0.975, 200) > t_quantile(0.975, 201) > t_quantile(0.975, 202)
    assert t_quantile(0.995, 1) == pytest.approx(63.656741, abs=1e-5)
    assert t_quantile(0.5, 7) == pytest.approx(0.0, abs=1e-12)
    assert t_quantile(0.1, 9) == pytest.approx(-t_quantile(0.9, 9), abs=1e-12)


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="degrees of freedom"):
        t_quantile(0.975, 0)
    with pytest.raises(ValueError, match="probability"):
        t_quantile(1.0, 3)
    with pytest.raises(ValueError, match="two units"):
        t95(1)


def test_a_ci_computed_by_hand() -> None:
    """Five units of one hand each, small blind 5: A wins 10, -5, 20, 0, 5 chips.

    In small blinds: 2, -1, 4, 0, 1; mean 6 / 5 = 1.2. Deviations 0.8, -2.2, 2.8, -1.2, -0.2;
    squares 0.64 + 4.84 + 7.84 + 1.44 + 0.04 = 14.8; sample variance 14.8 / 4 = 3.7;
    standard error sqrt(3.7 / 5) = 0.8602325. t(0.975, 4) = 2.7764451, so the half-width is
    2.7764451 x 0.8602325 = 2.3883883 sb/h (the normal 1.96 would give 1.6860).
    """
    stats = match_stats(np.arange(5), np.array([10, -5, 20, 0, 5]), small_blind=5)
    assert stats.units == 5 and stats.sb_per_hand == pytest.approx(1.2)
    assert stats.ci95_sb_per_hand == pytest.approx(2.3883883, abs=1e-6)
    mean, ci = mean_ci(np.arange(5), np.array([2.0, -1.0, 4.0, 0.0, 1.0]))
    assert mean == pytest.approx(1.2) and ci == pytest.approx(2.3883883, abs=1e-6)


def test_running_stats_give_the_t_interval_of_match_stats() -> None:
    units, chips = np.array([0, 0, 1, 2, 2, 3]), np.array([10, -4, 6, 0, 3, -9])
    running = RunningStats(small_blind=5)
    for unit, won in zip(units.tolist(), chips.tolist(), strict=True):
        running.add(unit, won)
    expected = match_stats(units, chips, small_blind=5).ci95_sb_per_hand
    assert running.stats().ci95_sb_per_hand == pytest.approx(expected, rel=1e-12)
    assert running.stats().units == 4


def test_a_learning_bots_unit_is_its_session_pair() -> None:
    """With sessions, the units are session pairs: 2 here, so the factor is t(0.975, 1)."""
    config = MatchConfig("adaptive", "honest", hands=8, session_hands=2)
    rows = [{"index": i, "won_A": won} for i, won in enumerate([5, 5, -5, -5, 10, 0, 0, 10])]
    stats = rows_stats(config, rows)
    assert stats.units == 2  # hands 0-3 and 4-7: a session of 2 and its mirror
    # unit sums 0 and 20 chips over 4 hands each: mean 2.5 chips/hand, residuals -10, +10
    standard_error = math.sqrt(2 / 1 * 200 / 64) / 5
    assert stats.ci95_sb_per_hand == pytest.approx(12.7062047 * standard_error, rel=1e-7)


def test_a_learning_bot_without_sessions_is_warned_about_its_interval() -> None:
    taught = f"{Path(__file__).parent / 'lbr' / 'lbr_bots.py'}:CallsUntilTaught"  # learns
    (warning,) = learning_warning((taught, "fish"), session_hands=None)
    assert warning.startswith(f"warning: {taught} learns from hand to hand")
    assert learning_warning((taught, "fish"), session_hands=10) == []
    assert learning_warning(("fish", "honest"), session_hands=None) == []


def test_cfrv2_learns_nothing_in_cash_games_and_adaptive_does() -> None:
    # cfrv2's model plays only where the stacks carry over; the arena deals games of one hand
    assert learning_warning(("cfrv2", "fish"), session_hands=None) == []
    (warning,) = learning_warning(("adaptive", "fish"), session_hands=None)
    assert warning.startswith("warning: adaptive learns from hand to hand")
    # the bounded shove learns the opponent's rates in cash games too
    (warning,) = learning_warning(("cfrv2:bounded_shove=true", "fish"), session_hands=None)
    assert warning.startswith("warning: cfrv2:bounded_shove=true learns from hand to hand")
    assert learning_warning(("cfrv2:bounded_shove=false", "fish"), session_hands=None) == []


def test_the_printed_interval_names_its_units() -> None:
    config = MatchConfig("adaptive", "honest", hands=8, session_hands=2)
    rows = [{"index": i, "won_A": won} for i, won in enumerate([5, 5, -5, -5, 10, 0, 0, 10])]
    summary = {"ci_units": f"{rows_stats(config, rows).units:,} {config.unit_name}"}
    assert interval_note(summary) == " (95% t, 2 session pairs)"
    assert MatchConfig("a", "b", hands=8).unit_name == "duplicate pairs"
