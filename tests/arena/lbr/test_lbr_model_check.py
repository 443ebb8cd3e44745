"""LBR checks its model of the bot against the bot's real cards after every hand.

A copy of the bot that does not play as the bot makes LBR track a wrong range, and its
winnings then understate the bot's exploitability (a measuring tool flattering the bot). The
check counts the hands where LBR's final range lost the bot's real holding or an action of the
bot had probability 0 under every holding; a model that is the bot never loses it.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from agent.poker.cards import parse_cards
from arena.commands.cli import main
from arena.lbr.match import (
    MODEL_CHECK_FILE,
    LBRConfig,
    append_model_checks,
    model_check_counts,
    model_kept_bot_hand,
    run_lbr,
)
from arena.lbr.player import parse_bets
from arena.lbr.range import Range
from arena.results import HANDS_FILE, read_hands

BOTS = Path(__file__).with_name("lbr_bots.py")
PAIR_RAISER = f"{BOTS}:PairRaiser"
UNPAIRED_RAISER = f"{BOTS}:UnpairedRaiser"
HANDS = 12


def bot_decisions(row: dict) -> list[str]:
    """The bot's (slot B's) moves in the hand, blinds left out: ``B:RAISE:20``, ``B:CALL:0``."""
    moves = [move for part in row["actions"].split(";") for move in part.split("=")[-1].split()]
    return [
        move
        for move in moves
        if move.split(":")[:2] in (["B", "CALL"], ["B", "RAISE"], ["B", "FOLD"])
    ]


def bot_acted(row: dict) -> bool:
    return bool(bot_decisions(row))


def play(tmp_path: Path, model: str | None) -> tuple[dict, list[dict]]:
    config = LBRConfig(PAIR_RAISER, parse_bets("0.5,1,allin"), model, preflop_samples=100)
    summary = run_lbr(config, HANDS, seed=3, out_dir=tmp_path, workers=1)
    return summary, read_hands(tmp_path / HANDS_FILE)


def checks(path: Path) -> dict[int, bool]:
    lines = (path / MODEL_CHECK_FILE).read_text().splitlines()[1:]
    return {int(i): flag == "1" for i, flag in (line.split(",") for line in lines)}


def test_a_model_that_is_the_bot_keeps_the_bots_cards_in_every_hand(tmp_path: Path) -> None:
    summary, rows = play(tmp_path, None)
    assert summary["lbr_model_checked_hands"] == HANDS
    assert summary["lbr_model_lost_hands"] == 0
    assert sum(bot_acted(row) for row in rows) > HANDS // 2


def test_a_model_that_plays_otherwise_is_caught_where_the_bot_acted(tmp_path: Path) -> None:
    """UnpairedRaiser reads every raise as an unpaired hand and every call with a raise
    available as a pair: PairRaiser's real cards leave the range at its first such action
    (a call of an all-in, with no raise available, is the same for both)."""
    summary, rows = play(tmp_path, UNPAIRED_RAISER)
    kept = checks(tmp_path)
    assert summary["lbr_model_checked_hands"] == HANDS
    assert summary["lbr_model_lost_hands"] == list(kept.values()).count(False) > HANDS // 2
    for row in rows:
        first = (bot_decisions(row) or [""])[0]
        if not first:
            assert kept[row["index"]]
        if first.startswith("B:RAISE") or first == "B:CALL:0":
            assert not kept[row["index"]], row["actions"]  # a raise or check, raise available


def test_the_cli_warns_when_the_model_lost_the_bots_cards(tmp_path: Path) -> None:
    common = ["lbr", PAIR_RAISER, "--hands", "4", "--workers", "1", "--no-progress"]
    common += ["--preflop-samples", "100", "--seed", "3"]
    wrong = CliRunner().invoke(main, [*common, "--model", UNPAIRED_RAISER, "--out", tmp_path / "w"])
    assert wrong.exit_code == 0, wrong.output
    assert "warning: in " in wrong.output and "does not play as the bot" in wrong.output
    right = CliRunner().invoke(main, [*common, "--out", tmp_path / "r"])
    assert right.exit_code == 0, right.output
    assert "ruled out the bot's real cards | 0 of 4 |" in right.output
    assert "warning" not in right.output
    assert json.loads((tmp_path / "r" / "summary.json").read_text())["lbr_model_lost_hands"] == 0


def test_a_range_without_the_real_cards_or_with_an_impossible_action_fails_the_check() -> None:
    aces = parse_cards(["As", "Ad"])
    hand_range = Range.uniform(parse_cards(["Kc", "Qd"]))
    assert model_kept_bot_hand(hand_range, aces)
    hand_range.block([aces[0]])  # a board card the bot holds cannot happen; it tests the weight
    assert not model_kept_bot_hand(hand_range, aces)
    missed = Range.uniform()
    missed.misses = 1
    assert not model_kept_bot_hand(missed, aces)


def test_hands_played_again_on_resume_count_once_with_their_last_check(tmp_path: Path) -> None:
    path = tmp_path / MODEL_CHECK_FILE
    append_model_checks(
        path, [{"index": 0, "lbr_model_kept": True}, {"index": 1, "lbr_model_kept": False}]
    )
    append_model_checks(
        path, [{"index": 1, "lbr_model_kept": True}, {"index": 2, "lbr_model_kept": False}]
    )
    assert model_check_counts(tmp_path, [0, 1, 2]) == (3, 1)
    assert model_check_counts(tmp_path, [0, 1]) == (2, 0)  # hand 2 is not in hands.csv
    assert model_check_counts(tmp_path / "none", [0]) == (0, 0)  # a run made before the check
