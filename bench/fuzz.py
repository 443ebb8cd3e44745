"""Long fuzzing runs: cfrv2 against the fuzzing bot, and tournaments with two fuzzing bots.

Prints, measured in this run:

- a heads-up match of ``--hands`` duplicate hands, cfrv2 against
  :class:`arena.fuzzing.FuzzingBot` (moves drawn from the generator the arena re-seeds every
  hand, every notification vandalised): hands finished, chips (each hand's ``won_A + won_B``
  must be 0), the fuzzing bot's illegal actions and errors, cfrv2's (must be 0), hands
  stopped by the watchdog (must be 0), hands/s;
- ``--tournaments`` six-player sit-and-goes of cfrv2, fish, random, rule-based and two fuzzing
  bots (1,000 chips, blinds 10/20 doubling every 20 hands, antes from level 3): tournaments
  finished, chips (final stacks + forfeited + split-pot odd chips must be 6,000 in each),
  illegal actions and errors per bot, tournaments/s;
- the cost of giving each bot its own copy of every message: CPU ms a hand of two fish
  (``--copies-hands`` hands), with the copies and with the proxy handing the engine's own;
  and with ``--decision-timeout`` (every call crossing to the seat's worker thread).

It stops with a one-line error if a check fails.

    python -m bench.fuzz --hands 10000 --tournaments 102 --workers 2
"""

from __future__ import annotations

import argparse
import csv
import itertools
import tempfile
import time
from pathlib import Path

import arena.engine
from arena.engine import HeadsUpTable
from arena.match import MatchConfig, run_match
from arena.results import ERRORS_FILE, read_hands
from arena.seeding import deal_deck, deal_seed
from arena.tournament.run import TOURNAMENTS_FILE, TournamentConfig, run_tournaments
from baselines.fish import FishPlayer
from bench.tournament import levels

FUZZ = "arena.fuzzing:FuzzingBot:vandal=true"
FIELD = ("cfrv2", "fish", "random", "rule-based", FUZZ, FUZZ)


def error_lines(out: Path) -> list[str]:
    """The ``error`` column of a run's ``errors.csv``."""
    path = out / ERRORS_FILE
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as handle:
        return [row["error"] for row in csv.DictReader(handle)]


def check(condition: bool, problem: str) -> None:
    if not condition:
        raise SystemExit(f"check failed: {problem}")


def match(hands: int, workers: int, seed: int) -> None:
    config = MatchConfig("cfrv2", FUZZ, hands=hands, seed=seed)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        started = time.perf_counter()
        summary = run_match(config, out, workers=workers)
        seconds = time.perf_counter() - started
        rows = read_hands(out / "hands.csv")
        stopped = sum("HandStopped" in line for line in error_lines(out))
    cfrv2, fuzz = summary["players"]
    unbalanced = sum(row["won_A"] + row["won_B"] != 0 for row in rows)
    print(
        f"match cfrv2 vs fuzzing bot: {len(rows):,} hands in {seconds:.0f} s"
        f" ({len(rows) / seconds:.1f} hands/s, {workers} workers), seed {seed}"
    )
    print(f"  hands whose chips do not add up: {unbalanced}; stopped by the watchdog: {stopped}")
    print(
        f"  fuzzing bot: {summary['illegal_actions'][fuzz]:,} illegal actions,"
        f" {summary['errors'][fuzz]:,} errors (folded)"
    )
    print(
        f"  cfrv2: {summary['illegal_actions'][cfrv2]} illegal actions,"
        f" {summary['errors'][cfrv2]} errors; {summary['sb_per_hand']:+.2f} sb/h"
    )
    check(len(rows) == hands and unbalanced == 0 and stopped == 0, "match")
    check(summary["illegal_actions"][cfrv2] == 0 and summary["errors"][cfrv2] == 0, "cfrv2")


def tournaments(count: int, workers: int, seed: int) -> None:
    config = TournamentConfig(FIELD, count, seed=seed, levels=levels(len(FIELD)))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        started = time.perf_counter()
        summary = run_tournaments(config, out, workers=workers)
        seconds = time.perf_counter() - started
        with (out / TOURNAMENTS_FILE).open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        stopped = sum("HandStopped" in line for line in error_lines(out))
    slots = config.slots
    chips = [
        sum(int(row[f"stack_{slot}"]) for slot in slots)
        + int(row["forfeited_chips"]) + int(row["split_chips_lost"])
        for row in rows
    ]  # fmt: skip
    finished = sum(int(row["finished"]) for row in rows)
    hands = sum(int(row["hands"]) for row in rows)
    print(
        f"tournaments, {', '.join(FIELD)}: {len(rows)} played, {finished} to one winner,"
        f" {hands:,} hands in {seconds:.0f} s ({len(rows) / seconds:.2f} tournaments/s)"
    )
    print(
        f"  tournaments whose chips are not 6,000: {sum(c != 6000 for c in chips)};"
        f" hands stopped by the watchdog: {stopped}"
    )
    for slot, bot in zip(slots, summary["bots"], strict=True):
        illegal = sum(int(row[f"illegal_{slot}"]) for row in rows)
        print(f"  {bot['name']}: {illegal:,} illegal actions, {bot['errors']:,} errors")
    check(len(rows) == count and all(c == 6000 for c in chips) and stopped == 0, "tournaments")


def fish_hand_ms(hands: int, timeout: float | None = None) -> float:
    """CPU milliseconds a hand of two fish at a heads-up table (all threads of the process)."""
    table = HeadsUpTable({"A": FishPlayer(), "B": FishPlayer()}, decision_timeout=timeout)
    decks = [deal_deck(deal_seed(0, hand)) for hand in range(hands)]
    started = time.process_time()
    for hand, button in zip(range(hands), itertools.cycle("AB"), strict=False):
        table.play(decks[hand], button, hand)
    return (time.process_time() - started) / hands * 1000


def copies(hands: int) -> None:
    copied = arena.engine.isolated
    timings: dict[str, list[float]] = {"copies": [], "none": []}
    for _ in range(2):
        for label, copy in (("copies", copied), ("none", lambda message: message)):
            arena.engine.isolated = copy
            timings[label].append(fish_hand_ms(hands))
    arena.engine.isolated = copied
    with_copies, without = min(timings["copies"]), min(timings["none"])
    print(
        f"message copies: {with_copies:.2f} ms CPU a hand of two fish with them,"
        f" {without:.2f} without ({hands:,} hands, best of 2)"
    )
    timed = min(fish_hand_ms(hands, timeout=1.0) for _ in range(2))
    print(f"with a decision timeout of 1 s: {timed:.2f} ms CPU a hand of two fish")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--tournaments", type=int, default=102, help="a multiple of 6")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--copies-hands", type=int, default=2000)
    arguments = parser.parse_args()
    if arguments.hands:
        match(arguments.hands, arguments.workers, arguments.seed)
    if arguments.tournaments:
        tournaments(arguments.tournaments, arguments.workers, arguments.seed)
    if arguments.copies_hands:
        copies(arguments.copies_hands)


if __name__ == "__main__":
    main()
