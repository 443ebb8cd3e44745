"""What a fresh install waits for: CFRv2Player's load and first decisions with numba's cache empty.

Run ``python -m bench.fresh_install [--hands 50] [--stack 1000] [--opponent honest]
[--warm-up player]``.
Every measurement runs in a new Python process whose ``NUMBA_CACHE_DIR`` is a new, empty
folder, as on a machine where nothing has been compiled yet:

1. the ceiling: the import, ``CFRv2Player()``, then each step of
   :func:`blueprint.subgame.warmup.warm_up` (the ground floor's kernels, then a
   one-iteration river and turn subgame solve), timed one by one (each step's time is the
   compilation of the kernels it is first to use); then the same steps in a second process
   on the cache the first one filled (loads only);
2. a game: ``start_poker`` with CFRv2Player against ``--opponent`` (a registry name, built
   without the arena's compilation, or ``examples-honest`` for PyPokerEngine's example
   HonestPlayer), every ``declare_action`` of CFRv2Player timed. ``--warm-up player`` leaves
   the cold cache to the player, which compiles in a separate process and plays without the
   kernels until it ends (:mod:`agent.players.rules.compiling`); ``--warm-up first`` runs
   ``arena warmup`` (the same warm-up, to its end) in a process of its own on the empty cache
   before the game starts, as a user does once after installing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CEILING = """
import json, time, warnings
times = {}
start = time.perf_counter()
from agent import CFRv2Player
times["import"] = time.perf_counter() - start
from blueprint.subgame import warmup
warmup.warm_up_in_background = lambda: None  # the player compiles nothing aside: the steps do
warnings.simplefilter("ignore")
start = time.perf_counter()
CFRv2Player()
times["construct"] = time.perf_counter() - start
from blueprint.subgame.warmup import warm_up
times.update(warm_up())
print(json.dumps(times))
"""

GAME = """
import json, sys, time
opponent_name, hands, stack = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
start = time.perf_counter()
from pypokerengine.api.game import setup_config, start_poker
from agent import CFRv2Player
player = CFRv2Player()
loaded = time.perf_counter() - start
if opponent_name == "examples-honest":
    from examples.players.honest_player import HonestPlayer
    opponent = HonestPlayer()
else:
    from arena.registry import parse_bot_spec, resolve_factory
    opponent = resolve_factory(parse_bot_spec(opponent_name))(seed=1)
times = []
decide = player.declare_action
def timed(valid_actions, hole_card, round_state):
    begin = time.perf_counter()
    answer = decide(valid_actions, hole_card, round_state)
    times.append([round_state["round_count"], round_state["street"], time.perf_counter() - begin,
                  player.context.compiling])
    return answer
player.declare_action = timed
config = setup_config(max_round=hands, initial_stack=stack, small_blind_amount=5)
config.register_player(name="cfrv2", algorithm=player)
config.register_player(name="opponent", algorithm=opponent)
start_poker(config, verbose=0)
print(json.dumps({"load": loaded, "decisions": times}))
"""


def fresh_process(code: str, cache: str, *args: str) -> dict:
    """Run ``code`` in a new interpreter with ``NUMBA_CACHE_DIR=cache``; its JSON output."""
    environment = {**os.environ, "NUMBA_CACHE_DIR": cache}
    output = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=environment
    )
    if output.returncode != 0:
        raise SystemExit(f"the measuring process failed:\n{output.stderr[-3000:]}")
    return json.loads(output.stdout.strip().splitlines()[-1])


def print_ceiling() -> None:
    with tempfile.TemporaryDirectory(prefix="numba-fresh-") as cache:
        cold = fresh_process(CEILING, cache)
        warm = fresh_process(CEILING, cache)
    print("| step | empty cache (s) | filled cache (s) |")
    print("|---|---|---|")
    for name, seconds in cold.items():
        print(f"| {name} | {seconds:.2f} | {warm[name]:.2f} |")
    kernels = [name for name in cold if name not in ("import", "construct")]
    print(f"| all kernel steps | {sum(cold[n] for n in kernels):.2f} |"
          f" {sum(warm[n] for n in kernels):.2f} |")  # fmt: skip


WARM_UP_FIRST = """
import json, time
start = time.perf_counter()
from blueprint.subgame.warmup import warm_up
warm_up()
print(json.dumps({"warm-up": time.perf_counter() - start}))
"""


def print_game(opponent: str, hands: int, stack: int, warm_up: str) -> None:
    with tempfile.TemporaryDirectory(prefix="numba-fresh-") as cache:
        if warm_up == "first":
            print(f"warm-up first: {fresh_process(WARM_UP_FIRST, cache)['warm-up']:.2f} s")
        result = fresh_process(GAME, cache, opponent, str(hands), str(stack))
    decisions = result["decisions"]
    slow = [(hand, street, round(s, 2)) for hand, street, s, _ in decisions if s > 1.0]
    first = ", ".join(f"{s:.2f}" for _, _, s, _ in decisions[:6])
    compiling = {hand for hand, _, _, still in decisions if still}
    print(
        f"{hands} hands against {opponent}, warm-up {warm_up}: load {result['load']:.2f} s;"
        f" {len(decisions)} decisions, first six {first} s; longest"
        f" {max(s for _, _, s, _ in decisions):.2f} s; over 1 s (hand, street, s): {slow};"
        f" hands played while compiling: {len(compiling)}, the last {max(compiling, default=0)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--opponent", default="honest")
    parser.add_argument("--stack", type=int, default=1000, help="chips; the blinds are 5/10")
    parser.add_argument("--warm-up", choices=["player", "first"], default="player")
    parser.add_argument("--skip-ceiling", action="store_true")
    args = parser.parse_args()
    if not args.skip_ceiling:
        print_ceiling()
    print_game(args.opponent, args.hands, args.stack, args.warm_up)


if __name__ == "__main__":
    main()
