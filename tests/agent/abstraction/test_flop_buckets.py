"""Flop EHS buckets: suit isomorphism, the class count, EHS sanity, and the ehs<N> abstraction."""

from __future__ import annotations

import numpy as np
import pytest

from agent.abstraction import flop_buckets
from agent.abstraction.card_buckets import get_abstraction
from agent.poker.cards import parse_cards
from agent.poker.equity import equity
from blueprint import flop_ehs


def test_canonical_key_is_invariant_under_suit_relabelling_and_card_order() -> None:
    rng = np.random.default_rng(4)
    for _ in range(200):
        cards = [int(c) for c in rng.permutation(52)[:5]]
        perm = rng.permutation(4)
        relabelled = [(c & ~3) | int(perm[c & 3]) for c in cards]
        shuffled = [relabelled[1], relabelled[0], relabelled[4], relabelled[2], relabelled[3]]
        assert flop_buckets.canonical_key(*cards) == flop_buckets.canonical_key(*shuffled)


def test_there_are_1286792_hole_and_flop_classes() -> None:
    keys = flop_buckets.all_class_keys(flop_buckets.PERMUTATIONS)
    assert len(keys) == 1326 * 19600
    assert len(np.unique(keys)) == flop_buckets.NUM_CLASSES == 1_286_792


def test_sampled_ehs_agrees_with_the_equity_module() -> None:
    for hole, flop in [(["As", "Ah"], ["2c", "7d", "9h"]), (["7s", "2h"], ["Ac", "Kd", "Qh"])]:
        cards = parse_cards([*hole, *flop])
        estimate = flop_ehs._ehs(flop_buckets.canonical_key(*cards), 4000)
        exact = equity(hole, flop, rng=np.random.default_rng(0), simulations=20_000).share
        assert abs(estimate - exact) < 0.03  # two Monte Carlo errors of about 0.006 and 0.004


def test_ehs_abstraction_buckets_are_ordered_by_strength_and_labels_roundtrip() -> None:
    try:
        flop_buckets.load_table()
    except ValueError:
        pytest.fail("data/flop_ehs.npz must ship with the package")
    cards = get_abstraction("ehs200")
    flop = parse_cards(["2c", "7d", "9h"])
    strong = cards.bucket(parse_cards(["As", "Ah"]), flop)
    weak = cards.bucket(parse_cards(["4s", "3h"]), flop)
    assert strong > 180 and weak < 40
    suited = parse_cards(["Ks", "Qs"])
    assert cards.bucket(suited, parse_cards(["2s", "7s", "9h"])) == cards.bucket(
        parse_cards(["Kd", "Qd"]), parse_cards(["7d", "2d", "9c"])
    )
    assert cards.label(1, strong) == f"E{strong}"
    assert cards.parse_label(1, f"E{strong}") == strong
    with pytest.raises(ValueError, match=r"E0\.\.E199"):
        cards.parse_label(1, "E200")
    counts = np.bincount(flop_buckets.class_buckets(200), flop_buckets.load_table()["counts"])
    assert counts.min() > 0.8 * counts.mean()  # equal-frequency buckets (ties aside)
