"""Tournament speed: ``arena tournament`` against PyPokerEngine's bare hand rate, in one run.

Prints, measured in this run:

- bare engine: ``start_poker`` six-player tournaments of PyPokerEngine's example always-call
  players, with the arena's default structure (1,000 chips, blinds 10/20 doubling every
  20 hands, antes from level 3), in hands/s of one process;
- the arena with the same six always-callers (one process): its hands/s, and its overhead
  over the bare engine (arena hand time / bare hand time - 1);
- the field (``--field``, by default the README's six: cfrv2, honest, fish, random,
  rule-based, montecarlo): ``--tournaments`` tournaments on ``--workers`` processes, in
  tournaments/s, hands/s, and its per-process hand rate as a share of the bare engine's.

    python -m bench.tournament --tournaments 1000 --workers 2
"""

from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
import time
from pathlib import Path

from pypokerengine.api.game import setup_config, start_poker

from arena.tournament.run import TournamentConfig, run_tournaments
from arena.tournament.structure import doubling_levels, engine_structure

FIELD = "cfrv2,honest,fish,random,rule-based,montecarlo"
STACK, SMALL_BLIND, LEVEL_HANDS, ANTE_FROM = 1000, 10, 20, 3


def levels(players: int) -> tuple:
    return doubling_levels(SMALL_BLIND, LEVEL_HANDS, ANTE_FROM, 1000, chips=players * STACK)


def bare_engine(tournaments: int) -> tuple[int, float]:
    """Hands and seconds of ``start_poker`` tournaments of six always-call example players."""
    from examples.players.fish_player import FishPlayer

    class CountingFish(FishPlayer):
        hands = 0

        def receive_round_start_message(self, round_count, hole_card, seats):
            CountingFish.hands += 1

    structure = engine_structure(levels(6))
    start = time.perf_counter()
    for _ in range(tournaments):
        config = setup_config(max_round=1000, initial_stack=STACK, small_blind_amount=SMALL_BLIND)
        config.set_blind_structure(structure)
        for seat in range(6):
            config.register_player(f"p{seat}", CountingFish())
        with contextlib.redirect_stdout(io.StringIO()):  # its "Blind level update" lines
            start_poker(config, verbose=0)
    return CountingFish.hands // 6, time.perf_counter() - start


def arena_run(bots: tuple[str, ...], tournaments: int, workers: int) -> tuple[dict, float]:
    config = TournamentConfig(bots, tournaments, seed=0, levels=levels(len(bots)))
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        summary = run_tournaments(config, Path(folder), workers=workers)
        return summary, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--field", default=FIELD)
    parser.add_argument("--calibration", type=int, default=60, help="bare/fish tournaments")
    args = parser.parse_args()

    bare_hands, bare_seconds = bare_engine(args.calibration)
    bare_rate = bare_hands / bare_seconds
    fish, fish_seconds = arena_run(("ppe-fish",) * 6, args.calibration, workers=1)
    fish_rate = fish["mean_hands"] * fish["tournaments"] / fish_seconds
    print(f"bare engine, 6 always-callers : {bare_rate:8.0f} hands/s (1 process)")
    print(
        f"arena, 6 always-callers       : {fish_rate:8.0f} hands/s (1 process),"
        f" overhead {bare_rate / fish_rate - 1:+.1%}"
    )
    bots = tuple(args.field.split(","))
    whole = -(-args.tournaments // len(bots)) * len(bots)  # every sequence in every rotation
    summary, seconds = arena_run(bots, whole, args.workers)
    hands = summary["mean_hands"] * summary["tournaments"]
    print(
        f"field {'/'.join(bots)}: {summary['tournaments']} tournaments in {seconds:.1f} s"
        f" on {args.workers} workers = {summary['tournaments'] / seconds:.2f} tournaments/s,"
        f" {hands / seconds:.0f} hands/s ({hands / seconds / args.workers / bare_rate:.2f} x"
        f" the bare engine's rate per process); {summary['mean_hands']:.0f} hands a tournament"
    )
    target = "met" if seconds / summary["tournaments"] * 1000 <= 600 else "missed"
    print(f"target 1,000 tournaments in 10 minutes on 2 cores: {target}")


if __name__ == "__main__":
    main()
