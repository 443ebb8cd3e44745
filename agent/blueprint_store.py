"""The blueprint in memory: strategies by info-set key, loaded once per process and shared.

The file is the trainer's strategy CSV (``blueprint/strategy_csv.py``: an ``info_set`` column
with keys like ``'AKs 555 rc'`` and one probability column per abstract action) and its JSON
sidecar (format version, game, action and card abstraction). A shipped blueprint holds a few
million rows; a pandas frame indexed by Python strings would take seconds to build and
several hundred MB, so this module keeps three flat arrays instead:

* each key's bytes, zero-padded to a multiple of 8 and viewed as ``uint64`` words;
* a 64-bit hash of those words (splitmix64 mixing), sorted, for ``numpy.searchsorted``;
* the probabilities as ``float32[rows, actions]`` (0 where an action is not available).

The keys are cut out of the decompressed bytes with numpy (no Python object per row) and the
probabilities parsed by pandas' C reader, so a 2-million-row file loads in about a second.
A lookup hashes the query, finds it by binary search and compares the stored words, so it is
exact (a hash collision between two stored keys is reported at load). The same file is
loaded once per process (:func:`load_blueprint` caches by path, size and modification time)
and shared by every player.

A missing or corrupt file raises :class:`BlueprintError` naming the file and the command that
regenerates it.
"""

from __future__ import annotations

import gzip
import importlib.resources
import io
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from agent.abstraction import CardAbstraction, get_abstraction
from agent.betting import ActionAbstraction, GameConfig, parse_actions
from blueprint.strategy_csv import KEY_COLUMN, read_meta

DEFAULT_NAMES = ("blueprint.csv.gz", "blueprint.csv")
REGENERATE = (
    "regenerate it with `blueprint train --out FILE.csv.gz` and `blueprint clean FILE.csv.gz"
    " data/blueprint.csv.gz` (the exact command is in the README), or pass another file"
    " with blueprint=PATH"
)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)


class BlueprintError(ValueError):
    """A blueprint file that is missing, unreadable or inconsistent with its sidecar."""


@dataclass(frozen=True, eq=False)
class Blueprint:
    """Strategies of a heads-up preflop+flop blueprint, looked up by info-set key."""

    path: Path
    meta: dict
    game: GameConfig
    actions: ActionAbstraction
    cards: CardAbstraction
    hashes: np.ndarray  # uint64[rows], sorted
    words: np.ndarray  # uint64[rows, width // 8], the key bytes in hash order
    probabilities: np.ndarray  # float32[rows, actions], in hash order

    @property
    def rows(self) -> int:
        """Info sets stored."""
        return len(self.hashes)

    def lookup(self, key: str) -> np.ndarray | None:
        """The probabilities of the abstract actions at ``key`` (columns of ``actions``)."""
        found = self.lookup_many([key])
        return None if found[0] < 0 else self.probabilities[found[0]]

    def lookup_many(self, keys: list[str]) -> np.ndarray:
        """Row numbers of ``keys`` in ``probabilities``, -1 where a key is absent."""
        width = self.words.shape[1] * 8
        encoded = [key.encode() for key in keys]
        fits = np.array([len(b) <= width for b in encoded], dtype=bool)
        buffer = np.zeros((len(keys), width), dtype=np.uint8)
        for row, data in enumerate(encoded):
            if fits[row]:
                buffer[row, : len(data)] = np.frombuffer(data, dtype=np.uint8)
        words = buffer.view(np.uint64).reshape(len(keys), -1)
        hashes = _hash_words(words)
        rows = np.minimum(np.searchsorted(self.hashes, hashes), self.rows - 1)
        hit = fits & (self.hashes[rows] == hashes) & (self.words[rows] == words).all(axis=1)
        return np.where(hit, rows, -1)


