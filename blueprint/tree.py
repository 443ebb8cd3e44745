"""The public betting tree every solver kernel walks: a frozen dataclass of flat numpy arrays.

In all our games (Kuhn and Leduc, three-player Kuhn, push/fold and preflop for 2 to 10
players, the hold'em abstraction) the betting is public and all private information is dealt
by chance, so an information set is a pair (public decision node, the acting player's private
*bucket* in that node's round). The tree holds only the public part; what chance dealt arrives
separately as *deal arrays* (``buckets[D, P, R]``, ``ranks[D, P]``, ``weight[D]``; see
``blueprint.deals``). This is the representation of Zinkevich et al. 2007 (CFR over a public
tree with private chance outcomes) laid out for numba kernels, for P = 2 to 62 players.

Node arrays, length N, node 0 the root, every child index greater than its parent's (the
kernels sweep parents before children and children before parents by index order):

- ``kind``: 0 decision, 1 fold terminal, 2 showdown terminal (``DECISION``, ``FOLD``,
  ``SHOWDOWN``);
- ``player``: the acting player at a decision; at a fold terminal of a two-player game the
  player who folded (``terminal_value`` reads it), in a larger game any player (0 by custom);
- ``round``: betting round (0 = preflop or Kuhn's only round, 1 = flop or Leduc's second);
- ``first_child``, ``num_children``: children are ``first_child + k`` for k < num_children;
- ``parent``: the parent node (-1 at the root); ``action``: the abstract action that led here;
- ``contribution[N, P]``: chips each player has put in at this node;
- ``alive[N]``: bit mask of the players who have not folded (one bit at a fold terminal);
- ``infoset_base``: at decisions, the first info-set row; the acting player holding bucket
  ``b`` is at row ``infoset_base[node] + b``, so a decision of round r owns
  ``num_buckets[r]`` consecutive rows; -1 elsewhere.

Regret and strategy-sum tables are ``[num_infosets, max_actions]`` float arrays (float64, or
float32 where memory needs it); column k of a row belongs to child k of its node.

A terminal pays player 0 ``terminal_value`` in a two-player game (a showdown's winner given
as +1, -1 or 0 for a tie) and player p ``terminal_utility`` in any game (the pot split among
the alive players of the best showdown rank).

>>> tree = tree_from_expander("", _coin_game, num_buckets=(2,), action_names=("pass", "bet"))
>>> tree.num_nodes, tree.num_infosets, tree.max_actions
(7, 6, 2)
>>> tree.children(0).tolist(), tree.infoset_rows(2).tolist()
([1, 2], [4, 5])
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
MAX_DEPTH = 256  # decisions on a path; the sampling kernels keep a stack this deep
MAX_PLAYERS = 62  # the alive masks are int64 bit sets

TREE_ARRAYS = (
    "kind",
    "player",
    "round",
    "first_child",
    "num_children",
    "parent",
    "action",
    "contribution",
    "alive",
    "infoset_base",
)


@dataclass(frozen=True)
class NodeSpec:
    """One node as a game describes it to ``tree_from_expander``.

    ``children`` is a list of (action index, child state) pairs, empty at terminals.
    ``player`` is the actor at a decision and, in a two-player game, the folder at a fold
    terminal (else 0). ``alive`` is the bit mask of players still in; a two-player game may
    leave it out (everyone at a decision or showdown, the other player at a fold).
    """

    kind: int
    player: int
    round: int
    contribution: tuple[float, ...]
    children: Sequence[tuple[int, Any]] = ()
    alive: int | None = None


@dataclass(frozen=True, eq=False)
class BettingTree:
    """A public betting tree (see the module docstring for the meaning of each array).

    Build it with ``BettingTree.build`` (validates) or ``tree_from_expander``.
    """

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

    @classmethod
    def build(
        cls,
        *,
        kind: np.ndarray,
        player: np.ndarray,
        round: np.ndarray,
        first_child: np.ndarray,
        num_children: np.ndarray,
        parent: np.ndarray,
        action: np.ndarray,
        contribution: np.ndarray,
        num_buckets: Sequence[int],
        action_names: Sequence[str],
        infoset_base: np.ndarray | None = None,
        alive: np.ndarray | None = None,
    ) -> BettingTree:
        """Validate the arrays, cast them to the kernel dtypes and lay out info-set rows.

        Without ``infoset_base`` the rows are assigned in node order; without ``alive`` (two
        players only) everyone is in but the folder at a fold terminal.
        Raises ValueError naming the first inconsistency found.
        """
        kind = np.ascontiguousarray(kind, dtype=np.int8)
        n = len(kind)
        arrays: dict[str, np.ndarray] = {
            "player": np.ascontiguousarray(player, dtype=np.int8),
            "round": np.ascontiguousarray(round, dtype=np.int8),
            "first_child": np.ascontiguousarray(first_child, dtype=np.int32),
            "num_children": np.ascontiguousarray(num_children, dtype=np.int32),
            "parent": np.ascontiguousarray(parent, dtype=np.int32),
            "action": np.ascontiguousarray(action, dtype=np.int8),
        }
        for name, array in arrays.items():
            if array.shape != (n,):
                raise ValueError(f"{name} has shape {array.shape}, expected ({n},)")
        contribution = np.ascontiguousarray(contribution, dtype=np.float64)
        players = contribution.shape[1] if contribution.ndim == 2 else 0
        if contribution.shape != (n, players) or not 2 <= players <= MAX_PLAYERS:
            raise ValueError(
                f"contribution has shape {contribution.shape}, expected ({n}, P) for P players"
                f" in 2..{MAX_PLAYERS}"
            )
        buckets = np.ascontiguousarray(num_buckets, dtype=np.int64)
        if buckets.ndim != 1 or len(buckets) == 0 or (buckets < 1).any():
            raise ValueError(f"num_buckets must be positive counts per round, got {num_buckets}")
        _check_structure(kind, arrays, contribution, len(buckets))
        if alive is None:
            alive = _two_player_alive(kind, arrays["player"], players)
        alive = np.ascontiguousarray(alive, dtype=np.int64)
        _check_alive(kind, arrays["player"], alive, players)
        if infoset_base is None:
            infoset_base = _assign_rows(kind, arrays["round"], buckets)
        base = np.ascontiguousarray(infoset_base, dtype=np.int64)
        num_infosets = _check_rows(kind, arrays["round"], base, buckets)
        if not (kind == DECISION).any():
            raise ValueError("a betting tree needs at least one decision node")
        max_actions = int(arrays["num_children"][kind == DECISION].max())
        names = tuple(action_names)
        if int(arrays["action"].max()) >= len(names):
            raise ValueError(f"action index {int(arrays['action'].max())} has no name in {names}")
        return cls(
            kind=kind,
            contribution=contribution,
            alive=alive,
            infoset_base=base,
            num_buckets=buckets,
            max_actions=max_actions,
            num_infosets=num_infosets,
            action_names=names,
            **arrays,
        )

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
        """Number of betting rounds R (the last axis of a deal's buckets)."""
        return len(self.num_buckets)

    def kernel_arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays the N-player kernels take, in their order."""
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

    def children(self, node: int) -> np.ndarray:
        """The child node indices of ``node``."""
        start = int(self.first_child[node])
        return np.arange(start, start + int(self.num_children[node]))

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
        """The number of legal actions of every info-set row: ``int32[num_infosets]``."""
        return self.num_children[self.infoset_node()]

    def infoset_player(self) -> np.ndarray:
        """The acting player of every info-set row: ``int8[num_infosets]``."""
        return self.player[self.infoset_node()]

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


def _check_structure(
    kind: np.ndarray, arrays: dict[str, np.ndarray], contribution: np.ndarray, rounds: int
) -> None:
    """Raise ValueError unless the node arrays describe a tree in parent-first index order."""
    n = len(kind)
    if n == 0:
        raise ValueError("a betting tree needs at least a root node")
    bad_kind = np.flatnonzero((kind < DECISION) | (kind > SHOWDOWN))
    if len(bad_kind):
        raise ValueError(f"node {bad_kind[0]} has kind {kind[bad_kind[0]]}, not 0, 1 or 2")
    player, rnd = arrays["player"], arrays["round"]
    first, count, parent = arrays["first_child"], arrays["num_children"], arrays["parent"]
    players = contribution.shape[1]
    bad = np.flatnonzero((player < 0) | (player >= players))
    if len(bad):
        raise ValueError(f"node {bad[0]} has player {player[bad[0]]}, outside 0..{players - 1}")
    bad = np.flatnonzero((rnd < 0) | (rnd >= rounds))
    if len(bad):
        raise ValueError(f"node {bad[0]} has round {rnd[bad[0]]}, outside 0..{rounds - 1}")
    if (contribution < 0).any():
        raise ValueError(f"node {np.argwhere(contribution < 0)[0][0]} has a negative contribution")
    if parent[0] != -1:
        raise ValueError(f"the root must have parent -1, got {parent[0]}")
    seen = _check_children(kind, first, count, parent)
    orphans = np.flatnonzero(seen[1:] != 1)
    if len(orphans):
        raise ValueError(f"node {orphans[0] + 1} is the child of {seen[orphans[0] + 1]} nodes")
    depth = int(_node_depths(parent).max())
    if depth >= MAX_DEPTH:
        raise ValueError(f"the tree is {depth} actions deep; the kernels allow {MAX_DEPTH - 1}")


@njit(cache=True, nogil=True)
def _node_depths(parent: np.ndarray) -> np.ndarray:
    """Depth of every node (root 0), given parents listed before their children."""
    depth = np.zeros(parent.shape[0], dtype=np.int64)
    for node in range(1, parent.shape[0]):
        depth[node] = depth[parent[node]] + 1
    return depth


def _check_children(
    kind: np.ndarray, first: np.ndarray, count: np.ndarray, parent: np.ndarray
) -> np.ndarray:
    """How many nodes name each node as a child; ValueError, naming the first node in index
    order that breaks a rule, unless each decision's children are a contiguous block after it
    that names it as parent, and terminals have none."""
    n = len(kind)
    nodes = np.arange(n)
    decision = kind == DECISION
    inside = decision & (count >= 1) & (first > nodes) & (first + count <= n)
    owners = np.repeat(nodes[inside], count[inside])
    block_start = np.repeat(np.cumsum(count[inside]) - count[inside], count[inside])
    kids = np.repeat(first[inside], count[inside]) + np.arange(len(owners)) - block_start
    foster = np.zeros(n, dtype=np.bool_)
    foster[owners[parent[kids] != owners]] = True
    rules = (
        (~decision & (count != 0), lambda v: f"terminal node {v} has {count[v]} children"),
        (decision & (count < 1), lambda v: f"decision node {v} has no children"),
        (
            decision & (count >= 1) & ~inside,
            lambda v: f"decision node {v} has children {first[v]}..{first[v] + count[v] - 1}",
        ),
        (foster, lambda v: f"a child of node {v} names another parent"),
    )
    broken = [(int(np.flatnonzero(mask)[0]), message) for mask, message in rules if mask.any()]
    if broken:
        node, message = min(broken, key=lambda pair: pair[0])
        raise ValueError(message(node))
    return np.bincount(kids, minlength=n)


def _two_player_alive(kind: np.ndarray, player: np.ndarray, players: int) -> np.ndarray:
    """Both players in, but for the folder (``player``) at a fold terminal."""
    if players != 2:
        raise ValueError(f"a {players}-player tree needs its alive masks")
    return np.where(kind == FOLD, 1 << (1 - player.astype(np.int64)), 3)


def _check_alive(kind: np.ndarray, player: np.ndarray, alive: np.ndarray, players: int) -> None:
    """Raise ValueError unless every mask names live players, the actor among them."""
    if alive.shape != kind.shape:
        raise ValueError(f"alive has shape {alive.shape}, expected {kind.shape}")
    bad = np.flatnonzero((alive <= 0) | (alive >= 1 << players))
    if len(bad):
        raise ValueError(f"node {bad[0]} has alive mask {alive[bad[0]]}")
    bad = np.flatnonzero((kind == DECISION) & ((alive >> player.astype(np.int64)) & 1 == 0))
    if len(bad):
        raise ValueError(f"decision node {bad[0]}: player {player[bad[0]]} has folded")
    bad = np.flatnonzero((kind == FOLD) & (alive & (alive - 1) != 0))
    if len(bad):
        raise ValueError(f"fold terminal {bad[0]} leaves more than one player in")


def _assign_rows(kind: np.ndarray, rnd: np.ndarray, num_buckets: np.ndarray) -> np.ndarray:
    """Info-set rows in node order: each decision takes ``num_buckets[round]`` rows."""
    sizes = np.where(kind == DECISION, num_buckets[rnd], 0)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    return np.where(kind == DECISION, starts, -1).astype(np.int64)


def _check_rows(
    kind: np.ndarray, rnd: np.ndarray, base: np.ndarray, num_buckets: np.ndarray
) -> int:
    """Raise ValueError unless decision rows tile ``[0, num_infosets)``; return that count."""
    if base.shape != kind.shape:
        raise ValueError(f"infoset_base has shape {base.shape}, expected {kind.shape}")
    decisions = np.flatnonzero(kind == DECISION)
    sizes = num_buckets[rnd[decisions]]
    order = np.argsort(base[decisions], kind="stable")
    starts, sizes = base[decisions][order], sizes[order]
    expected = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    mismatch = np.flatnonzero(starts != expected)
    if len(mismatch):
        node = decisions[order][mismatch[0]]
        raise ValueError(f"decision node {node} has infoset_base {base[node]}, which overlaps")
    return int(sizes.sum())


def tree_from_expander(
    root: Any,
    expand: Callable[[Any], NodeSpec],
    num_buckets: Sequence[int],
    action_names: Sequence[str],
) -> BettingTree:
    """Build a tree breadth first from a root state and a function describing each state.

    Breadth-first numbering keeps siblings contiguous and children after their parent; the
    number of players is the length of the root's ``contribution``.
    """
    kind, player, rnd, first, count, parent, action, contrib, alive = ([] for _ in range(9))
    queue: deque[tuple[Any, int, int]] = deque([(root, -1, 0)])
    next_index = 1
    while queue:
        state, parent_index, action_index = queue.popleft()
        spec = expand(state)
        kind.append(spec.kind)
        player.append(spec.player)
        rnd.append(spec.round)
        contrib.append(spec.contribution)
        alive.append(spec.alive)
        parent.append(parent_index)
        action.append(action_index)
        node = len(kind) - 1
        first.append(next_index if spec.children else 0)
        count.append(len(spec.children))
        for child_action, child in spec.children:
            queue.append((child, node, child_action))
        next_index += len(spec.children)
    return BettingTree.build(
        kind=np.array(kind),
        player=np.array(player),
        round=np.array(rnd),
        first_child=np.array(first),
        num_children=np.array(count),
        parent=np.array(parent),
        action=np.array(action),
        contribution=_stack_rows(contrib),
        num_buckets=num_buckets,
        action_names=action_names,
        alive=None if None in alive else np.array(alive, dtype=np.int64),
    )


def _stack_rows(rows: list[tuple[float, ...]]) -> np.ndarray:
    """The nodes' contributions as ``float64[N, P]``; ValueError if their lengths differ."""
    lengths = {len(row) for row in rows}
    if len(lengths) != 1:
        raise ValueError(f"nodes have contributions of {sorted(lengths)} players")
    return np.array(rows, dtype=np.float64).reshape(len(rows), lengths.pop())


@njit(cache=True, nogil=True)
def traverser_utility(kind, player, contribution, node, showdown, traverser):
    """The utility of player ``traverser`` at terminal ``node`` (``terminal_value`` signed)."""
    value = terminal_value(
        kind[node], player[node], contribution[node, 0], contribution[node, 1], showdown
    )
    return value if traverser == 0 else -value


@njit(cache=True, nogil=True)
def terminal_value(
    kind: int, folder: int, contribution0: float, contribution1: float, showdown: int
) -> float:
    """Player 0's utility at a terminal: the folder loses its chips; showdown pays the winner.

    ``showdown`` is +1 when player 0 wins, -1 when player 1 wins, 0 for a tie (then player 0
    gets ``(c1 - c0) / 2``). Player 1's utility is the negative (zero-sum).

    >>> terminal_value(FOLD, 0, 2.0, 1.0, 1), terminal_value(FOLD, 1, 2.0, 1.0, -1)
    (-2.0, 1.0)
    >>> terminal_value(SHOWDOWN, 0, 3.0, 3.0, -1), terminal_value(SHOWDOWN, 0, 2.0, 4.0, 0)
    (-3.0, 1.0)
    """
    if kind == FOLD:
        return -contribution0 if folder == 0 else contribution1
    if showdown > 0:
        return contribution1
    if showdown < 0:
        return -contribution0
    return 0.5 * (contribution1 - contribution0)


@njit(cache=True, nogil=True)
def terminal_utility(contribution, alive, node, ranks, target):
    """Player ``target``'s utility at a terminal: its share of the pot minus its chips.

    The pot goes to the alive players of highest ``ranks`` (split evenly); a fold terminal
    has one alive player, who takes it all.

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


def _coin_game(state: str) -> NodeSpec:
    """A doctest toy: player 0 passes or bets 1, then player 1 passes/folds or calls."""
    if state == "":
        return NodeSpec(0, 0, 0, (1.0, 1.0), [(0, "p"), (1, "b")])
    if state in ("p", "b"):
        stake = (1.0, 1.0) if state == "p" else (2.0, 1.0)
        return NodeSpec(0, 1, 0, stake, [(0, state + "p"), (1, state + "c")])
    if state == "bp":
        return NodeSpec(FOLD, 1, 0, (2.0, 1.0))
    return NodeSpec(SHOWDOWN, 0, 0, (2.0, 2.0) if state == "bc" else (1.0, 1.0))
