"""A reproducible heads-up match: the hand schedule, workers, and the finished summary.

Hand ``i`` is fully determined by the match seed and ``i``: its deal is ``i // 2`` in
duplicate mode (each deal played twice with the seats swapped, as in the duplicate matches
of the Annual Computer Poker Competition) or ``i`` otherwise; bot A has the button on even
hands and bot B on odd ones. The cards, the global ``random``/numpy generators and each
bot's ``rng`` are seeded from the match seed, the deal and ``i`` before the hand
(:mod:`arena.seeding`). Hands are handed to workers in fixed chunks, so the same seed gives the
same hands for any number of workers and for either backend.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from arena.engine import SLOT_LETTERS, SLOTS, HandResult, HeadsUpTable, ring_slots
from arena.registry import BotSpec, accepted_seed_keyword, make_bot, parse_bot_spec, resolve_factory
from arena.results import (
    ERRORS_FILE,
    HANDS_FILE,
    PLOT_FILE,
    SUMMARY_FILE,
    ErrorsWriter,
    HandsWriter,
    count_errors,
    hand_row,
    plot_winnings,
    prune_errors,
    read_hands,
    rewrite_sorted,
    write_json,
    write_match_file,
)
from arena.seeding import bot_seed, deal_deck, deal_seed, hand_seed, seat_seed
from arena.stats import RunningStats, match_stats, percentiles

CHUNK_HANDS = 100  # hands per task: even, so a duplicate pair never straddles two tasks


@dataclass(frozen=True)
class MatchConfig:
    """Everything that determines a match's hands (not how fast they are played)."""

    bot_a: str
    bot_b: str
    hands: int = 100_000
    seed: int = 0
    duplicate: bool = True
    stack: int = 1000
    small_blind: int = 5
    decision_timeout: float | None = None  # seconds; a slower decision is an error and a fold
    strict: bool = False  # stop at a bot's first error instead of folding its hand

    def __post_init__(self) -> None:
        if self.decision_timeout is not None and not self.decision_timeout > 0:
            raise ValueError(f"decision timeout must be positive, got {self.decision_timeout}")
        if self.hands <= 0:
            raise ValueError(f"hands must be positive, got {self.hands}")
        if self.duplicate and self.hands % 2:
            raise ValueError(
                f"hands must be even in duplicate mode (each deal is played twice): {self.hands}"
            )
        if self.small_blind <= 0 or self.stack < 2 * self.small_blind:
            raise ValueError(
                f"stack {self.stack} must cover a big blind of {2 * self.small_blind} chips"
            )

    def deal_of(self, index: int) -> int:
        """The deal a hand plays: ``index // 2`` in duplicate mode."""
        return index // 2 if self.duplicate else index

    def button_of(self, index: int) -> str:
        """The slot with the button (seat 0): A on even hands, B on odd ones."""
        return SLOTS[index % 2]

    def play(self, indices: list[int]) -> list[dict[str, Any]]:
        """Play the given hands (any order, any process) and return their rows."""
        return play_hands(self, indices)


def portable_spec(text: str) -> str:
    """The spec with any file path made absolute, so other processes can load it."""
    spec = parse_bot_spec(text)
    target = spec.target
    if target.endswith(".py") or ".py:" in target:
        path, _, attr = target.partition(".py")
        target = str(Path(path + ".py").resolve()) + attr
        return str(replace(spec, target=target))
    return text


def player_names(config: MatchConfig) -> dict[str, str]:
    """Display names for slots A and B (suffixed with the slot when both are the same bot)."""
    labels = {
        slot: parse_bot_spec(spec).label for slot, spec in zip(SLOTS, _specs(config), strict=True)
    }
    if labels["A"] == labels["B"]:
        return {slot: f"{label} ({slot})" for slot, label in labels.items()}
    return labels


def _specs(config: MatchConfig) -> tuple[str, str]:
    return config.bot_a, config.bot_b


@dataclass
class Contestants:
    """The two bots of a match inside one process, with the generators the arena re-seeds."""

    table: HeadsUpTable
    rngs: dict[str, np.random.Generator] = field(default_factory=dict)


