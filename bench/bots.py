"""Decision time of every baseline bot, and of PyPokerEngine's shipped players, in one run.

Run: ``python -m bench.bots``. Each bot decides on the same fixed heads-up decisions (all
four streets, facing a bet); prints the median and 99th-percentile time per decision and the
ratio of our ``honest`` to PyPokerEngine's ``HonestPlayer`` (same rule, 1,000 simulations).
Target: the Monte Carlo model's 10,000-simulation decision in 10 ms or less.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from examples.players.fish_player import FishPlayer as PPEFishPlayer
from examples.players.honest_player import HonestPlayer as PPEHonestPlayer

from agent.boundary.situations import make_decision
from agent.poker.cards import to_human
from baselines import FishPlayer, HonestPlayer, MonteCarloPlayer, RandomPlayer, RuleBasedPlayer

Decision = tuple[list[dict[str, Any]], list[str], dict[str, Any]]


def decisions(count: int, seed: int = 0) -> list[Decision]:
    """Heads-up decisions facing a 20-chip bet, cycling preflop, flop, turn, river."""
    rng = np.random.default_rng(seed)
    spots = []
    for index in range(count):
        cards = [to_human(int(card)) for card in rng.permutation(52)[:7]]
        board_size = (0, 3, 4, 5)[index % 4]
        spots.append(make_decision(cards[:2], cards[2 : 2 + board_size], to_call=20, pot=60))
    return spots


def ppe_honest() -> PPEHonestPlayer:
    bot = PPEHonestPlayer()
    bot.receive_game_start_message({"player_num": 2})
    return bot


BOTS: dict[str, tuple[Callable[[], Any], int]] = {
    "fish": (lambda: FishPlayer(seed=0), 400),
    "random": (lambda: RandomPlayer(seed=0), 400),
    "rule-based": (lambda: RuleBasedPlayer(seed=0), 400),
    "honest": (lambda: HonestPlayer(seed=0), 400),
    "montecarlo": (lambda: MonteCarloPlayer(seed=0), 400),
    "ppe-fish": (PPEFishPlayer, 400),
    "ppe-honest": (ppe_honest, 40),
}


def time_bot(bot: Any, spots: list[Decision]) -> np.ndarray:
    """Seconds per decision of ``bot`` on ``spots`` (after one warm-up pass on four spots)."""
    for spot in spots[:4]:
        bot.declare_action(*spot)
    times = []
    for spot in spots:
        start = time.perf_counter()
        bot.declare_action(*spot)
        times.append(time.perf_counter() - start)
    return np.array(times)


def main() -> None:
    random.seed(0)  # PyPokerEngine's HonestPlayer samples with the global generator
    medians = {}
    print(f"{'bot':<12} {'decisions':>9} {'median ms':>10} {'p99 ms':>9}")
    for name, (factory, count) in BOTS.items():
        times = time_bot(factory(), decisions(count))
        medians[name] = float(np.median(times))
        p99 = float(np.percentile(times, 99))
        print(f"{name:<12} {count:>9} {medians[name] * 1e3:>10.3f} {p99 * 1e3:>9.3f}")
    ratio = medians["ppe-honest"] / medians["honest"]
    print(f"honest is {ratio:.0f}x faster than ppe-honest (median decision)")
    print(f"montecarlo median {medians['montecarlo'] * 1e3:.2f} ms (target <= 10 ms)")


if __name__ == "__main__":
    main()
