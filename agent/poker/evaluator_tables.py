"""The file format of the 7-card evaluator's tables (``data/evaluator.npz``): reading, checks.

The tables (see :mod:`agent.poker.evaluator`) are built offline from phevaluator by
``python -m blueprint.evaluator_tables``; this module only reads them, so that the builder
works even when the shipped file is missing or corrupt.
"""

from __future__ import annotations

import importlib.resources
import zipfile

import numpy as np

TABLES_FILE = "evaluator.npz"
TABLES_VERSION = 1
TABLES_COMMAND = f"python -m blueprint.evaluator_tables --out data/{TABLES_FILE}"
MAX_PER_RANK = 4  # copies of a rank
HAND_CARDS = 7  # cards in a hold'em hand
_SHAPES = {"offset": ((13, HAND_CARDS + 1, MAX_PER_RANK + 1), np.int32),
           "rank": ((49_205,), np.int16), "flush": ((1 << 13,), np.int16)}  # fmt: skip


def read_tables(source: object | None = None) -> dict[str, np.ndarray]:
    """The shipped tables (or those of ``source``, a path), checked; ValueError naming the
    file and the command that rebuilds it."""
    resource = source or importlib.resources.files("agent.data").joinpath(TABLES_FILE)
    rebuild = f"rebuild it with `{TABLES_COMMAND}`"
    try:
        with resource.open("rb") as handle, np.load(handle) as stored:  # type: ignore[attr-defined]
            tables = {name: stored[name] for name in stored.files}
    except FileNotFoundError:
        raise ValueError(f"the evaluator tables {str(resource)!r} are missing: {rebuild}") from None
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise ValueError(
            f"{str(resource)!r} is not a readable npz file ({error}): {rebuild}"
        ) from None
    if int(tables.get("version", -1)) != TABLES_VERSION:
        raise ValueError(
            f"{str(resource)!r} is not version {TABLES_VERSION} of the tables: {rebuild}"
        )
    for name, (shape, dtype) in _SHAPES.items():
        table = tables.get(name)
        if table is None or table.shape != shape or table.dtype != dtype:
            raise ValueError(f"{str(resource)!r} has no valid {name!r} table: {rebuild}")
    return {name: tables[name] for name in _SHAPES}