def _hash_words(words: np.ndarray) -> np.ndarray:
    """A splitmix64-style hash of each row of ``uint64`` words."""
    state = np.full(len(words), _GOLDEN, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for column in range(words.shape[1]):
            state = (state ^ words[:, column]) * _MIX_1
            state ^= state >> np.uint64(29)
            state *= _MIX_2
            state ^= state >> np.uint64(32)
    return state


def default_blueprint_path() -> Path:
    """The blueprint shipped in ``agent.data`` (``data/`` in the source tree)."""
    folder = importlib.resources.files("agent.data")
    for name in DEFAULT_NAMES:
        candidate = folder / name
        if candidate.is_file():
            return Path(str(candidate))
    return Path(str(folder / DEFAULT_NAMES[0]))


_CACHE: dict[tuple[str, int, int], Blueprint] = {}
_LOCK = threading.Lock()


def load_blueprint(path: str | Path | None = None) -> Blueprint:
    """The blueprint at ``path`` (the shipped one by default), loaded once per process."""
    path = Path(path) if path is not None else default_blueprint_path()
    if not path.is_file():
        raise BlueprintError(f"blueprint file {str(path)!r} does not exist: {REGENERATE}")
    status = path.stat()
    cache_key = (str(path.resolve()), status.st_size, status.st_mtime_ns)
    with _LOCK:
        if cache_key not in _CACHE:
            _CACHE[cache_key] = read_blueprint(path)
        return _CACHE[cache_key]


def read_blueprint(path: str | Path) -> Blueprint:
    """Read and validate a blueprint CSV and its sidecar (no caching)."""
    path = Path(path)
    try:
        meta = read_meta(path)
        game = GameConfig(int(meta["stack"]), int(meta["small_blind"]), int(meta["rounds"]))
        actions = parse_actions(str(meta["actions"]))
        cards = get_abstraction(str(meta["abstraction"]))
    except KeyError as missing:
        raise BlueprintError(
            f"sidecar of {str(path)!r} lacks the field {missing}: {REGENERATE}"
        ) from None
    except ValueError as error:
        raise BlueprintError(f"{error}: {REGENERATE}") from None
    names = list(meta["action_names"])
    if names != list(actions.names):
        raise BlueprintError(
            f"sidecar of {str(path)!r} names the actions {names}, but its action spec"
            f" {meta['actions']!r} has {list(actions.names)}: {REGENERATE}"
        )
    raw = _read_bytes(path)
    words = _key_words(path, raw, names)
    probabilities = _read_probabilities(path, raw, names)
    if len(probabilities) != len(words) or meta.get("rows", len(words)) != len(words):
        raise BlueprintError(
            f"blueprint file {str(path)!r} has {len(words)} keys and {len(probabilities)}"
            f" probability rows, its sidecar says {meta.get('rows')}: {REGENERATE}"
        )
    hashes = _hash_words(words)
    order = np.argsort(hashes)
    hashes = hashes[order]
    words = np.take(words, order, axis=0)
    probabilities = np.take(np.ascontiguousarray(probabilities), order, axis=0)
    repeated = np.flatnonzero(hashes[1:] == hashes[:-1])
    if len(repeated):
        key = words[repeated[0]].tobytes().rstrip(b"\0").decode(errors="replace")
        raise BlueprintError(f"blueprint file {str(path)!r} repeats the info set {key!r}")
    return Blueprint(path, meta, game, actions, cards, hashes, words, probabilities)


def _read_bytes(path: Path) -> bytes:
    try:
        data = path.read_bytes()
        return gzip.decompress(data) if path.name.endswith(".gz") else data
    except (OSError, EOFError, zlib.error, gzip.BadGzipFile) as error:
        raise BlueprintError(
            f"blueprint file {str(path)!r} cannot be read: {error}: {REGENERATE}"
        ) from None


def _key_words(path: Path, raw: bytes, names: list[str]) -> np.ndarray:
    """The first field of every data line, zero-padded to 8-byte words: ``uint64[rows, w]``."""
    header_end = raw.find(b"\n")
    header = raw[: max(header_end, 0)].decode(errors="replace").strip().split(",")
    if header_end < 0 or header != [KEY_COLUMN, *names]:
        raise BlueprintError(
            f"blueprint file {str(path)!r} has the columns {header}, its sidecar says"
            f" {[KEY_COLUMN, *names]}: {REGENERATE}"
        )
    buffer = np.frombuffer(raw if raw.endswith(b"\n") else raw + b"\n", dtype=np.uint8)
    ends = np.flatnonzero(buffer == ord("\n"))
    starts = ends[:-1] + 1
    ends = ends[1:]
    starts, ends = starts[ends > starts], ends[ends > starts]  # blank lines are skipped
    if len(starts) and (buffer[starts] == ord('"')).any():
        raise BlueprintError(f"blueprint file {str(path)!r} has a quoted key: {REGENERATE}")
    width = 16
    padded = np.concatenate((buffer, np.zeros(256, dtype=np.uint8)))
    while True:  # a window of ``width`` bytes from each line start must hold its first comma
        window = np.lib.stride_tricks.sliding_window_view(padded, width)[starts]
        is_comma = window == ord(",")
        lengths = is_comma.argmax(axis=1)
        found = is_comma[np.arange(len(starts)), lengths]
        if found.all() or width >= 256:
            break
        width *= 2
    if not found.all() or (lengths == 0).any() or (starts + lengths > ends).any():
        raise BlueprintError(f"blueprint file {str(path)!r} has a line without a key: {REGENERATE}")
    width = max(8, -(-int(lengths.max(initial=1)) // 8) * 8)
    window = np.ascontiguousarray(window[:, :width])
    window[np.arange(width) >= lengths[:, None]] = 0
    return window.view(np.uint64).reshape(len(starts), -1)


def _read_probabilities(path: Path, raw: bytes, names: list[str]) -> np.ndarray:
    try:
        frame = pd.read_csv(
            io.BytesIO(raw), usecols=names, dtype=dict.fromkeys(names, np.float32), engine="c"
        )
    except (ValueError, pd.errors.ParserError) as error:
        raise BlueprintError(
            f"blueprint file {str(path)!r} has a probability that is not a number ({error}):"
            f" {REGENERATE}"
        ) from None
    values = frame[names].to_numpy(dtype=np.float32)
    tolerance = len(names) * 1e-3 + 1e-6
    sums = np.nansum(values, axis=1)
    bad = np.flatnonzero(
        (np.nanmin(values, axis=1, initial=np.inf) < 0)
        | (np.nanmax(values, axis=1, initial=-np.inf) > 1)
        | (np.abs(sums - 1) > tolerance)
    )
    if len(bad):
        raise BlueprintError(
            f"blueprint file {str(path)!r}: data row {int(bad[0]) + 1} is not a distribution"
            f" (its probabilities sum to {sums[bad[0]]:.4f}): {REGENERATE}"
        )
    return np.nan_to_num(values, nan=0.0)
