"""A reproducible run of sit-and-go tournaments: the schedule, workers, resume.

Tournament ``i`` plays card sequence ``i // N`` in seat rotation ``i % N`` (N bots): every
sequence is played once in each rotation, so each bot plays each seat's cards once and seat
and card luck cancel, like the duplicate hands of ``arena run``. Hand ``h`` of a sequence is
dealt the same cards in every rotation (:func:`arena.seeding.tournament_deal_seed`); the
hands diverge only as the players' decisions do. ``--tournaments`` counts tournaments played,
so it is a multiple of N.

Each tournament is one unit of work, seeded by its index alone, and a worker plays all the
rotations of one sequence: the same seed gives the same tournaments for any number of
workers and either backend. Every tournament is played by fresh bots, so one that learns
from hand to hand starts each tournament knowing nothing; they are built from the seed of
the card sequence (:func:`arena.seeding.session_bot_seed`), alike in every rotation. Rows
are appended to ``tournaments.csv`` as they finish, so an interrupted run resumes where it
stopped with the same result as an uninterrupted one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from arena.engine import (
    MAX_SEATS,
    SeatProxy,
    ring_slots,
    rotated,
    seat_holes,
    seat_proxies,
    seed_global_generators,
)
from arena.legal import ILLEGAL_PREFIX
from arena.match import ChunkRunner, build_bots, reseed, run_local
from arena.results import read_run_file
from arena.resumable import play_missing
from arena.roundrobin import labels_by_slot
from arena.rows_file import RowsFile
from arena.seeding import deal_deck, tournament_deal_seed, tournament_hand_seed
from arena.tournament.dealer import TournamentDealer, play_tournament
from arena.tournament.places import prizes
from arena.tournament.structure import Level, default_payouts

CONFIG_FILE = "tournament.json"
TOURNAMENTS_FILE = "tournaments.csv"


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that determines a run's tournaments (not how fast they are played)."""

    bots: tuple[str, ...]
    tournaments: int
    seed: int = 0
    stack: int = 1000
    levels: tuple[Level, ...] = ((1, 10, 0),)
    max_round: int = 1000
    payouts: tuple[float, ...] = field(default=())  # percent of the pool; () = by field size
    decision_timeout: float | None = None
    strict: bool = False
    phh_dir: str | None = None  # a folder for one PHH file per tournament

    def __post_init__(self) -> None:
        players = len(self.bots)
        if not 2 <= players <= MAX_SEATS:
            raise ValueError(f"a tournament seats 2 to {MAX_SEATS} bots, got {players}")
        if self.tournaments <= 0 or self.tournaments % players:
            raise ValueError(
                f"tournaments must be a positive multiple of {players} (each card sequence"
                f" is played in all {players} seat rotations), got {self.tournaments}"
            )
        if not self.levels or self.levels[0][0] != 1:
            raise ValueError("the blind structure must start at hand 1")
        _, blind, ante = self.levels[0]
        if self.stack < 2 * blind + ante:
            raise ValueError(f"stack {self.stack} must cover a big blind of {2 * blind} chips")
        if self.max_round <= 0:
            raise ValueError(f"max round must be positive, got {self.max_round}")
        if len(self.payouts) > players:
            raise ValueError(f"payouts pay {len(self.payouts)} places, only {players} play")
        if self.decision_timeout is not None and not self.decision_timeout > 0:
            raise ValueError(f"decision timeout must be positive, got {self.decision_timeout}")

    @property
    def slots(self) -> tuple[str, ...]:
        return ring_slots(len(self.bots))

    @property
    def paid(self) -> tuple[float, ...]:
        """The payouts in force: the given ones, or the usual ones for the field size."""
        return self.payouts or default_payouts(len(self.bots))

    def deal_of(self, index: int) -> int:
        return index // len(self.bots)

    def seat_slots(self, index: int) -> tuple[str, ...]:
        """The slot in each seat in tournament ``index``: rotation ``index % N``."""
        return rotated(self.slots, index)

    def play(self, indices: list[int]) -> list[dict[str, Any]]:
        """Play the given tournaments (any order, any process) and return their rows."""
        return play_tournaments(self, indices)


@dataclass
class Field:
    """The bots of one tournament, behind their seat proxies."""

    proxies: dict[str, SeatProxy]
    rngs: dict[str, np.random.Generator]


def seated_field(config: TournamentConfig, index: int) -> Field:
    """Fresh bots for tournament ``index``, built from the seed of its card sequence."""
    bots, rngs = build_bots(config.bots, config.seed, session=config.deal_of(index))
    return Field(seat_proxies(bots, config.decision_timeout), rngs)


def play_tournaments(config: TournamentConfig, indices: list[int]) -> list[dict[str, Any]]:
    """The ``tournaments.csv`` rows of tournaments ``indices``, each with fresh bots."""
    rows = []
    for index in indices:
        record, hands = play_one(config, seated_field(config, index), index)
        row = tournament_row(config, index, record)
        rows.append(row)
        if config.phh_dir is not None:
            from arena.phh import write_phh

            write_phh(Path(config.phh_dir) / f"tournament-{index:06d}.phhs", hands)
        if config.strict:
            stop_at_first_error(config, index, row)
    return rows


