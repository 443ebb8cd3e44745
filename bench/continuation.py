"""Benchmark flop or turn solves whose leaves play the blueprint against check-down leaves.

For random spots of ``--street`` (a random board; the street's start after one of
:data:`LINES` of the four-street blueprint, its pot and stacks; random ranges, each holding
kept with probability ``--density``; which seat we hold, drawn), solves the street twice with
the player's tree (half the pot, the pot, all-in, two bets and raises) for ``--iterations``
DCFR iterations:

* **check-down**: each line that reaches the next card valued by checking the board down;
* **blueprint**: valued by the shipped four-street blueprint's play of the rest of the hand,
  the opponent choosing among the blueprint and the blueprint biased five times to fold, to
  call or to raise (Modicum; ``blueprint.subgame.continuation`` on the turn,
  ``blueprint.subgame.flop_leaves`` on the flop).

Each solution's strategy is then scored in a *held-out* game: the same street, whose rest is
the blueprint's with the opponent free to choose among ten continuations (the blueprint, and
each action group biased 2, 5 and 25 times), by the opponent's best response there: its value
in chips per deal, in % of the street's pot. Lower is better: less is taken from us when the
hand is played out. On the flop that game values the turn and river in the blueprint's
buckets, as the flop's blueprint leaves do. Both strategies are scored on the same spots, so
the difference is paired by spot (Student's t over the spots). Times are wall clock of this
process.

Usage: python -m bench.continuation [--street turn] [--spots 20] [--seed 0] [--iterations 100]
[--density 0.5]
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import replace

import numpy as np

from agent.abstraction.betting import replay
from agent.players.blueprint_store import Blueprint, load_blueprint, streets_blueprint_path
from agent.poker.range_equity import HOLDINGS
from blueprint.subgame.continuation import BlueprintLeaves
from blueprint.subgame.depth_limited import STREET_ABSTRACTION, solve_street, street_subgame
from blueprint.subgame.flop import FlopSpot
from blueprint.subgame.flop_leaves import FlopLeaves
from blueprint.subgame.river import RiverSpot
from blueprint.subgame.turn import TurnSpot
from blueprint.subgame.vector_cfr import root_values

# blueprint histories to each street's start. The turn: raise the pot and call, then
# check-check, half-pot bet and call, or pot bet and call on the flop; a limp checked to the
# turn. The flop: a pot raise called, a half-pot raise called, a limp checked, a pot raise
# re-raised by the pot and called.
LINES = {"turn": ("pccc", "pchc", "pcpc", "cccc"), "flop": ("pc", "hc", "cc", "ppc")}
BOARD_CARDS = {"turn": 4, "flop": 3}
HELD_OUT = tuple((group, factor) for group in (0, 1, 2) for factor in (2.0, 5.0, 25.0))
T95 = {n: t for n, t in zip(range(1, 31), (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
    2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
    2.060, 2.056, 2.052, 2.048, 2.045, 2.042), strict=True)}  # fmt: skip


def random_spot(
    rng: np.random.Generator, bp: Blueprint, density: float, street: str = "turn"
) -> tuple[RiverSpot, BlueprintLeaves]:
    """A spot of ``street`` after one of its :data:`LINES`, and its blueprint leaves."""
    line = LINES[street][int(rng.integers(len(LINES[street])))]
    state = replay(bp.game, bp.actions, line)
    first_player = int(rng.integers(2))  # the solve's player who is the small blind
    first = 0 if (state.to_act == 0) == (first_player == 0) else 1
    board = tuple(int(c) for c in rng.choice(52, BOARD_CARDS[street], replace=False))
    ranges = rng.random((2, HOLDINGS)) * (rng.random((2, HOLDINGS)) < density)
    stack = float(bp.game.stack - state.committed[0])
    kind = TurnSpot if street == "turn" else FlopSpot
    spot = kind(board, float(state.pot), (stack, stack), first, ranges)
    buckets = bp.cards.num_buckets
    args = (bp.game, bp.actions, bp.action_rows, buckets[3], line, first_player)
    if street == "turn":
        return spot, BlueprintLeaves(*args)
    return spot, FlopLeaves(*args, turn_buckets=buckets[2])


def opponent_gain(spot: RiverSpot, leaves: BlueprintLeaves, strategy: np.ndarray) -> float:
    """The opponent's best-response value against ``strategy`` in the held-out game, in %
    of the pot."""
    held_out = replace(leaves, biases=HELD_OUT)
    subgame, _ = street_subgame(spot, STREET_ABSTRACTION, held_out)
    value = subgame.ranges[1] @ root_values(subgame, strategy, 1, best_response=True)
    return 100.0 * float(value) / subgame.mass() / spot.pot


def interval(values: list[float]) -> str:
    """Mean ± the 95% Student's t half-width over independent units."""
    n = len(values)
    mean = float(np.mean(values))
    if n < 2:
        return f"{mean:+.2f}"
    half = T95.get(n - 1, 1.96) * float(np.std(values, ddof=1)) / math.sqrt(n)
    return f"{mean:+.2f} ± {half:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--street", choices=sorted(LINES), default="turn")
    parser.add_argument("--spots", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--density", type=float, default=0.5)
    args = parser.parse_args()
    bp = load_blueprint(streets_blueprint_path())
    rng = np.random.default_rng(args.seed)
    gains: dict[str, list[float]] = {"check-down": [], "blueprint": []}
    seconds: dict[str, list[float]] = {"check-down": [], "blueprint": []}
    print("spot  line  holdings  check-down: s, gain %pot  blueprint: s, gain %pot")
    for index in range(args.spots):
        spot, leaves = random_spot(rng, bp, args.density, args.street)
        row = []
        for name, chosen in (("check-down", None), ("blueprint", leaves)):
            start = time.perf_counter()
            solution = solve_street(spot, iterations=args.iterations, leaves=chosen)
            seconds[name].append(time.perf_counter() - start)
            gains[name].append(opponent_gain(spot, leaves, solution.strategy))
            row.append(f"{seconds[name][-1]:6.1f} {gains[name][-1]:+7.2f}")
        size = len(solution.holdings)
        print(f"{index:4d}  {leaves.prefix}  {size:8d}  {row[0]}            {row[1]}", flush=True)
    difference = [b - c for b, c in zip(gains["blueprint"], gains["check-down"], strict=True)]
    print(f"\n{args.street}: {args.spots} spots, seed {args.seed}, {args.iterations} iterations")
    for name in gains:
        print(f"{name}: opponent's gain {interval(gains[name])} % pot, "
              f"solve {np.mean(seconds[name]):.1f} s (max {max(seconds[name]):.1f})")  # fmt: skip
    print(f"blueprint less check-down, paired by spot: {interval(difference)} % pot")


if __name__ == "__main__":
    main()
