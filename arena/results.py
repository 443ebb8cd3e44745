"""The files a match leaves behind: ``match.json``, ``hands.csv``, ``summary.json``,
``winnings.png``.

``hands.csv`` gets whole rows appended (and flushed) as hands finish, so an interrupted run
leaves a file holding exactly the hands played; when the match is complete it is rewritten
in hand order. Chips are from fresh stacks each hand, so ``won_A + won_B == 0`` per row.
Columns: ``index`` (0-based hand number), ``deal``, ``seed`` (the deal's seed: it fixes the
cards), ``seats`` (the slots in seat order; seat 0 is the button, which posts the big blind
in PyPokerEngine heads-up), ``hole_seat0``, ``hole_seat1``, ``board`` (the deal's five
cards, whether or not the hand reached them), ``actions`` (``street=slot:ACTION:amount ...``
as the engine recorded them), ``won_A``, ``won_B``, ``illegal_A``, ``illegal_B`` and
``decision_ms_A``/``_B`` (each decision's wall time in ms, space separated) and ``why_A``/``_B``
(the rule that played each decision, with its detail, `` | `` separated; empty entries for a
bot that records none: :class:`agent.boundary.bot.Explainer`). A file written before the
``why`` columns existed reads with them empty.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from arena.engine import HandResult, cards_text
from arena.legal import ILLEGAL_PREFIX

FORMAT_VERSION = 1
HAND_COLUMNS = (
    "index",
    "deal",
    "seed",
    "seats",
    "hole_seat0",
    "hole_seat1",
    "board",
    "actions",
    "won_A",
    "won_B",
    "illegal_A",
    "illegal_B",
    "decision_ms_A",
    "decision_ms_B",
    "why_A",
    "why_B",
)
OPTIONAL_COLUMNS = ("why_A", "why_B")  # absent from files of earlier versions
WHY_SEPARATOR = " | "
HANDS_FILE = "hands.csv"
ERRORS_FILE = "errors.csv"
ERROR_COLUMNS = ("index", "slot", "bot", "error")
SUMMARY_FILE = "summary.json"
MATCH_FILE = "match.json"
PLOT_FILE = "winnings.png"


def hand_row(index: int, deal: int, seed: int, result: HandResult) -> dict[str, Any]:
    """One ``hands.csv`` row from a played hand."""
    deck = list(result.deck)
    row: dict[str, Any] = {
        "index": index,
        "deal": deal,
        "seed": seed,
        "seats": " ".join(result.seat_slots),
        "hole_seat0": cards_text(deck[0:2]),
        "hole_seat1": cards_text(deck[2:4]),
        "board": cards_text(deck[4:9]),
        "actions": result.actions,
    }
    for slot in ("A", "B"):
        row[f"won_{slot}"] = result.won[slot]
        row[f"illegal_{slot}"] = result.illegal[slot]
        row[f"decision_ms_{slot}"] = [round(ms, 3) for ms in result.decision_ms[slot]]
        row[f"why_{slot}"] = list(result.why.get(slot, ()))
    row["errors"] = result.logged()
    return row


def _csv_row(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    for slot in ("A", "B"):
        out[f"decision_ms_{slot}"] = " ".join(f"{ms:.3f}" for ms in row[f"decision_ms_{slot}"])
        why = row.get(f"why_{slot}", [])
        out[f"why_{slot}"] = WHY_SEPARATOR.join(why) if any(why) else ""
    return out


class HandsWriter:
    """Appends whole rows to ``hands.csv`` and flushes after each batch."""

    def __init__(self, path: Path) -> None:
        new = not path.exists() or path.stat().st_size == 0
        self._file = path.open("a", newline="", encoding="utf-8")
        self._writer = csv.DictWriter(self._file, fieldnames=HAND_COLUMNS, extrasaction="ignore")
        if new:
            self._writer.writeheader()
            self._file.flush()

    def write(self, rows: Iterable[dict[str, Any]]) -> None:
        self._writer.writerows(_csv_row(row) for row in rows)
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def read_hands(path: Path) -> list[dict[str, Any]]:
    """The complete rows of a ``hands.csv`` (a torn last line is dropped), typed, by index."""
    if not path.exists():
        return []
    rows: dict[int, dict[str, Any]] = {}
    with path.open(newline="", encoding="utf-8") as handle:
        for raw in csv.DictReader(handle):
            if any(
                raw.get(column) is None for column in HAND_COLUMNS if column not in OPTIONAL_COLUMNS
            ):
                continue
            try:
                row = _typed(raw)
            except ValueError:
                continue
            rows[row["index"]] = row
    return [rows[index] for index in sorted(rows)]


def _typed(raw: dict[str, str]) -> dict[str, Any]:
    row: dict[str, Any] = dict(raw)
    for column in ("index", "deal", "seed", "won_A", "won_B", "illegal_A", "illegal_B"):
        row[column] = int(raw[column])
    for slot in ("A", "B"):
        text = raw[f"decision_ms_{slot}"]
        row[f"decision_ms_{slot}"] = [float(v) for v in text.split()] if text else []
        why = raw.get(f"why_{slot}") or ""
        row[f"why_{slot}"] = why.split(WHY_SEPARATOR) if why else []
    return row


def rewrite_sorted(path: Path, rows: list[dict[str, Any]]) -> None:
    """Replace ``hands.csv`` atomically with ``rows`` in index order."""
    temporary = path.with_suffix(".csv.tmp")
    with temporary.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=HAND_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(_csv_row(row) for row in rows)
    os.replace(temporary, path)


class ErrorsWriter:
    """Appends the bots' errors of finished hands to ``errors.csv`` (index, slot, bot, error).

    A separate file, so ``hands.csv`` keeps its columns; read back by :func:`count_errors`.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def write(self, rows: Iterable[dict[str, Any]], names: dict[str, str]) -> None:
        lines = [
            (row["index"], slot, names[slot], error)
            for row in rows
            for slot, errors in row.get("errors", {}).items()
            for error in errors
        ]
        if not lines:
            return
        new = not self.path.exists() or self.path.stat().st_size == 0
        with self.path.open("a", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            if new:
                writer.writerow(ERROR_COLUMNS)
            writer.writerows(lines)

    def close(self) -> None:
        """Nothing stays open between batches."""


def read_errors(path: Path, indices: set[int]) -> list[dict[str, str]]:
    """The ``errors.csv`` rows of the hands ``indices`` (a torn last line is dropped)."""
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as handle:
        return [
            row
            for row in csv.DictReader(handle)
            if row.get("error") is not None and row["index"].isdigit()
            and int(row["index"]) in indices
        ]  # fmt: skip


def prune_errors(path: Path, indices: set[int]) -> None:
    """Keep only the errors of the hands ``indices`` (those in ``hands.csv``).

    Errors are written before their hands, so an interruption between the two leaves errors
    of hands that will be played again: they are dropped before a run resumes.
    """
    if path.exists():
        rows = read_errors(path, indices)
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=ERROR_COLUMNS)
            writer.writeheader()
            writer.writerows(rows)


