"""The checkpoint curve (``bench.checkpoints``) reads its checkpoints or names the problem."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from bench.checkpoints import parse_checkpoint


def test_a_checkpoint_is_iterations_and_an_existing_file(tmp_path: Path) -> None:
    strategy = tmp_path / "s.csv.gz"
    strategy.write_bytes(b"")
    assert parse_checkpoint(f"40000000={strategy}") == (40_000_000, str(strategy))
    for bad in (f"4e7={strategy}", str(strategy), f"5={tmp_path / 'missing.csv.gz'}"):
        with pytest.raises(argparse.ArgumentTypeError, match="ITERATIONS=FILE"):
            parse_checkpoint(bad)
