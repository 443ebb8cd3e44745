"""The leaf round of depth-limited solving (``blueprint.subgame.river.LeafRound``): where it
opens in the street's tree, the value a polarised range draws from it against a
bluff-catcher (the toy game's closed form), and the re-solve below a bet that keeps it."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDINGS, holding_index
from blueprint.cfr import PRESETS
from blueprint.subgame.depth_limited import solve_street
from blueprint.subgame.hands import HandSpace
from blueprint.subgame.nested import resolve_below
from blueprint.subgame.river import BetAbstraction, LeafRound, RiverRoot, river_tree
from blueprint.subgame.turn import TurnSpot
from blueprint.subgame.vector_cfr import Subgame, SubgameSolver, expected_values
from blueprint.tree import DECISION, SHOWDOWN

STREET = BetAbstraction(pot_fractions=(0.5, 1.0), all_in=True, max_raises=2)


def test_every_end_of_the_street_with_chips_behind_opens_the_round_and_all_ins_do_not():
    pot, stacks = 60.0, (200.0, 970.0)
    plain = river_tree(pot, stacks, 1, STREET)
    tree = river_tree(pot, stacks, 1, STREET, leaf_round=LeafRound(opener=1))
    limit = pot / 2 + min(stacks)
    ends = plain.contribution[plain.kind == SHOWDOWN].max(axis=1)
    all_ins = int((ends >= limit).sum())
    assert 0 < all_ins < len(ends)
    # each other end: check-check, the opener's bet called, the other's bet called
    assert int((tree.kind == SHOWDOWN).sum()) == all_ins + 3 * (len(ends) - all_ins)
    names, opened = tree.action_names, 0
    for node in np.flatnonzero(tree.kind == DECISION):
        parent = int(tree.parent[node])
        stake = tree.contribution[node]
        closed = parent >= 0 and stake[0] == stake[1] and names[tree.action[node]] in ("call",)
        if closed:  # a call that left chips behind: the opener bets the pot or checks
            assert int(tree.player[node]) == 1
            children = tree.children(int(node))
            assert [names[tree.action[c]] for c in children] == ["check", "bet 1"]
            bet = tree.contribution[children[1]]
            assert bet[1] - bet[0] == min(2 * stake[0], limit - stake[0])
            opened += 1
    calls = plain.action[plain.kind == SHOWDOWN] == plain.action_names.index("call")
    assert opened == int((calls & (ends < limit)).sum()) > 0  # every call short of all-in


def polarised_game(leaf_round: LeafRound | None) -> float:
    """Player 0's value when its range is half a hand that always wins and half one that always
    loses against player 1's one hand, the street checked through: 0 checked down; with a
    pot-size bet before the showdown, a quarter of the pot (the bettor bets every winner and
    half its losers, the caller calls half the time)."""
    cards = np.array([[0, 1], [2, 3], [4, 5]])
    hands = HandSpace.build(cards=cards, strength=np.zeros(3, dtype=np.int64))
    equity = np.zeros((3, 3))
    equity[0, 2], equity[1, 2] = 1.0, -1.0  # the winner and the loser against player 1's hand
    equity -= equity.T
    no_bets = BetAbstraction(pot_fractions=(1.0,), all_in=False, max_raises=0)
    tree = river_tree(20.0, (1000.0, 1000.0), 0, no_bets, 3, leaf_round=leaf_round)
    ranges = np.array([[0.5, 0.5, 0.0], [0.0, 0.0, 1.0]])
    subgame = Subgame(tree, hands, ranges, leaf_equity=equity)
    solver = SubgameSolver(subgame, PRESETS["dcfr"])
    solver.run(3000)
    return expected_values(subgame, solver.average_strategy())[0]


def test_a_polarised_range_draws_a_quarter_of_the_pot_from_the_round():
    assert polarised_game(None) == pytest.approx(0.0, abs=1e-9)
    assert polarised_game(LeafRound(opener=0)) == pytest.approx(5.0, abs=0.05)
    # the bluff-catcher opens: checking to the polarised range gives it the same bet
    assert polarised_game(LeafRound(opener=1)) == pytest.approx(5.0, abs=0.05)


def test_a_size_the_street_lacks_and_a_bad_opener_are_refused():
    later = BetAbstraction(pot_fractions=(0.75,), all_in=False, max_raises=1)
    with pytest.raises(ValueError, match=r"leaf round's size 0\.75"):
        river_tree(60.0, (970.0, 970.0), 0, STREET, leaf_round=LeafRound(0, later))
    with pytest.raises(ValueError, match="opener must be 0 or 1"):
        LeafRound(opener=2)


def test_the_re_solve_below_a_bet_keeps_the_round():
    board = tuple(parse_cards(["Ah", "9h", "5c", "2d"]))
    ranges = np.zeros((2, HOLDINGS))
    for pair in (["As", "Ad"], ["Kc", "Kd"], ["7s", "6s"], ["Qh", "Jh"], ["3c", "4c"]):
        ranges[:, holding_index(*parse_cards(pair))] = 1.0
    spot = TurnSpot(board, 60.0, (970.0, 970.0), 0, ranges)
    leaf_round = LeafRound(opener=0)
    solved = solve_street(spot, STREET, iterations=20, leaf_round=leaf_round)
    node = 0  # player 0 bets 0.7 of the pot at the root, a size the tree lacks
    root = RiverRoot(bets=(42.0, 0.0), raises=1, last_raise=42.0)
    below = resolve_below(solved, node, root, STREET, iterations=20)
    assert below.leaf_round == leaf_round
    call = next(
        c for c in below.tree.children(0) if below.tree.action_names[below.tree.action[c]] == "call"
    )
    assert int(below.tree.kind[call]) == DECISION and int(below.tree.player[call]) == 0
