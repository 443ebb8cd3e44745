"""``arena serve`` and ``arena play --web`` refuse bad input with one line, before serving."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.commands.cli import main


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["serve"], "name a bot to play (arena serve cfrv2) or --replay a run folder"),
        (["serve", "fish", "--port", "0"], "--port must be between 1 and 65535, got 0"),
        (["play", "fish", "--web", "--port", "70000"], "--port must be between 1 and 65535"),
        (["serve", "nosuchbot"], "unknown bot 'nosuchbot'"),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_replay_folder_without_runs_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "file.txt"
    empty.write_text("not a folder")
    result = CliRunner().invoke(main, ["serve", "--replay", str(empty)])
    assert result.exit_code == 2
    assert "is not a folder of hand histories" in result.output
