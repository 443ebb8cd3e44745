"""The hold'em training game: its public betting tree and a compiled, seeded deal sampler.

The game is heads-up no-limit hold'em as PyPokerEngine plays it (``agent.abstraction.betting``:
the small blind acts first on every street, preflop minimum raise-to BB+SB) with the action
abstraction and card abstraction of ``agent``, cut after the flop (``GameConfig.rounds`` 2, the
blueprint the agent plays) or played over all four streets (``rounds`` 4). When the last
round's betting ends without a fold (or a player is all-in earlier) the hand is decided by a
showdown on the sampled board with seven-card evaluation: cut after the flop, an unbiased
sample of the value of reaching the turn with both hands checked down, where da Luz ("Poker
AI: Using Monte-Carlo CFR with Monte-Carlo Simulations", Cardiff University, CM3203, whose
bots the ``study`` abstraction reproduces) used a five-card showdown on the flop. On the turn
and the river a hand's bucket is its exact equity's (``late_deal_buckets``), the turn's read
from a table of exact turn strengths by suit-canonical board (``blueprint.turn_table``).

Deals are a pure function of ``(seed, iteration)``: iteration t's cards come from a splitmix64
stream keyed by both numbers, so any iteration can be regenerated, a resumed run sees the
same deals as an uninterrupted one, and independent worker streams never overlap. This is
chance sampling in the sense of Lanctot et al., "Monte Carlo Sampling for Regret Minimization
in Extensive Games" (NIPS 2009).

>>> tree = build_tree(HoldemConfig())
>>> tree.num_infosets, tree.max_actions
(6922240, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
from numba import njit, uint64

from agent.abstraction import flop_buckets
from agent.abstraction.betting import (
    ActionAbstraction,
    BettingState,
    GameConfig,
    apply_action,
    initial_state,
    legal_actions,
    parse_actions,
)
from agent.abstraction.card_buckets import FLOP_TABLE, HOLE_TABLE, CardAbstraction, get_abstraction
from agent.abstraction.equity_buckets import (
    check_num_buckets,
    equal_width_bucket,
    river_bucket_table,
)
from agent.abstraction.flop_buckets import PERMUTATIONS, flop_class
from agent.poker.evaluator import eval7
from agent.poker.hand_strength import RIVER_CARDS, TWICE_MAX
from agent.poker.rng import below, mix, next_state
from blueprint.tree import DECISION, FOLD, SHOWDOWN, BettingTree, NodeSpec, tree_from_expander
from blueprint.turn_table import holding_strength, shared_table

CARDS_PER_DEAL = 9  # two hole cards each, flop, turn, river


@dataclass(frozen=True)
class HoldemConfig:
    """Everything that defines the training game: stacks and blinds, actions, card buckets."""

    KIND: ClassVar[str] = "holdem"

    game: GameConfig = field(default_factory=GameConfig)
    actions: ActionAbstraction = field(default_factory=lambda: parse_actions("study"))
    abstraction: str = "study"
    turn_buckets: int = 50
    river_buckets: int = 50

    def __post_init__(self) -> None:
        get_abstraction(self.abstraction)  # raises ValueError naming an unknown abstraction
        check_num_buckets("turn", self.turn_buckets)
        check_num_buckets("river", self.river_buckets)

    @property
    def cards(self) -> CardAbstraction:
        """The card abstraction of the rounds played: preflop and flop, then the turn's and
        river's buckets (``agent.abstraction.equity_buckets``), the one the player reads."""
        late = (self.turn_buckets, self.river_buckets)[: max(0, self.game.rounds - 2)]
        return get_abstraction(self.abstraction).with_late_streets(late)

    @property
    def num_buckets(self) -> tuple[int, ...]:
        """Buckets per round played: the card abstraction's, then the turn's and river's."""
        return self.cards.num_buckets[: self.game.rounds]

    def bucket_label(self, round_index: int, bucket: int) -> str:
        """The card part of an info-set key: the card abstraction's preflop and on the flop,
        ``'U<b>'`` on the turn and ``'R<b>'`` on the river (letters no rank or suit uses).

        >>> config = HoldemConfig(GameConfig(rounds=4), turn_buckets=8, river_buckets=9)
        >>> config.bucket_label(0, 0), config.bucket_label(2, 7), config.bucket_label(3, 0)
        ('AA', 'U7', 'R0')
        """
        return self.cards.label(round_index, bucket)

    def build_tree(self) -> BettingTree:
        """The public betting tree (``build_tree``)."""
        return build_tree(self)

    def sample_deals(self, seed: int, first: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        """The deals of iterations ``first .. first + count - 1`` (``sample_deals``)."""
        return sample_deals(self, seed, first, count)

    def to_json(self) -> dict:
        """The parameters as plain JSON values."""
        return {
            "stack": self.game.stack,
            "small_blind": self.game.small_blind,
            "big_blind": self.game.big_blind,
            "rounds": self.game.rounds,
            "actions": self.actions.spec,
            "action_names": list(self.actions.names),
            "action_letters": self.actions.letters,
            "abstraction": self.abstraction,
            **({"turn_buckets": self.turn_buckets} if self.game.rounds > 2 else {}),
            **({"river_buckets": self.river_buckets} if self.game.rounds > 3 else {}),
        }

    @classmethod
    def from_json(cls, data: dict) -> HoldemConfig:
        """The inverse of ``to_json`` (raises ValueError on a missing or bad field)."""
        try:
            game = GameConfig(int(data["stack"]), int(data["small_blind"]), int(data["rounds"]))
            late = {
                name: int(data[name]) for name in ("turn_buckets", "river_buckets") if name in data
            }
            return cls(game, parse_actions(str(data["actions"])), str(data["abstraction"]), **late)
        except KeyError as missing:
            raise ValueError(f"game parameters lack the field {missing}") from None


def _expand(game: GameConfig, actions: ActionAbstraction):
    def expand(state: BettingState) -> NodeSpec:
        contribution = (float(state.committed[0]), float(state.committed[1]))
        if state.folded >= 0:
            return NodeSpec(FOLD, state.folded, state.round, contribution)
        if state.showdown:
            return NodeSpec(SHOWDOWN, 0, state.round, contribution)
        children = [
            (action.index, apply_action(state, game, actions, action.index))
            for action in legal_actions(state, game, actions)
        ]
        return NodeSpec(DECISION, state.to_act, state.round, contribution, children)

    return expand


def betting_tree(
    game: GameConfig, actions: ActionAbstraction, num_buckets: tuple[int, ...]
) -> BettingTree:
    """The public tree of ``agent.abstraction.betting``'s rules with ``num_buckets[r]`` card
    buckets in round r (breadth first, node 0 the deal); any game of these rules shares it."""
    return tree_from_expander(
        initial_state(game), _expand(game, actions), num_buckets[: game.rounds], actions.names
    )


def build_tree(config: HoldemConfig) -> BettingTree:
    """The public betting tree of the training game (breadth first, node 0 the deal)."""
    return betting_tree(config.game, config.actions, config.num_buckets)


def node_histories(tree: BettingTree, config: HoldemConfig) -> list[str]:
    """The history string (action letters) of every node, in node order."""
    letters = config.actions.letters
    histories = [""] * tree.num_nodes
    for node in range(1, tree.num_nodes):
        histories[node] = histories[int(tree.parent[node])] + letters[int(tree.action[node])]
    return histories


@njit(cache=True, nogil=True)
def _deal_state(seed: int, iteration: int):  # -> numba uint64
    return mix(uint64(seed) ^ mix(uint64(iteration) + uint64(0x632BE59BD9B4E019)))


@njit(cache=True, nogil=True)
def deal_cards(seed: int, iteration: int, out: np.ndarray) -> None:
    """The nine cards of iteration ``iteration`` of stream ``seed`` into ``out[:9]``.

    Order: player 0's hole cards, player 1's, the flop, the turn, the river.
    """
    deck = np.arange(52)
    state = _deal_state(seed, iteration)
    for k in range(CARDS_PER_DEAL):
        state = next_state(state)
        pick = k + below(state, 52 - k)
        deck[k], deck[pick] = deck[pick], deck[k]
        out[k] = deck[k]


@njit(cache=True, nogil=True)
def showdown_sign(cards: np.ndarray) -> int:
    """+1 if player 0's seven cards beat player 1's, -1 if they lose, 0 for a split."""
    board = cards[4:9]
    mine = eval7(cards[0], cards[1], board[0], board[1], board[2], board[3], board[4])
    theirs = eval7(cards[2], cards[3], board[0], board[1], board[2], board[3], board[4])
    if mine < theirs:
        return 1
    if mine > theirs:
        return -1
    return 0


@njit(cache=True, nogil=True)
def sample_study_deals(
    seed: int,
    first: int,
    buckets: np.ndarray,
    showdown: np.ndarray,
    hole_table: np.ndarray,
    flop_table: np.ndarray,
) -> None:
    """Fill ``buckets[D, 2, 2]`` and ``showdown[D]`` with iterations first..first+D-1."""
    cards = np.empty(CARDS_PER_DEAL, dtype=np.int64)
    for d in range(showdown.shape[0]):
        deal_cards(seed, first + d, cards)
        for player in range(2):
            h0, h1 = cards[2 * player], cards[2 * player + 1]
            hole = hole_table[h0, h1]
            buckets[d, player, 0] = hole
            if buckets.shape[2] > 1:
                flop = flop_table[cards[4] >> 2, cards[5] >> 2, cards[6] >> 2]
                buckets[d, player, 1] = hole * 455 + flop
        showdown[d] = showdown_sign(cards)


@njit(cache=True, nogil=True)
def sample_class_deals(
    seed: int,
    first: int,
    buckets: np.ndarray,
    showdown: np.ndarray,
    hole_table: np.ndarray,
    keys: np.ndarray,
    permutations: np.ndarray,
    class_bucket: np.ndarray,
) -> None:
    """Like ``sample_study_deals`` with flop buckets from a class table (``ehs<N>``, ``km<N>``).

    ``class_bucket[row]`` is the bucket of the class in row ``row`` of the sorted ``keys``
    (``CardAbstraction.class_buckets``), the table the agent's ``bucket`` reads.
    """
    cards = np.empty(CARDS_PER_DEAL, dtype=np.int64)
    for d in range(showdown.shape[0]):
        deal_cards(seed, first + d, cards)
        for player in range(2):
            h0, h1 = cards[2 * player], cards[2 * player + 1]
            buckets[d, player, 0] = hole_table[h0, h1]
            if buckets.shape[2] > 1:
                row = flop_class(keys, permutations, h0, h1, cards[4], cards[5], cards[6])
                buckets[d, player, 1] = class_bucket[row]
        showdown[d] = showdown_sign(cards)


def sample_deals(
    config: HoldemConfig, seed: int, first: int, count: int
) -> tuple[np.ndarray, np.ndarray]:
    """Buckets ``int32[count, 2, R]`` and showdown signs ``int8[count]`` of iterations
    ``first .. first + count - 1`` of stream ``seed``.

    >>> buckets, showdown = sample_deals(HoldemConfig(), seed=1, first=0, count=4)
    >>> buckets.shape, bool((buckets == sample_deals(HoldemConfig(), 1, 0, 4)[0]).all())
    ((4, 2, 2), True)
    """
    if seed < 0 or first < 0 or count < 0:
        raise ValueError(f"seed {seed}, first {first} and count {count} must be non-negative")
    buckets = np.empty((count, 2, config.game.rounds), dtype=np.int32)
    # the flop samplers fill rounds 0 and 1 (as far as the array goes), then the turn and river
    showdown = np.empty(count, dtype=np.int8)
    cards = config.cards
    if cards.by_class:
        keys = flop_buckets.load_table()["keys"]
        sample_class_deals(seed, first, buckets, showdown, HOLE_TABLE, keys,
                           flop_buckets.PERMUTATIONS, cards.class_buckets())  # fmt: skip
    else:
        sample_study_deals(seed, first, buckets, showdown, HOLE_TABLE, FLOP_TABLE)
    if config.game.rounds > 2:
        deals = np.empty((count, CARDS_PER_DEAL), dtype=np.int64)
        deal_many(seed, first, deals)
        table = shared_table()
        table.fill(deals[:, 4:8])
        late_deal_buckets(deals, buckets, table.class_of, table.perm_of, PERMUTATIONS,
                          table.rows, config.turn_buckets, config.river_buckets)  # fmt: skip
    return buckets, showdown


@njit(cache=True, nogil=True)
def deal_many(seed: int, first: int, out: np.ndarray) -> None:
    """The cards of iterations ``first .. first + D - 1`` into ``out[D, 9]`` (``deal_cards``)."""
    for d in range(out.shape[0]):
        deal_cards(seed, first + d, out[d])


@njit(cache=True, nogil=True)
def late_deal_buckets(
    deals: np.ndarray,
    buckets: np.ndarray,
    class_of: np.ndarray,
    perm_of: np.ndarray,
    permutations: np.ndarray,
    rows: np.ndarray,
    turn_buckets: int,
    river_buckets: int,
) -> None:
    """The turn and river buckets (rounds 2 and 3 of ``buckets[D, 2, R]``, as far as R goes)
    of the nine-card ``deals[D]``: equal-width buckets of the hand's exact turn equity and
    river strength against a random hand, the player's own
    (``agent.abstraction.equity_buckets``). The turn equity is read from the filled rows of
    the turn boards' classes (``blueprint.turn_table``), the river strength computed."""
    scale = RIVER_CARDS * TWICE_MAX
    for d in range(deals.shape[0]):
        cards = deals[d]
        board = cards[4:8]
        for player in range(2):
            h0, h1 = cards[2 * player], cards[2 * player + 1]
            total = holding_strength(board, h0, h1, class_of, perm_of, permutations, rows)
            buckets[d, player, 2] = equal_width_bucket(total, scale, turn_buckets)
        if buckets.shape[2] > 3:
            river = river_bucket_table(cards[4:9], river_buckets)
            for player in range(2):
                buckets[d, player, 3] = river[cards[2 * player], cards[2 * player + 1]]
