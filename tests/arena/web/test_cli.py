"""``arena serve`` and ``arena play --web`` refuse bad input with one line, before serving;
a replay folder without hand histories says so and how to get them."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.commands.cli import main
from arena.web.replay import missing_histories


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


def heads_up_run(folder: Path) -> Path:
    """A folder as a heads-up ``arena run`` leaves it: no PHH files."""
    folder.mkdir(parents=True)
    (folder / "match.json").write_text("{}")
    (folder / "hands.csv").write_text("hand\n")
    return folder


def test_a_replay_of_a_run_without_hand_histories_says_how_to_get_them(tmp_path: Path) -> None:
    run = heads_up_run(tmp_path / "cfrv2-vs-fish")
    result = CliRunner().invoke(main, ["serve", "--replay", str(run)])
    assert result.exit_code == 2
    assert "holds no hand histories to replay: it is a heads-up arena run." in result.output
    assert "--phh DIR" in result.output


def test_folders_of_runs_without_hand_histories_are_counted(tmp_path: Path) -> None:
    heads_up_run(tmp_path / "runs" / "a")
    heads_up_run(tmp_path / "runs" / "b")
    (tmp_path / "runs" / "web" / "phh").mkdir(parents=True)
    (tmp_path / "runs" / "web" / "phh" / "hand-0000000.phh").write_text("")
    (notice,) = missing_histories([tmp_path / "runs"])
    assert notice.startswith(f"2 folders in {tmp_path / 'runs'} hold no hand histories. Hand")
    assert missing_histories([tmp_path / "runs" / "web"]) == []
    (alone,) = missing_histories([tmp_path / "runs" / "a"])
    assert alone.startswith(f"{tmp_path / 'runs' / 'a'} holds no hand histories to replay: it is")
