"""Hand strength by brute force, the known answer the hand-strength tests compare with: every
opponent holding evaluated with seven cards."""

from __future__ import annotations

import itertools

from agent.poker.evaluator import eval7

BOARDS = {
    "three spades": ["Qs", "Js", "Ts", "2c", "3d"],
    "paired": ["8h", "8d", "Kc", "5s", "2h"],
    "wheel": ["Ac", "2d", "3h", "4s", "9c"],
}


def enumerated_strength(hole: list[int], board: list[int]) -> int:
    """2 x wins + ties over every opponent holding, seven-card evaluation (lower wins)."""
    mine = eval7(*hole, *board)
    rest = [card for card in range(52) if card not in (*hole, *board)]
    twice = 0
    for a, b in itertools.combinations(rest, 2):
        theirs = eval7(a, b, *board)
        twice += 2 if mine < theirs else (1 if mine == theirs else 0)
    return twice
