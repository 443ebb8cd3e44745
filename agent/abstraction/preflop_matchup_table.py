"""The 169 x 169 preflop all-in table: its file format, and the reader the players share.

``data/preflop_matchups.npz`` holds, for every pair of hole classes, the number of disjoint
combo pairs and the row class's win, tie and loss probabilities to the river. The offline
builder is ``blueprint.preflop_matchups`` (``python -m blueprint.preflop_matchups``); the
heads-up push/fold solver and the adaptive agent read the table through this module.
"""

from __future__ import annotations

import importlib.resources
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from agent.poker.cards import HOLE_CLASSES

FORMAT_VERSION = 1
TABLE_FILE = "preflop_matchups.npz"  # in the package agent.data (data/ in the source tree)


@dataclass(frozen=True, eq=False)
class Matchups:
    """The class-vs-class all-in table, indexed by ``HOLE_CLASSES`` order (hole_class_index).

    ``pairs: int16[169, 169]`` disjoint ordered combo pairs; ``win``, ``tie``, ``loss:
    float32[169, 169]`` row class's probabilities against the column class.
    """

    pairs: np.ndarray
    win: np.ndarray
    tie: np.ndarray
    loss: np.ndarray
    samples: int
    seed: int

    def equity(self) -> np.ndarray:
        """The row class's pot share against the column class: win + tie / 2."""
        return self.win.astype(np.float64) + 0.5 * self.tie.astype(np.float64)


def save_matchups(matchups: Matchups, path: Path) -> None:
    """Write the table as npz with its format version and the parameters that made it."""
    np.savez_compressed(
        path,
        format_version=np.int64(FORMAT_VERSION),
        classes=np.array(HOLE_CLASSES),
        pairs=matchups.pairs,
        win=matchups.win,
        tie=matchups.tie,
        loss=matchups.loss,
        samples=np.int64(matchups.samples),
        seed=np.int64(matchups.seed),
    )


def load_matchups(path: Path) -> Matchups:
    """Read a table written by ``save_matchups``; ValueError on another format or class order."""
    with np.load(path, allow_pickle=False) as data:
        version = int(data["format_version"])
        if version != FORMAT_VERSION:
            raise ValueError(f"{path}: format version {version}, expected {FORMAT_VERSION}")
        if tuple(str(name) for name in data["classes"]) != HOLE_CLASSES:
            raise ValueError(f"{path}: classes are not in hole_class_index order")
        return Matchups(
            data["pairs"], data["win"], data["tie"], data["loss"],
            int(data["samples"]), int(data["seed"]),
        )  # fmt: skip


@lru_cache(maxsize=1)
def shipped_matchups() -> Matchups:
    """The shipped table, read once per process from the installed package ``agent.data``
    (also where ``pip install .`` put it, and in an earlier version's copy: ``arena.versions``)."""
    with importlib.resources.as_file(importlib.resources.files("agent.data") / TABLE_FILE) as path:
        return load_matchups(path)
