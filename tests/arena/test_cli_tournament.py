"""``arena tournament`` and ring games on the command line: the files, and bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from arena.commands.cli import main


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_tournament_writes_the_report_with_the_documented_keys(tmp_path):
    out = tmp_path / "t"
    result = invoke(
        "tournament", "fish", "random", "rule-based", "--tournaments", 6, "--out", out,
        "--workers", 1, "--quiet", "--payouts", "70,30",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "| bot | win share |" in result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["tournaments"] == 6 and summary["seed"] == 0
    assert summary["payouts"] == [70.0, 30.0]
    keys = ("name", "win_share", "win_share_ci95", "mean_place", "itm_share", "mean_prize")
    for bot in summary["bots"]:
        assert all(key in bot for key in (*keys, "errors", "illegal_actions"))
    for name in ("tournaments.csv", "summary.md", "places.png", "tournament.json"):
        assert (out / name).is_file()
    again = invoke("tournament", "--resume", out, "--tournaments", 9, "--quiet", "--workers", 1)
    assert again.exit_code == 0, again.output
    assert json.loads((out / "summary.json").read_text())["tournaments"] == 9
    before = (out / "tournaments.csv").read_text()
    fewer = invoke("tournament", "--resume", out, "--tournaments", 3, "--quiet")
    assert fewer.exit_code == 2 and "fewer than the 9" in fewer.output
    assert (out / "tournaments.csv").read_text() == before


def test_a_structure_file_sets_the_levels(tmp_path):
    structure = tmp_path / "levels.json"
    structure.write_text(json.dumps({"1": {"small_blind": 25, "ante": 5}}))
    out = tmp_path / "t"
    result = invoke(
        "tournament", "fish", "fish", "--tournaments", 2, "--structure", structure,
        "--out", out, "--quiet", "--workers", 1,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads((out / "summary.json").read_text())["levels"] == [[1, 25, 5]]


def test_ring_game_from_arena_run(tmp_path):
    out = tmp_path / "r"
    result = invoke(
        "run", "fish", "vs", "random", "vs", "rule-based", "--hands", 30, "--out", out,
        "--quiet", "--workers", 1,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["hands"] == 30 and len(summary["bots"]) == 3
    again = invoke("run", "--resume", out, "--hands", 60, "--quiet", "--workers", 1)
    assert again.exit_code == 0, again.output
    assert json.loads((out / "summary.json").read_text())["hands"] == 60


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tournament", "fish"], "2 to 10 bots"),
        (["tournament", "fish", "random", "--tournaments", 5], "multiple of 2"),
        (["tournament", "fish", "random", "--payouts", "60,30"], "add up to 100"),
        (["tournament", "fish", "random", "--payouts", "50,30,20"], "only 2 play"),
        (["tournament", "fish", "nosuchbot"], "unknown bot 'nosuchbot'"),
        (["tournament", "fish", "random", "--stack", 15], "big blind"),
        (["tournament", "fish", "random", "--structure", "missing.json"], "cannot read"),
        (["tournament", "fish", "random", "--level-hands", 0], "must be positive"),
        (["run", "fish", "random", "rule-based", "--hands", 31], "multiple of 3"),
        (["run", "fish", "random", "rule-based", "--no-duplicate"], "every seat rotation"),
        (["run", "fish", "vs", "random", "--phh", "x"], "--phh writes ring games"),
    ],
)
def test_bad_input_is_a_one_sentence_usage_error(tmp_path, args, message):
    result = invoke(*args, "--out", tmp_path / "new")
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not (tmp_path / "new").exists()


def test_phh_files_of_tournaments_and_ring_games_replay_in_pokerkit(tmp_path):
    from pokerkit import HandHistory

    from arena.phh import replay_final_stacks

    phh = tmp_path / "phh"
    result = invoke(
        "tournament", "fish", "random", "rule-based", "fish", "--tournaments", 4,
        "--out", tmp_path / "t", "--phh", phh, "--quiet", "--workers", 1,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = (tmp_path / "t" / "tournaments.csv").read_text().splitlines()[1:]
    files = sorted(phh.glob("tournament-*.phhs"))
    assert len(files) == len(rows) == 4
    histories = [h for f in files for h in HandHistory.loads_all(f.read_text())]
    assert len(histories) == sum(int(row.split(",")[4]) for row in rows)  # the hands column
    agree = sum(replay_final_stacks(h) == h.finishing_stacks for h in histories)  # strict
    assert agree >= 0.9 * len(histories)  # the rest: PyPokerEngine's evaluator defects
    ring = invoke(
        "run", "fish", "random", "rule-based", "--hands", 9, "--out", tmp_path / "r",
        "--phh", tmp_path / "ring", "--quiet", "--workers", 1,
    )  # fmt: skip
    assert ring.exit_code == 0, ring.output
    assert len(list((tmp_path / "ring").glob("hand-*.phh"))) == 9
