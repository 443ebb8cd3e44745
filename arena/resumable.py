"""Finish a resumable run: play the units (hands, tournaments) its rows file does not hold yet.

Ring games and tournaments share this loop. Every unit is seeded by its index alone, so
which units are missing, how they are grouped into tasks and which worker plays them do not
change the rows. Each task's errors are written before its rows, so a run interrupted between
the two leaves errors of units that will be played again, and those are pruned on resume.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.match import ChunkRunner, chunks
from arena.results import (
    ERRORS_FILE,
    ErrorsWriter,
    count_errors,
    prune_errors,
    write_run_file,
)
from arena.rows_file import RowsFile


@dataclass
class Finished:
    """Every row of a run in index order, and what this call did."""

    rows: list[dict[str, Any]]
    wall_seconds: float
    played: int
    errors: dict[str, int] = field(default_factory=dict)  # per player name, over every row


def play_missing(
    config: Any,
    out_dir: Path,
    config_file: str,
    store: RowsFile,
    total: int,
    task_size: int,
    names: dict[str, str],
    workers: int,
    runner: ChunkRunner,
    on_progress: Callable[[list[dict[str, Any]]], None] | None = None,
) -> Finished:
    """Play units ``0..total-1`` of ``config`` not yet in ``store``, ``task_size`` to a task.

    ``config`` is saved first as ``out_dir/config_file`` (what ``--resume`` reads back), and
    the folder for its hand histories is made if it asks for them (``phh_dir``).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    write_run_file(out_dir / config_file, config)
    if config.phh_dir is not None:
        Path(config.phh_dir).mkdir(parents=True, exist_ok=True)
    rows = [row for row in store.read() if row["index"] < total]
    store.rewrite(rows)  # drop a torn line, or units beyond a lowered total
    done = {row["index"] for row in rows}
    prune_errors(out_dir / ERRORS_FILE, done)
    missing = [index for index in range(total) if index not in done]
    error_log = ErrorsWriter(out_dir / ERRORS_FILE)
    started = time.perf_counter()
    for batch in runner(config, chunks(missing, size=task_size), workers):
        error_log.write(batch, names)
        store.append(batch)
        rows.extend(batch)
        if on_progress is not None:
            on_progress(batch)
    elapsed = time.perf_counter() - started
    store.rewrite(rows)
    rows.sort(key=lambda row: row["index"])
    errors = count_errors(out_dir / ERRORS_FILE, set(range(total)), names)
    return Finished(rows, elapsed, len(missing), errors)
