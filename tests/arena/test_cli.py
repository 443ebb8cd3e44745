"""The arena CLI: run, resume, table, list, and every bad input (exit code 2, nothing touched)."""

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.commands.cli import main

BOTS = Path(__file__).parent / "sample_bots.py"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_run_writes_the_files_with_the_documented_keys(tmp_path):
    out = tmp_path / "m"
    result = invoke(
        "run",
        "ppe-fish",
        "vs",
        f"{BOTS}:RngRaiser",
        "--hands",
        200,
        "--out",
        out,
        "--workers",
        1,
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    assert "sb/h (ppe-fish)" in result.output and "illegal actions" in result.output
    summary = json.loads((out / "summary.json").read_text())
    for key in (
        "players",
        "hands",
        "seed",
        "duplicate",
        "sb_per_hand",
        "ci95_sb_per_hand",
        "bb_per_100",
        "mbb_per_hand",
        "wall_seconds",
        "hands_per_second",
        "decision_ms",
        "illegal_actions",
    ):
        assert key in summary
    assert summary["hands"] == 200 and summary["players"] == ["ppe-fish", "RngRaiser"]
    assert set(summary["decision_ms"]["RngRaiser"]) == {"p50", "p99"}
    assert summary["bb_per_100"] == pytest.approx(summary["sb_per_hand"] * 50)
    assert (out / "winnings.png").exists()
    assert len((out / "hands.csv").read_text().splitlines()) == 201


def test_resume_extends_a_match_to_the_requested_count(tmp_path):
    out = tmp_path / "m"
    assert (
        invoke(
            "run",
            "ppe-fish",
            "vs",
            "ppe-random",
            "--hands",
            100,
            "--out",
            out,
            "--quiet",
            "--workers",
            1,
        ).exit_code
        == 0
    )
    result = invoke("run", "--resume", out, "--hands", 300, "--quiet", "--workers", 1)
    assert result.exit_code == 0, result.output
    fresh = tmp_path / "f"
    invoke("run", "ppe-fish", "vs", "ppe-random", "--hands", 300, "--out", fresh, "--quiet")
    resumed = json.loads((out / "summary.json").read_text())
    direct = json.loads((fresh / "summary.json").read_text())
    assert resumed["hands"] == 300 and resumed["sb_per_hand"] == direct["sb_per_hand"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "nosuchbot", "vs", "ppe-fish"], "unknown bot 'nosuchbot'"),
        (["run", "ppe-fish", "against", "ppe-fish"], "unknown bot 'against'"),
        (["run", "ppe-fish", "vs"], "expected 'A vs B [vs C ...]'"),
        (["run", "ppe-fish", "vs", "ppe-fish", "--hands", "0"], "--hands must be a positive"),
        (["run", "ppe-fish", "vs", "ppe-fish", "--hands", "-5"], "--hands must be a positive"),
        (["run", "ppe-fish", "vs", "ppe-fish", "--hands", "3"], "even in duplicate mode"),
        (["run", "ppe-fish:speed=2", "vs", "ppe-fish"], "no option 'speed'"),
        (["run", "cfrv2@no-such-commit", "vs", "ppe-fish"], "bot version @no-such-commit: "),
        (["table", "ppe-fish"], "at least two bots"),
        (["table", "ppe-fish", "nosuchbot"], "unknown bot"),
    ],
)
def test_bad_input_is_a_one_sentence_usage_error(tmp_path, args, message):
    result = invoke(*args, "--out", tmp_path / "new")
    assert result.exit_code == 2
    assert message in result.output
    assert not (tmp_path / "new").exists()


def test_non_empty_output_folder_is_refused_and_untouched(tmp_path):
    out = tmp_path / "busy"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    result = invoke("run", "ppe-fish", "vs", "ppe-fish", "--hands", 10, "--out", out)
    assert result.exit_code == 2 and "is not empty" in result.output
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_unwritable_output_folder(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    result = invoke("run", "ppe-fish", "vs", "ppe-fish", "--hands", 10, "--out", locked / "m")
    assert result.exit_code == 2 and "not writable" in result.output


def test_output_folder_under_a_file_is_unwritable(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = invoke("run", "ppe-fish", "vs", "ppe-fish", "--hands", 10, "--out", blocker / "m")
    assert result.exit_code == 2 and "not writable" in result.output
    assert blocker.read_text() == "x"


def test_resume_of_a_folder_without_a_match(tmp_path):
    result = invoke("run", "--resume", tmp_path)
    assert result.exit_code == 2 and "holds no match.json" in result.output


def test_resume_with_other_bots_is_refused(tmp_path):
    out = tmp_path / "m"
    invoke("run", "ppe-fish", "vs", "ppe-fish", "--hands", 20, "--out", out, "--quiet")
    before = (out / "hands.csv").read_text()
    result = invoke("run", "ppe-fish", "vs", "ppe-random", "--resume", out)
    assert result.exit_code == 2 and "holds ppe-fish vs ppe-fish" in result.output
    assert (out / "hands.csv").read_text() == before


def test_table_prints_an_antisymmetric_matrix(tmp_path):
    result = invoke(
        "table",
        "ppe-fish",
        "ppe-random",
        f"{BOTS}:Caller",
        "--hands",
        100,
        "--out",
        tmp_path / "t",
        "--quiet",
        "--workers",
        1,
    )
    assert result.exit_code == 0, result.output
    lines = (tmp_path / "t/table.csv").read_text().splitlines()
    assert lines[0] == "row,column,hands,sb_per_hand,ci95_sb_per_hand" and len(lines) == 7
    cells = {tuple(line.split(",")[:2]): float(line.split(",")[3]) for line in lines[1:]}
    assert cells[("ppe-fish", "ppe-random")] == -cells[("ppe-random", "ppe-fish")]
    assert cells[("ppe-fish", "Caller")] == 0.0  # two always-callers, duplicate deals
    assert "| row \\ col | ppe-fish | ppe-random | Caller |" in result.output
    assert (tmp_path / "t/table.png").exists()


def test_list_shows_every_registry_name():
    result = invoke("list")
    assert result.exit_code == 0
    for name in (
        "fish",
        "honest",
        "random",
        "rule-based",
        "montecarlo",
        "cfrv1",
        "cfrv2",
        "ppe-fish",
        "ppe-honest",
        "ppe-random",
    ):
        assert any(line.startswith(name + " ") for line in result.output.splitlines())


def test_resume_with_fewer_hands_is_refused_and_drops_nothing(tmp_path):
    out = tmp_path / "m"
    invoke("run", "ppe-fish", "vs", "ppe-fish", "--hands", 20, "--out", out, "--quiet")
    before = (out / "hands.csv").read_text()
    result = invoke("run", "--resume", out, "--hands", 10, "--quiet")
    assert result.exit_code == 2 and "fewer than the 20" in result.output
    assert (out / "hands.csv").read_text() == before
