"""A player built where numba has not compiled its kernels says so, names ``arena warmup``,
compiles them in a separate process, and plays the study's thresholds on a compile-free win
rate after the flop in the hands that start before that process ends."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from agent import CFRv2Player
from agent.boundary.policy import certain
from agent.boundary.situations import make_decision
from agent.boundary.snapshot import Snapshot, Street
from agent.boundary.thresholds import threshold_level, win_rate
from agent.poker.equity import equity
from blueprint.subgame import warmup


def kernels_in(tmp_path: Path, compiled: bool) -> tuple[tuple[ModuleType, tuple[str, ...]], ...]:
    """One fake kernel whose numba index exists and is newer than its source, or is missing."""
    module = ModuleType("fake")
    module.__file__ = str(tmp_path / "fake.py")
    Path(module.__file__).write_text("")
    os.utime(module.__file__, (1_000, 1_000))
    index = tmp_path / "fake.kernel-1.py311.nbi"
    if compiled:
        index.write_text("")
    module.kernel = SimpleNamespace(  # type: ignore[attr-defined]
        _cache=SimpleNamespace(_cache_file=SimpleNamespace(_index_path=str(index)))
    )
    return ((module, ("kernel",)),)


class WarmUp:
    """A stand-in for the warm-up process: running until ``code`` is set."""

    def __init__(self) -> None:
        self.code: int | None = None

    def poll(self) -> int | None:
        return self.code


@pytest.fixture
def cold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> WarmUp:
    """A cold cache, and the warm-up process a player starts on it."""
    monkeypatch.setattr(warmup, "KERNELS", kernels_in(tmp_path, compiled=False))
    process = WarmUp()
    monkeypatch.setattr(warmup, "warm_up_in_background", lambda: process)
    return process


def river(hole: list[str]) -> Snapshot:
    valid, ppe_hole, state = make_decision(hole, ["Ac", "Kd", "2c", "7h", "9s"], to_call=20, pot=60)
    return Snapshot.from_ppe(valid, ppe_hole, state, "p0")


def test_a_player_on_a_cold_cache_warns_and_plays_the_thresholds_after_the_flop(
    cold: WarmUp,
) -> None:
    with pytest.warns(warmup.ColdCacheWarning, match="arena warmup"):
        player = CFRv2Player(seed=0)
    assert player.compilation is cold
    assert player.context.compiling and player.played is player.fixed
    # with the kernels, the strategy calls with 9h8h (its defence); the thresholds fold it
    for hole in (["Ah", "Ad"], ["3s", "4s"], ["Kh", "Qh"], ["9h", "8h"]):
        snapshot = river(hole)
        rate = win_rate(equity(snapshot.hole, snapshot.board, method="exact"))
        level = threshold_level(rate, Street.RIVER, 1, player.strategy.threshold.thresholds)
        assert player.policy(snapshot) == certain(player.fixed.levels.action(level, snapshot))


def test_the_hands_after_the_warm_up_ends_play_the_whole_strategy(cold: WarmUp) -> None:
    with pytest.warns(warmup.ColdCacheWarning):
        player = CFRv2Player(seed=0)
    preflop = make_decision(["Ah", "Kd"], [], to_call=5, pot=15)
    while_compiling = player.policy(Snapshot.from_ppe(*preflop, "p0"))
    cold.code = 0
    player.receive_round_result_message([], [], {})
    assert player.context.compiling  # a hand keeps the policy it started with
    player.receive_round_start_message(2, ["SA", "DK"], [])
    assert not player.context.compiling and player.played is player.exploiter
    assert not player.fixed.compiling.applies(river(["3s", "4s"]))
    assert player.policy(Snapshot.from_ppe(*preflop, "p0")) == while_compiling  # tables


def test_a_player_on_a_filled_cache_or_without_the_jit_says_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(warmup, "KERNELS", kernels_in(tmp_path, compiled=True))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        player = CFRv2Player(seed=0)
        assert player.compilation is None and not player.context.compiling
        plain = ModuleType("plain")
        plain.__file__ = __file__
        plain.kernel = lambda: None  # type: ignore[attr-defined]
        monkeypatch.setattr(warmup, "KERNELS", ((plain, ("kernel",)),))
        assert warmup.compile_in_background() is None


GAME = """
import json, random, sys, time, warnings
from numba.core.registry import CPUDispatcher
from pypokerengine.api.game import setup_config, start_poker
from blueprint.subgame import warmup

class Running:
    def poll(self):
        return None

warmup.warm_up_in_background = lambda: Running()
warnings.simplefilter("ignore")
random.seed(7)  # the engine's deck
from agent import CFRv2Player
from baselines.fish import FishPlayer
from baselines.random_player import RandomPlayer
player = CFRv2Player(seed=0)
times = []
decide = player.declare_action
def timed(*arguments):
    start = time.perf_counter()
    answer = decide(*arguments)
    state = arguments[2]
    players = sum(seat["state"] == "participating" for seat in state["seats"])
    times.append((time.perf_counter() - start, state["street"], players))
    return answer
player.declare_action = timed
config = setup_config(max_round=60, initial_stack=1000, small_blind_amount=5)
config.register_player(name="cfrv2", algorithm=player)
opponents = {"random": RandomPlayer(seed=3), "fish": FishPlayer(), "fish 2": FishPlayer()}
for name, opponent in opponents.items():
    config.register_player(name=name, algorithm=opponent)
start_poker(config, verbose=0)
compiled = sorted(
    f"{name}.{attribute}"
    for name, module in list(sys.modules.items())
    if name.split(".")[0] in ("agent", "blueprint")
    for attribute, value in vars(module).items()
    if isinstance(value, CPUDispatcher) and value.overloads
)
postflop = sum(street != "preflop" for _, street, _ in times)
multiway_preflop = sum(street == "preflop" and players > 2 for _, street, players in times)
print(json.dumps({"postflop": postflop, "multiway preflop": multiway_preflop,
                  "longest": max(taken for taken, _, _ in times),
                  "errors": player.errors, "compiled": compiled}))
"""


def test_a_four_player_game_on_an_empty_cache_compiles_nothing_while_the_warm_up_runs(
    tmp_path: Path,
) -> None:
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    done = subprocess.run(
        [sys.executable, "-c", GAME], capture_output=True, text=True, env=environment, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["compiled"] == [] and result["errors"] == 0
    assert result["postflop"] >= 10 and result["multiway preflop"] >= 5
    assert result["longest"] < 1.0
    assert not list((tmp_path / "numba").rglob("*.nbi"))


def test_a_warm_up_that_cannot_start_leaves_the_player_to_compile_in_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(warmup, "KERNELS", kernels_in(tmp_path, compiled=False))

    def refused() -> None:
        raise PermissionError("no process may start here")

    monkeypatch.setattr(warmup, "warm_up_in_background", refused)
    with pytest.warns(warmup.ColdCacheWarning):
        player = CFRv2Player(seed=0)
    assert player.compilation is None and not player.context.compiling
