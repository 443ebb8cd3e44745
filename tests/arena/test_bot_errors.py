"""A failing bot costs its hand, not the match: errors are counted, folded and reported."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.commands.cli import main

BOTS = Path(__file__).with_name("faulty_bots.py")


def run(tmp_path: Path, bot: str, *options: str) -> tuple[object, Path]:
    out = tmp_path / "out"
    arguments = ["run", f"{BOTS}:{bot}", "vs", "fish", "--hands", "40", "--workers", "1"]
    result = CliRunner().invoke(main, [*arguments, "--quiet", "--out", str(out), *options])
    return result, out


def decisions_of_a(out: Path) -> int:
    with (out / "hands.csv").open() as handle:
        return sum(len(row["decision_ms_A"].split()) for row in csv.DictReader(handle))


@pytest.mark.parametrize(
    ("bot", "options", "kind"),
    [
        ("Crasher:every=4", (), "RuntimeError: boom at decision 4"),
        ("Malformed:every=3", (), "MalformedAction: malformed action ('bet', 'lots')"),
        ("Slow:every=20", ("--decision-timeout", "0.1"), "TimeoutError: decided in 0.3"),
        ("SelfRecovering:every=4", (), "RecoveredError: the bot caught 1 internal error(s)"),
    ],
)
def test_a_failing_bot_folds_that_hand_and_the_match_goes_on(
    tmp_path: Path, bot: str, options: tuple[str, ...], kind: str
) -> None:
    result, out = run(tmp_path, bot, *options)
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    every = int(bot.split("=")[1])
    faults = decisions_of_a(out) // every  # one process: the bot counts all its decisions
    assert summary["hands"] == 40 and faults > 0
    name = summary["players"][0]
    assert summary["errors"] == {name: faults, "fish": 0}
    assert summary["illegal_actions"] == {name: 0, "fish": 0}
    with (out / "errors.csv").open() as handle:
        errors = list(csv.DictReader(handle))
    assert len(errors) == faults and errors[0]["error"].startswith(kind)
    assert {row["slot"] for row in errors} == {"A"}
    with (out / "hands.csv").open() as handle:
        hands = {int(row["index"]): row["actions"] for row in csv.DictReader(handle)}
    for row in errors:  # the failed decision became the bot's fold, and the hand ended there
        assert "A:FOLD" in hands[int(row["index"])]
    assert f"{name} errors (folded) | {faults} |" in result.output


def test_strict_stops_at_the_first_error_and_keeps_the_hands_before(tmp_path: Path) -> None:
    result, out = run(tmp_path, "Crasher:every=4", "--strict")
    assert result.exit_code == 1
    message = result.output.strip().splitlines()[-1]
    assert "failed in hand" in message and "boom at decision 4" in message
    assert "--strict" in message and "--resume" in message
    assert (out / "hands.csv").exists()


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        (f"{BOTS}:Unbuildable", "cannot be built: no model file here"),
        ("cfrv2:blueprint=/nonexistent.csv.gz", "cannot be built: blueprint file"),
    ],
)
def test_an_unbuildable_bot_is_one_line_exit_2_and_no_folder(
    tmp_path: Path, spec: str, problem: str
) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, ["run", spec, "vs", "fish", "--hands", "2", "--out", str(out)]
    )
    assert result.exit_code == 2
    assert problem in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_errors_are_the_same_with_two_workers(tmp_path: Path) -> None:
    one, out_one = run(tmp_path / "one", "Malformed:every=1")
    two, out_two = run(tmp_path / "two", "Malformed:every=1", "--workers", "2")
    assert one.exit_code == two.exit_code == 0
    first = json.loads((out_one / "summary.json").read_text())
    second = json.loads((out_two / "summary.json").read_text())
    assert first["errors"] == second["errors"] and sum(first["errors"].values()) == 40
