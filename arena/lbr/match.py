"""A local best response match: LBR against one bot, played and recorded by the arena.

The hands are the arena's (:mod:`arena.match`): the same seeded decks, duplicate deals, seat
rotation (LBR is slot A), worker processes in fixed chunks or in sessions of fresh bots
(``session_hands``), ``hands.csv`` and ``summary.json``. Only the players differ: slot A is
an :class:`arena.lbr.player.LBRPlayer` reading a model of the bot (Lisy & Bowling 2017,
"Equilibrium Approximation Quality of Current No-Limit Poker Bots"): a copy of the bot that
is sent every message the bot is sent. The summary adds ``lbr_bets``, the model, LBR's
winnings in mbb/g with their 95% interval, and LBR's decision time per street.

LBR's figure is only as good as its model of the bot: if the copy it reads does not play as
the bot does (a learning bot read through a table that ignores what it learned, a real-time
solver whose copy solves something else, a sampled policy), LBR tracks a wrong range and
its winnings understate what a best response would win. So every hand is checked after it
is played: the bot's real cards must still be in LBR's range, and every bot action must have
had a positive probability under some holding (:func:`model_kept_bot_hand`). The result goes
to ``model_check.csv`` and the summary counts the hands where the model failed
(``lbr_model_lost_hands`` of ``lbr_model_checked_hands``); ``arena lbr`` warns when any did.

An exception inside LBR (its valuation, its range, or the model copy it reads) folds LBR's
hand, as the arena folds for any failing seat: a bias toward the bot. Such errors are LBR's
own, counted apart from the bot's (``lbr_errors`` and ``bot_errors`` in the summary, each
error in ``errors.csv`` under slot A or B); the model copy's failures are moved to slot A.
With ``strict`` the run stops at the first error of either side.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from agent.boundary.snapshot import CHOICE_KINDS
from agent.poker.cards import parse_cards
from agent.poker.range_equity import holding_index
from arena.engine import BotWithCopies, HeadsUpTable
from arena.lbr.player import DEFAULT_BETS, Bet, LBRPlayer, ModelSeat, bets_text, parse_bets
from arena.lbr.range import Range
from arena.match import (
    BotFailure,
    ChunkRunner,
    MatchConfig,
    adjusted_stats,
    play_hand,
    play_in_sessions,
    player_names,
    portable_spec,
    rows_stats,
    run_local,
    run_match,
)
from arena.registry import accepted_seed_keyword, make_bot, parse_bot_spec, resolve_factory
from arena.results import (
    HANDS_FILE,
    SUMMARY_FILE,
    read_hands,
    read_match_file,
    read_run_file,
    write_json,
    write_run_file,
)
from arena.seeding import (
    bot_seed,
    lbr_model_seed,
    lbr_seed,
    session_bot_seed,
)
from arena.stats import percentiles

LBR_LABEL = "lbr"
LBR_FILE = "lbr.json"  # LBR's settings, beside match.json, so that a run can be resumed
MODEL_CHECK_FILE = "model_check.csv"  # per hand: did LBR's model keep the bot's real cards


@dataclass(frozen=True)
class LBRConfig:
    """What LBR plays with: bet sizes, the bot's model and the sizes of its estimates."""

    bot: str
    bets: tuple[Bet, ...] = DEFAULT_BETS
    model: str | None = None  # the spec LBR reads the policy from (default: the bot's)
    policy_samples: int = 8
    preflop_samples: int = 1000
    value: str = "continuing"  # how a called bet is valued: "continuing" or "whole"
    rounds: str = "1-4"  # the rounds where LBR chooses: "1-4" or "3-4"

    @property
    def model_spec(self) -> str:
        return self.model or self.bot


@dataclass(frozen=True)
class LBRSettings:
    """:class:`LBRConfig` as saved in ``lbr.json`` (bet sizes spelled as text)."""

    bot: str
    bets: str
    model: str | None
    policy_samples: int
    preflop_samples: int
    value: str
    rounds: str

    def config(self) -> LBRConfig:
        return LBRConfig(
            self.bot,
            parse_bets(self.bets),
            self.model,
            self.policy_samples,
            self.preflop_samples,
            self.value,
            self.rounds,
        )


def write_lbr_file(out_dir: Path, lbr: LBRConfig) -> None:
    """Record LBR's settings in ``out_dir``, so that ``arena lbr --resume`` can finish the run."""
    fields = (lbr.bot, bets_text(lbr.bets), lbr.model, lbr.policy_samples, lbr.preflop_samples)
    write_run_file(out_dir / LBR_FILE, LBRSettings(*fields, lbr.value, lbr.rounds))


