"""The learning curve of a session match: blocks by position in the session."""

from __future__ import annotations

import pytest

from arena.learning_curve import learning_curve, main
from arena.match import MatchConfig, run_match
from arena.results import read_hands


def test_the_blocks_split_the_match_and_average_back_to_its_rate(tmp_path, capsys):
    config = MatchConfig("fish", "honest", hands=120, seed=4, session_hands=30)
    summary = run_match(config, tmp_path)
    assert learning_curve(config, [], 10) == []
    rows = read_hands(tmp_path / "hands.csv")
    blocks = learning_curve(config, rows, 10)
    assert [(b.first, b.last) for b in blocks] == [(0, 9), (10, 19), (20, 29)]
    assert sum(b.hands for b in blocks) == 120
    overall = sum(b.sb_per_hand * b.hands for b in blocks) / 120
    assert overall == pytest.approx(summary["sb_per_hand"], abs=1e-9)
    main([str(tmp_path), "--block", "10", "--plot", str(tmp_path / "curve.png")])
    assert "| 1-10 |" in capsys.readouterr().out
    assert (tmp_path / "curve.png").stat().st_size > 0


def test_a_match_without_sessions_is_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match="not played in sessions"):
        learning_curve(MatchConfig("fish", "honest", hands=10), [], 10)
