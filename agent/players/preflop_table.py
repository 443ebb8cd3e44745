"""Preflop at tables of 3 to 6 players: play the N-player preflop blueprint.

The trainer (``blueprint.preflop_build``) solves preflop hold'em for 3 to 6 players with
pot-relative opens and 3-bets and all-in (``blueprint.nplayer.preflop``) at a few depths, and
stores the strategy of every decision node its sampling reached often enough. This module
reads that file for the player:

* the hand's players in preflop order (``agent.players.short_stack.preflop_order``), its
  effective depth (our chips at the hand's start against the deepest opponent's) and its ante
  pick the solved game: the same number of players, the nearest depth by ratio, the nearest
  ante;
* the engine's preflop history is walked down that game's tree: a fold and a call (or check)
  are the tree's, a raise is the tree's raise (or all-in) nearest to it by ratio of the
  street totals;
* at our node, the strategy row of our hole class is played, each raise priced on the *real*
  pot: the bet to call plus the fraction of the pot after calling; all-in is all-in.

A history the tree does not hold (a player acting out of the tree's turn, a node the build
left out) returns None, and the player's other rules decide.

File layout (``format`` = 1): see ``blueprint.preflop_build``.
"""

from __future__ import annotations

import importlib.resources
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from agent.boundary.policy import WeightedAction, normalized
from agent.boundary.snapshot import (
    Action,
    ActionRecord,
    Snapshot,
    Street,
    check_or_fold,
    legal_call,
    legal_raise,
)
from agent.players.short_stack import hand_ante, hand_start_stacks, preflop_order
from agent.poker.cards import hole_class_index
from blueprint.nplayer.preflop import CALL_ACTION, FOLD_ACTION, PreflopConfig, preflop_tree
from blueprint.nplayer.tree import DECISION, NPlayerTree

TABLE_FILE = "preflop_nplayer.npz"
FORMAT = 1
TREES = 8  # preflop trees kept for every table of a process, by their game
_NAME = re.compile(r"p(\d+)_s(\d+(?:\.\d+)?)_a(\d+)$")
REBUILD = "build it with `python -m blueprint.preflop_build --seed 0`"
VOLUNTARY = ("FOLD", "CALL", "RAISE")


class PreflopTableError(ValueError):
    """A preflop table file that is missing or not in the expected layout."""


@lru_cache(maxsize=TREES)
def game_tree(config: PreflopConfig) -> NPlayerTree:
    """The public tree of one solved game, built once per process: a six-player tree has
    hundreds of thousands of nodes and takes seconds to build, and every player that loads a
    table (a new one each tournament or hand) reads the same trees."""
    return preflop_tree(config)


@dataclass(eq=False)
class SolvedGame:
    """One solved configuration: its tree (built when first needed) and stored rows."""

    config: PreflopConfig
    nodes: np.ndarray
    rows: np.ndarray
    _tree: NPlayerTree | None = field(default=None, repr=False)
    _row_of: dict[int, int] = field(default_factory=dict, repr=False)

    @property
    def tree(self) -> NPlayerTree:
        """The game's public tree."""
        if self._tree is None:
            self._tree = game_tree(self.config)
            self._row_of = {int(node): index for index, node in enumerate(self.nodes)}
        return self._tree

    def strategy(self, node: int, hole_class: int) -> np.ndarray | None:
        """The probabilities of the node's children for ``hole_class`` (None: not stored)."""
        tree = self.tree
        index = self._row_of.get(node)
        if index is None:
            return None
        count = int(tree.num_children[node])
        row = self.rows[index, hole_class, :count].astype(np.float64)
        return row / row.sum() if row.sum() > 0 else None


@dataclass(frozen=True, eq=False)
class PreflopTable:
    """Solved preflop games by (players, stack, ante)."""

    games: Mapping[tuple[int, float, float], SolvedGame]

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> PreflopTable:
        """Read the games of an npz file's arrays; checks the format."""
        if int(arrays.get("format", -1)) != FORMAT:
            raise PreflopTableError(f"the preflop table is not format {FORMAT}; {REBUILD}")
        fractions = tuple(tuple(level) for level in json.loads(str(arrays["raise_fractions"])))
        games = {}
        for name, rows in arrays.items():
            match = _NAME.match(name)
            if match is None:
                continue
            players, stack = int(match.group(1)), float(match.group(2))
            ante = int(match.group(3)) / 1000.0
            config = PreflopConfig(players, stack, ante, fractions)
            games[(players, stack, ante)] = SolvedGame(config, arrays[f"nodes_{name}"], rows)
        if not games:
            raise PreflopTableError(f"the preflop table holds no games; {REBUILD}")
        return cls(games)

    @classmethod
    def load(cls, path: str | Path) -> PreflopTable:
        """Read a table file (``blueprint.preflop_build``'s output)."""
        try:
            with np.load(path) as data:
                return cls.from_arrays({key: data[key] for key in data.files})
        except PreflopTableError:
            raise
        except (OSError, ValueError, KeyError) as error:
            raise PreflopTableError(f"cannot read the preflop table {path}: {error}") from None

    @property
    def players(self) -> tuple[int, ...]:
        """The table sizes the file covers."""
        return tuple(sorted({players for players, _, _ in self.games}))

    def nearest(self, players: int, stack_bb: float, ante_bb: float) -> SolvedGame | None:
        """The game of ``players`` nearest in depth (by ratio), then in ante."""
        keys = [key for key in self.games if key[0] == players]
        if not keys or stack_bb <= 0:
            return None
        key = min(keys, key=lambda k: (abs(math.log(k[1] / stack_bb)), abs(k[2] - ante_bb)))
        return self.games[key]