def read_lbr_run(out_dir: Path) -> tuple[LBRConfig, MatchConfig]:
    """The LBR settings and match of a run folder; ValueError naming what is missing.

    A run finished before ``lbr.json`` existed has its settings in ``summary.json``.
    """
    match = MatchConfig(**read_match_file(out_dir))
    if match.bot_a != LBR_LABEL:
        raise ValueError(f"{str(out_dir)!r} holds {match.bot_a} vs {match.bot_b}, not an LBR run")
    if (out_dir / LBR_FILE).is_file():
        saved = LBRSettings(**read_run_file(out_dir / LBR_FILE, "a local best response"))
        return saved.config(), match
    summary_path = out_dir / SUMMARY_FILE
    summary = json.loads(summary_path.read_text()) if summary_path.is_file() else {}
    if "lbr_bets" not in summary:
        raise ValueError(f"{str(out_dir)!r} holds no {LBR_FILE}: LBR's settings are unknown")
    model = summary["lbr_model"] if summary["lbr_model"] != match.bot_b else None
    saved = LBRSettings(
        match.bot_b,
        summary["lbr_bets"],
        model,
        summary["lbr_policy_samples"],
        summary["lbr_preflop_samples"],
        summary["lbr_value"],
        summary["lbr_rounds"],
    )
    return saved.config(), match


def match_config(
    lbr: LBRConfig,
    hands: int,
    seed: int,
    duplicate: bool = True,
    session_hands: int | None = None,
    stack: int = 1000,
    strict: bool = False,
) -> MatchConfig:
    """The arena configuration of an LBR match (LBR in slot A), ``stack`` chips deep."""
    return MatchConfig(
        LBR_LABEL,
        lbr.bot,
        hands=hands,
        seed=seed,
        duplicate=duplicate,
        stack=stack,
        session_hands=session_hands,
        strict=strict,
    )


@dataclass
class LBRContestants:
    """LBR, the bot and their reusable table inside one process, with the generators the
    arena re-seeds before every hand (LBR's in slot A, the bot's in B if it takes one)."""

    table: HeadsUpTable
    lbr: LBRPlayer
    rngs: dict[str, np.random.Generator]
    model_errors: list[str]  # the model copy's failures in the current hand (LBR's own)


_CACHE: dict[tuple[LBRConfig, MatchConfig], LBRContestants] = {}


def contestants(lbr: LBRConfig, config: MatchConfig) -> LBRContestants:
    """Build (once per process) LBR, its model and the bot, on a reusable table."""
    cached = _CACHE.get((lbr, config))
    if cached is not None:
        return cached
    built = fresh_contestants(lbr, config)
    _CACHE.clear()
    _CACHE[(lbr, config)] = built
    return built


def fresh_contestants(
    lbr: LBRConfig, config: MatchConfig, session: int | None = None
) -> LBRContestants:
    """A new LBR, bot and model copy: for the whole match, or for session (pair) ``session``.

    The bot is seeded as slot B of an arena match (:func:`arena.match.build_bots`); the copy
    LBR reads the policy from is built from its own seed (and the session's), and seated as
    a copy of the bot, so it is sent every message the bot is sent, under the bot's uuid
    (:class:`arena.engine.BotWithCopies`): a bot that learns teaches its copy the same.
    """
    spec = parse_bot_spec(lbr.bot)
    seed_of_bot = (
        bot_seed(config.seed, 1) if session is None else session_bot_seed(config.seed, session, 1)
    )
    rngs: dict[str, np.random.Generator] = {}
    if accepted_seed_keyword(resolve_factory(spec)) == "rng":
        rngs["B"] = np.random.default_rng(seed_of_bot)
    bot = make_bot(spec, rng=rngs.get("B"), seed=seed_of_bot)
    model = make_bot(parse_bot_spec(lbr.model_spec), seed=lbr_model_seed(config.seed, session))
    player = LBRPlayer(
        model,
        lbr.bets,
        seed=lbr_seed(config.seed),
        policy_samples=lbr.policy_samples,
        preflop_samples=lbr.preflop_samples,
        value=lbr.value,
        rounds=lbr.rounds,
    )
    rngs["A"] = player.rng
    model_errors: list[str] = []
    table = lbr_table(player, bot, config.stack, config.small_blind, model_errors)
    return LBRContestants(table, player, rngs, model_errors)


def lbr_table(
    player: LBRPlayer,
    bot: Any,
    stack: int = 1000,
    small_blind: int = 5,
    model_errors: list[str] | None = None,
) -> HeadsUpTable:
    """LBR in slot A against ``bot`` in B, with LBR's model seated as a copy of the bot; with
    ``model_errors`` a list, the copy's failures go there, not to the bot's seat."""
    seated = BotWithCopies(bot, (ModelSeat(player.model),), copy_errors=model_errors)
    return HeadsUpTable({"A": player, "B": seated}, stack, small_blind)


