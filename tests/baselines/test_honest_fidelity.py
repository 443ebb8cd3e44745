"""``honest`` against PyPokerEngine's own HonestPlayer on a fixed set of decisions.

Both call when the win-or-tie rate against the other players is at least 1/players. The
example estimates it with 1,000 simulations, so its answer is noise when the true rate is
within four standard errors of the threshold; those decisions are left out, every other one
must agree.
"""

from __future__ import annotations

import math
import random

import numpy as np
from examples.players.honest_player import HonestPlayer as PPEHonestPlayer

from agent.boundary.situations import make_decision
from agent.poker.cards import to_human
from agent.poker.equity import equity
from baselines import HonestPlayer

PPE_SIMULATIONS = 1000


def situations(count: int, seed: int) -> list[tuple[list[str], list[str], int]]:
    """Random hole cards and boards of every street, with 2 or 3 players."""
    rng = np.random.default_rng(seed)
    spots = []
    for index in range(count):
        cards = [to_human(int(card)) for card in rng.permutation(52)[:7]]
        board_size = (0, 3, 4, 5)[index % 4]
        spots.append((cards[:2], cards[2 : 2 + board_size], 2 + int(index % 5 == 4)))
    return spots


def test_honest_agrees_with_pypokerengine_away_from_the_threshold() -> None:
    random.seed(2024)  # the example samples with the global generator
    compared = 0
    for hole, board, players in situations(16, seed=7):
        spot = make_decision(hole, board, to_call=10, pot=40, players=players)
        exact = equity(hole, board, players - 1, 50_000, np.random.default_rng(1))
        rate, threshold = exact.win + exact.tie, 1 / players
        if abs(rate - threshold) < 4 * math.sqrt(rate * (1 - rate) / PPE_SIMULATIONS) + 0.005:
            continue
        reference = PPEHonestPlayer()
        reference.receive_game_start_message({"player_num": players})
        ours = HonestPlayer(seed=3).declare_action(*spot)
        assert ours == reference.declare_action(*spot), (hole, board, players, rate)
        compared += 1
    assert compared >= 9  # 13 of the 16 spots lie away from the threshold
