"""Kuhn poker for N players on the N-player core, as OpenSpiel's ``kuhn_poker(players=N)``.

N + 1 cards (for three players J, Q, K, A), one to each player, ante 1. Players act in turn:
pass (0) or bet 1 (1). Once a player has bet, every other player, in turn order after the
bettor, answers once: pass = fold, bet = call. The hand ends after N passes (showdown among
all) or after the answers (the bettor and the callers show down; alone, the bettor takes the
pot). The bucket and showdown rank are the card, so the (N+1)!/1! ordered deals are
enumerated with equal weight. Cards are named by number, 0 the lowest, as OpenSpiel does.

Three-player Kuhn poker has a parameterised family of equilibria (Szafron, Gibson &
Sturtevant 2013, "A parameterized family of equilibrium profiles for three-player Kuhn
poker", AAMAS), in all of which player 0 (their P1) wins -1/48 a hand; two-player Kuhn's
value is -1/18 (Kuhn 1950).

>>> game = kuhn_game(3)
>>> game.tree.num_infosets, game.deals.size, len(game.decision_nodes), game.infoset_name(47)
(48, 24, 12, '3:ppbb')
>>> game = kuhn_game(2)
>>> game.tree.num_infosets, game.deals.size
(12, 6)
"""

from __future__ import annotations

import itertools
from functools import partial

import numpy as np

from blueprint.deals import Deals
from blueprint.game import Game
from blueprint.tree import DECISION, FOLD, SHOWDOWN, NodeSpec, tree_from_expander

ACTIONS = ("pass", "bet")
THREE_PLAYER_VALUE = -1.0 / 48.0  # player 0, every equilibrium of the Szafron et al. family
TWO_PLAYER_VALUE = -1.0 / 18.0


def _expand(history: str, players: int) -> NodeSpec:
    """The public node after a history of 'p' (pass / fold) and 'b' (bet / call)."""
    bettor = history.find("b")
    everyone = (1 << players) - 1
    if bettor < 0:
        stake = tuple(1.0 for _ in range(players))
        if len(history) == players:
            return NodeSpec(SHOWDOWN, 0, 0, stake, alive=everyone)
        children = [(0, history + "p"), (1, history + "b")]
        return NodeSpec(DECISION, len(history), 0, stake, children, everyone)
    answers = history[bettor + 1 :]
    alive = 1 << bettor
    for offset, answer in enumerate(answers):
        if answer == "b":
            alive |= 1 << ((bettor + 1 + offset) % players)
    folded = [(bettor + 1 + i) % players for i, a in enumerate(answers) if a == "p"]
    live = everyone & ~sum(1 << p for p in folded)
    stake = tuple(2.0 if alive >> p & 1 else 1.0 for p in range(players))
    if len(answers) == players - 1:
        kind = FOLD if alive == 1 << bettor else SHOWDOWN
        return NodeSpec(kind, 0, 0, stake, alive=alive)
    actor = (bettor + 1 + len(answers)) % players
    children = [(0, history + "p"), (1, history + "b")]
    return NodeSpec(DECISION, actor, 0, stake, children, live)


def kuhn_deals(players: int) -> Deals:
    """Every ordered deal of ``players`` distinct cards out of ``players + 1``, equally likely."""
    orders = list(itertools.permutations(range(players + 1), players))
    cards = np.array(orders, dtype=np.int32)
    return Deals.build(
        buckets=cards[:, :, None], ranks=cards, weight=np.full(len(orders), 1.0 / len(orders))
    )


def kuhn_game(players: int = 3) -> Game:
    """N-player Kuhn poker: its public tree, all its deals and card names."""
    if not 2 <= players <= 10:
        raise ValueError(f"players must lie in 2..10, got {players}")
    tree = tree_from_expander("", partial(_expand, players=players), (players + 1,), ACTIONS)
    cards = tuple(str(card) for card in range(players + 1))
    return Game(f"kuhn{players}", tree, kuhn_deals(players), (cards,))