def play_lbr_hands(lbr: LBRConfig, config: MatchConfig, indices: list[int]) -> list[dict[str, Any]]:
    """Play the given hands of an LBR match and return their ``hands.csv`` rows; with
    sessions, each session by a fresh LBR, bot and model copy (:func:`play_in_sessions`)."""
    if config.session_hands is not None:
        build = partial(fresh_contestants, lbr, config)
        return play_in_sessions(config, indices, build, partial(play_checked_hand, config))
    players = contestants(lbr, config)
    return [play_checked_hand(config, players, index) for index in indices]


def play_checked_hand(config: MatchConfig, players: LBRContestants, index: int) -> dict[str, Any]:
    """Hand ``index``'s row (:func:`arena.match.play_hand`), with ``lbr_model_kept``: whether
    LBR's model of the bot allowed what the bot did with its real cards. The model copy's
    failures are LBR's errors (slot A); ``strict`` stops at the first (BotFailure)."""
    players.model_errors.clear()
    row = play_hand(config, players, index)
    if players.model_errors:
        errors = row.setdefault("errors", {})
        errors["A"] = [*errors.get("A", []), *players.model_errors]
        if config.strict:
            raise BotFailure(f"{LBR_LABEL} failed in hand {index}: {players.model_errors[0]}")
    row["lbr_model_kept"] = model_kept_bot_hand(players.lbr.range, bot_hole(row))
    return row


def bot_hole(row: dict[str, Any]) -> list[int]:
    """The bot's (slot B's) hole cards in a hand's row.

    >>> bot_hole({"seats": "B A", "hole_seat0": "Ah Kd", "hole_seat1": "2c 2d"})
    [50, 45]
    """
    seat = row["seats"].split().index("B")
    return parse_cards(row[f"hole_seat{seat}"].split())


def model_kept_bot_hand(hand_range: Range, hole: Sequence[int]) -> bool:
    """Whether a hand's final range still holds the bot's real ``hole`` and no bot action was
    impossible under every holding (:attr:`Range.misses`): if not, LBR's model of the bot
    gave what the bot did probability 0."""
    weight = hand_range.weights[holding_index(hole[0], hole[1])]
    return bool(weight > 0.0 and hand_range.misses == 0)


@dataclass(frozen=True)
class LBRRun:
    """An LBR match as a run the arena's chunk runners play: ``play(task)`` plays its hands
    (:func:`play_lbr_hands`) in whatever process, local worker or Ray task, runs it."""

    lbr: LBRConfig
    config: MatchConfig

    def play(self, indices: list[int]) -> list[dict[str, Any]]:
        return play_lbr_hands(self.lbr, self.config, indices)


def lbr_runner(
    lbr: LBRConfig, out_dir: Path | None = None, runner: ChunkRunner = run_local
) -> ChunkRunner:
    """A chunk runner for :func:`arena.match.run_match` that plays LBR hands through
    ``runner`` (local processes, or :func:`arena.ray_backend.ray_runner`); with ``out_dir``,
    each batch's model checks are appended to its ``model_check.csv``."""

    def run(
        config: MatchConfig, tasks: list[list[int]], workers: int
    ) -> Iterator[list[dict[str, Any]]]:
        for rows in runner(LBRRun(lbr, config), tasks, workers):
            if out_dir is not None:
                append_model_checks(out_dir / MODEL_CHECK_FILE, rows)
            yield rows

    return run


def append_model_checks(path: Path, rows: list[dict[str, Any]]) -> None:
    """Append ``index,kept`` lines (a hand played again on resume is appended again)."""
    new = not path.exists()
    with path.open("a", encoding="utf-8") as handle:
        if new:
            handle.write("index,kept\n")
        handle.writelines(f"{row['index']},{int(row['lbr_model_kept'])}\n" for row in rows)


def model_check_counts(out_dir: Path, indices: Iterable[int]) -> tuple[int, int]:
    """(hands checked, hands whose real cards LBR's model lost) among ``indices``; a run
    made before the check has no file and counts (0, 0)."""
    path = out_dir / MODEL_CHECK_FILE
    if not path.exists():
        return 0, 0
    kept: dict[int, bool] = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        index, _, flag = line.partition(",")
        if index.isdigit() and flag in ("0", "1"):
            kept[int(index)] = flag == "1"  # the last check of a hand played again wins
    checked = [kept[index] for index in indices if index in kept]
    return len(checked), checked.count(False)


