"""A ring game of 3 to 10 bots: every hand from fresh stacks, every deal in every seat rotation.

Hand ``i`` of N bots plays deal ``i // N`` in rotation ``i % N`` (bot A in seat ``-i % N``;
seat 0 is the button, seats 1 and 2 post the blinds), so each bot plays each seat's cards
once and card luck cancels over a deal. Each bot's result is its small blinds won per hand,
with a 95% CI that treats a deal (its N rotations) as one observation (:mod:`arena.stats`).
As in :mod:`arena.match`, a hand is seeded by its index alone, so the same seed gives the
same hands for any number of workers and either backend, and ``hands.csv`` grows as hands
finish, so an interrupted run resumes where it stopped.

A bot that learns from hand to hand (the adaptive agent) needs sessions to stay
reproducible: without them each worker process keeps one set of bots, and what a bot has
learned depends on which hands its process played. With ``session_hands`` N (a multiple of
the number of bots, so a session holds whole deals) session ``s`` is hands ``[Ns, N(s+1))``,
played in order by bots built for it alone (:func:`arena.seeding.session_bot_seed`), one
task; a session only partly in ``hands.csv`` is played again from its first hand on resume,
and the session, whose hands are correlated through what the bots learned, is the unit of
the confidence interval.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.chance_adjusted import chance_adjusted_by_slot
from arena.engine import (
    MAX_SEATS,
    HandResult,
    RingTable,
    cards_text,
    ring_slots,
    rotated,
    seat_holes,
)
from arena.match import (
    ChunkRunner,
    build_bots,
    check_sessions,
    play_in_sessions,
    reseed,
    run_local,
    whole_sessions,
)
from arena.results import HANDS_FILE, SUMMARY_FILE, read_run_file, write_json
from arena.resumable import play_missing
from arena.roundrobin import labels_by_slot
from arena.rows_file import RowsFile
from arena.seeding import deal_deck, deal_seed, hand_seed
from arena.stats import match_stats, mean_ci

CONFIG_FILE = "ring.json"
MARKDOWN_FILE = "summary.md"
CHUNK_DEALS = 20


@dataclass(frozen=True)
class RingConfig:
    """Everything that determines a ring game's hands."""

    bots: tuple[str, ...]
    hands: int
    seed: int = 0
    stack: int = 1000
    small_blind: int = 5
    decision_timeout: float | None = None
    strict: bool = False
    phh_dir: str | None = None  # a folder for one PHH file per hand
    session_hands: int | None = None  # hands per session of fresh bots; None: one set of bots

    def __post_init__(self) -> None:
        players = len(self.bots)
        if not 3 <= players <= MAX_SEATS:
            raise ValueError(f"a ring game seats 3 to {MAX_SEATS} bots, got {players}")
        if self.hands <= 0 or self.hands % players:
            raise ValueError(
                f"hands must be a positive multiple of {players} (each deal is played in all"
                f" {players} seat rotations), got {self.hands}"
            )
        if self.small_blind <= 0 or self.stack < 2 * self.small_blind:
            raise ValueError(f"stack {self.stack} must cover a big blind of {2 * self.small_blind}")
        if self.decision_timeout is not None and not self.decision_timeout > 0:
            raise ValueError(f"decision timeout must be positive, got {self.decision_timeout}")
        if self.session_hands is not None:
            check_ring_sessions(self.hands, self.session_hands, players)

    @property
    def task_hands(self) -> int:
        """Hands per task: a session, or a fixed chunk of deals."""
        return self.session_hands or CHUNK_DEALS * len(self.bots)

    def session_of(self, index: int) -> int:
        """The task (a session, with sessions) of hand ``index``."""
        return index // self.task_hands

    def unit_of(self, index: int) -> int:
        """The unit of the confidence interval of hand ``index``: its session, or its deal;
        with sessions, also the number the session's bots are built from."""
        return index // (self.session_hands or len(self.bots))

    @property
    def slots(self) -> tuple[str, ...]:
        return ring_slots(len(self.bots))

    def seat_slots(self, index: int) -> tuple[str, ...]:
        return rotated(self.slots, index)

    def play(self, indices: list[int]) -> list[dict[str, Any]]:
        """Play the given hands (any order, any process) and return their rows."""
        return play_ring_hands(self, indices)


_CACHE: dict[RingConfig, tuple[RingTable, dict]] = {}


def ring_table(config: RingConfig) -> tuple[RingTable, dict[str, np.random.Generator]]:
    """Build (once per process) the bots and their table."""
    if config not in _CACHE:
        bots, rngs = build_bots(config.bots, config.seed)
        table = RingTable(bots, config.stack, config.small_blind, config.decision_timeout)
        _CACHE.clear()
        _CACHE[config] = (table, rngs)
    return _CACHE[config]


def play_ring_hands(config: RingConfig, indices: list[int]) -> list[dict[str, Any]]:
    """The ``hands.csv`` rows of hands ``indices``."""
    if config.session_hands is None:
        table, rngs = ring_table(config)
        return [play_ring_hand(config, table, rngs, index) for index in indices]
    return play_ring_sessions(config, indices)


