"""The push/fold equilibrium tables: who goes all-in, and who calls, at short stacks.

At 15 big blinds or less, strategies that only move all-in or fold lose little to full play
(the "push/fold" game; Chen & Ankenman, *The Mathematics of Poker*, 2006, ch. 12; Miltersen &
Sørensen 2007 for the heads-up equilibrium). The trainer (``blueprint.pushfold_build``)
solves that game for 2 to 10 players, on a grid of stack depths and antes, and writes one
compressed npz; this module reads it for the player.

Layout of the file (``format`` = 1): one ``float16`` array per configuration, named
``p{players}_s{stack}_a{ante x 1000}`` (stack and ante in big blinds, before posting), of
shape ``[players, 2 ** (players - 1), 169]``: the probability that the player at preflop
*position* (0 acts first; heads-up 0 is the small blind; the big blind acts last) goes
"in", given the *mask* of earlier positions already in (mask 0: the pot is unopened, "in"
is a push; otherwise "in" calls the push), for each hole class (``agent.poker.cards``'s
169-class index).

>>> table = PushFoldTable.from_arrays({"p2_s10_a0": np.full((2, 2, 169), 0.5)})
>>> table.players, table.stacks(2), table.antes(2)
((2,), (10.0,), (0.0,))
>>> table.probability_in(2, 9.0, 0.0, position=1, mask=1, hole_class=0)
0.5
"""

from __future__ import annotations

import importlib.resources
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

TABLE_FILE = "pushfold.npz"
FORMAT = 1
NUM_CLASSES = 169
_NAME = re.compile(r"p(\d+)_s(\d+(?:\.\d+)?)_a(\d+)$")
REBUILD = "rebuild it with `python -m blueprint.pushfold_build --seed 0`"


class PushFoldTableError(ValueError):
    """A push/fold table file that is missing or not in the expected layout."""


@dataclass(frozen=True, eq=False)
class PushFoldTable:
    """Push/fold strategies by (players, stack, ante): see the module docstring."""

    strategies: Mapping[tuple[int, float, float], np.ndarray]

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> PushFoldTable:
        """Read the named strategy arrays (other keys are ignored); checks their shapes."""
        strategies: dict[tuple[int, float, float], np.ndarray] = {}
        for name, array in arrays.items():
            match = _NAME.match(name)
            if match is None:
                continue
            players = int(match.group(1))
            expected = (players, 2 ** (players - 1), NUM_CLASSES)
            if array.shape != expected:
                raise PushFoldTableError(f"{name} has shape {array.shape}, expected {expected}")
            key = (players, float(match.group(2)), int(match.group(3)) / 1000.0)
            strategies[key] = np.asarray(array, dtype=_stored_precision(array))
        if not strategies:
            raise PushFoldTableError("the push/fold table holds no strategy arrays")
        return cls(strategies)

    @property
    def players(self) -> tuple[int, ...]:
        """The table sizes the file covers."""
        return tuple(sorted({players for players, _, _ in self.strategies}))

    def stacks(self, players: int) -> tuple[float, ...]:
        """The stack depths (big blinds) solved for ``players``."""
        return tuple(sorted({s for p, s, _ in self.strategies if p == players}))

    def antes(self, players: int) -> tuple[float, ...]:
        """The antes (big blinds) solved for ``players``."""
        return tuple(sorted({a for p, _, a in self.strategies if p == players}))

    def max_stack(self, players: int) -> float:
        """The deepest stack solved for ``players`` (0 when the size is not covered)."""
        return max(self.stacks(players), default=0.0)

    def nearest(self, players: int, stack_bb: float, ante_bb: float) -> np.ndarray:
        """The strategy array of the nearest solved stack (in ratio) and ante for ``players``."""
        stacks = self.stacks(players)
        if not stacks:
            raise PushFoldTableError(f"no push/fold strategy for {players} players")
        stack = min(stacks, key=lambda s: abs(np.log(s / max(stack_bb, 0.1))))
        antes = [a for p, s, a in self.strategies if p == players and s == stack]
        ante = min(antes, key=lambda a: abs(a - ante_bb))
        return self.strategies[(players, stack, ante)]

    def probability_in(
        self,
        players: int,
        stack_bb: float,
        ante_bb: float,
        *,
        position: int,
        mask: int,
        hole_class: int,
    ) -> float:
        """P(push or call) of one holding class at one position and history."""
        return float(self.nearest(players, stack_bb, ante_bb)[position, mask, hole_class])


def _stored_precision(array: np.ndarray) -> type:
    """float16 arrays (the shipped file) stay float16, not copied: widened to float32 the table
    would take twice the memory of every player for no precision it has; others become float32."""
    return np.float16 if array.dtype == np.float16 else np.float32


def read_table(path: str | Path) -> PushFoldTable:
    """Load a push/fold table file; :class:`PushFoldTableError` if it cannot be used."""
    try:
        with np.load(path) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except (OSError, ValueError) as error:
        raise PushFoldTableError(
            f"cannot read push/fold table {path}: {error}; {REBUILD}"
        ) from None
    version = int(arrays.get("format", np.array(-1)))
    if version != FORMAT:
        raise PushFoldTableError(f"{path} has format {version}, expected {FORMAT}; {REBUILD}")
    return PushFoldTable.from_arrays(arrays)


@lru_cache(maxsize=1)
def shipped_table() -> PushFoldTable:
    """The shipped table (``data/pushfold.npz``), loaded once per process."""
    with importlib.resources.as_file(importlib.resources.files("agent.data") / TABLE_FILE) as path:
        return read_table(path)
