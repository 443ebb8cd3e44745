"""A local best response match: LBR against one bot, played and recorded by the arena.

The hands are the arena's (:mod:`arena.match`): the same seeded decks, duplicate deals, seat
rotation (LBR is slot A), worker processes in fixed chunks, ``hands.csv`` and
``summary.json``. Only the players differ: slot A is an :class:`arena.lbr.player.LBRPlayer`
reading a model of the bot (Lisy & Bowling 2017, "Equilibrium Approximation Quality of
Current No-Limit Poker Bots"). The summary adds ``lbr_bets``, the model, LBR's winnings in
mbb/g with their 95% interval, and LBR's decision time per street.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from arena.engine import HeadsUpTable
from arena.lbr.player import DEFAULT_BETS, Bet, LBRPlayer, bets_text
from arena.match import MatchConfig, portable_spec, run_match, run_tasks
from arena.registry import accepted_seed_keyword, make_bot, parse_bot_spec, resolve_factory
from arena.results import HANDS_FILE, SUMMARY_FILE, hand_row, read_hands, write_json
from arena.seeding import (
    bot_seed,
    deal_deck,
    deal_seed,
    hand_seed,
    lbr_model_seed,
    lbr_seed,
    seat_seed,
)
from arena.stats import percentiles

LBR_LABEL = "lbr"
_RECORDED = ("CALL", "RAISE", "FOLD")


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


def match_config(lbr: LBRConfig, hands: int, seed: int, duplicate: bool = True) -> MatchConfig:
    """The arena configuration of an LBR match (LBR in slot A)."""
    return MatchConfig(LBR_LABEL, lbr.bot, hands=hands, seed=seed, duplicate=duplicate)


@dataclass
class LBRContestants:
    """LBR, the bot and their reusable table inside one process."""

    table: HeadsUpTable
    lbr: LBRPlayer
    bot_rng: np.random.Generator | None


_CACHE: dict[tuple[LBRConfig, MatchConfig], LBRContestants] = {}


def contestants(lbr: LBRConfig, config: MatchConfig) -> LBRContestants:
    """Build (once per process) LBR, its model and the bot, on a reusable table."""
    cached = _CACHE.get((lbr, config))
    if cached is not None:
        return cached
    spec = parse_bot_spec(lbr.bot)
    seed_of_bot = bot_seed(config.seed, 1)
    bot_rng = None
    if accepted_seed_keyword(resolve_factory(spec)) == "rng":
        bot_rng = np.random.default_rng(seed_of_bot)
    bot = make_bot(spec, rng=bot_rng, seed=seed_of_bot)
    model = make_bot(parse_bot_spec(lbr.model_spec), seed=lbr_model_seed(config.seed))
    player = LBRPlayer(
        model,
        lbr.bets,
        seed=lbr_seed(config.seed),
        policy_samples=lbr.policy_samples,
        preflop_samples=lbr.preflop_samples,
        value=lbr.value,
        rounds=lbr.rounds,
    )
    built = LBRContestants(
        HeadsUpTable({"A": player, "B": bot}, config.stack, config.small_blind), player, bot_rng
    )
    _CACHE.clear()
    _CACHE[(lbr, config)] = built
    return built


def play_lbr_hands(lbr: LBRConfig, config: MatchConfig, indices: list[int]) -> list[dict[str, Any]]:
    """Play the given hands of an LBR match and return their ``hands.csv`` rows."""
    players = contestants(lbr, config)
    rows = []
    for index in indices:
        deal = config.deal_of(index)
        cards_seed = deal_seed(config.seed, deal)
        seed = hand_seed(config.seed, deal, index)
        players.lbr.rng = np.random.default_rng(seat_seed(seed, 0))
        if players.bot_rng is not None:
            players.bot_rng.bit_generator.state = np.random.PCG64(seat_seed(seed, 1)).state
        result = players.table.play(deal_deck(cards_seed), config.button_of(index), seed)
        rows.append(hand_row(index, deal, cards_seed, result))
    return rows


def lbr_runner(
    lbr: LBRConfig,
) -> Callable[[MatchConfig, list[list[int]], int], Iterator[list[dict[str, Any]]]]:
    """A chunk runner for :func:`arena.match.run_match` that plays LBR hands."""

    def run(
        config: MatchConfig, tasks: list[list[int]], workers: int
    ) -> Iterator[list[dict[str, Any]]]:
        return run_tasks(partial(play_lbr_hands, lbr, config), tasks, workers)

    return run


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
                if who == slot and action in _RECORDED:
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
) -> dict[str, Any]:
    """Play an LBR match into ``out_dir`` and return its summary (written as summary.json)."""
    lbr = replace(
        lbr, bot=portable_spec(lbr.bot), model=portable_spec(lbr.model) if lbr.model else None
    )
    config = match_config(lbr, hands, seed, duplicate)
    summary = run_match(config, out_dir, workers, runner=lbr_runner(lbr), on_progress=on_progress)
    rows = read_hands(out_dir / HANDS_FILE)
    ci = summary["ci95_sb_per_hand"]
    summary.update(
        {
            "lbr_bets": bets_text(lbr.bets),
            "lbr_model": lbr.model_spec,
            "lbr_value": lbr.value,
            "lbr_rounds": lbr.rounds,
            "lbr_policy_samples": lbr.policy_samples,
            "lbr_preflop_samples": lbr.preflop_samples,
            "lbr_mbb_per_hand": summary["mbb_per_hand"],
            "lbr_ci95_mbb_per_hand": None if ci is None else ci * 500.0,  # sb/h -> mbb/h
            "lbr_decision_ms_by_street": {
                street: percentiles(ms) | {"decisions": len(ms)}
                for street, ms in decisions_by_street(rows).items()
            },
        }
    )
    write_json(out_dir / SUMMARY_FILE, summary)
    return summary
