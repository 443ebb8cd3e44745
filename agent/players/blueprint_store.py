"""The blueprint in memory: strategies by info-set key, loaded once per process and shared.

The file is the trainer's strategy CSV (``agent/abstraction/strategy_file.py``: an ``info_set``
column with keys like ``'AKs 555 rc'`` and one probability column per abstract action) and its JSON
sidecar (format version, game, action and card abstraction). A shipped blueprint holds a few
million rows; a pandas frame indexed by Python strings would hold a Python object per row,
so this module keeps two flat arrays instead:

* a 64-bit hash of every key (its bytes read as little-endian ``uint64`` words, mixed with
  splitmix64's :func:`agent.poker.rng.combine`, in numpy), sorted, for ``numpy.searchsorted``;
* the probabilities as ``float32[rows, actions]`` in the same order (0 where an action is
  not available at that info set).

The file is decompressed in blocks of whole lines; in each block the keys are cut out of the
bytes with numpy (no Python object per row) and the probabilities parsed by pandas' C reader,
so a loaded row takes 8 bytes of hash and 4 bytes a probability. Two
stored keys with the same hash are reported at load; a key that is absent matches a stored
hash with probability rows / 2**64 (2e-13 for 4 million rows). The same file is loaded once
per process (:func:`load_blueprint` caches by path, size and modification time) and shared
by every player. The checked arrays of a large table are kept on disk
(:mod:`agent.players.blueprint_cache`), so a later process maps them in place of parsing.

A missing or corrupt file raises :class:`BlueprintError` naming the file and the command that
regenerates it.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import gzip
import importlib.resources
import io
import lzma
import queue
import threading
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from agent.abstraction.betting import ActionAbstraction, GameConfig, parse_actions
from agent.abstraction.card_buckets import CardAbstraction, get_abstraction
from agent.abstraction.strategy_file import KEY_COLUMN, read_meta, sidecar_path
from agent.players.blueprint_cache import entry_name, load_entry, store_entry
from agent.poker.rng import GOLDEN, scramble_words

DEFAULT_NAMES = ("blueprint.csv.xz", "blueprint.csv.gz", "blueprint.csv")
SIZES_NAMES = ("blueprint_sizes.csv.xz", "blueprint_sizes.csv.gz")  # shipped, or rebuilt
SIZES_COMMAND = (
    "blueprint train --abstraction km500 --actions sizes --algorithm external"
    " --iterations 300000000 --min-reach 0 --seed 1 --workers 2 --out sizes-raw.csv.gz"
    f" && blueprint clean sizes-raw.csv.gz data/{SIZES_NAMES[0]}"
)
STREETS_NAMES = ("blueprint_streets.csv.xz", "blueprint_streets.csv.gz")  # shipped, or rebuilt
STREETS_COMMAND = (
    "blueprint train --streets 4 --abstraction km500 --turn-buckets 50 --river-buckets 50"
    " --actions half,pot,allin:2 --algorithm external --regret rm --averaging linear"
    " --linear-regrets --prune 0.95 --prune-after 2000000 --iterations 200000000 --min-reach 0"
    " --seed 12 --workers 2 --out streets-raw.csv.gz"
    f" && blueprint clean streets-raw.csv.gz data/{STREETS_NAMES[0]}"
)
REGENERATE = (
    "regenerate it with `blueprint train --out FILE.csv.gz` and `blueprint clean FILE.csv.gz"
    " data/blueprint.csv.xz` (the exact command is in the README), or pass another file"
    " with blueprint=PATH"
)


class BlueprintError(ValueError):
    """A blueprint file that is missing, unreadable or inconsistent with its sidecar."""


@dataclass(frozen=True, eq=False)
class Blueprint:
    """Strategies of a heads-up blueprint (preflop and flop, or every street to the river),
    looked up by info-set key; ``cards`` buckets every round ``game`` plays."""

    path: Path
    meta: dict
    game: GameConfig
    actions: ActionAbstraction
    cards: CardAbstraction
    hashes: np.ndarray  # uint64[rows], sorted (read-only where mapped from the disk cache)
    probabilities: np.ndarray  # float32[rows, actions], in hash order (the same)

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
        if not keys or not self.rows:
            return np.full(len(keys), -1, dtype=np.int64)
        encoded = [key.encode() for key in keys]
        width = max(8, -(-max(len(data) for data in encoded) // 8) * 8)
        buffer = np.zeros((len(keys), width), dtype=np.uint8)
        for row, data in enumerate(encoded):
            buffer[row, : len(data)] = np.frombuffer(data, dtype=np.uint8)
        lengths = np.array([len(data) for data in encoded])
        hashes = hash_keys(buffer.view(np.uint64).reshape(len(keys), -1), lengths)
        rows = np.minimum(np.searchsorted(self.hashes, hashes), self.rows - 1)
        return np.where(self.hashes[rows] == hashes, rows, -1)

    def action_rows(self, keys: list[str]) -> np.ndarray:
        """The probabilities of the abstract actions at each of ``keys``
        (``float64[len(keys), actions]``), NaN rows where a key is absent."""
        found = self.lookup_many(keys)
        out = np.full((len(keys), self.probabilities.shape[1]), np.nan)
        out[found >= 0] = self.probabilities[found[found >= 0]]
        return out


def hash_keys(words: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each key: its zero-padded bytes as ``uint64`` words, ``lengths`` bytes.

    Only the words a key occupies are mixed in, so the hash does not depend on the padding.

    >>> one = np.frombuffer(b"AKs 555 rc" + bytes(6), dtype=np.uint64).reshape(1, 2)
    >>> two = np.frombuffer(b"AKs 555 rc" + bytes(14), dtype=np.uint64).reshape(1, 3)
    >>> bool(hash_keys(one, np.array([10]))[0] == hash_keys(two, np.array([10]))[0])
    True
    """
    state = np.full(len(words), GOLDEN, dtype=np.uint64)
    used = -(-np.asarray(lengths) // 8)
    for column in range(words.shape[1]):
        state = np.where(column < used, scramble_words(state ^ words[:, column]), state)
    return state


def _shipped_file(names: tuple[str, ...]) -> Path | None:
    """The first of ``names`` present in ``agent.data`` (``data/`` in the source tree)."""
    folder = importlib.resources.files("agent.data")
    found = (Path(str(folder / name)) for name in names)
    return next((path for path in found if path.is_file()), None)


def default_blueprint_path() -> Path:
    """The blueprint shipped in ``agent.data`` (``data/`` in the source tree); where none is,
    the name it should have (loading it then names the file and the command that builds it)."""
    folder = importlib.resources.files("agent.data")
    return _shipped_file(DEFAULT_NAMES) or Path(str(folder / DEFAULT_NAMES[0]))


_CACHE: dict[tuple[str, int, int], Blueprint] = {}
_LOCK = threading.Lock()


def shipped_blueprint_path(names: tuple[str, ...], what: str, command: str, cost: str) -> Path:
    """A blueprint shipped in ``agent.data`` under the first of ``names`` (xz; a copy rebuilt
    by ``command`` may be gzip, the second); else BlueprintError naming ``what`` is missing
    and the command, taking ``cost``, that rebuilds it."""
    path = _shipped_file(names)
    if path is not None:
        return path
    folder = importlib.resources.files("agent.data")
    raise BlueprintError(
        f"the {what} is missing from {str(folder)!r}; rebuild it with `{command}` ({cost}),"
        " or pass a file with blueprint=PATH"
    )


def sizes_blueprint_path() -> Path:
    """The pot-relative blueprint (half pot, pot, all-in; km500 flop buckets)."""
    return shipped_blueprint_path(
        SIZES_NAMES,
        "pot-relative blueprint",
        SIZES_COMMAND,
        "about 27 minutes and 0.5 GB on 2 cores",
    )


def streets_blueprint_path() -> Path:
    """The four-street pot-relative blueprint (half pot, pot, all-in on every street; 500
    k-means flop buckets, 50 turn and 50 river buckets of exact equity)."""
    return shipped_blueprint_path(
        STREETS_NAMES, "four-street blueprint", STREETS_COMMAND, "about 2 hours on 2 cores"
    )


def resolve_blueprint_path(path: str | Path | None) -> Path:
    """A file for ``path``: the shipped min-raise blueprint for ``None`` or ``"study"``, the
    pot-relative one for ``"sizes"``, the four-street one for ``"streets"``, else the path
    itself."""
    if path is None or str(path) == "study":
        return default_blueprint_path()
    if str(path) == "sizes":
        return sizes_blueprint_path()
    if str(path) == "streets":
        return streets_blueprint_path()
    return Path(path)


def blueprint_rounds(source: str | Path | Blueprint | None) -> int:
    """The betting rounds a blueprint option's table covers (2: preflop and the flop; 4: every
    street), read from the blueprint or its file's sidecar without loading the table; 2 where
    the sidecar is missing or unreadable (loading the file then names the problem)."""
    if isinstance(source, Blueprint):
        return source.game.rounds
    try:
        return int(read_meta(resolve_blueprint_path(source)).get("rounds", 2))
    except (BlueprintError, ValueError):
        return 2


def load_blueprint(path: str | Path | None = None) -> Blueprint:
    """The blueprint at ``path`` (see :func:`resolve_blueprint_path`), loaded once per process."""
    path = resolve_blueprint_path(path)
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
        cards = card_abstraction(meta, game)
    except KeyError as missing:
        raise BlueprintError(
            f"sidecar of {str(path)!r} lacks the field {missing}: {REGENERATE}"
        ) from None
    except ValueError as error:
        raise BlueprintError(f"{error}: {REGENERATE}") from None
    try:
        return _read_checked(path, meta, game, actions, cards)
    except BlueprintError as error:
        command = meta.get("command")
        if not isinstance(command, str) or not command.startswith("blueprint "):
            raise
        hint = f"regenerate it with `{command}`"
        if meta.get("cleaned"):
            hint += f" then `blueprint clean RAW {path.name}`"
        raise BlueprintError(str(error).replace(REGENERATE, hint)) from None


def card_abstraction(meta: dict, game: GameConfig) -> CardAbstraction:
    """The card abstraction a sidecar names, with the turn and river buckets of the rounds its
    game plays past the flop (``turn_buckets``, ``river_buckets``: the trainer writes them
    for a game of three or four rounds); KeyError names a missing one."""
    late = ("turn_buckets", "river_buckets")[: max(0, game.rounds - 2)]
    cards = get_abstraction(str(meta["abstraction"]))
    return cards.with_late_streets([int(meta[name]) for name in late])


def _read_checked(
    path: Path, meta: dict, game: GameConfig, actions: ActionAbstraction, cards: CardAbstraction
) -> Blueprint:
    names = list(meta["action_names"])
    if names != list(actions.names):
        raise BlueprintError(
            f"sidecar of {str(path)!r} names the actions {names}, but its action spec"
            f" {meta['actions']!r} has {list(actions.names)}: {REGENERATE}"
        )
    entry = _cache_entry(path)
    kept = None if entry is None else load_entry(entry, len(names))
    hashes, probabilities = _read_sorted(path, names) if kept is None else kept
    if meta.get("rows", len(hashes)) != len(hashes):
        raise BlueprintError(
            f"blueprint file {str(path)!r} has {len(hashes)} rows, its sidecar says"
            f" {meta.get('rows')}: {REGENERATE}"
        )
    if kept is None and entry is not None:
        store_entry(entry, hashes, probabilities)
    return Blueprint(path, meta, game, actions, cards, hashes, probabilities)


def _cache_entry(path: Path) -> str | None:
    """The disk cache's entry for the file and its sidecar; None where one cannot be read
    (parsing then names the problem)."""
    try:
        return entry_name(path, sidecar_path(path))
    except OSError:
        return None


def _read_sorted(path: Path, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The file's key hashes, sorted, and its probabilities in their order, checked."""
    hashes, probabilities = _read_rows(path, names)
    order = np.argsort(hashes)
    hashes = hashes[order]
    probabilities = np.take(probabilities, order, axis=0)
    repeated = np.flatnonzero(hashes[1:] == hashes[:-1])
    if len(repeated):
        raise BlueprintError(
            f"blueprint file {str(path)!r} repeats an info set (or two keys share a 64-bit"
            f" hash): data rows {int(order[repeated[0]]) + 1} and"
            f" {int(order[repeated[0] + 1]) + 1}: {REGENERATE}"
        )
    _release_free_memory()
    return hashes, probabilities


def _release_free_memory() -> None:
    """Hand the parser's freed heap back to the system (glibc only; elsewhere a no-op).

    Parsing in blocks leaves the C heap fragmented: without this the process keeps the
    parser's freed blocks resident beside the loaded arrays.
    """
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)


BLOCK_BYTES = 1 << 22
_DONE = object()


def _prefetched(blocks: Iterator[bytes]) -> Iterator[bytes]:
    """``blocks``, decompressed one block ahead on a thread while the caller parses the last
    (both release the GIL, so xz's slower decompression overlaps the parsing)."""
    ahead: queue.Queue = queue.Queue(maxsize=1)
    stop = threading.Event()

    def produce() -> None:
        try:
            for block in blocks:
                ahead.put(block)
                if stop.is_set():
                    return
            ahead.put(_DONE)
        except BaseException as error:  # handed to the caller, raised there
            ahead.put(error)

    threading.Thread(target=produce, daemon=True).start()
    try:
        while (item := ahead.get()) is not _DONE:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:  # the caller stopped early (a bad row): let the thread finish its last put
        stop.set()
        with contextlib.suppress(queue.Empty):
            ahead.get_nowait()


def _open_binary(path: Path) -> io.BufferedIOBase:
    """The file opened for reading bytes, decompressed if its suffix is ``.gz`` or ``.xz``."""
    if path.suffix == ".gz":
        return gzip.open(path, "rb")
    if path.suffix == ".xz":
        return lzma.open(path, "rb")
    return open(path, "rb")


def _blocks(path: Path, names: list[str]) -> Iterator[bytes]:
    """The data lines of the file in blocks of whole lines (bytes), after checking the header."""
    try:
        with _open_binary(path) as handle:
            header = handle.readline().decode(errors="replace").strip().split(",")
            if header != [KEY_COLUMN, *names]:
                raise BlueprintError(
                    f"blueprint file {str(path)!r} has the columns {header}, its sidecar says"
                    f" {[KEY_COLUMN, *names]}: {REGENERATE}"
                )
            carry = b""
            while block := handle.read(BLOCK_BYTES):
                block = carry + block
                cut = block.rfind(b"\n") + 1
                carry = block[cut:]
                if cut:
                    yield block[:cut]
            if carry.strip():
                yield carry + b"\n"
    except (OSError, EOFError, zlib.error, lzma.LZMAError) as error:
        raise BlueprintError(
            f"blueprint file {str(path)!r} cannot be read: {error}: {REGENERATE}"
        ) from None


def _read_rows(path: Path, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Key hashes ``uint64[rows]`` and probabilities ``float32[rows, actions]`` in file order."""
    hashes, probabilities, done = [], [], 0
    for block in _prefetched(_blocks(path, names)):
        buffer = np.frombuffer(block, dtype=np.uint8)
        ends = np.flatnonzero(buffer == ord("\n"))
        starts = np.concatenate(([0], ends[:-1] + 1))
        keep = ends > starts + (buffer[np.maximum(ends - 1, 0)] == ord("\r"))
        if not keep.all():  # blank lines are skipped, as pandas does
            block = b"\n".join(line for line in block.split(b"\n") if line.strip()) + b"\n"
            buffer = np.frombuffer(block, dtype=np.uint8)
            ends = np.flatnonzero(buffer == ord("\n"))
            starts = np.concatenate(([0], ends[:-1] + 1))
        hashes.append(_block_hashes(path, buffer, starts, ends, done))
        probabilities.append(_read_probabilities(path, block, names, done))
        if len(probabilities[-1]) != len(hashes[-1]):
            raise BlueprintError(
                f"blueprint file {str(path)!r} has lines that are not rows near data row"
                f" {done + 1}: {REGENERATE}"
            )
        done += len(starts)
    if not hashes:
        return np.empty(0, dtype=np.uint64), np.empty((0, len(names)), dtype=np.float32)
    return np.concatenate(hashes), np.concatenate(probabilities)


def _block_hashes(
    path: Path, buffer: np.ndarray, starts: np.ndarray, ends: np.ndarray, done: int
) -> np.ndarray:
    """The key hash of every line: the key is the text before the line's first comma."""
    if (buffer[starts] == ord('"')).any():
        raise BlueprintError(f"blueprint file {str(path)!r} has a quoted key: {REGENERATE}")
    padded = np.concatenate((buffer, np.zeros(256, dtype=np.uint8)))
    width = 16
    while True:  # a window of ``width`` bytes from each line start must hold its first comma
        window = np.lib.stride_tricks.sliding_window_view(padded, width)[starts]
        is_comma = window == ord(",")
        lengths = is_comma.argmax(axis=1)
        found = is_comma[np.arange(len(starts)), lengths]
        if found.all() or width >= 256:
            break
        width *= 2
    bad = np.flatnonzero(~found | (lengths == 0) | (starts + lengths > ends))
    if len(bad):
        raise BlueprintError(
            f"blueprint file {str(path)!r}: data row {done + int(bad[0]) + 1} has no key:"
            f" {REGENERATE}"
        )
    width = max(8, -(-int(lengths.max()) // 8) * 8)
    window = np.ascontiguousarray(window[:, :width])
    window[np.arange(width) >= lengths[:, None]] = 0
    return hash_keys(window.view(np.uint64).reshape(len(starts), -1), lengths)


def _read_probabilities(path: Path, block: bytes, names: list[str], done: int) -> np.ndarray:
    try:
        frame = pd.read_csv(
            io.BytesIO(block),
            header=None,
            names=[KEY_COLUMN, *names],
            usecols=names,
            dtype=dict.fromkeys(names, np.float32),
            engine="c",
        )
    except (ValueError, pd.errors.ParserError) as error:
        raise BlueprintError(
            f"blueprint file {str(path)!r} has a probability that is not a number near data"
            f" row {done + 1} ({error}): {REGENERATE}"
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
            f"blueprint file {str(path)!r}: data row {done + int(bad[0]) + 1} is not a"
            f" distribution (its probabilities sum to {sums[bad[0]]:.4f}): {REGENERATE}"
        )
    return np.nan_to_num(values, nan=0.0)
