"""The LBR breakdown adds up to the match total; all-in adjustment scores the expectation."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from arena.commands.cli import main
from arena.lbr.report import (
    adjusted_winnings,
    breakdown,
    by_ending,
    by_preflop_line,
    hand_ending,
    mbb_with_ci,
)

HANDS = pd.DataFrame(
    {
        "deal": [0, 0, 1, 1],
        "seats": ["A B", "B A", "A B", "B A"],
        "hole_seat0": ["As Ah", "As Ah", "7c 2d", "7c 2d"],  # duplicate: seat 0 keeps its cards
        "hole_seat1": ["Kd Kc", "Kd Kc", "9s 8s", "9s 8s"],
        "board": ["2c 7d 9h Js 3s", "2c 7d 9h Js 3s", "", "Ac Kh Qd"],
        "actions": [
            "preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:RAISE:1000 A:CALL:1000",
            "preflop=A:SMALLBLIND:5 B:BIGBLIND:10 A:RAISE:1000 B:CALL:1000",
            "preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:RAISE:30 A:FOLD:0",
            "preflop=A:SMALLBLIND:5 B:BIGBLIND:10 A:CALL:10 B:CALL:10;"
            "flop=B:CALL:0 A:RAISE:20 B:FOLD:0",
        ],
        "won_A": [1000, -1000, -10, 10],
    }
)


def test_breakdown_contributions_add_up_to_the_total():
    table = breakdown(HANDS)
    total = 1000.0 * HANDS["won_A"].sum() / 10 / len(HANDS)
    assert table["mbb_per_hand"].sum() == pytest.approx(total)
    assert table["hands"].sum() == len(HANDS)
    assert set(table["ending"]) == {"showdown", "LBR folds", "bot folds"}


def groups(table: pd.DataFrame, columns: tuple[str, ...]) -> dict:
    return {
        tuple(row[column] for column in columns): (row["hands"], row["lbr_chips"])
        for _, row in table.iterrows()
    }


def test_preflop_lines_name_the_bots_blind_and_raises_in_big_blinds():
    table = by_preflop_line(HANDS)
    assert groups(table, ("blind", "preflop_line")) == {
        ("bot small blind", "bot raise 100, LBR call"): (1, 1000),
        ("bot big blind", "LBR raise 100, bot call"): (1, -1000),
        ("bot small blind", "bot raise 3, LBR fold"): (1, -10),
        ("bot big blind", "LBR call, bot check"): (1, 10),
    }
    assert table["mbb_per_hand"].sum() == pytest.approx(0.0)  # LBR's chips add up to 0


def test_a_fold_says_whether_the_folder_called_on_the_street_before():
    assert groups(by_ending(HANDS), ("ending",)) == {
        ("showdown after the preflop",): (2, 0),
        ("LBR folds preflop",): (1, -10),
        # the big blind's 10 matched its blind: a check, not a call
        ("bot folds on the flop without a call preflop",): (1, 10),
    }
    called = "preflop=A:SMALLBLIND:5 B:BIGBLIND:10 A:RAISE:30 B:CALL:30;flop=A:RAISE:30 B:FOLD:0"
    assert hand_ending(called) == "bot folds on the flop after a call preflop"
    checked = "preflop=A:CALL:10 B:CALL:10;flop=A:CALL:0 B:CALL:0;turn=A:RAISE:20 B:FOLD:0"
    assert hand_ending(checked) == "bot folds on the turn without a call on the flop"
    river = "preflop=A:CALL:10 B:CALL:10;flop=A:CALL:0 B:CALL:0;turn=A:CALL:0 B:CALL:0;river="
    assert hand_ending(river + "A:RAISE:20 B:CALL:20") == "showdown after the river"


def test_all_in_hands_are_scored_by_their_expectation():
    won = adjusted_winnings(HANDS)
    # AsAh against KdKc preflop: 81.26% of 2,000 chips (exact enumeration), less the 1,000
    # put in; the report samples 20,000 boards (standard error about 6 chips)
    assert won[0] == pytest.approx(0.8126 * 2000 - 1000, abs=25)
    assert won[1] == pytest.approx(0.1874 * 2000 - 1000, abs=25)  # LBR held the kings
    assert won[0] + won[1] == pytest.approx(0.0, abs=60)  # same deal, seats swapped
    assert won[2:].tolist() == [-10, 10]  # no all-in: the chips as played
    mean, half = mbb_with_ci(HANDS, won)
    assert mean == pytest.approx(1000.0 * won.mean() / 10)
    assert half > 0


def test_the_paper_table_files_runs_under_their_settings(tmp_path: Path) -> None:
    def run(name: str, bets: str, rounds: str, value: str, mbb: float, **depth: int) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        summary = {
            **depth,
            "players": ["lbr", "cfrv2"],
            "hands": 10_000,
            "lbr_bets": bets,
            "lbr_rounds": rounds,
            "lbr_value": value,
            "lbr_mbb_per_hand": mbb,
            "lbr_ci95_mbb_per_hand": 100.0,
        }
        (folder / "summary.json").write_text(json.dumps(summary))
        return folder

    runs = [run("fc", "none", "1-4", "whole", 321.4), run("fcpa", "1,allin", "3-4", "whole", 99)]
    runs.append(run("deep", "none", "1-4", "whole", 500, stack=2000, small_blind=5))
    result = CliRunner().invoke(main, ["lbr-table", *map(str, runs)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("| LBR setting | Hyperborean 2013 (200 bb) |")
    assert "| cfrv2 (100 bb) | cfrv2 (200 bb) |" in lines[0]  # a summary without stack: 1,000
    assert lines[2] == (
        "| fc, rounds 1-4 | 1048 ± 68 | 721 ± 56 | 522 ± 50 | 407 ± 47 | 321 ± 100 (10,000 h)"
        " | 500 ± 100 (10,000 h) |"
    )
    assert lines[3].startswith("| fcpa, rounds 3-4 | 4040 ± 147 |")
    assert lines[3].endswith("| 99 ± 100 (10,000 h) |  |")
    assert "published rows are Lisy & Bowling's (2017, Table 3), 200 bb deep" in result.output
    bad = CliRunner().invoke(main, ["lbr-table", str(tmp_path)])
    assert bad.exit_code == 2 and "is not the summary of an `arena lbr` run" in bad.output


def test_a_reader_that_leaves_early_ends_the_report_quietly(tmp_path: Path) -> None:
    """``python -m arena.lbr.report DIR | head``: the pipe closes before the report prints."""
    HANDS.assign(index=range(len(HANDS))).to_csv(tmp_path / "hands.csv", index=False)
    match = {"format_version": 1, "bot_a": "lbr", "bot_b": "cfrv2", "hands": 4}
    match |= {"stack": 1000, "small_blind": 5}
    (tmp_path / "match.json").write_text(json.dumps(match))
    command = [sys.executable, "-m", "arena.lbr.report", str(tmp_path)]
    report = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    report.stdout.close()  # the reader leaves before the first line
    _, errors = report.communicate(timeout=120)
    assert errors.decode() == ""
    assert report.returncode == 1
