"""Parsed blueprints kept on disk, so that a process reads a table in milliseconds.

Parsing a shipped blueprint (decompressing it, hashing its keys, reading its probabilities,
sorting and checking them) takes seconds, and every arena worker does it once. The parsed
arrays of :mod:`agent.players.blueprint_store` (sorted key hashes and probabilities) are kept
here as two ``.npy`` files and mapped read-only, so that the workers of a run also share one
copy in memory.

An entry is named by a BLAKE2b digest of the blueprint file's bytes, its sidecar's bytes and
:data:`CACHE_FORMAT`, so an edited, retrained or moved file never reads another's arrays.
Only arrays that passed the loader's checks are stored. An entry is written under a
temporary name and renamed into place, hashes last, so a reader sees a whole entry or none,
whatever other processes do at the same time. A cache that cannot be read or written is
skipped: the blueprint is parsed from its file, and the answer is the same.

The folder is ``$POKERBOT_BLUEPRINT_CACHE``, else ``pokerbot-cfr/blueprints`` in the user's
cache (``$XDG_CACHE_HOME``, else ``~/.cache``). It keeps the :data:`KEPT_ENTRIES` entries used
last, of tables with at least :data:`SMALLEST_KEPT_ROWS` rows.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path

import numpy as np

from agent.poker.user_cache import user_cache_folder

CACHE_FORMAT = b"blueprint arrays 1"  # change it when the arrays' meaning changes
CACHE_VARIABLE = "POKERBOT_BLUEPRINT_CACHE"
KEPT_ENTRIES = 6
SMALLEST_KEPT_ROWS = 100_000  # a smaller table parses in a blink: it is not kept
_HASHES = ".hashes.npy"
_PROBABILITIES = ".probabilities.npy"


def cache_folder() -> Path:
    """Where parsed blueprints are kept: ``$POKERBOT_BLUEPRINT_CACHE``, else the user's cache."""
    return user_cache_folder("blueprints", CACHE_VARIABLE)


def entry_name(table: Path, sidecar: Path) -> str:
    """The entry of a blueprint file and its sidecar: a digest of both files' bytes."""
    digest = hashlib.blake2b(CACHE_FORMAT, digest_size=20)
    for path in (table, sidecar):
        with open(path, "rb") as handle:
            while block := handle.read(1 << 20):
                digest.update(block)
        digest.update(b"\0")
    return digest.hexdigest()


def load_entry(name: str, actions: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The kept arrays of entry ``name`` (``uint64[rows]`` and ``float32[rows, actions]``,
    read-only), or None where the entry is missing, unreadable or not of that shape."""
    folder = cache_folder()
    try:
        hashes = np.load(folder / f"{name}{_HASHES}", mmap_mode="r")
        probabilities = np.load(folder / f"{name}{_PROBABILITIES}", mmap_mode="r")
    except (OSError, ValueError):
        return None
    if (
        hashes.dtype != np.uint64
        or probabilities.dtype != np.float32
        or hashes.ndim != 1
        or probabilities.shape != (len(hashes), actions)
    ):
        return None
    with contextlib.suppress(OSError):  # the entry used last is kept longest
        os.utime(folder / f"{name}{_HASHES}")
    return hashes.view(np.ndarray), probabilities.view(np.ndarray)  # plain arrays on the map


def store_entry(name: str, hashes: np.ndarray, probabilities: np.ndarray) -> None:
    """Keep checked arrays as entry ``name``, then drop all but the entries used last; a
    table of fewer than :data:`SMALLEST_KEPT_ROWS` rows is not kept, and a folder that
    cannot be written is left as it is."""
    if len(hashes) < SMALLEST_KEPT_ROWS:
        return
    folder = cache_folder()
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        _write_atomically(folder / f"{name}{_PROBABILITIES}", probabilities)
        _write_atomically(folder / f"{name}{_HASHES}", hashes)  # last: it marks a whole entry
        _prune(folder)


def _write_atomically(path: Path, array: np.ndarray) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        os.fchmod(handle, 0o644)  # readable as the shipped tables are, not private as a temp
        with os.fdopen(handle, "wb") as out:
            np.save(out, np.ascontiguousarray(array), allow_pickle=False)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _prune(folder: Path) -> None:
    entries = sorted(folder.glob(f"*{_HASHES}"), key=lambda path: path.stat().st_mtime_ns)
    for old in entries[:-KEPT_ENTRIES]:
        name = old.name.removesuffix(_HASHES)
        for suffix in (_HASHES, _PROBABILITIES):
            with contextlib.suppress(OSError):
                (folder / f"{name}{suffix}").unlink()
