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


def error_lines(out: Path) -> list[dict[str, str]]:
    if not (out / "errors.csv").exists():
        return []
    with (out / "errors.csv").open() as handle:
        return list(csv.DictReader(handle))


def actions_by_hand(out: Path) -> dict[int, str]:
    with (out / "hands.csv").open() as handle:
        return {int(row["index"]): row["actions"] for row in csv.DictReader(handle)}


@pytest.mark.parametrize(
    ("bot", "kind"),
    [
        ("Crasher:every=4", "RuntimeError: boom at decision 4"),
        ("SelfRecovering:every=4", "RecoveredError: the bot caught 1 internal error(s)"),
    ],
)
def test_a_failing_bot_folds_that_hand_and_the_match_goes_on(
    tmp_path: Path, bot: str, kind: str
) -> None:
    result, out = run(tmp_path, bot)
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    every = int(bot.split("=")[1])
    faults = decisions_of_a(out) // every  # one process: the bot counts all its decisions
    assert summary["hands"] == 40 and faults > 0
    name = summary["players"][0]
    assert summary["errors"] == {name: faults, "fish": 0}
    assert summary["illegal_actions"] == {name: 0, "fish": 0}
    errors = error_lines(out)
    assert len(errors) == faults and errors[0]["error"].startswith(kind)
    assert {row["slot"] for row in errors} == {"A"}
    hands = actions_by_hand(out)
    for row in errors:  # the failed decision became the bot's fold, and the hand ended there
        assert "A:FOLD" in hands[int(row["index"])]
    assert f"{name} errors (folded) | {faults} |" in result.output


@pytest.mark.parametrize(
    ("bot", "described"),
    [
        ("Malformed:every=3", "unknown action 'bet': expected 'fold', 'call' or 'raise'"),
        ("OverCaller:every=1", "call of 99999: the call amount is "),
    ],
)
def test_an_illegal_answer_is_counted_described_and_folded(
    tmp_path: Path, bot: str, described: str
) -> None:
    result, out = run(tmp_path, bot)
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    every = int(bot.split("=")[1])
    illegal = decisions_of_a(out) // every
    name = summary["players"][0]
    assert summary["illegal_actions"] == {name: illegal, "fish": 0} and illegal > 0
    assert summary["errors"] == {name: 0, "fish": 0}
    logged = error_lines(out)
    assert len(logged) == illegal
    assert all(row["error"].startswith("IllegalAction: " + described) for row in logged)
    hands = actions_by_hand(out)
    with (out / "hands.csv").open() as handle:
        by_hand = {int(row["index"]): int(row["illegal_A"]) for row in csv.DictReader(handle)}
    assert sum(by_hand.values()) == illegal
    for row in logged:
        assert "A:FOLD" in hands[int(row["index"])]


def test_the_over_call_of_a_bot_ends_20_hands_against_fish_with_20_illegal_actions(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    arguments = ["run", f"{BOTS}:OverCaller:every=1", "vs", "fish", "--hands", "20"]
    result = CliRunner().invoke(main, [*arguments, "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    name = summary["players"][0]
    assert summary["hands"] == 20
    assert summary["illegal_actions"] == {name: 20, "fish": 0}
    assert summary["chips"] == {name: -150, "fish": 150}  # 10 big and 10 small blinds lost


def test_a_decision_past_the_timeout_is_cut_short_and_folded(tmp_path: Path) -> None:
    result, out = run(tmp_path, "Slow:every=20", "--decision-timeout", "0.1")
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    name = summary["players"][0]
    errors = error_lines(out)
    assert summary["errors"] == {name: len(errors), "fish": 0} and errors
    assert errors[0]["error"] == "TimeoutError: no answer within 0.1 s"
    assert all(row["error"].split(":")[0] in ("TimeoutError", "BotBusy") for row in errors)
    assert max(ms for ms in summary["decision_ms"][name].values()) < 250  # not 300


def test_a_bot_that_never_answers_costs_its_decisions_not_the_run(tmp_path: Path) -> None:
    result, out = run(tmp_path, "Sleeper:every=3", "--decision-timeout", "0.05")
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    name = summary["players"][0]
    errors = [row["error"] for row in error_lines(out)]
    decisions = decisions_of_a(out)
    assert summary["hands"] == 40
    assert summary["errors"] == {name: decisions - 2, "fish": 0}  # every one from the third
    assert errors[0] == "TimeoutError: no answer within 0.05 s"
    assert set(errors[1:]) == {"BotBusy: still running a call that took over 0.05 s"}


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
        ("cfrv2:blueprint=/nonexistent.csv.gz", "expected a blueprint file that exists"),
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
    assert first["errors"] == second["errors"]
    assert first["illegal_actions"] == second["illegal_actions"]
    assert sum(first["illegal_actions"].values()) == 40