@lru_cache(maxsize=1)
def shipped_table() -> PreflopTable | None:
    """The table installed with the package (``agent.data``), or None when it is not built."""
    resource = importlib.resources.files("agent.data") / TABLE_FILE
    if not resource.is_file():
        return None
    with importlib.resources.as_file(resource) as path:
        return PreflopTable.load(path)


def table_policy(table: PreflopTable, snapshot: Snapshot) -> list[WeightedAction] | None:
    """The table's mix at a preflop decision of 3 to 6 players (None where it does not apply)."""
    if snapshot.street != Street.PREFLOP:
        return None
    order = preflop_order(snapshot)
    if snapshot.seat not in order or len(order) not in table.players:
        return None
    ante_bb = hand_ante(snapshot.history) / snapshot.big_blind
    game = table.nearest(len(order), _depth_bb(snapshot, order), ante_bb)
    if game is None:
        return None
    node = walk(game, snapshot.history, order, snapshot.big_blind)
    tree = game.tree
    position = order.index(snapshot.seat)
    if node is None or tree.kind[node] != DECISION or tree.player[node] != position:
        return None
    strategy = game.strategy(node, hole_class_index(snapshot.hole))
    if strategy is None:
        return None
    mixed: dict[Action, float] = {}
    for k, probability in enumerate(strategy):
        action = _concrete(game.config, int(tree.action[tree.first_child[node] + k]), snapshot)
        mixed[action] = mixed.get(action, 0.0) + float(probability)
    return normalized([(name, amount, p) for (name, amount), p in mixed.items() if p > 0])


def walk(
    game: SolvedGame, history: tuple[ActionRecord, ...], order: list[int], big_blind: int
) -> int | None:
    """The tree node the preflop history leads to (None: off the tree)."""
    tree, node = game.tree, 0
    ante = game.config.ante_bb
    for record in history:
        if record.street != Street.PREFLOP or record.kind not in VOLUNTARY:
            continue
        if tree.kind[node] != DECISION or record.seat not in order:
            return None
        position = order.index(record.seat)
        if tree.player[node] != position:
            return None
        children = tree.first_child[node] + np.arange(tree.num_children[node])
        actions = tree.action[children]
        if record.kind == "RAISE":
            raises = children[actions > CALL_ACTION]
            if len(raises) == 0 or record.amount <= 0:
                return None
            totals = tree.contribution[raises, position] - ante
            target = record.amount / big_blind
            node = int(raises[np.argmin(np.abs(np.log(totals / target)))])
            continue
        wanted = FOLD_ACTION if record.kind == "FOLD" else CALL_ACTION
        matches = children[actions == wanted]
        if len(matches) == 0:
            return None
        node = int(matches[0])
    return node


def _concrete(config: PreflopConfig, action: int, snapshot: Snapshot) -> Action:
    """The engine action of a tree action, priced on the real pot."""
    if action == FOLD_ACTION:
        return check_or_fold(snapshot)
    if action == CALL_ACTION:
        return legal_call(snapshot)
    if action == config.all_in_action:
        return legal_raise(snapshot, snapshot.max_raise or 0)
    raises = sum(1 for record in snapshot.history if record.kind == "RAISE")
    fraction = config.raise_fractions[raises][action - 2]
    size = fraction * (snapshot.pot + snapshot.to_call)
    return legal_raise(snapshot, round(snapshot.call_amount + size))


def _depth_bb(snapshot: Snapshot, order: list[int]) -> float:
    """Our chips at the hand's start against the deepest opponent's, in big blinds."""
    start = hand_start_stacks(snapshot)
    others = [start[seat] for seat in order if seat != snapshot.seat]
    return min(start[snapshot.seat], max(others)) / snapshot.big_blind


def load_preflop_table(source: bool | str | Path) -> PreflopTable | None:
    """The table a player's ``preflop_table`` option names: False none, True the one built into
    ``agent/data`` (a clear error when it has not been built), a path that file."""
    if source is False:
        return None
    if not isinstance(source, (bool, str, Path)):
        raise PreflopTableError(f"preflop_table={source!r}: expected true, false or a file")
    if source is not True:
        return PreflopTable.load(source)
    table = shipped_table()
    if table is None:
        raise PreflopTableError(f"preflop_table=true needs agent/data/{TABLE_FILE}: {REBUILD}")
    return table
