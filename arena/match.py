"""A reproducible heads-up match: the hand schedule, workers, and the finished summary.

Hand ``i`` is fully determined by the match seed and ``i``: its deal is ``i // 2`` in
duplicate mode (each deal played twice with the seats swapped, as in the duplicate matches
of the Annual Computer Poker Competition) or ``i`` otherwise; bot A has the button on even
hands and bot B on odd ones. The cards, the global ``random``/numpy generators and each
bot's ``rng`` are seeded from the match seed, the deal and ``i`` before the hand
(:mod:`arena.seeding`). Hands are handed to workers in fixed chunks, so the same seed gives the
same hands for any number of workers and for either backend.

With ``session_hands`` N the match is played in sessions of N hands, each by fresh bots that
may learn from hand to hand (bots that adapt to their opponent stay reproducible). A session
is one task, played in order by bots built for it alone. Without duplicate, session ``s`` is
hands ``[Ns, N(s+1))`` playing deals ``Ns + j``. In duplicate mode, session pair ``s`` is the
block of hands ``[2Ns, 2N(s+1))``: its first N hands play deals ``Ns + j`` with the button on
A, B, A, ...; its last N hands, the mirror session (a task of its own), play the same deals
with the seats swapped. A session and its mirror build their bots from the same seed
(:func:`arena.seeding.session_bot_seed` of the pair), so the seats are all that differs. The
unit of the confidence interval is then the session pair (or the session), not the deal:
hands inside a session are correlated through what the bots learned. A session only partly
in ``hands.csv`` (an interrupted run) is played again from its first hand on resume.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np

from arena.chance_adjusted import chance_adjusted
from arena.collection import pace_collection, paced_collection
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
from arena.seeding import (
    bot_seed,
    deal_deck,
    deal_seed,
    hand_seed,
    seat_seed,
    session_bot_seed,
)
from arena.stats import RunningStats, match_stats, mean_ci, percentiles
from arena.versions import pinned_version, split_version

CHUNK_HANDS = 100  # hands per task: even, so a duplicate pair never straddles two tasks
Players = TypeVar("Players")  # what one session plays with: bots on a table


class SessionLayout(Protocol):
    """How a run splits its hands into sessions (a match's or a ring game's config)."""

    @property
    def session_hands(self) -> int | None: ...

    @property
    def task_hands(self) -> int: ...

    def session_of(self, index: int) -> int: ...

    def unit_of(self, index: int) -> int: ...


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
    session_hands: int | None = None  # hands per session of fresh bots; None: one set of bots

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
        if self.session_hands is not None:
            check_sessions(self.hands, self.session_hands, self.duplicate)

    @property
    def task_hands(self) -> int:
        """Hands per task: a session, or a fixed chunk."""
        return self.session_hands or CHUNK_HANDS

    def deal_of(self, index: int) -> int:
        """The deal a hand plays: ``index // 2`` in duplicate mode, or by the session layout.

        >>> [MatchConfig("a", "b", hands=12, session_hands=3).deal_of(i) for i in range(12)]
        [0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5]
        """
        size = self.session_hands
        if size is not None and self.duplicate:
            return index // (2 * size) * size + index % size
        return index // 2 if self.duplicate else index

    def button_of(self, index: int) -> str:
        """The slot with the button (seat 0): A on even hands, B on odd ones; in a session,
        A on its even hands, and in a mirror session the other slot.

        >>> config = MatchConfig("a", "b", hands=12, session_hands=3)
        >>> " ".join(config.button_of(i) for i in range(12))  # sessions of 3, mirrors swapped
        'A B A B A B A B A B A B'
        >>> "".join(replace(config, session_hands=2).button_of(i) for i in range(12))
        'ABBAABBAABBA'
        """
        if self.session_hands is None:
            return SLOTS[index % 2]
        mirror = self.duplicate and index // self.session_hands % 2
        return SLOTS[(index % self.session_hands + mirror) % 2]

    def seeding_index(self, index: int) -> int:
        """The index hand ``index``'s deal and seats have without sessions, which seeds its
        generators: a run in sessions and one without draw the same for the same deal and
        seats, so that pairing them compares the bots, not their luck (common random
        numbers). Without sessions it is ``index``.

        >>> config = MatchConfig("a", "b", hands=12, session_hands=3)
        >>> [config.seeding_index(i) for i in range(6)]  # deals 0 1 2, then their mirrors
        [0, 3, 4, 1, 2, 5]
        >>> all(replace(config, session_hands=None).seeding_index(i) == i for i in range(12))
        True
        """
        if not self.duplicate:
            return index
        return 2 * self.deal_of(index) + SLOTS.index(self.button_of(index))

    def session_of(self, index: int) -> int:
        """The session (a task, played by its own bots) of hand ``index``; a mirror counts."""
        return index // self.task_hands

    def unit_of(self, index: int) -> int:
        """The statistical unit of hand ``index``: its deal (a duplicate pair), or with
        sessions its session pair (a session and its mirror), or its session."""
        if self.session_hands is None:
            return self.deal_of(index)
        return index // (self.session_hands * (2 if self.duplicate else 1))

    @property
    def unit_name(self) -> str:
        """What :meth:`unit_of` counts, in the plural, for printed intervals.

        >>> MatchConfig("a", "b", hands=8, session_hands=2).unit_name
        'session pairs'
        """
        if self.session_hands is not None:
            return "session pairs" if self.duplicate else "sessions"
        return "duplicate pairs" if self.duplicate else "hands"

    def play(self, indices: list[int]) -> list[dict[str, Any]]:
        """Play the given hands (any order, any process) and return their rows."""
        return play_hands(self, indices)


def check_sessions(hands: int, session_hands: int, duplicate: bool) -> None:
    """ValueError naming the problem unless ``hands`` splits into whole sessions.

    >>> check_sessions(600, 100, duplicate=True)
    >>> check_sessions(500, 100, duplicate=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: hands (500) must be a multiple of 200, twice the session hands (100), ...
    """
    if session_hands <= 0:
        raise ValueError(f"session hands must be positive, got {session_hands}")
    if duplicate and hands % (2 * session_hands):
        raise ValueError(
            f"hands ({hands}) must be a multiple of {2 * session_hands}, twice the session"
            f" hands ({session_hands}), in duplicate mode: each session is played again with"
            " the seats swapped"
        )
    if not duplicate and hands % session_hands:
        raise ValueError(
            f"hands ({hands}) must be a multiple of the session hands ({session_hands})"
        )


def portable_spec(text: str) -> str:
    """The spec with any file path made absolute and any revision pinned to its commit
    (``cfrv2@HEAD~1`` -> ``cfrv2@91870a4c669e``), so other processes, and later runs, load
    the same bot."""
    spec = parse_bot_spec(text)
    target = spec.target
    if split_version(target) is not None:
        return str(replace(spec, target=pinned_version(target)))
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
    built = fresh_contestants(config)
    _CACHE.clear()
    _CACHE[config] = built
    return built


def fresh_contestants(config: MatchConfig, session: int | None = None) -> Contestants:
    """New bots and their table: for the whole match, or for session (pair) ``session``."""
    bots, rngs = build_bots(_specs(config), config.seed, session)
    table = HeadsUpTable(bots, config.stack, config.small_blind, config.decision_timeout)
    return Contestants(table, rngs)


def build_bots(
    specs: Sequence[str], seed: int, session: int | None = None
) -> tuple[dict[str, Any], dict[str, np.random.Generator]]:
    """The bots of ``specs`` by slot (A, B, ...), and the generators of those that take ``rng``.

    A bot built with ``rng`` gets a generator the arena re-seeds before every hand
    (:func:`reseed`); every bot is built with a seed from the run's seed and its slot, and
    the session's number when bots are built afresh for each session or tournament.
    """
    bots, rngs = {}, {}
    for number, (slot, text) in enumerate(zip(ring_slots(len(specs)), specs, strict=True)):
        spec: BotSpec = parse_bot_spec(text)
        build_seed = (
            bot_seed(seed, number) if session is None else session_bot_seed(seed, session, number)
        )
        rng = None
        if accepted_seed_keyword(resolve_factory(spec)) == "rng":
            rng = rngs[slot] = np.random.default_rng(build_seed)
        bots[slot] = make_bot(spec, rng=rng, seed=build_seed)
    return bots, rngs


def reseed(rngs: dict[str, np.random.Generator], hand_seed: int) -> None:
    """Reset each bot's generator for the hand seeded by ``hand_seed`` (slot A is number 0)."""
    for slot, rng in rngs.items():
        rng.bit_generator.state = np.random.PCG64(
            seat_seed(hand_seed, SLOT_LETTERS.index(slot))
        ).state


def play_hands(config: MatchConfig, indices: Iterable[int]) -> list[dict[str, Any]]:
    """Play the given hands (any order, any process) and return their ``hands.csv`` rows."""
    if config.session_hands is not None:
        return play_sessions(config, indices)
    players = contestants(config)
    return [play_hand(config, players, index) for index in indices]


def play_sessions(config: MatchConfig, indices: Iterable[int]) -> list[dict[str, Any]]:
    """The rows of hands ``indices``, each session played by fresh bots from its first hand."""
    return play_in_sessions(
        config, indices, partial(fresh_contestants, config), partial(play_hand, config)
    )


def play_in_sessions(
    config: SessionLayout,
    indices: Iterable[int],
    build: Callable[[int], Players],
    play: Callable[[Players, int], dict[str, Any]],
) -> list[dict[str, Any]]:
    """The rows of hands ``indices``: for each session, ``build(session pair)`` makes fresh
    players, which ``play(players, index)`` every hand of the session with, in order.

    A hand's row does not depend on which other hands are asked for: a session is always
    played in order from its start, up to the last hand wanted of it. A session and its
    mirror get players built for the same unit (:meth:`MatchConfig.unit_of`).
    """
    wanted = list(indices)
    last: dict[int, int] = {}
    for index in wanted:
        session = config.session_of(index)
        last[session] = max(index, last.get(session, index))
    played = {}
    for session in sorted(last):
        first = session * config.task_hands
        players = build(config.unit_of(first))
        for index in range(first, last[session] + 1):
            played[index] = play(players, index)
    return [played[index] for index in wanted]


def play_hand(config: MatchConfig, players: Any, index: int) -> dict[str, Any]:
    """Hand ``index`` played by ``players`` (anything with a heads-up ``table`` and the
    ``rngs`` to re-seed: :class:`Contestants`, local best response's): its ``hands.csv`` row."""
    deal = config.deal_of(index)
    cards_seed = deal_seed(config.seed, deal)
    seed = hand_seed(config.seed, deal, config.seeding_index(index))
    reseed(players.rngs, seed)
    result = players.table.play(deal_deck(cards_seed), config.button_of(index), seed)
    if config.strict:
        stop_at_first_error(config, index, result)
    return hand_row(index, deal, cards_seed, result)


def whole_sessions(config: SessionLayout, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` without those of sessions they hold only in part (all of them without sessions).

    A learning bot's decisions depend on every earlier hand of its session, so a session cut
    short is played again from its first hand.
    """
    if config.session_hands is None:
        return rows
    counts: dict[int, int] = {}
    for row in rows:
        session = config.session_of(row["index"])
        counts[session] = counts.get(session, 0) + 1
    return [row for row in rows if counts[config.session_of(row["index"])] == config.task_hands]


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
    """Yield ``play(task)`` for each task as it finishes: in this process, or in a pool, the
    garbage collector paced for games in both (:mod:`arena.collection`).

    ``play`` must pickle (a module-level function, or a ``functools.partial`` of one).
    """
    with paced_collection():
        yield from _run_paced(play, tasks, workers)


def _run_paced(
    play: Callable[[list[int]], list[dict[str, Any]]], tasks: list[list[int]], workers: int
) -> Iterator[list[dict[str, Any]]]:
    if workers <= 1:
        for task in tasks:
            yield play(task)
        return
    with ProcessPoolExecutor(max_workers=workers, initializer=pace_collection) as pool:
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
    rows = whole_sessions(config, [row for row in read_hands(path) if row["index"] < config.hands])
    done = {row["index"] for row in rows}
    if path.exists():
        rewrite_sorted(path, rows)  # drop a torn line, hands beyond the count, a cut session
    missing = [index for index in range(config.hands) if index not in done]
    prune_errors(out_dir / ERRORS_FILE, done)
    running = RunningStats(config.small_blind)
    for row in rows:
        running.add(config.unit_of(row["index"]), row["won_A"])
    started = time.perf_counter()
    writer, error_log = HandsWriter(path), ErrorsWriter(out_dir / ERRORS_FILE)
    try:
        for batch in runner(config, chunks(missing, config.task_hands), workers):
            error_log.write(batch, player_names(config))  # before the hands: see count_errors
            writer.write(batch)
            rows.extend(batch)
            for row in batch:
                running.add(config.unit_of(row["index"]), row["won_A"])
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


def rows_stats(
    config: MatchConfig, rows: list[dict[str, Any]], unit_of: Callable[[int], int] | None = None
) -> Any:
    """The match statistics of A over ``rows``, a duplicate pair (or a hand, or a session
    pair) per unit (:meth:`MatchConfig.unit_of`, or ``unit_of`` of a hand's index)."""
    unit_of = config.unit_of if unit_of is None else unit_of
    units = np.array([unit_of(row["index"]) for row in rows])
    chips = np.array([row["won_A"] for row in rows], dtype=np.int64)
    return match_stats(units, chips, config.small_blind)


def adjusted_stats(
    config: MatchConfig, rows: list[dict[str, Any]], unit_of: Callable[[int], int] | None = None
) -> tuple[float, float | None]:
    """A's sb/h with the luck of the board taken out (:mod:`arena.chance_adjusted`) and its
    95% CI half-width, over the run's units (or ``unit_of`` of a hand's index)."""
    unit_of = config.unit_of if unit_of is None else unit_of
    units = np.array([unit_of(row["index"]) for row in rows])
    chips = chance_adjusted(rows, "A", config.stack)
    mean, ci = mean_ci(units, chips)
    small_blind = config.small_blind
    return mean / small_blind, None if ci is None else ci / small_blind


def summarize(
    config: MatchConfig, rows: list[dict[str, Any]], wall_seconds: float, played: int
) -> dict[str, Any]:
    """The ``summary.json`` content (sb/h etc. from A's side, against B)."""
    stats = rows_stats(config, rows)
    adjusted, adjusted_ci = adjusted_stats(config, rows)
    names = player_names(config)
    chips = {slot: sum(row[f"won_{slot}"] for row in rows) for slot in SLOTS}
    return {
        "players": [names["A"], names["B"]],
        "bots": [config.bot_a, config.bot_b],
        "hands": stats.hands,
        "seed": config.seed,
        "duplicate": config.duplicate,
        "session_hands": config.session_hands,
        "stack": config.stack,
        "small_blind": config.small_blind,
        "sb_per_hand": stats.sb_per_hand,
        "ci95_sb_per_hand": stats.ci95_sb_per_hand,
        "ci_units": f"{stats.units:,} {config.unit_name}",  # Student's t, units - 1 df
        "sb_per_hand_chance_adjusted": adjusted,
        "ci95_sb_per_hand_chance_adjusted": adjusted_ci,
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
