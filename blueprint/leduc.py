"""Leduc poker (Southey et al. 2005) as a game of the solver core, exactly as OpenSpiel has it.

Six cards, J Q K in two suits (card c has rank c // 2), ante 1. Each player gets one private
card; after a first betting round one public card is dealt and a second round follows. Bets
are 2 in the first round and 4 in the second, at most two raises a round, player 0 acts
first in both rounds, and folding is only allowed facing a bet. At showdown a pair with the
public card wins, else the higher rank; equal ranks split. Actions: 0 fold, 1 call, 2 raise.

Buckets: round 0 the private card (6); round 1 the pair (private, public) of distinct cards,
``private * 5 + rank of public among the other five`` (30). That gives 6 x 6 + 30 x 30 = 936
information sets; the 120 ordered deals (two private cards, then the public card) each have
probability 1/120. Player 0's value is -0.085606; the uniform policy's NashConv 4.747222.

>>> game = leduc_game()
>>> game.tree.num_infosets, game.deals.size, game.tree.num_nodes
(936, 120, 85)
>>> round_bucket(private=3, public=1), round_bucket(private=3, public=4)
(16, 18)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from blueprint.deals import Deals
from blueprint.game import Game
from blueprint.tree import DECISION, FOLD, SHOWDOWN, NodeSpec, tree_from_expander

ACTIONS = ("fold", "call", "raise")
CARD_NAMES = ("Js", "Jh", "Qs", "Qh", "Ks", "Kh")
RAISE_SIZES = (2.0, 4.0)
MAX_RAISES = 2
GAME_VALUE = -0.085606
UNIFORM_NASH_CONV = 4.747222
FOLD_ACTION, CALL_ACTION, RAISE_ACTION = 0, 1, 2


@dataclass(frozen=True)
class _State:
    """A public Leduc state: round, actions this round, chips in, raises this round."""

    round: int
    actions: tuple[int, ...]
    contribution: tuple[float, float]
    raises: int
    folded: bool = False


@dataclass(frozen=True)
class _Showdown:
    """The end of the last betting round, with both players' chips in."""

    contribution: tuple[float, float]


def _expand(state: _State | _Showdown) -> NodeSpec:
    """Leduc's public node for a state."""
    stake = state.contribution
    if isinstance(state, _Showdown):
        return NodeSpec(SHOWDOWN, 0, len(RAISE_SIZES) - 1, stake)
    if state.folded:
        return NodeSpec(FOLD, (len(state.actions) - 1) % 2, state.round, stake)
    actor = len(state.actions) % 2
    facing = stake[1 - actor] > stake[actor]
    children: list[tuple[int, _State | _Showdown]] = []
    if facing:
        children.append((FOLD_ACTION, _replace(state, FOLD_ACTION, stake, folded=True)))
    called = (stake[1 - actor], stake[1 - actor])
    if state.actions and state.round == len(RAISE_SIZES) - 1:
        children.append((CALL_ACTION, _Showdown(called)))
    elif state.actions:
        children.append((CALL_ACTION, _State(state.round + 1, (), called, 0)))
    else:
        children.append((CALL_ACTION, _replace(state, CALL_ACTION, called)))
    if state.raises < MAX_RAISES:
        raised = list(called)
        raised[actor] += RAISE_SIZES[state.round]
        child = _replace(state, RAISE_ACTION, (raised[0], raised[1]), raises=state.raises + 1)
        children.append((RAISE_ACTION, child))
    return NodeSpec(DECISION, actor, state.round, stake, children)


def _replace(
    state: _State,
    action: int,
    contribution: tuple[float, float],
    *,
    raises: int | None = None,
    folded: bool = False,
) -> _State:
    """The state after ``action`` within the same round."""
    return _State(
        state.round,
        (*state.actions, action),
        contribution,
        state.raises if raises is None else raises,
        folded,
    )


def round_bucket(private: int, public: int) -> int:
    """The second-round bucket of a private card and a different public card."""
    if private == public:
        raise ValueError(f"private and public card are both {private}")
    return private * 5 + (public if public < private else public - 1)


def showdown_result(card0: int, card1: int, public: int) -> int:
    """+1 if player 0 wins the showdown, -1 if player 1 does, 0 for a split.

    >>> showdown_result(0, 5, 1), showdown_result(2, 4, 0), showdown_result(2, 3, 5)
    (1, -1, 0)
    """
    rank0, rank1, board = card0 // 2, card1 // 2, public // 2
    pair0, pair1 = rank0 == board, rank1 == board
    if pair0 != pair1:
        return 1 if pair0 else -1
    return int(np.sign(rank0 - rank1))


def leduc_deals() -> Deals:
    """The 120 ordered deals (card of player 0, of player 1, public), each 1/120."""
    triples = list(itertools.permutations(range(6), 3))
    buckets = [[[a, round_bucket(a, c)], [b, round_bucket(b, c)]] for a, b, c in triples]
    showdown = [showdown_result(a, b, c) for a, b, c in triples]
    return Deals.build(buckets=buckets, showdown=showdown, weight=np.full(120, 1.0 / 120.0))


def leduc_game() -> Game:
    """Leduc poker: tree, deals and bucket names."""
    root = _State(0, (), (1.0, 1.0), 0)
    tree = tree_from_expander(root, _expand, num_buckets=(6, 30), action_names=ACTIONS)
    second = tuple(f"{CARD_NAMES[p]}|{CARD_NAMES[q]}" for p in range(6) for q in range(6) if q != p)
    return Game("leduc", tree, leduc_deals(), (CARD_NAMES, second))
