"""Flop subgames solved to the turn's deal (``blueprint.subgame.flop``): the sampled run-outs
against the exact equity over every run-out, and the boards a street accepts (the matrix and
the solves of both depth-limited streets: ``test_depth_limited_subgame``)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.evaluator import evaluate
from agent.poker.range_equity import HOLDINGS, holding_index
from agent.poker.share_table import completions
from blueprint.subgame.depth_limited import street_hands
from blueprint.subgame.flop import FlopSpot

BOARD = tuple(parse_cards(["Ah", "9h", "5c"]))


def test_the_sample_is_within_its_standard_error_of_the_exact_equity() -> None:
    aces = tuple(parse_cards(["As", "Ad"]))  # top set against the nut flush draw
    draw = tuple(parse_cards(["Kh", "Qh"]))
    dead = set(BOARD) | set(aces) | set(draw)
    deck = [card for card in range(52) if card not in dead]
    outcomes = [
        np.sign(evaluate([*draw, *BOARD, *runout]) - evaluate([*aces, *BOARD, *runout]))
        for runout in itertools.combinations(deck, 2)
    ]
    exact = float(np.mean(outcomes))  # every one of the 990 run-outs: 0.489
    holdings, _, equity = street_hands(BOARD)
    row = list(holdings).index(holding_index(*aces))
    col = list(holdings).index(holding_index(*draw))
    played = sum(not set(full.tolist()) & (set(aces) | set(draw)) for full in completions(BOARD))
    assert exact == pytest.approx(484 / 990)
    assert abs(float(equity[row, col]) - exact) < 3 * np.sqrt((1 - exact**2) / played)


def test_only_flop_and_turn_boards_are_depth_limited() -> None:
    with pytest.raises(ValueError, match="3 or 4 board cards"):
        street_hands(tuple(parse_cards(["Ah", "9h", "5c", "2d", "3s"])))
    with pytest.raises(ValueError, match="3 distinct cards"):
        FlopSpot(BOARD[:2], 10.0, (50.0, 50.0), 0, np.ones((2, HOLDINGS)))