_CACHE: dict[MatchConfig, Contestants] = {}


def contestants(config: MatchConfig) -> Contestants:
    """Build (once per process) the two bots and their reusable table."""
    cached = _CACHE.get(config)
    if cached is not None:
        return cached
    bots, rngs = build_bots(_specs(config), config.seed)
    table = HeadsUpTable(bots, config.stack, config.small_blind, config.decision_timeout)
    built = Contestants(table, rngs)
    _CACHE.clear()
    _CACHE[config] = built
    return built


def build_bots(
    specs: Sequence[str], seed: int
) -> tuple[dict[str, Any], dict[str, np.random.Generator]]:
    """The bots of ``specs`` by slot (A, B, ...), and the generators of those that take ``rng``.

    A bot built with ``rng`` gets a generator the arena re-seeds before every hand
    (:func:`reseed`); every bot is built with a seed from the run's seed and its slot.
    """
    bots, rngs = {}, {}
    for number, (slot, text) in enumerate(zip(ring_slots(len(specs)), specs, strict=True)):
        spec: BotSpec = parse_bot_spec(text)
        rng = None
        if accepted_seed_keyword(resolve_factory(spec)) == "rng":
            rng = rngs[slot] = np.random.default_rng(bot_seed(seed, number))
        bots[slot] = make_bot(spec, rng=rng, seed=bot_seed(seed, number))
    return bots, rngs


def reseed(rngs: dict[str, np.random.Generator], hand_seed: int) -> None:
    """Reset each bot's generator for the hand seeded by ``hand_seed`` (slot A is number 0)."""
    for slot, rng in rngs.items():
        rng.bit_generator.state = np.random.PCG64(
            seat_seed(hand_seed, SLOT_LETTERS.index(slot))
        ).state


def play_hands(config: MatchConfig, indices: Iterable[int]) -> list[dict[str, Any]]:
    """Play the given hands (any order, any process) and return their ``hands.csv`` rows."""
    players = contestants(config)
    rows = []
    for index in indices:
        deal = config.deal_of(index)
        cards_seed = deal_seed(config.seed, deal)
        seed = hand_seed(config.seed, deal, index)
        reseed(players.rngs, seed)
        result = players.table.play(deal_deck(cards_seed), config.button_of(index), seed)
        rows.append(hand_row(index, deal, cards_seed, result))
        if config.strict:
            stop_at_first_error(config, index, result)
    return rows


class BotFailure(RuntimeError):
    """A bot's error in a ``strict`` match: the match stops there."""


def stop_at_first_error(config: MatchConfig, index: int, result: HandResult) -> None:
    """BotFailure naming the bot, the hand and the error, if the hand had one."""
    for slot, errors in result.errors.items():
        if errors:
            name = player_names(config)[slot]
            raise BotFailure(f"{name} failed in hand {index}: {errors[0]}")


