"""A CSV file of whole result rows that survives interruption: tournaments and ring games.

Rows are appended and flushed in batches as work finishes, so an interrupted run leaves a
file holding exactly the finished rows (at worst a torn last line, which reading drops).
When the run completes, the file is rewritten atomically in index order. Columns are fixed
per run (ring games and tournaments have one column per bot); ``typed`` turns a read row's
text back into numbers.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any


class RowsFile:
    """Appends, reads back and rewrites the rows of one results CSV."""

    def __init__(
        self, path: Path, columns: Sequence[str], typed: Callable[[dict[str, str]], dict]
    ) -> None:
        self.path = path
        self.columns = tuple(columns)
        self.typed = typed

    def read(self) -> list[dict[str, Any]]:
        """The complete rows, by ``index`` (a torn or foreign line is dropped)."""
        if not self.path.exists():
            return []
        rows: dict[int, dict[str, Any]] = {}
        with self.path.open(newline="", encoding="utf-8") as handle:
            for raw in csv.DictReader(handle):
                if raw.get(self.columns[-1]) is None or not raw.get("index"):
                    continue  # a torn last line
                try:
                    row = self.typed(raw)
                except (ValueError, KeyError):
                    continue
                rows[row["index"]] = row
        return [rows[index] for index in sorted(rows)]

    def append(self, rows: Iterable[dict[str, Any]]) -> None:
        """Append whole rows and flush them."""
        new = not self.path.exists() or self.path.stat().st_size == 0
        with self.path.open("a", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=self.columns, extrasaction="ignore")
            if new:
                writer.writeheader()
            writer.writerows(rows)

    def rewrite(self, rows: list[dict[str, Any]]) -> None:
        """Replace the file atomically with ``rows`` in index order."""
        temporary = self.path.with_suffix(".csv.tmp")
        with temporary.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=self.columns, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(sorted(rows, key=lambda row: row["index"]))
        os.replace(temporary, self.path)