def play_ring_sessions(config: RingConfig, indices: list[int]) -> list[dict[str, Any]]:
    """The rows of hands ``indices``, each session played in order from its first hand by
    bots built for it (:func:`arena.match.play_in_sessions`)."""

    def build(session: int) -> tuple[RingTable, dict[str, np.random.Generator]]:
        bots, rngs = build_bots(config.bots, config.seed, session)
        return RingTable(bots, config.stack, config.small_blind, config.decision_timeout), rngs

    def play(players: tuple[RingTable, dict], index: int) -> dict[str, Any]:
        return play_ring_hand(config, *players, index)

    return play_in_sessions(config, indices, build, play)


def play_ring_hand(
    config: RingConfig, table: RingTable, rngs: dict[str, np.random.Generator], index: int
) -> dict[str, Any]:
    """Hand ``index`` at ``table``: its ``hands.csv`` row."""
    result, deck = ring_hand_result(config, table, rngs, index)
    if config.phh_dir is not None:
        write_hand_phh(config, table, Path(config.phh_dir), index, deck)
    if config.strict:
        for slot, errors in result.errors.items():
            if errors:
                name = player_names(config)[slot]
                raise RingFailure(f"{name} failed in hand {index}: {errors[0]}")
    return ring_row(config, index, index // len(config.bots), result)


def ring_hand_result(
    config: RingConfig, table: RingTable, rngs: dict[str, np.random.Generator], index: int
) -> tuple[HandResult, list[int]]:
    """Hand ``index`` played at ``table``, the generators re-seeded for it, and its deck."""
    players = len(config.bots)
    deal = index // players
    seed = hand_seed(config.seed, deal, index)
    reseed(rngs, seed)
    deck = deal_deck(deal_seed(config.seed, deal), players=players)
    return table.play_seated(deck, config.seat_slots(index), seed), deck


def check_ring_sessions(hands: int, session_hands: int, players: int) -> None:
    """ValueError naming the problem unless sessions hold whole deals and ``hands`` splits
    into whole sessions.

    >>> check_ring_sessions(600, 300, 6)
    >>> check_ring_sessions(600, 250, 6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: session hands (250) must be a positive multiple of 6, ...
    """
    if session_hands <= 0 or session_hands % players:
        raise ValueError(
            f"session hands ({session_hands}) must be a positive multiple of {players}, the"
            " bots: a session plays whole deals, each in every seat rotation"
        )
    check_sessions(hands, session_hands, duplicate=False)


class RingFailure(RuntimeError):
    """A bot's error in a ``strict`` ring game: the run stops there."""


def write_hand_phh(
    config: RingConfig, table: RingTable, folder: Path, index: int, deck: list[int]
) -> None:
    """Write the hand just played as ``<folder>/hand-<index>.phh`` (none for a hand the
    watchdog voided: it has no result)."""
    from arena.phh import hand_record, write_phh

    result = next(iter(table.proxies.values())).last_result
    if result is None:
        return
    round_state = result["round_state"]
    players = len(config.bots)
    holes = seat_holes(deck, players)
    record = hand_record(round_state, [config.stack] * players, holes, 0)
    write_phh(folder / f"hand-{index:07d}.phh", [record])


def ring_row(config: RingConfig, index: int, deal: int, result: Any) -> dict[str, Any]:
    """One ``hands.csv`` row."""
    players = len(config.bots)
    deck = list(result.deck)
    row: dict[str, Any] = {
        "index": index,
        "deal": deal,
        "seats": " ".join(result.seat_slots),
        "holes": " | ".join(cards_text(list(hole)) for hole in seat_holes(deck, players)),
        "board": cards_text(deck[2 * players : 2 * players + 5]),
        "actions": result.actions,
    }
    for slot in config.slots:
        row[f"won_{slot}"] = result.won[slot]
        row[f"illegal_{slot}"] = result.illegal[slot]
        row[f"errors_{slot}"] = len(result.errors[slot])
    row["errors"] = result.logged()
    return row


def ring_columns(config: RingConfig) -> list[str]:
    columns = ["index", "deal", "seats", "holes", "board", "actions"]
    for name in ("won", "illegal", "errors"):
        columns += [f"{name}_{slot}" for slot in config.slots]
    return columns


def typed_row(raw: dict[str, str]) -> dict[str, Any]:
    row: dict[str, Any] = dict(raw)
    for column in raw:
        if column in ("index", "deal") or column.split("_")[0] in ("won", "illegal", "errors"):
            row[column] = int(raw[column])
    return row


def player_names(config: RingConfig) -> dict[str, str]:
    return labels_by_slot(config.bots)


def read_config(out_dir: Path) -> RingConfig:
    """The ring game saved in ``out_dir``; ValueError if there is none or it is foreign."""
    data = read_run_file(out_dir / CONFIG_FILE, "a ring game")
    return RingConfig(**{**data, "bots": tuple(data["bots"])})


def run_ring(
    config: RingConfig,
    out_dir: Path,
    workers: int = 1,
    runner: ChunkRunner = run_local,
    on_progress: Callable[[list[dict[str, Any]]], None] | None = None,
) -> dict[str, Any]:
    """Play every hand not yet in ``out_dir/hands.csv``, then summarise."""
    store = RowsFile(out_dir / HANDS_FILE, ring_columns(config), typed_row)
    if config.session_hands is not None and (out_dir / HANDS_FILE).is_file():
        store.rewrite(whole_sessions(config, store.read()))
    done = play_missing(
        config, out_dir, CONFIG_FILE, store, config.hands, config.task_hands,
        player_names(config), workers, runner, on_progress,
    )  # fmt: skip
    summary = summarize(config, done.rows, done.wall_seconds, done.played)
    for entry in summary["bots"]:
        entry["errors"] = done.errors[entry["name"]]
    write_json(out_dir / SUMMARY_FILE, summary)
    (out_dir / MARKDOWN_FILE).write_text(markdown(summary) + "\n", encoding="utf-8")
    return summary


def summarize(
    config: RingConfig, rows: list[dict[str, Any]], wall_seconds: float, played: int
) -> dict[str, Any]:
    """The ``summary.json`` content: each bot's sb/h with its CI over deals (sessions)."""
    units = np.array([config.unit_of(row["index"]) for row in rows])
    deals = len({row["deal"] for row in rows})
    names = player_names(config)
    bots = []
    luck_free = chance_adjusted_by_slot(rows, config.slots, config.stack)
    for slot, spec in zip(config.slots, config.bots, strict=True):
        chips = np.array([row[f"won_{slot}"] for row in rows], dtype=np.int64)
        stats = match_stats(units, chips, config.small_blind)
        adjusted, adjusted_ci = mean_ci(units, luck_free[slot])
        bots.append({
            "name": names[slot],
            "bot": spec,
            "sb_per_hand": round(stats.sb_per_hand, 4),
            "ci95_sb_per_hand": None if stats.ci95_sb_per_hand is None
            else round(stats.ci95_sb_per_hand, 4),
            "sb_per_hand_chance_adjusted": round(adjusted / config.small_blind, 4),
            "ci95_sb_per_hand_chance_adjusted": None if adjusted_ci is None
            else round(adjusted_ci / config.small_blind, 4),
            "bb_per_100": round(stats.bb_per_100, 3),
            "chips": int(chips.sum()),
            "illegal_actions": int(sum(row[f"illegal_{slot}"] for row in rows)),
        })  # fmt: skip
    lost = -sum(sum(row[f"won_{slot}"] for slot in config.slots) for row in rows)
    unit = "sessions" if config.session_hands else "deals"
    return {
        "hands": len(rows),
        "deals": deals,
        "ci_units": f"{len(set(units.tolist())):,} {unit}",  # Student's t, units - 1 df
        "session_hands": config.session_hands,
        "seed": config.seed,
        "stack": config.stack,
        "small_blind": config.small_blind,
        "bots": bots,
        "chips_lost_to_split_pots": lost,
        "wall_seconds": round(wall_seconds, 3),
        "hands_played_this_run": played,
        "hands_per_second": round(played / wall_seconds, 2) if wall_seconds > 0 else None,
    }


def markdown(summary: dict[str, Any]) -> str:
    """The per-bot table, best first."""
    lines = [
        f"{summary['hands']:,} hands ({summary['deals']:,} deals x {len(summary['bots'])} seat"
        f" rotations), fresh {summary['stack']}-chip stacks, small blind"
        f" {summary['small_blind']}, seed {summary['seed']}"
        + (
            f"; sessions of {summary['session_hands']:,} hands by fresh bots (the CI's unit)"
            if summary.get("session_hands")
            else ""
        ),
        f"95% CIs: Student's t over {summary.get('ci_units', 'the deals')}",
        "",
        "| bot | sb/h | 95% CI | chance-adjusted | bb/100 | errors | illegal |",
        "|---|---|---|---|---|---|---|",
    ]
    for bot in sorted(summary["bots"], key=lambda bot: -bot["sb_per_hand"]):
        ci = bot["ci95_sb_per_hand"]
        lines.append(
            f"| {bot['name']} | {bot['sb_per_hand']:+.3f} | {'n/a' if ci is None else f'±{ci:.3f}'}"
            f" | {adjusted_text(bot)} | {bot['bb_per_100']:+.1f} | {bot.get('errors', 0)}"
            f" | {bot['illegal_actions']} |"
        )
    return "\n".join(lines)


def adjusted_text(bot: dict[str, Any]) -> str:
    """A bot's chance-adjusted sb/h with its CI, or n/a (a summary made before they were)."""
    value = bot.get("sb_per_hand_chance_adjusted")
    if value is None:
        return "n/a"
    ci = bot.get("ci95_sb_per_hand_chance_adjusted")
    return f"{value:+.3f}" + ("" if ci is None else f" ±{ci:.3f}")
