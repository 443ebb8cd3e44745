"""The public betting tree of an N-player game: a frozen dataclass of flat numpy arrays.

The two-player ``blueprint.tree.BettingTree`` generalised to P players (Zinkevich et al. 2007:
CFR over a public tree with private chance outcomes). The betting is public and all private
information comes from chance, so an information set is a pair (public decision node, the
acting player's private bucket in that node's round).

Node arrays, length N, node 0 the root, every child index greater than its parent's:

- ``kind``: 0 decision, 1 fold terminal (one player left), 2 showdown terminal
  (``DECISION``, ``FOLD``, ``SHOWDOWN``);
- ``player``: the acting player at a decision (0 elsewhere);
- ``round``: betting round;
- ``first_child``, ``num_children``: children are ``first_child + k`` for k < num_children;
- ``parent`` (-1 at the root), ``action`` (the action index that led here);
- ``contribution[N, P]``: chips each player has put in at this node;
- ``alive[N]``: bit mask of the players who have not folded (at a fold terminal, one bit);
- ``infoset_base``: at decisions the first info-set row; the actor holding bucket ``b`` is at
  row ``infoset_base[node] + b``; -1 elsewhere.

A terminal pays the pot to the alive players with the best showdown rank (split evenly);
each player's utility is its share minus its contribution (``terminal_utility``).

>>> tree = tree_from_expander("", _toy, num_players=3, num_buckets=(2,), action_names=("f", "c"))
>>> tree.num_nodes, tree.num_infosets, tree.num_players
(5, 4, 3)
>>> tree.alive.tolist()
[3, 2, 3, 1, 3]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

DECISION = 0
FOLD = 1
SHOWDOWN = 2
MAX_DEPTH = 128  # decisions on a path; the sampling kernels keep a stack this deep


@dataclass(frozen=True)
class NodeSpec:
    """One node as a game describes it to ``tree_from_expander``.

    ``children``: (action index, child state) pairs, empty at terminals; ``alive``: bit mask
    of players still in; ``player``: the actor at a decision (else 0).
    """

    kind: int
    player: int
    round: int
    contribution: tuple[float, ...]
    alive: int
    children: Sequence[tuple[int, Any]] = ()


@dataclass(frozen=True, eq=False)
class NPlayerTree:
    """A public N-player betting tree (see the module docstring for each array)."""

    kind: np.ndarray
    player: np.ndarray
    round: np.ndarray
    first_child: np.ndarray
    num_children: np.ndarray
    parent: np.ndarray
    action: np.ndarray
    contribution: np.ndarray
    alive: np.ndarray
    infoset_base: np.ndarray
    num_buckets: np.ndarray
    max_actions: int
    num_infosets: int
    action_names: tuple[str, ...]

    @property
    def num_nodes(self) -> int:
        """Number of nodes N."""
        return len(self.kind)

    @property
    def num_players(self) -> int:
        """Number of players P."""
        return self.contribution.shape[1]

    @property
    def num_rounds(self) -> int:
        """Number of betting rounds R."""
        return len(self.num_buckets)

    def kernel_arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays the kernels take, in their order."""
        return (
            self.kind,
            self.player,
            self.round,
            self.first_child,
            self.num_children,
            self.contribution,
            self.alive,
            self.infoset_base,
        )

    def infoset_rows(self, node: int) -> np.ndarray:
        """The info-set rows of a decision node, one per bucket of its round."""
        if self.kind[node] != DECISION:
            raise ValueError(f"node {node} is not a decision node")
        count = int(self.num_buckets[self.round[node]])
        return np.arange(self.infoset_base[node], self.infoset_base[node] + count)

    def infoset_node(self) -> np.ndarray:
        """The decision node of every info-set row: ``int32[num_infosets]``."""
        owner = np.empty(self.num_infosets, dtype=np.int32)
        for node in np.flatnonzero(self.kind == DECISION):
            owner[self.infoset_rows(int(node))] = node
        return owner

    def infoset_actions(self) -> np.ndarray:
        """The number of legal actions of every info-set row."""
        return self.num_children[self.infoset_node()]

    def history(self, node: int) -> tuple[int, ...]:
        """The action indices from the root to ``node``."""
        path = []
        while node > 0:
            path.append(int(self.action[node]))
            node = int(self.parent[node])
        return tuple(reversed(path))

    def new_table(self, dtype: type = np.float64) -> np.ndarray:
        """A zeroed ``[num_infosets, max_actions]`` regret or strategy-sum table."""
        return np.zeros((self.num_infosets, self.max_actions), dtype=dtype)


