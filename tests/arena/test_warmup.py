"""``arena warmup`` compiles every kernel a decision uses, so none is left to compile in play."""

from __future__ import annotations

from click.testing import CliRunner

from agent.poker.warmup import cache_is_cold
from arena.commands.cli import main
from blueprint.subgame.warmup import KERNELS


def test_warmup_leaves_no_kernel_to_compile_and_times_each_step() -> None:
    result = CliRunner().invoke(main, ["warmup"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    steps = [line.split(": ")[0] for line in lines]
    assert steps[0] == "holding equity, sampled flop"
    assert steps[-5:] == [
        "river subgame solve",
        "turn subgame solve",
        "turn leaves from a blueprint's river",
        "flop leaves from a blueprint's turn and river",
        "all steps",
    ]
    seconds = [float(line.split(": ")[1].removesuffix(" s")) for line in lines]
    assert abs(sum(seconds[:-1]) - seconds[-1]) <= 0.005 * len(seconds)
    assert not cache_is_cold(KERNELS)


def test_the_arena_compiles_a_cold_cache_before_it_builds_a_bot(monkeypatch, capsys) -> None:
    from arena.registry import make_bot, parse_bot_spec
    from blueprint.subgame import warmup

    compiled = []
    monkeypatch.setattr(warmup, "is_cold", lambda: not compiled)
    monkeypatch.setattr(warmup, "warm_up", lambda: compiled.append(1) or {})
    make_bot(parse_bot_spec("fish"))
    make_bot(parse_bot_spec("fish"))
    assert compiled == [1]
    assert "arena warmup" in capsys.readouterr().err
