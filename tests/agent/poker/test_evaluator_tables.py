"""The shipped evaluator tables equal a fresh build from phevaluator; bad files are named."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agent.poker.evaluator_tables import TABLES_COMMAND, read_tables
from blueprint.evaluator_tables import build_tables, write_tables


def test_the_shipped_tables_equal_a_fresh_build() -> None:
    shipped, fresh = read_tables(), build_tables()
    assert shipped.keys() == fresh.keys()
    for name, table in fresh.items():
        assert np.array_equal(shipped[name], table), name


def test_a_written_file_reads_back(tmp_path: Path) -> None:
    write_tables(tmp_path / "e.npz")
    assert np.array_equal(read_tables(tmp_path / "e.npz")["rank"], read_tables()["rank"])


def test_missing_or_corrupt_tables_name_the_file_and_the_command(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="are missing: rebuild it with") as missing:
        read_tables(tmp_path / "none.npz")
    assert TABLES_COMMAND in str(missing.value)
    corrupt = tmp_path / "corrupt.npz"
    corrupt.write_bytes(b"not a zip file")
    with pytest.raises(ValueError, match=r"corrupt\.npz' is not a readable npz file"):
        read_tables(corrupt)
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, version=np.array(1), offset=np.zeros(3), rank=np.zeros(3), flush=np.zeros(3))
    with pytest.raises(ValueError, match="has no valid 'offset' table"):
        read_tables(wrong)
