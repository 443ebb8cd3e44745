"""The hold'em training game: the tree follows agent.abstraction.betting, deals are seeded and
correct."""

from __future__ import annotations

import numpy as np
import pytest

from agent.abstraction.betting import GameConfig, parse_actions, replay
from agent.abstraction.card_buckets import get_abstraction
from agent.poker.evaluator import evaluate
from blueprint.holdem import (
    CARDS_PER_DEAL,
    HoldemConfig,
    build_tree,
    deal_cards,
    node_histories,
    sample_deals,
)
from blueprint.tree import DECISION, FOLD, SHOWDOWN


@pytest.mark.parametrize("spec", ["study", "half,pot,allin:1"])
def test_every_node_is_the_state_replayed_from_its_history(spec: str) -> None:
    config = HoldemConfig(GameConfig(stack=200), parse_actions(spec))
    tree = build_tree(config)
    for node, history in enumerate(node_histories(tree, config)):
        state = replay(config.game, config.actions, history)
        assert tuple(tree.contribution[node]) == state.committed
        assert tree.round[node] == state.round
        if state.folded >= 0:
            assert (tree.kind[node], tree.player[node]) == (FOLD, state.folded)
        elif state.showdown:
            assert tree.kind[node] == SHOWDOWN
        else:
            assert (tree.kind[node], tree.player[node]) == (DECISION, state.to_act)


def test_study_tree_size_and_rows() -> None:
    tree = build_tree(HoldemConfig())
    decisions = tree.kind == DECISION
    assert (decisions & (tree.round == 0)).sum() == 10
    assert (decisions & (tree.round == 1)).sum() == 90
    assert tree.num_infosets == 10 * 169 + 90 * 169 * 455


def test_deals_are_a_pure_function_of_seed_and_iteration() -> None:
    config = HoldemConfig()
    first = sample_deals(config, seed=3, first=100, count=50)
    again = sample_deals(config, seed=3, first=120, count=10)
    assert (first[0][20:30] == again[0]).all() and (first[1][20:30] == again[1]).all()
    other = sample_deals(config, seed=4, first=100, count=50)
    assert (first[0] != other[0]).any()


def test_deal_cards_are_distinct_and_uniform_enough() -> None:
    cards = np.empty(CARDS_PER_DEAL, dtype=np.int64)
    counts = np.zeros(52)
    for iteration in range(4000):
        deal_cards(11, iteration, cards)
        assert len(set(cards.tolist())) == CARDS_PER_DEAL
        counts[cards] += 1
    expected = 4000 * CARDS_PER_DEAL / 52  # about 692 a card; 5 sigma is about 130
    assert np.abs(counts - expected).max() < 130


def test_buckets_and_showdown_match_the_python_abstraction_and_phevaluator() -> None:
    config, study = HoldemConfig(), get_abstraction("study")
    buckets, showdown = sample_deals(config, seed=9, first=0, count=300)
    cards = np.empty(CARDS_PER_DEAL, dtype=np.int64)
    signs = []
    for d in range(300):
        deal_cards(9, d, cards)
        c = [int(x) for x in cards]
        for player in range(2):
            hole = c[2 * player : 2 * player + 2]
            assert buckets[d, player, 0] == study.bucket(hole, [])
            assert buckets[d, player, 1] == study.bucket(hole, c[4:7])
        mine, theirs = evaluate(c[0:2] + c[4:9]), evaluate(c[2:4] + c[4:9])
        signs.append(int(np.sign(theirs - mine)))
    assert showdown.tolist() == signs
    assert {-1, 1} <= set(signs)


def test_bad_sampler_input() -> None:
    with pytest.raises(ValueError, match="seed -1"):
        sample_deals(HoldemConfig(), seed=-1, first=0, count=1)


@pytest.mark.parametrize("name", ["ehs200", "km500"])
def test_class_table_deals_match_the_python_abstraction(name: str) -> None:
    config = HoldemConfig(abstraction=name)
    cards_abstraction = get_abstraction(name)
    buckets, showdown = sample_deals(config, seed=2, first=0, count=100)
    study_showdown = sample_deals(HoldemConfig(), seed=2, first=0, count=100)[1]
    assert (showdown == study_showdown).all()  # same cards, other buckets
    cards = np.empty(CARDS_PER_DEAL, dtype=np.int64)
    for d in range(100):
        deal_cards(2, d, cards)
        c = [int(x) for x in cards]
        for player in range(2):
            hole = c[2 * player : 2 * player + 2]
            assert buckets[d, player, 1] == cards_abstraction.bucket(hole, c[4:7])
    with pytest.raises(ValueError, match="'ehs1'"):
        HoldemConfig(abstraction="ehs1")
    with pytest.raises(ValueError, match=r"flop_km7\.npz"):
        HoldemConfig(abstraction="km7")
