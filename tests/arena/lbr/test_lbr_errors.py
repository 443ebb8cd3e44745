"""LBR's own errors: counted apart from the bot's, shown, and fatal with --strict; the depth
(--stack) recorded and printed."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.commands.cli import main
from arena.engine import BotWithCopies
from arena.lbr.player import LBRPlayer

BOTS = Path(__file__).with_name("lbr_bots.py")
PAIR_RAISER = f"{BOTS}:PairRaiser"  # calls or raises, never folds: LBR acts in every hand


def broken_valuation(self: LBRPlayer, *args: Any, **kwargs: Any) -> float:
    raise RuntimeError("valuation broke")


def test_an_lbr_valuation_error_is_counted_as_lbrs_and_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(LBRPlayer, "equity", broken_valuation)
    out = tmp_path / "run"
    args = ["lbr", PAIR_RAISER, "--hands", "4", "--workers", "1", "--no-progress"]
    result = CliRunner().invoke(main, [*args, "--stack", "2000", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    # LBR's first decision of each hand fails and folds it: one error a hand, none the bot's
    assert (summary["lbr_errors"], summary["bot_errors"]) == (4, 0)
    assert "| errors, each a fold (LBR, bot) | (4, 0) |" in result.output
    assert "warning: LBR itself failed 4 times" in result.output
    with (out / "errors.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert {(row["slot"], row["error"]) for row in rows} == {("A", "RuntimeError: valuation broke")}
    assert summary["stack"] == 2000
    assert "| depth | 200 big blinds (2,000 chips, blinds 5/10) |" in result.output
    assert "(95% t, 2 duplicate pairs)" in result.output


def test_strict_stops_at_lbrs_first_error_and_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(LBRPlayer, "equity", broken_valuation)
    args = ["lbr", PAIR_RAISER, "--hands", "4", "--workers", "1", "--no-progress", "--strict"]
    result = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "run")])
    assert result.exit_code == 1
    assert "lbr failed in hand 0: RuntimeError: valuation broke (--strict)" in result.output
    assert "Traceback" not in result.output


class Listener:
    def __init__(self, fails: bool) -> None:
        self.fails, self.heard = fails, 0

    def receive_notification(self, message: dict) -> None:
        self.heard += 1
        if self.fails:
            raise ValueError("copy broke")


def test_a_model_copys_failure_is_kept_apart_from_the_bot() -> None:
    bot, copy = Listener(fails=False), Listener(fails=True)
    errors: list[str] = []
    BotWithCopies(bot, (copy,), copy_errors=errors).receive_notification({})
    assert (bot.heard, copy.heard, errors) == (1, 1, ["ModelCopyError: ValueError: copy broke"])
    with pytest.raises(ValueError, match="copy broke"):  # without a list: the seat's error
        BotWithCopies(bot, (copy,)).receive_notification({})
