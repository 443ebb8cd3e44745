"""The player reads the N-player preflop table: the engine's history walks the solved tree,
raises are priced on the real pot, and what the table does not cover is left to the rules."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from agent.boundary.snapshot import ActionRecord, Snapshot, Street, is_legal
from agent.players.cfrv2 import CFRv2Player
from agent.players.preflop_table import (
    PreflopTable,
    PreflopTableError,
    load_preflop_table,
    table_policy,
    walk,
)
from agent.poker.cards import parse_cards
from blueprint.preflop_build import BuildConfig, build_table

BIG_BLIND = 20


@pytest.fixture(scope="module")
def table_file(tmp_path_factory):
    arrays = build_table(
        BuildConfig(players=(3,), stacks=(20.0,), scale=0.05, workers=1), progress=False
    )
    path = tmp_path_factory.mktemp("preflop") / "preflop.npz"
    np.savez_compressed(path, **arrays)
    return path


@pytest.fixture(scope="module")
def table(table_file):
    return PreflopTable.load(table_file)


def record(seat: int, kind: str, amount: int, paid: int) -> ActionRecord:
    return ActionRecord(Street.PREFLOP, seat, kind, amount, paid, 0)


BLINDS = (record(1, "SMALLBLIND", 10, 10), record(2, "BIGBLIND", 20, 20))


def decision(seat: int, voluntary=(), hole=("As", "Ah"), stack: int = 400) -> Snapshot:
    """A three-handed preflop decision (seat 0 under the gun, 1 small blind, 2 big blind)."""
    history = (*BLINDS, *voluntary)
    street_total = {0: 0, 1: 0, 2: 0}
    for entry in history:
        street_total[entry.seat] = max(street_total[entry.seat], entry.amount)
    folded = {entry.seat for entry in voluntary if entry.kind == "FOLD"}
    bet = max(street_total.values())
    paid = street_total[seat]
    return Snapshot(
        street=Street.PREFLOP,
        hole=tuple(parse_cards(list(hole))),
        board=(),
        pot=sum(street_total.values()),
        seat=seat,
        stack=stack - paid,
        call_amount=bet,
        paid=paid,
        min_raise=min(2 * bet, stack),
        max_raise=stack,
        in_hand=tuple(s for s in range(3) if s not in folded),
        stacks=tuple(stack - street_total[s] for s in range(3)),
        big_blind=BIG_BLIND,
        small_blind_seat=1,
        big_blind_seat=2,
        dealer_seat=0,
        history=history,
    )


def test_under_the_gun_plays_the_root_and_prices_the_open_on_the_real_pot(table):
    snapshot = decision(0)
    policy = table_policy(table, snapshot)
    assert policy is not None
    assert sum(p for _, _, p in policy) == pytest.approx(1.0)
    assert all(is_legal(snapshot, (name, amount)) for name, amount, _ in policy)
    # the open: the call of 20 plus 0.75 of the pot after it (30 + 20): 57.5, rounded to 58
    amounts = {amount for name, amount, _ in policy if name == "raise"}
    assert amounts <= {58, 400}
    game = table.nearest(3, 20.0, 0.0)
    row = game.strategy(0, 0)  # aces, from the stored row itself
    raise_share = sum(p for name, _, p in policy if name == "raise")
    assert raise_share == pytest.approx(float(row[2:].sum()))


def test_a_raise_is_read_as_the_nearest_size_by_ratio(table):
    game = table.nearest(3, 20.0, 0.0)
    tree = game.tree
    children = {
        int(tree.action[tree.first_child[0] + k]): tree.first_child[0] + k for k in range(4)
    }
    order = [0, 1, 2]
    near_open = (*BLINDS, record(0, "RAISE", 60, 60))  # 3 BB: the 2.875 BB open
    assert walk(game, near_open, order, BIG_BLIND) == children[2]
    ten_bb = (*BLINDS, record(0, "RAISE", 200, 200))  # 10 BB: nearer the 20 BB all-in
    assert walk(game, ten_bb, order, BIG_BLIND) == children[3]
    after_shove = (*ten_bb, record(1, "RAISE", 400, 390))  # a raise over the all-in: off the tree
    assert walk(game, after_shove, order, BIG_BLIND) is None


def test_the_small_blind_facing_an_open_reads_its_node(table):
    snapshot = decision(1, (record(0, "RAISE", 58, 58),), hole=("7c", "2d"))
    policy = table_policy(table, snapshot)
    assert policy is not None and all(is_legal(snapshot, (n, a)) for n, a, _ in policy)
    assert ("fold", 0) in {(name, amount) for name, amount, _ in policy}


def test_other_tables_and_streets_are_left_to_the_rules(table):
    flop = replace(decision(0), street=Street.FLOP)
    assert table_policy(table, flop) is None
    assert table.nearest(4, 20.0, 0.0) is None  # a table size the file does not solve


def test_a_missing_or_foreign_file_is_named(tmp_path):
    with pytest.raises(PreflopTableError, match=r"nowhere\.npz"):
        load_preflop_table(tmp_path / "nowhere.npz")
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, x=np.zeros(3))
    with pytest.raises(PreflopTableError, match="format"):
        load_preflop_table(foreign)
    with pytest.raises(PreflopTableError, match="expected true, false or a file"):
        load_preflop_table(3)


def test_the_player_plays_the_table_it_is_given(table_file):
    player = CFRv2Player(preflop_table=str(table_file), seed=0, simulations=100)
    snapshot = decision(0, hole=("Kd", "Kc"))
    assert player.policy(snapshot) == table_policy(player.fixed.nplayer_preflop.table, snapshot)
    assert CFRv2Player(seed=0).fixed.nplayer_preflop.table is None  # off by default


def test_tables_loaded_from_one_file_share_each_games_tree(table_file):
    first, second = PreflopTable.load(table_file), PreflopTable.load(table_file)
    key = (3, 20.0, 0.0)
    assert first.games[key] is not second.games[key]
    assert first.games[key].tree is second.games[key].tree
    assert first.games[key].tree.num_players == 3
