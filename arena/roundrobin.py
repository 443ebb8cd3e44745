"""Round robin: every pair of bots plays one match; the results form a cross table.

Cell (row, column) is the row bot's sb/h (small blinds won per hand) against the column bot with its
95% CI; the matrix is antisymmetric (a match gives +x to one side and -x to the other), with zeros
on the diagonal, as in Table 2 of da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo
Simulations", Cardiff University (CM3203). Each pair's match lives in its own sub-folder, so the
pairs can be resumed one by one.
"""

from __future__ import annotations

import csv
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.engine import ring_slots
from arena.match import MatchConfig, run_local, run_match
from arena.registry import parse_bot_spec
from arena.results import MATCH_FILE, read_match_file

TABLE_FILE = "table.csv"
HEATMAP_FILE = "table.png"


@dataclass(frozen=True)
class Cell:
    """The row bot's result against the column bot."""

    sb_per_hand: float
    ci95: float | None
    hands: int


def unique_labels(bots: Sequence[str]) -> list[str]:
    """Short names for the bots, numbered when two specs share a label.

    >>> unique_labels(["fish", "honest", "fish:x=1"])
    ['fish', 'honest', 'fish[x=1]']
    >>> unique_labels(["fish", "fish"])
    ['fish#1', 'fish#2']
    """
    labels = [parse_bot_spec(bot).label for bot in bots]
    return [
        f"{label}#{labels[: i + 1].count(label)}" if labels.count(label) > 1 else label
        for i, label in enumerate(labels)
    ]


def labels_by_slot(bots: Sequence[str]) -> dict[str, str]:
    """The :func:`unique_labels` of a table's bots by slot (A, B, ...).

    >>> labels_by_slot(["fish", "fish", "honest"])
    {'A': 'fish#1', 'B': 'fish#2', 'C': 'honest'}
    """
    return dict(zip(ring_slots(len(bots)), unique_labels(bots), strict=True))


def pair_folder(out_dir: Path, labels: Sequence[str], i: int, j: int) -> Path:
    """The folder of the match between bots ``i`` and ``j``."""
    safe = ["".join(c if c.isalnum() or c in "-_#" else "_" for c in label) for label in labels]
    return out_dir / f"{safe[i]}-vs-{safe[j]}"


def round_robin(
    bots: Sequence[str],
    template: MatchConfig,
    out_dir: Path,
    workers: int,
    runner: Callable[..., Any] = run_local,
    on_match: Callable[[str, str], Callable[[int, Any], None] | None] | None = None,
) -> dict[tuple[int, int], Cell]:
    """Play every pair ``i < j`` (resuming any pair folder already there); cells both ways."""
    labels = unique_labels(bots)
    cells: dict[tuple[int, int], Cell] = {}
    for i, j in itertools.combinations(range(len(bots)), 2):
        config = MatchConfig(**{**template.__dict__, "bot_a": bots[i], "bot_b": bots[j]})
        folder = pair_folder(out_dir, labels, i, j)
        if (folder / MATCH_FILE).exists() and read_match_file(folder) != config.__dict__:
            raise ValueError(f"{str(folder)!r} holds a different match; use another --out")
        progress = on_match(labels[i], labels[j]) if on_match else None
        summary = run_match(config, folder, workers, runner, progress)
        rate, ci = summary["sb_per_hand"], summary["ci95_sb_per_hand"]
        cells[(i, j)] = Cell(rate, ci, summary["hands"])
        cells[(j, i)] = Cell(-rate if rate else 0.0, ci, summary["hands"])
    return cells


def markdown_table(labels: Sequence[str], cells: dict[tuple[int, int], Cell]) -> str:
    """Table 2 style: sb/h of the row bot against the column bot, ``+1.23 ± 0.45``.

    >>> cells = {(0, 1): Cell(1.5, 0.25, 10), (1, 0): Cell(-1.5, 0.25, 10)}
    >>> print(markdown_table(["a", "b"], cells))
    | row \\ col | a | b |
    |---|---|---|
    | a | 0 | +1.50 ± 0.25 |
    | b | -1.50 ± 0.25 | 0 |
    """
    lines = ["| row \\ col | " + " | ".join(labels) + " |", "|---" * (len(labels) + 1) + "|"]
    for i, label in enumerate(labels):
        row = [_cell_text(cells.get((i, j))) if i != j else "0" for j in range(len(labels))]
        lines.append(f"| {label} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def _cell_text(cell: Cell | None) -> str:
    if cell is None:
        return ""
    ci = "" if cell.ci95 is None else f" ± {cell.ci95:.2f}"
    return f"{cell.sb_per_hand:+.2f}{ci}"


def write_table_csv(path: Path, labels: Sequence[str], cells: dict[tuple[int, int], Cell]) -> None:
    """One row per ordered pair: ``row,column,hands,sb_per_hand,ci95_sb_per_hand``."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["row", "column", "hands", "sb_per_hand", "ci95_sb_per_hand"])
        for (i, j), cell in sorted(cells.items()):
            ci = "" if cell.ci95 is None else f"{cell.ci95:.6f}"
            writer.writerow([labels[i], labels[j], cell.hands, f"{cell.sb_per_hand:.6f}", ci])


def plot_heatmap(path: Path, labels: Sequence[str], cells: dict[tuple[int, int], Cell]) -> None:
    """A red-green heatmap of the sb/h matrix with the values written in."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    size = len(labels)
    matrix = np.zeros((size, size))
    for (i, j), cell in cells.items():
        matrix[i, j] = cell.sb_per_hand
    limit = max(float(np.abs(matrix).max()), 1e-9)
    figure, axes = plt.subplots(figsize=(1.2 * size + 2, 1.0 * size + 1.5), dpi=110)
    image = axes.imshow(matrix, cmap="RdYlGn", vmin=-limit, vmax=limit)
    axes.set_xticks(range(size), labels, rotation=45, ha="right")
    axes.set_yticks(range(size), labels)
    for i in range(size):
        for j in range(size):
            axes.text(j, i, f"{matrix[i, j]:+.2f}", ha="center", va="center", fontsize=8)
    axes.set_title("sb/h of the row bot against the column bot")
    figure.colorbar(image, ax=axes, label="sb/h")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
