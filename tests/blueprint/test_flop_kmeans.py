"""Flop equity histograms and their k-means buckets (km<N>): exact counts, clustering, shipping."""

from __future__ import annotations

import importlib.resources
import itertools

import numba
import numpy as np
import pytest

from agent.abstraction import flop_buckets, km_table
from agent.abstraction.card_buckets import get_abstraction
from agent.poker.cards import parse_cards
from agent.poker.equity import equity
from blueprint import flop_kmeans

FLOP = parse_cards(["Kh", "8h", "3c"])  # two-tone: flush draws, straight draws, pairs


@pytest.fixture(scope="module")
def one_flop() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows, histogram counts and exact EHS of every class on FLOP (one flop: ~0.2 s)."""
    counts, ehs = flop_kmeans.build_histograms(flops=np.array([FLOP]))
    rows = np.flatnonzero(counts.sum(axis=1))
    return rows, counts[rows], ehs[rows]


def _cards_of(row: int) -> list[int]:
    key = int(flop_buckets.load_table()["keys"][row])
    return [(key >> (6 * (4 - k))) & 63 for k in range(5)]


def test_every_class_on_a_flop_gets_a_histogram_of_all_1081_runouts(one_flop) -> None:
    rows, counts, _ = one_flop
    rest = [card for card in range(52) if card not in FLOP]
    classes = {
        flop_buckets.canonical_key(a, b, *FLOP) for i, a in enumerate(rest) for b in rest[i + 1 :]
    }
    # Diamonds and spades may swap: (1176 + 266 pairs the swap fixes) / 2 classes (Burnside).
    assert len(rows) == len(classes) == 721
    assert (counts.sum(axis=1) == flop_kmeans.RUNOUTS).all()  # histograms sum to 1


def test_batch_histograms_equal_direct_enumeration_and_ignore_suit_names(one_flop) -> None:
    rows, counts, ehs = one_flop
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        single, _ = flop_kmeans.build_histograms(flops=np.array([FLOP, FLOP[::-1]]))
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(single[rows], counts)
    for index in np.random.default_rng(3).choice(len(rows), 3, replace=False):
        cards = _cards_of(int(rows[index]))
        histogram, exact = flop_kmeans.class_histogram(cards[:2], cards[2:])
        assert np.array_equal(histogram * flop_kmeans.RUNOUTS, counts[index])
        assert exact == pytest.approx(ehs[index], abs=1e-12)
        relabelled = [(card & ~3) | (3 - (card & 3)) for card in cards]  # swap suits
        again, _ = flop_kmeans.class_histogram(relabelled[:2], relabelled[2:])
        assert np.array_equal(again, histogram)


def test_histogram_means_match_the_sampled_ehs_table(one_flop) -> None:
    rows, _, ehs = one_flop
    sampled = flop_buckets.load_table()["ehs"][rows]
    # The table samples 1000 runouts a class: standard error at most 0.5 / sqrt(1000) = 0.016.
    assert np.abs(ehs - sampled).max() < 0.07  # 4.4 standard errors, 1176 classes
    assert np.abs(ehs - sampled).mean() < 0.015  # mean |error| is 0.8 standard errors


def test_exact_ehs_equals_the_equity_module_and_draws_differ_from_made_hands() -> None:
    quads, ehs = flop_kmeans.class_histogram(
        parse_cards(["As", "Ad"]), parse_cards(["Ah", "Ac", "2d"])
    )
    assert quads[-1] == 1.0 and ehs > 0.999
    flop = ["Kh", "8h", "3c"]
    draw, draw_ehs = flop_kmeans.class_histogram(parse_cards(["9h", "7h"]), parse_cards(flop))
    pair, pair_ehs = flop_kmeans.class_histogram(parse_cards(["3d", "2d"]), parse_cards(flop))
    assert draw_ehs == pytest.approx(equity(["9h", "7h"], flop, method="exact").share, abs=1e-12)
    assert pair_ehs == pytest.approx(equity(["3d", "2d"], flop, method="exact").share, abs=1e-12)
    # Nearly the same EHS (0.549 and 0.534), far apart as distributions: the flush draw is
    # often the nuts or nothing on the river, bottom pair mostly in the middle.
    assert abs(draw_ehs - pair_ehs) < 0.02
    assert draw[-1] > 0.3 and pair[-1] < 0.15 and draw[:2].sum() > 0.4 > 0.01 > pair[:2].sum()
    earth_movers = np.abs(np.cumsum(draw - pair)).sum() / len(draw)
    assert earth_movers > 0.1


def test_kmeans_recovers_separated_weighted_clusters() -> None:
    rng = np.random.default_rng(5)
    centres = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    points = np.repeat(centres, 50, axis=0) + rng.normal(0, 0.05, (150, 2))
    found, labels, inertia = flop_kmeans.kmeans(points, np.ones(150), 3, np.random.default_rng(0))
    assert sorted(np.bincount(labels).tolist()) == [50, 50, 50]
    assert len(set(labels[:50])) == len(set(labels[50:100])) == len(set(labels[100:])) == 1
    assert np.abs(np.sort(found, axis=0) - np.sort(centres, axis=0)).max() < 0.05
    assert all(b <= a + 1e-12 for a, b in itertools.pairwise(inertia))
    with pytest.raises(ValueError, match="k 151"):
        flop_kmeans.kmeans(points, np.ones(150), 151, np.random.default_rng(0))


def test_clustering_a_flop_is_seeded_ordered_and_uses_every_bucket(one_flop) -> None:
    rows, counts, ehs = one_flop
    weights = flop_buckets.load_table()["counts"][rows]

    def cluster(seed: int) -> dict[str, np.ndarray]:
        return flop_kmeans.cluster_classes(counts, ehs, weights, 12, np.random.default_rng(seed))

    first = cluster(7)
    np.random.seed(99)  # the global generator plays no part
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # nor does the number of threads
    try:
        assert np.array_equal(first["buckets"], cluster(7)["buckets"])
    finally:
        numba.set_num_threads(threads)
    assert set(first["buckets"].tolist()) == set(range(12))
    assert (np.diff(first["bucket_equity"]) > 0).all()
    assert np.allclose(first["bucket_histograms"].sum(axis=1), 1.0)
    for bucket in (0, 11):
        members = first["buckets"] == bucket
        mean = np.average(ehs[members], weights=weights[members])
        assert mean == pytest.approx(first["bucket_equity"][bucket])


def test_shipped_km500_uses_500_buckets_ordered_by_equity() -> None:
    buckets = km_table.class_buckets(500)
    table = flop_buckets.load_table()
    assert len(buckets) == flop_buckets.NUM_CLASSES
    weight = np.bincount(buckets, table["counts"], minlength=500)
    assert len(weight) == 500 and (weight > 0).all()
    # Ordered by exact mean equity when built; the sampled table agrees up to its noise.
    sampled = np.bincount(buckets, table["counts"] * table["ehs"], minlength=500) / weight
    path = importlib.resources.files("agent.data").joinpath(km_table.table_file(500))
    with path.open("rb") as handle, np.load(handle) as shipped:
        exact = shipped["bucket_equity"]
        assert int(shipped["bins"]) == flop_kmeans.DEFAULT_BINS
    assert (np.diff(exact) > 0).all() and exact[0] < 0.2 and exact[-1] > 0.95
    assert np.abs(sampled - exact).max() < 0.005  # >= 4,416 combinations a bucket
    assert (np.diff(sampled) > -0.005).all()


def test_km_labels_roundtrip_and_suit_isomorphic_hands_share_a_bucket() -> None:
    cards = get_abstraction("km500")
    assert cards.num_buckets == (169, 500) and cards.by_class and not cards.by_equity
    flop = parse_cards(["2c", "7d", "9h"])
    strong = cards.bucket(parse_cards(["As", "Ah"]), flop)
    weak = cards.bucket(parse_cards(["4s", "3h"]), flop)
    assert strong > 400 and weak < 100
    assert cards.bucket(parse_cards(["Ks", "Qs"]), parse_cards(["2s", "7s", "9h"])) == cards.bucket(
        parse_cards(["Kd", "Qd"]), parse_cards(["7d", "2d", "9c"])
    )
    for bucket in (0, strong, 499):
        assert cards.parse_label(1, cards.label(1, bucket)) == bucket
    assert cards.label(1, 57) == "M57"  # not "K57": K9 reads like the hole class K9s
    with pytest.raises(ValueError, match=r"M0\.\.M499"):
        cards.parse_label(1, "M500")
    with pytest.raises(ValueError, match=r"M0\.\.M499"):
        cards.parse_label(1, "E57")


def test_missing_or_mismatched_tables_name_the_build_command(tmp_path) -> None:
    with pytest.raises(ValueError, match=r"python -m blueprint\.flop_kmeans --buckets 7 "):
        get_abstraction("km7")
    for name in ("km1", "km5001", "km07", "kmeans"):
        with pytest.raises(ValueError, match="unknown card abstraction"):
            get_abstraction(name)
    with pytest.raises(ValueError, match="does not exist"):
        km_table.read_assignment(tmp_path / "none.npz", 8)
    good = {
        "format_version": np.array(km_table.FORMAT_VERSION),
        "num_buckets": np.array(8),
        "buckets": np.zeros(flop_buckets.NUM_CLASSES, dtype=np.int16),
        "keys_crc32": np.array(km_table.keys_checksum(flop_buckets.load_table()["keys"])),
    }
    path = tmp_path / "km8.npz"
    np.savez(path, **good)
    assert km_table.read_assignment(path, 8).max() == 0
    for change, problem in [
        ({"format_version": np.array(99)}, "format version 99"),
        ({"num_buckets": np.array(9)}, "holds 9 buckets"),
        ({"keys_crc32": np.array(1)}, "does not match the classes"),
        ({"buckets": np.full(flop_buckets.NUM_CLASSES, 8, dtype=np.int16)}, "outside 0..7"),
    ]:
        np.savez(path, **{**good, **change})
        with pytest.raises(ValueError, match=problem):
            km_table.read_assignment(path, 8)
    path.write_bytes(b"not an npz")
    with pytest.raises(ValueError, match="not a readable npz"):
        km_table.read_assignment(path, 8)