def chunks(indices: list[int], size: int = CHUNK_HANDS) -> list[list[int]]:
    """Group hand indices by their fixed chunk (``index // size``), in order.

    >>> chunks([0, 1, 2, 5, 6], size=2)
    [[0, 1], [2], [5], [6]]
    """
    grouped: dict[int, list[int]] = {}
    for index in indices:
        grouped.setdefault(index // size, []).append(index)
    return [grouped[key] for key in sorted(grouped)]


ChunkRunner = Callable[[Any, list[list[int]], int], Iterator[list[dict[str, Any]]]]


def run_tasks(
    play: Callable[[list[int]], list[dict[str, Any]]], tasks: list[list[int]], workers: int
) -> Iterator[list[dict[str, Any]]]:
    """Yield ``play(task)`` for each task as it finishes: in this process, or in a pool.

    ``play`` must pickle (a module-level function, or a ``functools.partial`` of one).
    """
    if workers <= 1:
        for task in tasks:
            yield play(task)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending = {pool.submit(play, task) for task in tasks}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            for future in pending:
                future.cancel()


def run_local(config: Any, tasks: list[list[int]], workers: int) -> Iterator[list[dict[str, Any]]]:
    """Yield each task's rows as it finishes, in this process or in a process pool.

    ``config`` is any arena run's configuration (match, ring game, tournaments): its
    ``play(task)`` plays one task.
    """
    return run_tasks(config.play, tasks, workers)


def run_match(
    config: MatchConfig,
    out_dir: Path,
    workers: int = 1,
    runner: ChunkRunner = run_local,
    on_progress: Callable[[int, Any], None] | None = None,
) -> dict[str, Any]:
    """Play every hand of ``config`` not yet in ``out_dir/hands.csv``, then summarise.

    Rows are appended as tasks finish, so an interruption leaves a consistent file and a
    second call completes it with the same result as one uninterrupted call.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    write_match_file(out_dir, config)
    path = out_dir / HANDS_FILE
    rows = [row for row in read_hands(path) if row["index"] < config.hands]
    done = {row["index"] for row in rows}
    if len(rows) and path.exists():
        rewrite_sorted(path, rows)  # drop a torn line or hands beyond the requested count
    missing = [index for index in range(config.hands) if index not in done]
    prune_errors(out_dir / ERRORS_FILE, done)
    running = RunningStats(config.small_blind)
    for row in rows:
        running.add(row["deal"], row["won_A"])
    started = time.perf_counter()
    writer, error_log = HandsWriter(path), ErrorsWriter(out_dir / ERRORS_FILE)
    try:
        for batch in runner(config, chunks(missing), workers):
            error_log.write(batch, player_names(config))  # before the hands: see count_errors
            writer.write(batch)
            rows.extend(batch)
            for row in batch:
                running.add(row["deal"], row["won_A"])
            if on_progress is not None:
                on_progress(len(batch), running.stats())
    finally:
        writer.close()
        error_log.close()
    elapsed = time.perf_counter() - started
    rows.sort(key=lambda row: row["index"])
    rewrite_sorted(path, rows)
    summary = summarize(config, rows, elapsed, played=len(missing))
    played = {row["index"] for row in rows}
    summary["errors"] = count_errors(out_dir / ERRORS_FILE, played, player_names(config))
    write_json(out_dir / SUMMARY_FILE, summary)
    chips = np.array([row["won_A"] for row in rows], dtype=np.int64)
    title = " vs ".join(player_names(config).values())
    ci95 = summary["ci95_sb_per_hand"]
    plot_winnings(out_dir / PLOT_FILE, chips, config.small_blind, ci95, title)
    return summary


def rows_stats(config: MatchConfig, rows: list[dict[str, Any]]) -> Any:
    """The match statistics of A over ``rows``, a duplicate pair (or a hand) per unit."""
    units = np.array([row["deal"] for row in rows])
    chips = np.array([row["won_A"] for row in rows], dtype=np.int64)
    return match_stats(units, chips, config.small_blind)


def summarize(
    config: MatchConfig, rows: list[dict[str, Any]], wall_seconds: float, played: int
) -> dict[str, Any]:
    """The ``summary.json`` content (sb/h etc. from A's side, against B)."""
    stats = rows_stats(config, rows)
    names = player_names(config)
    chips = {slot: sum(row[f"won_{slot}"] for row in rows) for slot in SLOTS}
    return {
        "players": [names["A"], names["B"]],
        "bots": [config.bot_a, config.bot_b],
        "hands": stats.hands,
        "seed": config.seed,
        "duplicate": config.duplicate,
        "stack": config.stack,
        "small_blind": config.small_blind,
        "sb_per_hand": stats.sb_per_hand,
        "ci95_sb_per_hand": stats.ci95_sb_per_hand,
        "bb_per_100": stats.bb_per_100,
        "mbb_per_hand": stats.mbb_per_hand,
        "chips": {names[slot]: int(chips[slot]) for slot in SLOTS},
        "wall_seconds": round(wall_seconds, 3),
        "hands_played_this_run": played,
        "hands_per_second": round(played / wall_seconds, 2) if wall_seconds > 0 else None,
        "decision_ms": {
            names[slot]: percentiles([ms for row in rows for ms in row[f"decision_ms_{slot}"]])
            for slot in SLOTS
        },
        "illegal_actions": {names[s]: sum(row[f"illegal_{s}"] for row in rows) for s in SLOTS},
    }


def default_workers() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
