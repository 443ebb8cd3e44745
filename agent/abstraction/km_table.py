"""The shipped k-means flop bucket tables (`km<N>`): file names, reading and checking.

The tables are built offline by `blueprint.flop_kmeans` (Johanson et al., AAMAS 2013);
the trainer and the agent read them here.
"""

from __future__ import annotations

import importlib.resources
import zlib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from agent.abstraction import flop_buckets

if TYPE_CHECKING:  # importlib.resources.abc is new in Python 3.11
    from importlib.resources.abc import Traversable

FORMAT_VERSION = 1


def table_file(num_buckets: int) -> str:
    """The file name of the ``km<N>`` assignment.

    >>> table_file(500)
    'flop_km500.npz'
    """
    return f"flop_km{num_buckets}.npz"


def build_command(num_buckets: int) -> str:
    """The command line that builds the ``km<N>`` assignment."""
    out = f"data/{table_file(num_buckets)}"
    return f"python -m blueprint.flop_kmeans --buckets {num_buckets} --out {out}"


def keys_checksum(keys: np.ndarray) -> int:
    """CRC-32 of the sorted class keys: ties an assignment to the ``flop_ehs.npz`` it indexes."""
    return zlib.crc32(np.ascontiguousarray(keys, dtype=np.int64).tobytes())


def check_num_buckets(num_buckets: int) -> None:
    """ValueError unless 2 <= num_buckets <= 5000."""
    if not 2 <= num_buckets <= 5000:
        raise ValueError(f"flop bucket count {num_buckets!r}: expected 2..5000")


def table_exists(num_buckets: int) -> bool:
    """Whether ``data/flop_km<N>.npz`` ships."""
    return importlib.resources.files("agent.data").joinpath(table_file(num_buckets)).is_file()


def require_table(num_buckets: int) -> None:
    """ValueError naming the build command if the ``km<N>`` table is not in ``data/``."""
    if not table_exists(num_buckets):
        raise ValueError(
            f"card abstraction 'km{num_buckets}' needs data/{table_file(num_buckets)}, which is"
            f" missing: build it with `{build_command(num_buckets)}`"
        )


@cache
def class_buckets(num_buckets: int) -> np.ndarray:
    """The ``km<N>`` bucket of every class row (``int32``) from the shipped table."""
    require_table(num_buckets)
    resource = importlib.resources.files("agent.data").joinpath(table_file(num_buckets))
    return read_assignment(resource, num_buckets)


def read_assignment(path: Path | Traversable, num_buckets: int) -> np.ndarray:
    """The class -> bucket array of a ``km<N>`` file, checked against ``data/flop_ehs.npz``.

    ValueError naming the file, the problem and the build command if it does not fit.
    """
    rebuild = f"rebuild it with `{build_command(num_buckets)}`"
    try:
        with path.open("rb") as handle, np.load(handle) as table:
            data = {key: table[key] for key in table.files}
    except FileNotFoundError:
        raise ValueError(f"{str(path)!r} does not exist: {rebuild}") from None
    except (OSError, ValueError, zlib.error) as error:
        raise ValueError(f"{str(path)!r} is not a readable npz file ({error}): {rebuild}") from None
    problem = _table_problem(data, num_buckets, flop_buckets.load_table()["keys"])
    if problem:
        raise ValueError(f"{str(path)!r} {problem}: {rebuild}")
    return data["buckets"].astype(np.int32)


def _table_problem(data: dict[str, np.ndarray], num_buckets: int, keys: np.ndarray) -> str:
    """What is wrong with a loaded assignment ('' if nothing)."""
    missing = {"format_version", "num_buckets", "buckets", "keys_crc32"} - set(data)
    if missing:
        return f"lacks the arrays {sorted(missing)}"
    if int(data["format_version"]) != FORMAT_VERSION:
        return f"has format version {int(data['format_version'])}, expected {FORMAT_VERSION}"
    if int(data["num_buckets"]) != num_buckets:
        return f"holds {int(data['num_buckets'])} buckets, expected {num_buckets}"
    buckets = data["buckets"]
    if len(buckets) != len(keys) or int(data["keys_crc32"]) != keys_checksum(keys):
        return "does not match the classes of data/flop_ehs.npz"
    if buckets.min() < 0 or buckets.max() >= num_buckets:
        return f"has buckets outside 0..{num_buckets - 1}"
    return ""
