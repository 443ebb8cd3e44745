"""Flop histogram speed and the quality of the ehs<N> and km<N> flop buckets.

Speed: classes per second of the batch histogram builder (``blueprint.flop_kmeans``: one flop
at a time, every runout's hands ranked once) against the direct enumeration of one class
(1,081 runouts x 990 opponent hands), the test oracle, and their ratio.

Quality (``--full``, about 3 minutes on 2 cores): the exact river-equity histograms of all
1,286,792 classes, then for the shipped ``ehs<N>`` and ``km<N>`` assignments the mean earth
mover's distance between a class's histogram and its bucket's mean histogram, and the spread
(standard deviation) of exact EHS inside a bucket, both weighted by combinations. Smaller is
a finer abstraction.

    python -m bench.flop_buckets [--flops 8] [--classes 20] [--full] [--buckets 500]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from agent.abstraction import flop_buckets, km_table
from blueprint import flop_kmeans


def speed(flops: int, classes: int) -> None:
    """Print classes/s of the batch builder and of the direct oracle."""
    chosen = flop_kmeans.flop_representatives()[1755 // (2 * flops) :: 1755 // flops][:flops]
    flop_kmeans.build_histograms(flops=chosen[:1])  # compile
    started = time.perf_counter()
    counts, _ = flop_kmeans.build_histograms(flops=chosen)
    seconds = time.perf_counter() - started
    batch = int((counts.sum(axis=1) > 0).sum()) / seconds
    rows = np.flatnonzero(counts.sum(axis=1))[:classes]
    keys = flop_buckets.load_table()["keys"]
    cards = [[(int(keys[row]) >> (6 * (4 - k))) & 63 for k in range(5)] for row in rows]
    flop_kmeans.class_histogram(cards[0][:2], cards[0][2:])  # compile
    started = time.perf_counter()
    for hand in cards:
        flop_kmeans.class_histogram(hand[:2], hand[2:])
    direct = len(cards) / (time.perf_counter() - started)
    print(f"batch builder  {batch:12,.0f} classes/s  ({flops} flops)")
    print(f"direct oracle  {direct:12,.0f} classes/s  ({len(cards)} classes)")
    print(f"ratio          {batch / direct:12,.0f}x")
    print(f"all 1,755 flops by the batch builder: about {1755 * seconds / flops:.0f} s")


def quality(num_buckets: int) -> None:
    """Print the within-bucket EMD and EHS spread of ehs<N> and km<N>."""
    started = time.perf_counter()
    counts, ehs = flop_kmeans.build_histograms()
    print(f"histograms of all classes: {time.perf_counter() - started:.0f} s")
    histograms = counts / flop_kmeans.RUNOUTS
    weights = flop_buckets.load_table()["counts"].astype(np.float64)
    for name, buckets in [
        (f"ehs{num_buckets}", flop_buckets.class_buckets(num_buckets)),
        (f"km{num_buckets}", km_table.class_buckets(num_buckets)),
    ]:
        mass = np.bincount(buckets, weights, minlength=num_buckets)
        means = np.zeros((num_buckets, histograms.shape[1]))
        np.add.at(means, buckets, histograms * weights[:, None])
        means /= mass[:, None]
        emd = np.abs(np.cumsum(histograms - means[buckets], axis=1)).sum(axis=1)
        emd /= histograms.shape[1]
        mean_ehs = np.bincount(buckets, weights * ehs, minlength=num_buckets) / mass
        spread = np.sqrt(np.average((ehs - mean_ehs[buckets]) ** 2, weights=weights))
        print(
            f"{name:>8}: EMD to bucket histogram {np.average(emd, weights=weights):.4f},"
            f" EHS std in bucket {spread:.4f}, bucket combinations {mass.min():,.0f}"
            f" .. {mass.max():,.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flops", type=int, default=8)
    parser.add_argument("--classes", type=int, default=20)
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--buckets", type=int, default=500)
    args = parser.parse_args()
    speed(args.flops, args.classes)
    if args.full:
        quality(args.buckets)


if __name__ == "__main__":
    main()
