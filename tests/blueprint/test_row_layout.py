"""The trainer's bucket-major row layout: a permutation whose deal rows are contiguous."""

from __future__ import annotations

import numpy as np

from agent.abstraction.betting import GameConfig, parse_actions
from blueprint.holdem import HoldemConfig, build_tree, sample_deals
from blueprint.leduc import leduc_game
from blueprint.mccfr import KERNELS
from blueprint.row_layout import BucketMajorLayout
from blueprint.tree import DECISION

SMALL = HoldemConfig(GameConfig(stack=100), parse_actions("min,allin:2"))


def test_order_is_a_permutation_of_the_rows() -> None:
    tree = build_tree(SMALL)
    layout = BucketMajorLayout.of(tree)
    assert np.array_equal(np.sort(layout.order), np.arange(tree.num_infosets))


def test_one_bucket_of_one_round_is_one_contiguous_block() -> None:
    tree = build_tree(SMALL)
    layout = BucketMajorLayout.of(tree)
    decisions = np.flatnonzero(tree.kind == DECISION)
    for r in range(tree.num_rounds):
        nodes = decisions[tree.round[decisions] == r]
        assert layout.stride[r] == len(nodes)
        bucket = int(tree.num_buckets[r]) - 1
        rows = np.sort(layout.order[tree.infoset_base[nodes] + bucket])
        assert np.array_equal(rows, np.arange(rows[0], rows[0] + len(nodes)))


def test_a_kernel_on_the_layout_gives_the_canonical_tables() -> None:
    game = leduc_game()
    tree, layout = game.tree, BucketMajorLayout.of(game.tree)
    rng = np.random.default_rng(3)
    pick = rng.choice(game.deals.size, size=400, p=game.deals.weight / game.deals.weight.sum())
    buckets, showdown = game.deals.buckets[pick], game.deals.showdown[pick]
    tables = {}
    for name, base, deals in (
        ("canonical", tree.infoset_base, buckets),
        ("layout", layout.infoset_base, layout.scale_deals(buckets)),
    ):
        regret, strategy_sum = tree.new_table(), tree.new_table()
        KERNELS["chance"](tree.kind, tree.player, tree.round, tree.first_child,
                          tree.num_children, tree.contribution, base, np.ascontiguousarray(deals),
                          np.ascontiguousarray(showdown), regret, strategy_sum, 0, 1, True,
                          0.0, 1.0, 0.6)  # fmt: skip
        tables[name] = (regret, strategy_sum)
    regret, strategy_sum = tables["layout"]
    assert np.array_equal(layout.to_canonical(regret), tables["canonical"][0])
    assert np.array_equal(layout.to_canonical(strategy_sum), tables["canonical"][1])
    assert np.array_equal(layout.from_canonical(tables["canonical"][0]), regret)
    assert tables["canonical"][1].sum() > 0


def test_sample_deals_scale_without_overflow() -> None:
    config = HoldemConfig()
    layout = BucketMajorLayout.of(build_tree(config))
    buckets, _ = sample_deals(config, 0, 0, 2000)
    scaled = layout.scale_deals(buckets)
    assert scaled.dtype == buckets.dtype
    assert np.array_equal(scaled // layout.stride, buckets)
