"""The ``blueprint solve`` command: output, JSON, plot and input errors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from blueprint.commands.cli import main
from blueprint.kuhn import GAME_VALUE
from blueprint.leduc import GAME_VALUE as LEDUC_VALUE


def test_kuhn_cfr_plus_prints_value_and_nash_table(tmp_path) -> None:
    plot = tmp_path / "kuhn.png"
    args = ["solve", "kuhn", "--algorithm", "cfr+", "--iterations", "500", "--plot", str(plot)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "game value (player 0): -0.0555" in result.output
    assert "Kuhn strategy vs the Nash family" in result.output
    assert "Q:b" in result.output
    assert plot.stat().st_size > 10_000


def test_json_output_has_checkpoints_and_the_kuhn_table() -> None:
    args = ["solve", "kuhn", "--algorithm", "dcfr", "--iterations", "300", "--every", "100"]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [c["iteration"] for c in data["checkpoints"]] == [100, 200, 300]
    assert data["game_value"] == pytest.approx(GAME_VALUE, abs=1e-3)
    assert len(data["kuhn_table"]) == 12


def test_leduc_cfr_plus_json_reaches_the_value() -> None:
    args = ["solve", "leduc", "--algorithm", "cfr+", "--iterations", "300", "--json"]
    data = json.loads(CliRunner().invoke(main, args).output)
    first, last = data["checkpoints"][0], data["checkpoints"][-1]
    assert first["iteration"] == 1 and last["iteration"] == 300
    assert first["nash_conv"] > 1.0 > 0.01 > last["nash_conv"]
    assert data["game_value"] == pytest.approx(LEDUC_VALUE, abs=2e-3)
    assert "kuhn_table" not in data


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--iterations", "0"], "--iterations must be at least 1, got 0"),
        (["--every", "-3"], "--every must be at least 1, got -3"),
        (["--algorithm", "magic"], "magic"),
    ],
)
def test_bad_options_are_usage_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["solve", "kuhn", *args])
    assert result.exit_code == 2
    assert message in result.output
