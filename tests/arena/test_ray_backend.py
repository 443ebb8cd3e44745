"""The Ray backend plays the same hands as local workers, for every command that takes
``--backend ray``: heads-up matches (with and without sessions), ring games, tournaments,
``arena table`` and ``arena lbr``.

Ray runs on two CPUs of this machine, started once for the module; the local runs play in
one process, so each comparison also spans the number of workers. Tasks are made small
where a run would otherwise be one task, so that two Ray workers play them at once and
finish them out of order. Skipped when ray is absent.
"""

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import arena.match
import arena.ray_backend
from arena.commands.cli import main
from arena.match import MatchConfig, run_match
from arena.ray_backend import ray_runner
from arena.results import read_hands

ray = pytest.importorskip("ray")

BOTS = Path(__file__).parent / "sample_bots.py"
LBR_BOTS = Path(__file__).parent / "lbr" / "lbr_bots.py"
TIMINGS = frozenset(
    ("wall_seconds", "hands_per_second", "tournaments_per_second", "decision_ms",
     "lbr_decision_ms_by_street")
)  # fmt: skip


@pytest.fixture(scope="module")
def local_ray():
    """A Ray instance of two CPUs on this machine, for the whole module."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture
def small_tasks(monkeypatch):
    """Heads-up tasks of 4 hands (not the arena's 100), so a short match is several tasks."""
    monkeypatch.setattr(arena.match, "CHUNK_HANDS", 4)


@pytest.fixture
def ray_tasks(local_ray, monkeypatch):
    """The size of every task the module's Ray returns to a command: a run said to be on
    Ray that played elsewhere leaves this empty."""
    sizes: list[int] = []
    make_runner = arena.ray_backend.ray_runner

    def counting_runner(address=None):
        run = make_runner(address)

        def counted(config, tasks, workers):
            for rows in run(config, tasks, workers):
                sizes.append(len(rows))
                yield rows

        return counted

    monkeypatch.setattr(arena.ray_backend, "ray_runner", counting_runner)
    return sizes


def invoke(*args) -> None:
    result = CliRunner().invoke(main, [str(arg) for arg in args])
    assert result.exit_code == 0, result.output


def on_both_backends(tmp_path: Path, ray_tasks: list[int], *args) -> tuple[Path, Path]:
    """Run an arena command locally in one process, then on Ray with two workers, checking
    that Ray played it in several tasks."""
    local, distributed = tmp_path / "local", tmp_path / "ray"
    invoke(*args, "--out", local, "--workers", 1, "--backend", "local")
    assert ray_tasks == []
    invoke(*args, "--out", distributed, "--workers", 2, "--backend", "ray")
    assert len(ray_tasks) > 1
    return local, distributed


def played(path: Path) -> list[dict]:
    """A ``hands.csv``'s rows without the bots' decision times."""
    return [
        {key: value for key, value in row.items() if not key.startswith("decision")}
        for row in read_hands(path)
    ]


def untimed(folder: Path) -> dict:
    """A run's ``summary.json`` without its wall and decision times."""
    summary = json.loads((folder / "summary.json").read_text())
    return {key: value for key, value in summary.items() if key not in TIMINGS}


def test_ray_matches_local_workers(tmp_path, local_ray):
    config = MatchConfig(f"{BOTS}:RngRaiser", f"{BOTS}:GlobalRandomFolder", hands=300, seed=4)
    local = run_match(config, tmp_path / "local", workers=1)
    distributed = run_match(config, tmp_path / "ray", workers=2, runner=ray_runner(None))
    for key in ("sb_per_hand", "ci95_sb_per_hand", "chips", "illegal_actions"):
        assert local[key] == distributed[key]
    assert played(tmp_path / "local/hands.csv") == played(tmp_path / "ray/hands.csv")


def test_ray_plays_the_same_sessions_as_local_workers(tmp_path, local_ray):
    counter = f"{Path(__file__).parent / 'learning_bots.py'}:HandCounter"
    config = MatchConfig(counter, f"{BOTS}:RngRaiser", hands=80, seed=4, session_hands=10)
    local = run_match(config, tmp_path / "local", workers=1)
    distributed = run_match(config, tmp_path / "ray", workers=2, runner=ray_runner(None))
    for key in ("sb_per_hand", "ci95_sb_per_hand", "chips", "session_hands"):
        assert local[key] == distributed[key]
    rows = {name: played(tmp_path / name / "hands.csv") for name in ("local", "ray")}
    assert rows["local"] == rows["ray"] and len(rows["ray"]) == 80


def test_run_heads_up_on_ray_plays_the_local_hands(tmp_path, ray_tasks, small_tasks):
    local, distributed = on_both_backends(
        tmp_path, ray_tasks, "run", "honest", "vs", "random", "--hands", 24, "--seed", 3, "--quiet"
    )
    rows = played(local / "hands.csv")
    assert rows == played(distributed / "hands.csv") and len(rows) == 24
    assert untimed(local) == untimed(distributed)


def test_run_ring_game_on_ray_plays_the_local_hands(tmp_path, ray_tasks):
    local, distributed = on_both_backends(
        tmp_path, ray_tasks, "run", "fish", "vs", "random", "vs", "rule-based", "--hands", 30,
        "--session-hands", 6, "--seed", 3, "--quiet",
    )  # fmt: skip
    hands = (local / "hands.csv").read_text()
    assert hands == (distributed / "hands.csv").read_text() and len(hands.splitlines()) == 31
    assert untimed(local) == untimed(distributed)


def test_tournament_on_ray_plays_the_local_tournaments(tmp_path, ray_tasks):
    local, distributed = on_both_backends(
        tmp_path, ray_tasks, "tournament", "fish", "random", "rule-based", "--tournaments", 6,
        "--seed", 3, "--quiet",
    )  # fmt: skip
    rows = (local / "tournaments.csv").read_text()
    assert rows == (distributed / "tournaments.csv").read_text() and len(rows.splitlines()) == 7
    assert untimed(local) == untimed(distributed)


def test_table_on_ray_plays_the_local_matches(tmp_path, ray_tasks, small_tasks):
    local, distributed = on_both_backends(
        tmp_path,
        ray_tasks,
        "table",
        "fish",
        "random",
        "rule-based",
        "--hands",
        12,
        "--seed",
        3,
        "--quiet",
    )
    assert (local / "table.csv").read_text() == (distributed / "table.csv").read_text()
    pairs = [folder.name for folder in sorted(local.iterdir()) if folder.is_dir()]
    assert pairs == ["fish-vs-random", "fish-vs-rule-based", "random-vs-rule-based"]
    for pair in pairs:
        assert played(local / pair / "hands.csv") == played(distributed / pair / "hands.csv")


def test_lbr_on_ray_plays_the_local_hands(tmp_path, ray_tasks, small_tasks):
    local, distributed = on_both_backends(
        tmp_path, ray_tasks, "lbr", f"{LBR_BOTS}:PairRaiser", "--hands", 12, "--bets", "allin",
        "--preflop-samples", 100, "--seed", 1, "--no-progress",
    )  # fmt: skip
    rows = played(local / "hands.csv")
    assert rows == played(distributed / "hands.csv") and len(rows) == 12
    assert any("B:RAISE" in row["actions"] for row in rows)  # the bot's range moved
    assert untimed(local) == untimed(distributed)
    checks = [
        sorted(csv.reader((folder / "model_check.csv").open())) for folder in (local, distributed)
    ]
    assert checks[0] == checks[1] and len(checks[0]) == 13


def test_a_strict_stop_on_ray_is_the_local_sentence(tmp_path, local_ray):
    crasher = f"{Path(__file__).parent / 'faulty_bots.py'}:Crasher"
    said = {}
    for backend, workers in (("local", 1), ("ray", 2)):
        out = tmp_path / backend
        args = ["run", "fish", "vs", crasher, "--hands", 20, "--strict", "--quiet"]
        args += ["--workers", workers, "--backend", backend, "--out", out]
        result = CliRunner().invoke(main, [str(arg) for arg in args])
        assert result.exit_code == 1
        said[backend] = result.output.replace(str(out), "OUT")
    assert said["ray"] == said["local"]
    assert said["ray"].startswith("Error: Crasher failed in hand 1: RuntimeError: boom at")
    assert said["ray"].count("\n") == 1  # one sentence, not Ray's remote traceback