def play_one(config: TournamentConfig, field_: Field, index: int) -> tuple[Any, list]:
    """Play tournament ``index``: its record, and its hands' PHH records if asked for."""
    deal, rotation = config.deal_of(index), index % len(config.bots)
    players = len(config.bots)
    hands: list = []

    def setup_hand(hand: int) -> list[int]:
        seed = tournament_hand_seed(config.seed, deal, rotation, hand)
        seed_global_generators(seed)
        reseed(field_.rngs, seed)
        return deal_deck(tournament_deal_seed(config.seed, deal, hand), players=players)

    observe = None
    if config.phh_dir is not None:
        observe = phh_observer(hands, config, index)
    dealer = TournamentDealer(
        field_.proxies, config.seat_slots(index), config.stack, config.levels, setup_hand, observe
    )
    return play_tournament(dealer, config.max_round), hands


def phh_observer(hands: list, config: TournamentConfig, index: int) -> Callable:
    """A hand observer that keeps each hand's PHH record."""
    from arena.phh import hand_record

    def observe(hand: int, result: Any, round_state: dict, before: list[int]) -> None:
        deck = result.deck
        holes = seat_holes(deck, len(before))
        ante = level_at(config.levels, hand)[2]
        hands.append(hand_record(round_state, before, holes, ante))

    return observe


def level_at(levels: Sequence[Level], hand: int) -> Level:
    """The level in force at hand ``hand``."""
    return [level for level in levels if level[0] <= hand][-1]


def tournament_row(config: TournamentConfig, index: int, record: Any) -> dict[str, Any]:
    """One ``tournaments.csv`` row (by slot, whatever seat the slot sat in)."""
    seats = record.seat_slots
    prize = prizes(record.places, config.paid)
    out_hand = {e.seat: e.hand for e in record.eliminations}
    row: dict[str, Any] = {
        "index": index,
        "deal": config.deal_of(index),
        "rotation": index % len(config.bots),
        "seats": " ".join(seats),
        "hands": record.hands,
        "finished": int(record.finished),
        "forfeited_chips": record.forfeited,
        "split_chips_lost": record.split_lost,
    }
    for seat, slot in enumerate(seats):
        row[f"place_{slot}"] = record.places[seat]
        row[f"prize_{slot}"] = prize[seat]
        row[f"stack_{slot}"] = record.final_stacks[seat]
        row[f"out_hand_{slot}"] = out_hand.get(seat, "")
        row[f"illegal_{slot}"] = record.illegal[slot]
        row[f"errors_{slot}"] = len(record.errors[slot])
    logged = {
        slot: [*errors, *(ILLEGAL_PREFIX + note for note in record.illegal_notes.get(slot, ()))]
        for slot, errors in record.errors.items()
    }
    row["errors"] = {slot: lines for slot, lines in logged.items() if lines}
    return row


def tournament_columns(config: TournamentConfig) -> list[str]:
    """The columns of ``tournaments.csv``; the last is never empty in a whole row."""
    columns = ["index", "deal", "rotation", "seats", "hands", "finished"]
    columns += ["forfeited_chips", "split_chips_lost"]
    for name in ("place", "prize", "stack", "out_hand", "illegal", "errors"):
        columns += [f"{name}_{slot}" for slot in config.slots]
    return columns


def typed_row(raw: dict[str, str]) -> dict[str, Any]:
    """A read row with its numbers as numbers."""
    row: dict[str, Any] = dict(raw)
    for column, text in raw.items():
        if column == "seats" or column is None:
            continue
        if column.startswith("prize_"):
            row[column] = float(text)
        elif text != "":
            row[column] = int(text)
    return row


class TournamentFailure(RuntimeError):
    """A bot's error in a ``strict`` run: the run stops there."""


def stop_at_first_error(config: TournamentConfig, index: int, row: dict[str, Any]) -> None:
    for slot, lines in row["errors"].items():
        errors = [line for line in lines if not line.startswith(ILLEGAL_PREFIX)]
        if errors:
            name = player_names(config)[slot]
            raise TournamentFailure(f"{name} failed in tournament {index}, {errors[0]}")


def player_names(config: TournamentConfig) -> dict[str, str]:
    """Display names by slot, numbered when two bots share a label."""
    return labels_by_slot(config.bots)


def read_config(out_dir: Path) -> TournamentConfig:
    """The run saved in ``out_dir``; ValueError if there is none or it is foreign."""
    data = read_run_file(out_dir / CONFIG_FILE, "a tournament run")
    data["bots"] = tuple(data["bots"])
    data["levels"] = tuple(tuple(level) for level in data["levels"])
    data["payouts"] = tuple(data["payouts"])
    return TournamentConfig(**data)


def run_tournaments(
    config: TournamentConfig,
    out_dir: Path,
    workers: int = 1,
    runner: ChunkRunner = run_local,
    on_progress: Callable[[list[dict[str, Any]]], None] | None = None,
) -> dict[str, Any]:
    """Play every tournament not yet in ``out_dir``, then write the report; the summary."""
    from arena.tournament.report import write_report

    store = RowsFile(out_dir / TOURNAMENTS_FILE, tournament_columns(config), typed_row)
    done = play_missing(
        config, out_dir, CONFIG_FILE, store, config.tournaments, len(config.bots),
        player_names(config), workers, runner, on_progress,
    )  # fmt: skip
    return write_report(out_dir, config, done.rows, done.errors, done.wall_seconds, done.played)