def tree_from_expander(
    root: Any,
    expand: Callable[[Any], NodeSpec],
    num_players: int,
    num_buckets: Sequence[int],
    action_names: Sequence[str],
) -> NPlayerTree:
    """Build a tree breadth first from a root state and a function describing each state.

    Breadth-first numbering keeps siblings contiguous and children after their parent;
    info-set rows are laid out in node order, ``num_buckets[round]`` rows per decision.
    Raises ValueError on a malformed node.
    """
    if not 2 <= num_players <= 62:
        raise ValueError(f"num_players must lie in 2..62, got {num_players}")
    buckets = np.asarray(num_buckets, dtype=np.int64)
    if buckets.ndim != 1 or len(buckets) == 0 or (buckets < 1).any():
        raise ValueError(f"num_buckets must be positive counts per round, got {num_buckets}")
    rows: dict[str, list] = {k: [] for k in ("kind", "player", "round", "first", "count")}
    parent, action, contribution, alive, base = [], [], [], [], []
    queue: deque[tuple[Any, int, int]] = deque([(root, -1, 0)])
    next_index, next_row = 1, 0
    while queue:
        state, parent_index, action_index = queue.popleft()
        spec = expand(state)
        _check_spec(spec, len(rows["kind"]), num_players, len(buckets))
        for key, value in zip(rows, (spec.kind, spec.player, spec.round), strict=False):
            rows[key].append(value)
        rows["first"].append(next_index if spec.children else 0)
        rows["count"].append(len(spec.children))
        parent.append(parent_index)
        action.append(action_index)
        contribution.append(spec.contribution)
        alive.append(spec.alive)
        base.append(next_row if spec.kind == DECISION else -1)
        next_row += int(buckets[spec.round]) if spec.kind == DECISION else 0
        node = len(rows["kind"]) - 1
        queue.extend((child, node, child_action) for child_action, child in spec.children)
        next_index += len(spec.children)
    kind = np.array(rows["kind"], dtype=np.int8)
    num_children = np.array(rows["count"], dtype=np.int32)
    return NPlayerTree(
        kind=kind,
        player=np.array(rows["player"], dtype=np.int8),
        round=np.array(rows["round"], dtype=np.int8),
        first_child=np.array(rows["first"], dtype=np.int32),
        num_children=num_children,
        parent=np.array(parent, dtype=np.int32),
        action=np.array(action, dtype=np.int8),
        contribution=np.array(contribution, dtype=np.float64).reshape(-1, num_players),
        alive=np.array(alive, dtype=np.int64),
        infoset_base=np.array(base, dtype=np.int64),
        num_buckets=buckets,
        max_actions=int(num_children[kind == DECISION].max()),
        num_infosets=next_row,
        action_names=tuple(action_names),
    )


def _check_spec(spec: NodeSpec, node: int, num_players: int, num_rounds: int) -> None:
    """Raise ValueError unless one node's description is consistent."""
    if len(spec.contribution) != num_players:
        raise ValueError(f"node {node} has {len(spec.contribution)} contributions")
    if not 0 <= spec.round < num_rounds:
        raise ValueError(f"node {node} has round {spec.round}, outside 0..{num_rounds - 1}")
    if spec.alive <= 0 or spec.alive >= 1 << num_players:
        raise ValueError(f"node {node} has alive mask {spec.alive}")
    if spec.kind == DECISION:
        if not spec.children or not 0 <= spec.player < num_players:
            raise ValueError(f"decision node {node} needs children and a player")
        if not spec.alive >> spec.player & 1:
            raise ValueError(f"decision node {node}: player {spec.player} has folded")
    elif spec.children:
        raise ValueError(f"terminal node {node} has children")
    elif spec.kind == FOLD and spec.alive & (spec.alive - 1):
        raise ValueError(f"fold terminal {node} leaves more than one player in")
    elif spec.kind not in (FOLD, SHOWDOWN):
        raise ValueError(f"node {node} has kind {spec.kind}, not 0, 1 or 2")


@njit(cache=True, nogil=True)
def terminal_utility(contribution, alive, node, ranks, target):
    """Player ``target``'s utility at a terminal: its share of the pot minus its chips.

    The pot goes to the alive players of highest ``ranks`` (split evenly); a fold terminal
    has one alive player, who takes it all.

    >>> import numpy as np
    >>> chips = np.array([[2.0, 2.0, 1.0]])
    >>> [terminal_utility(chips, np.array([3]), 0, np.array([5, 5, 9]), p) for p in range(3)]
    [0.5, 0.5, -1.0]
    """
    players = contribution.shape[1]
    mask = alive[node]
    pot = 0.0
    best = -(1 << 30)
    for p in range(players):
        pot += contribution[node, p]
        if mask >> p & 1 and ranks[p] > best:
            best = ranks[p]
    winners = 0
    for p in range(players):
        if mask >> p & 1 and ranks[p] == best:
            winners += 1
    share = 0.0
    if mask >> target & 1 and ranks[target] == best:
        share = pot / winners
    return share - contribution[node, target]


def _toy(state: str) -> NodeSpec:
    """A doctest toy: three antes of 1, player 2 already out; 0 then 1 fold or call."""
    stake = (1.0, 1.0, 1.0)
    if state in ("", "c"):
        actor = len(state)
        return NodeSpec(DECISION, actor, 0, stake, 3, [(0, state + "f"), (1, state + "c")])
    if state in ("f", "cf"):
        return NodeSpec(FOLD, 0, 0, stake, 2 if state == "f" else 1)
    return NodeSpec(SHOWDOWN, 0, 0, stake, 3)
