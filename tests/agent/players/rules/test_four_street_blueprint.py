"""A blueprint trained to the river plays every street: a tiny four-street blueprint
(``four_street_blueprint``, trained by ``blueprint train --streets 4``) plays the turn and the
river of a hand that stays on its tree from the row of the bucket the trainer's own deal
sampler gives the same cards, with that row's probabilities."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agent.abstraction.betting import infoset_key
from agent.abstraction.strategy_file import load_strategy, sidecar_path
from agent.boundary.snapshot import Snapshot, Street
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.pushfold import ALL_HOLES
from agent.poker.cards import to_ppe_id
from agent.poker.range_equity import holding_index
from blueprint.holdem import HoldemConfig, deal_cards, sample_deals

CHECK_DOWN = [["call"] * 4, ["call"] * 4]  # the small blind limps, then both check to the river
LETTERS = {Street.TURN: "U", Street.RIVER: "R"}
HISTORIES = {Street.TURN: "cccc", Street.RIVER: "cccccc"}  # limp, check, then checks


def _deck(cards: np.ndarray) -> list[int]:
    """PyPokerEngine's deck dealing the trainer's nine cards in its order (two hole cards to
    seat 0, two to seat 1, the flop, the turn, the river), then the rest."""
    dealt = [to_ppe_id(int(card)) for card in cards]
    return dealt + [card for card in range(1, 53) if card not in dealt]


def _first_decisions(scripted_hand, seed: int, iteration: int) -> tuple[list[Snapshot], np.ndarray]:
    """The small blind's turn and river decisions (each the street's first) in a hand checked
    down on the cards of deal ``iteration`` of the trainer's stream ``seed``, and those cards."""
    cards = np.empty(9, dtype=np.int64)
    deal_cards(seed, iteration, cards)
    bots = scripted_hand([400, 400], ante=0, scripts=CHECK_DOWN, deck=_deck(cards))
    small_blind = bots[bots[0].seen[0].small_blind_seat]
    late = [s for s in small_blind.seen if s.street in LETTERS]
    assert [s.street for s in late] == [Street.TURN, Street.RIVER]
    return late, cards


def test_turn_and_river_are_played_from_the_row_of_the_trainers_bucket(
    four_street_blueprint, scripted_hand
):
    """Known answer: the policy is the table's row (looked up here by the key of the bucket
    the trainer's sampler computes for the same cards), priced on the real pot and stack."""
    path = four_street_blueprint
    table = load_strategy(path)
    meta = json.loads(sidecar_path(path).read_text())
    config, seed = HoldemConfig.from_json(meta), int(meta["seed"])
    player = CFRv2FixedPlayer(blueprint=path, solve="off", seed=1)
    played = {Street.TURN: 0, Street.RIVER: 0}
    for iteration in range(8):
        decisions, cards = _first_decisions(scripted_hand, seed, iteration)
        buckets, _ = sample_deals(config, seed, iteration, 1)  # the trainer's buckets
        for snapshot in decisions:
            seat = snapshot.seat  # seat s holds the deal's hole cards 2s and 2s + 1
            assert snapshot.hole == tuple(cards[2 * seat : 2 * seat + 2].tolist())
            assert snapshot.board == tuple(cards[4 : 4 + len(snapshot.board)].tolist())
            bucket = int(buckets[0, seat, snapshot.street])
            assert player.blueprint.cards.bucket(snapshot.hole, snapshot.board) == bucket
            key = infoset_key(f"{LETTERS[snapshot.street]}{bucket}", HISTORIES[snapshot.street])
            row = table.strategy(key)
            policy = player.policy(snapshot)
            assert player.last_decision.rule == "blueprint"
            if row is None:  # a bucket training never met on this line: the rules after it
                assert player.last_decision.detail.startswith(f"no row for {key}; 100% by")
                continue
            assert player.last_decision.detail == f"row {key}"
            # no bet to face: check, bet the pot (40 chips), or all-in (the 380 behind)
            assert (snapshot.pot, snapshot.stack, snapshot.to_call) == (40, 380, 0)
            price = {"call": ("call", 0), "raise_pot": ("raise", 40), "raise_allin": ("raise", 380)}
            mass = sum(row.values())
            expected = {price[name]: p / mass for name, p in row.items() if p > 0}
            got = {(name, amount): p for name, amount, p in policy}
            assert got == pytest.approx(expected, abs=1e-6)
            played[snapshot.street] += 1
    assert min(played.values()) >= 3


def test_on_the_river_a_table_and_the_likelihood_agree_with_single_decisions(
    four_street_blueprint, scripted_hand
):
    """Holdings of one river bucket share a row; the policy table (one bucket table for the
    board) and the likelihood of each action give what single decisions give."""
    meta = json.loads(sidecar_path(four_street_blueprint).read_text())
    (_, river), _ = _first_decisions(scripted_hand, int(meta["seed"]), 0)
    player = CFRv2FixedPlayer(blueprint=four_street_blueprint, solve="off", seed=1)
    rule = player.fixed.blueprint
    holes = [hole for hole in ALL_HOLES[::7] if not set(hole) & set(river.board)]
    rows = rule.policy_table(river, holes)
    by_bucket: dict[int, list] = {}
    for hole, row in zip(holes, rows, strict=True):
        assert rule.policy(river.with_hole(hole)) == row
        by_bucket.setdefault(player.blueprint.cards.bucket(hole, river.board), []).append(row)
    assert len(by_bucket) > 1 and all(
        row == rows_[0] for rows_ in by_bucket.values() for row in rows_
    )
    for action in {(name, amount) for row in rows for name, amount, _ in row}:
        likelihood = rule.likelihood(river, action)
        for hole, row in zip(holes, rows, strict=True):
            expected = sum(p for name, amount, p in row if (name, amount) == action)
            assert likelihood[holding_index(*hole)] == pytest.approx(expected, abs=1e-9)
