"""Kuhn poker (Kuhn 1950) as a game of the solver core, exactly as OpenSpiel defines it.

Three cards J < Q < K, one to each player, ante 1; player 0 passes or bets 1, player 1
passes (folds, facing a bet) or bets (calls); after pass-bet player 0 folds or calls.
Actions: 0 = pass, 1 = bet. The bucket is the card (J Q K = 0 1 2), so the tree has four
decision nodes and 12 information sets; the 6 ordered deals each have probability 1/6.

The equilibria form a one-parameter family (Kuhn 1950): player 0 bets J with a in [0, 1/3],
K with 3a, never Q, and calls a bet after passing with Q with a + 1/3 (always with K, never
J); player 1 is unique: after a pass bet J 1/3, never Q, always K; facing a bet call Q 1/3,
always K, never J. Player 0's value is -1/18.

>>> game = kuhn_game()
>>> game.tree.num_infosets, game.deals.size
(12, 6)
>>> [game.tree.history(node) for node in game.decision_nodes]
[(), (0,), (1,), (0, 1)]
"""

from __future__ import annotations

import itertools

import numpy as np

from blueprint.deals import Deals
from blueprint.game import Game
from blueprint.tree import DECISION, FOLD, SHOWDOWN, NodeSpec, tree_from_expander

CARDS = ("J", "Q", "K")
ACTIONS = ("pass", "bet")
GAME_VALUE = -1.0 / 18.0


def _expand(history: str) -> NodeSpec:
    """Kuhn's public node for a history of 'p' (pass) and 'b' (bet)."""
    contribution = {
        "": (1, 1),
        "p": (1, 1),
        "b": (2, 1),
        "pb": (1, 2),
        "pp": (1, 1),
        "bp": (2, 1),
        "bb": (2, 2),
        "pbp": (1, 2),
        "pbb": (2, 2),
    }[history]
    stake = (float(contribution[0]), float(contribution[1]))
    if history in ("", "p", "b", "pb"):
        children = [(0, history + "p"), (1, history + "b")]
        return NodeSpec(DECISION, len(history) % 2, 0, stake, children)
    if history in ("bp", "pbp"):
        return NodeSpec(FOLD, (len(history) - 1) % 2, 0, stake)
    return NodeSpec(SHOWDOWN, 0, 0, stake)


def kuhn_deals() -> Deals:
    """The 6 ordered deals of two distinct cards, each with probability 1/6."""
    pairs = list(itertools.permutations(range(3), 2))
    buckets = [[[a], [b]] for a, b in pairs]
    showdown = [1 if a > b else -1 for a, b in pairs]
    return Deals.build(buckets=buckets, showdown=showdown, weight=np.full(6, 1.0 / 6.0))


def kuhn_game() -> Game:
    """Kuhn poker: tree, deals and card names."""
    tree = tree_from_expander("", _expand, num_buckets=(3,), action_names=ACTIONS)
    return Game("kuhn", tree, kuhn_deals(), (CARDS,))


def kuhn_equilibrium(game: Game, alpha: float) -> np.ndarray:
    """The equilibrium strategy table of the family member with player 0's J-bet ``alpha``."""
    if not 0.0 <= alpha <= 1.0 / 3.0:
        raise ValueError(f"alpha must lie in [0, 1/3], got {alpha}")
    table = np.zeros((game.tree.num_infosets, 2))
    for node, bet in zip(game.decision_nodes, nash_bet_probabilities(alpha), strict=True):
        rows = game.tree.infoset_rows(node)
        table[rows, 1] = bet
        table[rows, 0] = 1.0 - np.asarray(bet)
    return table


def nash_bet_probabilities(alpha: float) -> list[tuple[float, float, float]]:
    """Betting (or calling) probability for J, Q, K at each decision node, in node order.

    >>> [tuple(round(p, 3) for p in probs) for probs in nash_bet_probabilities(0.2)]
    [(0.2, 0.0, 0.6), (0.333, 0.0, 1.0), (0.0, 0.333, 1.0), (0.0, 0.533, 1.0)]
    """
    return [
        (alpha, 0.0, 3.0 * alpha),
        (1.0 / 3.0, 0.0, 1.0),
        (0.0, 1.0 / 3.0, 1.0),
        (0.0, alpha + 1.0 / 3.0, 1.0),
    ]


def fit_alpha(table: np.ndarray, game: Game) -> float:
    """The family parameter a strategy is closest to: mean of J-bet, K-bet/3, Q-call - 1/3."""
    root, _, _, check_bet = game.decision_nodes
    root_rows = game.tree.infoset_rows(root)
    call_rows = game.tree.infoset_rows(check_bet)
    estimates = (
        table[root_rows[0], 1],
        table[root_rows[2], 1] / 3.0,
        table[call_rows[1], 1] - 1.0 / 3.0,
    )
    return float(np.clip(np.mean(estimates), 0.0, 1.0 / 3.0))
