"""A blueprint read a second time comes from the disk cache with the same arrays; an edited
file, a damaged entry, a bad file and a folder that cannot be written all fall back to the
file, and give the file's answer."""

from __future__ import annotations

import os

import numpy as np
import pytest

from agent.players import blueprint_cache as cache
from agent.players import blueprint_store as store
from agent.players.blueprint_store import BlueprintError, read_blueprint
from tests.agent.players.blueprint_files import STUDY_ROWS, write_blueprint

ROWS = {f"{a}{b}o": {"fold": 0.25, "call": 0.5, "raise_min": 0.25} for a in "AKQ" for b in "JT9"}


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """An empty cache that keeps tables of any size."""
    monkeypatch.setenv(cache.CACHE_VARIABLE, str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "SMALLEST_KEPT_ROWS", 0)
    return tmp_path / "cache"


def entries(folder) -> list[str]:
    return sorted(path.name for path in folder.glob("*.npy"))


def parsing_refused(monkeypatch) -> None:
    def refuse(path, names):
        raise AssertionError(f"{path} was parsed")

    monkeypatch.setattr(store, "_read_rows", refuse)


def test_a_second_read_maps_the_first_reads_arrays(folder, tmp_path, monkeypatch):
    path = write_blueprint(tmp_path / "kept.csv.gz", ROWS | STUDY_ROWS)
    parsed = read_blueprint(path)
    assert len(entries(folder)) == 2
    parsing_refused(monkeypatch)
    kept = read_blueprint(path)
    assert np.array_equal(kept.hashes, parsed.hashes)
    assert np.array_equal(kept.probabilities, parsed.probabilities)
    assert kept.lookup("QQ c").tolist() == [0.0, 0.0, 1.0]
    assert kept.lookup("KTo").tolist() == [0.25, 0.5, 0.25]
    assert not kept.probabilities.flags.writeable


def test_an_edited_file_or_sidecar_is_parsed_again(folder, tmp_path):
    path = write_blueprint(tmp_path / "edited.csv", ROWS)
    assert read_blueprint(path).lookup("AJo").tolist() == [0.25, 0.5, 0.25]
    changed = ROWS | {"AJo": {"fold": 1.0, "call": 0.0, "raise_min": 0.0}}
    write_blueprint(path, changed)
    assert read_blueprint(path).lookup("AJo").tolist() == [1.0, 0.0, 0.0]
    sidecar = path.with_name("edited.json")
    sidecar.write_text(sidecar.read_text().replace('"seed": 0', '"seed": 1'))
    assert read_blueprint(path).lookup("AJo").tolist() == [1.0, 0.0, 0.0]
    assert len(entries(folder)) == 6  # one entry for each of the three versions


def test_a_damaged_entry_is_parsed_again_and_replaced(folder, tmp_path):
    path = write_blueprint(tmp_path / "damaged.csv", ROWS)
    parsed = read_blueprint(path)
    (kept,) = folder.glob("*.probabilities.npy")
    kept.write_bytes(kept.read_bytes()[:-8])  # a row short
    again = read_blueprint(path)
    assert np.array_equal(again.probabilities, parsed.probabilities)
    (kept,) = folder.glob("*.probabilities.npy")
    kept.write_bytes(b"not an array")
    assert np.array_equal(read_blueprint(path).probabilities, parsed.probabilities)


def test_a_bad_file_is_never_kept(folder, tmp_path):
    path = write_blueprint(tmp_path / "bad.csv", ROWS)
    path.write_text(path.read_text().replace("0.250,0.500,0.250", "0.500,0.500,0.500", 1))
    with pytest.raises(BlueprintError, match="not a distribution"):
        read_blueprint(path)
    assert entries(folder) == []


def test_a_folder_that_cannot_be_written_reads_the_file(tmp_path, monkeypatch):
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    monkeypatch.setenv(cache.CACHE_VARIABLE, str(blocked / "cache"))
    monkeypatch.setattr(cache, "SMALLEST_KEPT_ROWS", 0)
    path = write_blueprint(tmp_path / "plain.csv", ROWS)
    assert read_blueprint(path).lookup("QJo").tolist() == [0.25, 0.5, 0.25]
    assert read_blueprint(path).rows == len(ROWS)


def test_the_entries_used_last_are_kept(folder, tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "KEPT_ENTRIES", 2)
    paths = [
        write_blueprint(tmp_path / f"b{i}.csv", ROWS | {f"x{i}": ROWS["AJo"]}) for i in range(3)
    ]
    for when, path in enumerate(paths[:2]):
        read_blueprint(path)
        for kept in folder.glob("*.npy"):  # older than anything written next
            os.utime(kept, ns=(when * 10**9, when * 10**9))
    read_blueprint(paths[0])  # used again: now the newest of the two
    read_blueprint(paths[2])
    names = {cache.entry_name(path, path.with_suffix(".json")) for path in paths}
    kept = {name.split(".")[0] for name in entries(folder)}
    assert kept == names - {cache.entry_name(paths[1], paths[1].with_suffix(".json"))}


def test_small_tables_are_not_kept(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE_VARIABLE, str(tmp_path / "cache"))
    read_blueprint(write_blueprint(tmp_path / "small.csv", ROWS))
    assert not (tmp_path / "cache").exists()