def count_errors(path: Path, indices: set[int], names: dict[str, str]) -> dict[str, int]:
    """Errors per player over the hands ``indices`` (illegal actions, also logged there, are
    counted apart)."""
    counts = dict.fromkeys(names.values(), 0)
    for row in read_errors(path, indices):
        if not row["error"].startswith(ILLEGAL_PREFIX):
            counts[names[row["slot"]]] += 1
    return counts


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write JSON atomically (a temporary file, then a rename)."""
    temporary = path.with_suffix(".json.tmp")
    temporary.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def write_run_file(path: Path, config: Any) -> None:
    """Record a run's configuration (a dataclass), so ``--resume`` can finish it."""
    write_json(path, {"format_version": FORMAT_VERSION, **asdict(config)})


def read_run_file(path: Path, kind: str) -> dict[str, Any]:
    """The configuration saved by :func:`write_run_file`; ValueError if absent or foreign.

    ``kind`` names what the folder should hold, for the message (``"an arena match"``).
    """
    if not path.is_file():
        raise ValueError(f"{str(path.parent)!r} holds no {path.name}: it is not {kind} folder")
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.pop("format_version", None) != FORMAT_VERSION:
        raise ValueError(f"{str(path)!r} has an unknown format version")
    return data


def write_match_file(out_dir: Path, config: Any) -> None:
    """Record the match's configuration, so ``--resume`` can finish it."""
    write_run_file(out_dir / MATCH_FILE, config)


def read_match_file(out_dir: Path) -> dict[str, Any]:
    """The configuration saved by :func:`write_match_file`; ValueError if absent or foreign."""
    return read_run_file(out_dir / MATCH_FILE, "an arena match")


def plot_winnings(
    path: Path, chips_a: np.ndarray, small_blind: int, ci95: float | None, title: str
) -> None:
    """Cumulative winnings of A in small blinds, with the 95% band of the final rate."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hands = np.arange(1, len(chips_a) + 1)
    cumulative = np.cumsum(chips_a) / small_blind
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=110)
    axes.plot(hands, cumulative, lw=1.0, label="cumulative winnings of " + title.split(" vs ")[0])
    if ci95 is not None and len(hands):
        rate = cumulative[-1] / len(hands)
        axes.plot(hands, rate * hands, lw=0.8, ls="--", color="k", label="final rate")
        axes.fill_between(
            hands, (rate - ci95) * hands, (rate + ci95) * hands, alpha=0.2, label="95% CI"
        )
    axes.axhline(0, color="grey", lw=0.5)
    axes.set_xlabel("hands")
    axes.set_ylabel("small blinds won")
    axes.set_title(title)
    axes.legend(loc="best")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
