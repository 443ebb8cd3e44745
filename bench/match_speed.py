"""Arena speed against the PyPokerEngine floor, measured in one run.

Prints hands/s of
- floor (start_poker): a bare loop of ``start_poker(max_round=1)`` per hand with two
  always-call players (the naive way to play independent hands; random decks);
- floor (dealer): a bare loop on a reused ``Dealer`` playing the arena's own prepared decks
  with two always-call players (the fastest faithful way to drive the real engine);
- ``arena run fish vs fish`` in this process (one worker) and with ``--workers`` processes,
  through ``run_match`` (hand recording, illegal-action checks, timing, hands.csv, stats);
- optionally a slower pair (``--pair montecarlo:honest``), projected to 100,000 hands.

The overhead figure is arena time per hand / floor (dealer) time per hand - 1, with the same
always-call players (PyPokerEngine's example Fish) on both sides; target <= 20%. Single-process
figures are the best of ``--repeat`` interleaved runs in CPU seconds of this process, which
other jobs on a shared machine disturb far less than wall time.

    python -m bench.match_speed --hands 4000
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from pypokerengine.api.game import setup_config, start_poker
from pypokerengine.engine.dealer import Dealer
from pypokerengine.engine.deck import Deck
from pypokerengine.engine.player import Player
from pypokerengine.engine.table import Table

from arena.match import MatchConfig, default_workers, run_match
from arena.registry import REGISTRY, parse_bot_spec, validate_spec
from arena.seeding import deal_deck, deal_seed


def best_cpu(function, repeat: int) -> float:  # type: ignore[no-untyped-def]
    """The smallest CPU time of ``repeat`` calls of ``function()``."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)


def floor_start_poker(hands: int) -> float:
    """Seconds for ``hands`` fresh ``start_poker`` games of one hand, two always-callers."""
    from examples.players.fish_player import FishPlayer

    players = FishPlayer(), FishPlayer()
    random.seed(0)
    start = time.perf_counter()
    for index in range(hands):
        config = setup_config(max_round=1, initial_stack=1000, small_blind_amount=5)
        first, second = players if index % 2 == 0 else players[::-1]
        config.register_player("a", first)
        config.register_player("b", second)
        start_poker(config, verbose=0)
    return time.perf_counter() - start


def floor_dealer(hands: int, seed: int = 0) -> float:
    """Seconds for the same prepared deals on a reused Dealer, two always-callers, no records."""
    from examples.players.fish_player import FishPlayer

    dealer = Dealer(5, 1000, 0)
    players = FishPlayer(), FishPlayer()
    for number, player in enumerate(players):
        player.set_uuid(f"uuid-{number}")
        dealer.message_handler.register_algorithm(player.uuid, player)
    start = time.perf_counter()
    for index in range(hands):
        table = Table(
            cheat_deck=Deck(cheat=True, cheat_card_ids=deal_deck(deal_seed(seed, index // 2)))
        )
        order = players if index % 2 == 0 else players[::-1]
        for player in order:
            table.seats.sitdown(Player(player.uuid, 1000, player.uuid))
        dealer.table = table
        dealer.start_game(1)
    return time.perf_counter() - start


def arena_seconds(bot_a: str, bot_b: str, hands: int, workers: int) -> float:
    """Wall seconds of the arena's hand loop (``summary.json``'s ``wall_seconds``)."""
    with tempfile.TemporaryDirectory() as folder:
        config = MatchConfig(bot_a, bot_b, hands=hands, seed=0)
        return run_match(config, Path(folder) / "m", workers=workers)["wall_seconds"]


def fish_name() -> str:
    """The registry's ``fish`` when it loads, else PyPokerEngine's example."""
    try:
        validate_spec(parse_bot_spec("fish"))
        return "fish"
    except ValueError:
        return "ppe-fish"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--pair", default=None, help="e.g. montecarlo:honest")
    parser.add_argument("--pair-hands", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    hands = args.hands - args.hands % 2
    fish = fish_name()
    floor_dealer(200)  # warm-up (imports, caches)
    arena_seconds("ppe-fish", "ppe-fish", 200, 1)
    arena_seconds(fish, fish, 200, 1)
    rows = [
        ("floor: start_poker per hand", lambda: floor_start_poker(hands)),
        ("floor: reused Dealer, decks", lambda: floor_dealer(hands)),
        ("arena ppe-fish vs ppe-fish", lambda: arena_seconds("ppe-fish", "ppe-fish", hands, 1)),
        (f"arena {fish} vs {fish}", lambda: arena_seconds(fish, fish, hands, 1)),
    ]
    cpu = {name: best_cpu(function, args.repeat) for name, function in rows}
    print(f"hands: {hands}; {fish} = {REGISTRY[fish][0]}; best of {args.repeat}, CPU seconds")
    for name, seconds in cpu.items():
        print(f"{name:<30} {hands / seconds:8.0f} hands/s  {seconds / hands * 1e3:.3f} ms/hand")
    floor, arena = cpu["floor: reused Dealer, decks"], cpu["arena ppe-fish vs ppe-fish"]
    print(f"arena overhead over the Dealer floor: {arena / floor - 1:+.1%} (target <= +20%)")
    print(f"arena vs the start_poker floor: {arena / cpu['floor: start_poker per hand'] - 1:+.1%}")
    many = arena_seconds(fish, fish, hands, args.workers)
    print(f"arena {fish} vs {fish}, {args.workers} workers: {hands / many:.0f} hands/s (wall)")
    if args.pair:
        bot_a, bot_b = args.pair.split(":")
        pair_hands = args.pair_hands - args.pair_hands % 2
        slow = arena_seconds(bot_a, bot_b, pair_hands, args.workers)
        fast = arena_seconds(fish, fish, pair_hands, args.workers)
        print(
            f"{bot_a} vs {bot_b}, {args.workers} workers: {pair_hands / slow:.0f} hands/s, "
            f"{slow / fast:.2f}x fish vs fish (target <= 2.5x), "
            f"100,000 hands in {slow / pair_hands * 1e5 / 60:.1f} min (target <= 10)"
        )


if __name__ == "__main__":
    main()
