"""``arena compare``: two runs on the same cards, paired unit by unit."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from click.testing import CliRunner

from arena.commands.cli import main
from arena.compare import compare_runs
from arena.results import read_hands
from arena.stats import Z95


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def tournament(out, *bots, seed=0, tournaments=8):
    result = invoke(
        "tournament", *bots, "--tournaments", tournaments, "--seed", seed, "--out", out,
        "--workers", 1, "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


def match(out, a, b, hands=40, seed=0):
    result = invoke(
        "run", a, "vs", b, "--hands", hands, "--seed", seed, "--out", out, "--workers", 1,
        "--quiet",
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


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("compare")
    return {
        "fish": tournament(root / "fish", "fish", "random"),
        "rule": tournament(root / "rule", "rule-based", "random"),
        "seed1": tournament(root / "seed1", "rule-based", "random", seed=1),
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
    (measure,) = comparison.measures
    difference = chips[1] - chips[0]
    assert measure.difference == pytest.approx(difference.mean() / 5)
    pairs = difference.reshape(-1, 2).sum(axis=1)  # duplicate pairs: hands 2k and 2k + 1
    half_width = Z95 * pairs.std(ddof=1) * np.sqrt(len(pairs)) / len(difference) / 5
    assert measure.ci95 == pytest.approx(half_width)
    assert comparison.unit == "duplicate pairs" and comparison.units == 20


def test_ring_difference_pairs_the_deals_in_all_their_seat_rotations(runs):
    comparison = compare_runs(runs["ring_fish"], runs["ring_rule"])
    chips = []
    for name in ("ring_fish", "ring_rule"):
        with (runs[name] / "hands.csv").open() as handle:
            chips.append(np.array([int(row["won_A"]) for row in csv.DictReader(handle)], float))
    (measure,) = comparison.measures
    deals = (chips[1] - chips[0]).reshape(-1, 3).sum(axis=1)  # a deal's 3 seat rotations
    assert measure.difference == pytest.approx(deals.sum() / 30 / 5)
    half_width = Z95 * deals.std(ddof=1) * np.sqrt(len(deals)) / 30 / 5
    assert measure.ci95 == pytest.approx(half_width)
    assert comparison.kind == "ring game" and comparison.unit == "deals" and comparison.units == 10
    other = compare_runs(runs["ring_fish"], runs["ring_fish"], slot="C")
    assert other.first_bot == "honest" and other.measures[0].difference == 0.0


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        ("rule", "seed1", "do not deal the same cards: seed 0 and 1"),
        ("rule", "other", "only the compared bot may differ"),
        ("rule", "match_rule", "holds a tournament run"),
        ("ring_fish", "match_fish", "holds a ring game run"),
    ],
)
def test_runs_that_cannot_be_paired_are_refused_by_name(runs, first, second, message):
    with pytest.raises(ValueError, match=message):
        compare_runs(runs[first], runs[second])
    result = invoke("compare", runs[first], runs[second])
    assert result.exit_code == 2 and message.split(":")[0] in result.output


def test_the_command_prints_the_table_and_refuses_a_folder_of_no_run(runs, tmp_path):
    result = invoke("compare", runs["fish"], runs["rule"])
    assert result.exit_code == 0, result.output
    assert "| win share |" in result.output and "4 card sequences in common" in result.output
    empty = invoke("compare", tmp_path, runs["rule"])
    assert empty.exit_code == 2 and "not the folder of an `arena run`" in empty.output
    bad_slot = invoke("compare", runs["fish"], runs["rule"], "--slot", "C")
    assert bad_slot.exit_code == 2 and "slots A B" in bad_slot.output
