"""The Ray backend gives the same hands as local workers (skipped when ray is absent)."""

from pathlib import Path

import pytest

from arena.match import MatchConfig, run_match
from arena.results import read_hands

ray = pytest.importorskip("ray")

BOTS = Path(__file__).parent / "sample_bots.py"


def test_ray_matches_local_workers(tmp_path):
    from arena.ray_backend import ray_runner

    config = MatchConfig(f"{BOTS}:RngRaiser", f"{BOTS}:GlobalRandomFolder", hands=300, seed=4)
    local = run_match(config, tmp_path / "local", workers=1)
    distributed = run_match(config, tmp_path / "ray", workers=2, runner=ray_runner(None))
    for key in ("sb_per_hand", "ci95_sb_per_hand", "chips", "illegal_actions"):
        assert local[key] == distributed[key]
    strip = [
        {k: v for k, v in r.items() if not k.startswith("decision")}
        for r in read_hands(tmp_path / "local/hands.csv")
    ]
    assert strip == [
        {k: v for k, v in r.items() if not k.startswith("decision")}
        for r in read_hands(tmp_path / "ray/hands.csv")
    ]


def test_ray_plays_the_same_sessions_as_local_workers(tmp_path):
    from arena.ray_backend import ray_runner

    counter = f"{Path(__file__).parent / 'learning_bots.py'}:HandCounter"
    config = MatchConfig(counter, f"{BOTS}:RngRaiser", hands=80, seed=4, session_hands=10)
    local = run_match(config, tmp_path / "local", workers=1)
    distributed = run_match(config, tmp_path / "ray", workers=2, runner=ray_runner(None))
    for key in ("sb_per_hand", "ci95_sb_per_hand", "chips", "session_hands"):
        assert local[key] == distributed[key]
    rows = {
        name: [
            {k: v for k, v in r.items() if not k.startswith("decision")}
            for r in read_hands(tmp_path / name / "hands.csv")
        ]
        for name in ("local", "ray")
    }
    assert rows["local"] == rows["ray"] and len(rows["ray"]) == 80