def decisions_by_street(rows: list[dict[str, Any]], slot: str = "A") -> dict[str, list[float]]:
    """Each decision time of ``slot`` (ms), grouped by the street the engine recorded it on.

    >>> row = {"actions": "preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:CALL:10 A:CALL:10;"
    ...        "flop=B:CALL:0 A:RAISE:20 B:FOLD:0", "decision_ms_A": [1.0, 2.0]}
    >>> decisions_by_street([row])
    {'preflop': [1.0], 'flop': [2.0]}
    """
    found: dict[str, list[float]] = {}
    for row in rows:
        streets = []
        for part in row["actions"].split(";"):
            street, _, moves = part.partition("=")
            for move in moves.split():
                who, action, _ = move.split(":")
                if who == slot and action in CHOICE_KINDS:
                    streets.append(street)
        for street, ms in zip(streets, row[f"decision_ms_{slot}"], strict=False):
            found.setdefault(street, []).append(ms)
    return found


def run_lbr(
    lbr: LBRConfig,
    hands: int,
    seed: int,
    out_dir: Path,
    workers: int = 1,
    duplicate: bool = True,
    on_progress: Callable[[int, Any], None] | None = None,
    session_hands: int | None = None,
    stack: int = 1000,
    strict: bool = False,
    runner: ChunkRunner = run_local,
) -> dict[str, Any]:
    """Play an LBR match into ``out_dir`` and return its summary (written as summary.json).

    With ``session_hands`` the match is played in sessions as :mod:`arena.match` plays them:
    each session (and its mirror) by a fresh bot and model copy, CIs over session pairs, a
    session cut short played again from its first hand when the match is run again. With
    ``strict`` the first error of LBR or of the bot stops the run (BotFailure). ``runner``
    plays the tasks of hands: in local processes, or on Ray (:mod:`arena.ray_backend`); the
    hands are the same with either.
    """
    lbr = replace(
        lbr, bot=portable_spec(lbr.bot), model=portable_spec(lbr.model) if lbr.model else None
    )
    config = match_config(lbr, hands, seed, duplicate, session_hands, stack, strict)
    out_dir.mkdir(parents=True, exist_ok=True)
    write_lbr_file(out_dir, lbr)
    summary = run_match(
        config, out_dir, workers, runner=lbr_runner(lbr, out_dir, runner), on_progress=on_progress
    )
    rows = read_hands(out_dir / HANDS_FILE)
    checked, lost = model_check_counts(out_dir, (row["index"] for row in rows))
    ci = summary["ci95_sb_per_hand"]
    names = player_names(config)
    summary.update(
        {
            "lbr_errors": summary["errors"][names["A"]],
            "bot_errors": summary["errors"][names["B"]],
            "big_blinds_deep": config.stack / (2 * config.small_blind),
            "lbr_ci95_mbb_per_hand_by_deal": deal_ci95_mbb(config, rows),
            "lbr_chance_adjusted_ci95_mbb_per_hand_by_deal": mbb_ci(
                adjusted_stats(config, rows, config.deal_of)[1]
            ),
            "lbr_bets": bets_text(lbr.bets),
            "lbr_model": lbr.model_spec,
            "lbr_value": lbr.value,
            "lbr_rounds": lbr.rounds,
            "lbr_policy_samples": lbr.policy_samples,
            "lbr_preflop_samples": lbr.preflop_samples,
            "lbr_mbb_per_hand": summary["mbb_per_hand"],
            "lbr_ci95_mbb_per_hand": mbb_ci(ci),
            "lbr_model_checked_hands": checked,
            "lbr_model_lost_hands": lost,
            "lbr_decision_ms_by_street": {
                street: percentiles(ms) | {"decisions": len(ms)}
                for street, ms in decisions_by_street(rows).items()
            },
        }
    )
    write_json(out_dir / SUMMARY_FILE, summary)
    return summary


def deal_ci95_mbb(config: MatchConfig, rows: list[dict[str, Any]]) -> float | None:
    """LBR's 95% CI half-width in mbb/g with each duplicate deal one unit, even in sessions.

    Valid for a bot that does not learn from hand to hand, and far narrower than the CI
    over session pairs when a run has only a few (the unit of ``python -m
    arena.lbr.report`` and of ``arena compare --by deal``); for a bot that learns within a
    session, the session pairs' CI is the honest one.
    """
    return mbb_ci(rows_stats(config, rows, config.deal_of).ci95_sb_per_hand)


def mbb_ci(ci_sb_per_hand: float | None) -> float | None:
    """A CI half-width in sb/h as mbb/g (a big blind of two small blinds)."""
    return None if ci_sb_per_hand is None else ci_sb_per_hand * 500.0
