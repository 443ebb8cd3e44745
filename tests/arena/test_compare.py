"""``arena compare``: two runs on the same cards, paired unit by unit."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from click.testing import CliRunner

from arena.chance_adjusted import chance_adjusted
from arena.commands.cli import main
from arena.compare import compare_runs, pooled
from arena.results import read_hands
from arena.stats import t95


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def tournament(out, *bots, seed=0, tournaments=8):
    result = invoke(
        "tournament", *bots, "--tournaments", tournaments, "--seed", seed, "--out", out,
        "--workers", 1, "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


def match(out, a, b, hands=40, seed=0, *options):
    result = invoke(
        "run", a, "vs", b, "--hands", hands, "--seed", seed, "--out", out, "--workers", 1,
        "--quiet", *options,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


def ring(out, first, hands=30):
    result = invoke(
        "run", first, "random", "honest", "--hands", hands, "--out", out, "--workers", 1,
        "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


def lbr(out, bot, *options):
    result = invoke(
        "lbr", bot, "--hands", 8, "--session-hands", 2, "--preflop-samples", 100, "--seed", 0,
        "--out", out, "--workers", 1, "--no-progress", *options,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("compare")
    return {
        "lbr_fish": lbr(root / "lbr_fish", "fish"),
        "lbr_rule": lbr(root / "lbr_rule", "rule-based"),
        "lbr_rule_bets": lbr(root / "lbr_rule_bets", "rule-based", "--bets", "1,allin"),
        "fish": tournament(root / "fish", "fish", "random"),
        "rule": tournament(root / "rule", "rule-based", "random"),
        "seed1": tournament(root / "seed1", "rule-based", "random", seed=1),
        "fish_seed1": tournament(root / "fish_seed1", "fish", "random", seed=1),
        "other": tournament(root / "other", "rule-based", "fish"),
        "match_fish": match(root / "match_fish", "fish", "random"),
        "match_rule": match(root / "match_rule", "rule-based", "random"),
        "ring_fish": ring(root / "ring_fish", "fish"),
        "ring_rule": ring(root / "ring_rule", "rule-based"),
    }


def test_a_run_against_itself_differs_by_nothing(runs):
    comparison = compare_runs(runs["rule"], runs["rule"])
    assert comparison.units == 4  # 8 tournaments: 4 card sequences x 2 rotations
    for measure in comparison.measures:
        assert measure.first == measure.second and measure.difference == 0.0
        assert measure.ci95 == 0.0


def test_tournament_differences_are_the_paired_means_of_the_rows(runs):
    comparison = compare_runs(runs["fish"], runs["rule"])
    rows = [json.loads((runs[name] / "summary.json").read_text()) for name in ("fish", "rule")]
    win = {m.name: m for m in comparison.measures}["win share"]
    assert win.first == pytest.approx(rows[0]["bots"][0]["win_share"], abs=1e-4)
    assert win.second == pytest.approx(rows[1]["bots"][0]["win_share"], abs=1e-4)
    assert win.difference == pytest.approx(win.second - win.first)
    assert (comparison.first_bot, comparison.second_bot) == ("fish", "rule-based")


def test_match_difference_is_the_sb_per_hand_of_the_hand_by_hand_difference(runs):
    comparison = compare_runs(runs["match_fish"], runs["match_rule"])
    chips = [
        np.array([row["won_A"] for row in read_hands(runs[name] / "hands.csv")], dtype=float)
        for name in ("match_fish", "match_rule")
    ]
    runs_of = ("match_fish", "match_rule")
    measure, adjusted = comparison.measures
    difference = chips[1] - chips[0]
    assert measure.difference == pytest.approx(difference.mean() / 5)
    pairs = difference.reshape(-1, 2).sum(axis=1)  # duplicate pairs: hands 2k and 2k + 1
    half_width = t95(len(pairs)) * pairs.std(ddof=1) * np.sqrt(len(pairs)) / len(difference) / 5
    assert measure.ci95 == pytest.approx(half_width)
    assert comparison.unit == "duplicate pairs" and comparison.units == 20
    luck_free = [chance_adjusted(read_hands(runs[n] / "hands.csv"), "A", 1000) for n in runs_of]
    assert adjusted.name == "sb/h, chance-adjusted"
    assert adjusted.difference == pytest.approx((luck_free[1] - luck_free[0]).mean() / 5)


def test_a_match_in_sessions_pairs_with_one_without_by_deal_and_seats(tmp_path):
    # random draws its actions from its generator, which every hand re-seeds from the deal and
    # the seats, not from the hand's place in the run: each deal in each seating draws and wins
    # the same whatever the layout, so paired by deal and seats the difference is exactly 0
    plain = match(tmp_path / "plain", "random", "rule-based", 40, 3)
    sessions = match(tmp_path / "sessions", "random", "rule-based", 40, 3, "--session-hands", 5)
    rows = [read_hands(folder / "hands.csv") for folder in (plain, sessions)]
    assert any(a["deal"] != b["deal"] for a, b in zip(*rows, strict=True))  # laid out otherwise
    expected = json.loads((plain / "summary.json").read_text())["sb_per_hand"]
    for first, second in ((sessions, plain), (plain, sessions)):
        comparison = compare_runs(first, second)
        assert (comparison.unit, comparison.units) == ("session pairs", 4)  # 40 hands, 5 a session
        for measure in comparison.measures:
            assert measure.difference == 0.0 and measure.ci95 == 0.0
        assert comparison.measures[0].first == pytest.approx(expected)
    by_deal = compare_runs(plain, sessions, by="deal")
    assert (by_deal.unit, by_deal.units) == ("duplicate pairs", 20)
    other = match(tmp_path / "other", "random", "rule-based", 40, 3, "--session-hands", 4)
    with pytest.raises(ValueError, match="play sessions of 4 and 5 hands"):
        compare_runs(other, sessions)


def test_ring_difference_pairs_the_deals_in_all_their_seat_rotations(runs):
    comparison = compare_runs(runs["ring_fish"], runs["ring_rule"])
    chips = []
    for name in ("ring_fish", "ring_rule"):
        with (runs[name] / "hands.csv").open() as handle:
            chips.append(np.array([int(row["won_A"]) for row in csv.DictReader(handle)], float))
    measure, adjusted = comparison.measures
    assert adjusted.name == "sb/h, chance-adjusted"
    deals = (chips[1] - chips[0]).reshape(-1, 3).sum(axis=1)  # a deal's 3 seat rotations
    assert measure.difference == pytest.approx(deals.sum() / 30 / 5)
    half_width = t95(len(deals)) * deals.std(ddof=1) * np.sqrt(len(deals)) / 30 / 5
    assert measure.ci95 == pytest.approx(half_width)
    assert comparison.kind == "ring game" and comparison.unit == "deals" and comparison.units == 10
    other = compare_runs(runs["ring_fish"], runs["ring_fish"], slot="C")
    assert other.first_bot == "honest" and other.measures[0].difference == 0.0


def test_lbr_runs_compare_what_lbr_won_from_each_bot_in_mbb_per_game(runs):
    chips = [
        np.array([row["won_A"] for row in read_hands(runs[name] / "hands.csv")], dtype=float)
        for name in ("lbr_fish", "lbr_rule")
    ]
    by_session = compare_runs(runs["lbr_fish"], runs["lbr_rule"])
    by_deal = compare_runs(runs["lbr_fish"], runs["lbr_rule"], by="deal")
    for comparison in (by_session, by_deal):
        measure, adjusted = comparison.measures
        assert measure.name == "LBR mbb/g" and comparison.slot == "B"
        assert adjusted.name == "LBR mbb/g, chance-adjusted"
        assert measure.first == pytest.approx(100.0 * chips[0].mean())  # big blind 10 chips
        assert measure.second == pytest.approx(100.0 * chips[1].mean())
        assert measure.difference == pytest.approx(measure.second - measure.first)
    assert (by_session.first_bot, by_session.second_bot) == ("fish", "rule-based")
    # 8 hands in sessions of 2: 2 session pairs, or the 4 deals each played in both seats
    assert (by_session.unit, by_session.units) == ("session pairs", 2)
    assert (by_deal.unit, by_deal.units) == ("duplicate pairs", 4)
    deals = (chips[1] - chips[0]).reshape(2, 2, 2).sum(axis=1).ravel()  # session, its mirror
    half_width = t95(len(deals)) * deals.std(ddof=1) * np.sqrt(len(deals)) / 8 * 100.0
    assert by_deal.measures[0].ci95 == pytest.approx(half_width)


def test_lbr_runs_refuse_slot_a_and_other_lbr_settings(runs):
    with pytest.raises(ValueError, match="slot A is local best response itself"):
        compare_runs(runs["lbr_fish"], runs["lbr_rule"], slot="A")
    with pytest.raises(ValueError, match="plays otherwise in the two runs: bets"):
        compare_runs(runs["lbr_rule"], runs["lbr_rule_bets"])
    result = invoke("compare", runs["lbr_fish"], runs["lbr_rule"], "--by", "deal")
    assert result.exit_code == 0, result.output
    assert "| LBR mbb/g |" in result.output and "4 duplicate pairs in common" in result.output


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        ("lbr_fish", "match_fish", "holds a local best response run"),
        ("rule", "rule", "units by deal pair heads-up matches and LBR runs"),
        ("rule", "seed1", "do not deal the same cards: seed 0 and 1"),
        ("rule", "other", "only the compared bot may differ"),
        ("rule", "match_rule", "holds a tournament run"),
        ("ring_fish", "match_fish", "holds a ring game run"),
    ],
)
def test_runs_that_cannot_be_paired_are_refused_by_name(runs, first, second, message):
    by = "deal" if first == second else "run"
    with pytest.raises(ValueError, match=message):
        compare_runs(runs[first], runs[second], by=by)
    result = invoke("compare", runs[first], runs[second], "--by", by)
    assert result.exit_code == 2 and message.split(":")[0] in result.output


def test_the_command_prints_the_table_and_refuses_a_folder_of_no_run(runs, tmp_path):
    result = invoke("compare", runs["fish"], runs["rule"])
    assert result.exit_code == 0, result.output
    assert "| win share |" in result.output and "4 card sequences in common" in result.output
    empty = invoke("compare", tmp_path, runs["rule"])
    assert empty.exit_code == 2 and "not the folder of an `arena run`" in empty.output
    bad_slot = invoke("compare", runs["fish"], runs["rule"], "--slot", "C")
    assert bad_slot.exit_code == 2 and "slots A B" in bad_slot.output


def test_pairs_of_runs_on_other_cards_pool_weighted_by_their_units(runs):
    seeds = [
        compare_runs(runs["fish"], runs["rule"]),
        compare_runs(runs["fish_seed1"], runs["seed1"]),
    ]
    both = pooled(seeds)
    counts = np.array([seeds[0].units, seeds[1].units], dtype=float)
    assert both.units == counts.sum() == 8 and both.pairs == 2
    for index, measure in enumerate(both.measures):
        parts = [comparison.measures[index] for comparison in seeds]
        assert measure.difference == pytest.approx(
            np.dot(counts, [part.difference for part in parts]) / counts.sum()
        )
        assert measure.first == pytest.approx(
            np.dot(counts, [part.first for part in parts]) / counts.sum()
        )
    # one pair pooled with itself: the same figures, the half-width over the root of two
    twice = pooled([seeds[0], seeds[0]])
    for measure, alone in zip(twice.measures, seeds[0].measures, strict=True):
        assert measure.difference == pytest.approx(alone.difference)
        assert measure.ci95 == pytest.approx(alone.ci95 / np.sqrt(2))
    with pytest.raises(ValueError, match="their bots differ"):
        pooled([seeds[0], compare_runs(runs["rule"], runs["fish"])])


def test_the_command_pools_pairs_of_runs_and_refuses_an_odd_count(runs):
    result = invoke("compare", runs["fish"], runs["rule"], runs["fish_seed1"], runs["seed1"])
    assert result.exit_code == 0, result.output
    assert result.output.count("slot A: fish (first) against rule-based (second)") == 3
    assert result.output.count("in common over 2 pairs of runs") == 1
    assert "8 card sequences in common over 2 pairs of runs" in result.output
    odd = invoke("compare", runs["fish"], runs["rule"], runs["seed1"])
    assert odd.exit_code == 2 and "in pairs" in odd.output
