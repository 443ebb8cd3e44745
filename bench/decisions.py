"""Agent speed: blueprint load time and memory, CFRv2 decision latency by street, range queries.

Run: ``python -m bench.decisions [--blueprint PATH] [--hands 400] [--solve MODE] [--gadget |
--no-gadget] [--solve-iterations N]`` (without them, CFRv2's defaults: ``solve="auto"``, which
solves off the blueprint's tree with the gadget and 30 iterations; ``--solve off`` the rules).
Prints, in one run:

* the time and resident memory of loading the blueprint (target: 2 s, 300 MB);
* CFRv2's ``declare_action`` latency p50 / p99 per street over heads-up PyPokerEngine hands
  against a loose opponent that reaches every street (target: p99 50 ms; the CFR bots of
  da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo Simulations", Cardiff University
  (CM3203), took 1 to 2 s a hand), and the mean of the turn and river decisions together
  (the decision budget of a solving agent: 200 ms, with a p99 of 1 s);
* the time to ask ``action_probabilities`` for all 1,326 holdings in one public state, one
  holding at a time, on the preflop, flop and turn, beside ``policy_table`` (all holdings in
  one pass, what local best response asks) on the same state, and the ratio.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time
from collections import defaultdict
from itertools import combinations

import numpy as np
from pypokerengine.api.game import setup_config, start_poker

from agent.boundary.policy import QuietPlayer
from agent.players.blueprint_store import load_blueprint
from agent.players.cfrv2 import CFRv2Player
from agent.players.rules.street_solving import SOLVED_STREETS
from agent.poker.cards import to_ppe


def resident_mb() -> float:
    """The process's resident memory now (Linux), in MB."""
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * resource.getpagesize() / 1e6


class TimedCFRv2(CFRv2Player):
    """CFRv2 that records its decision time per street."""

    def __init__(
        self,
        blueprint,
        latencies: dict[str, list[float]],
        seed: int,
        solve: str | None = None,
        gadget: bool | None = None,
        solve_iterations: int | None = None,
    ) -> None:
        super().__init__(
            blueprint, seed=seed, solve=solve, gadget=gadget, solve_iterations=solve_iterations
        )
        self.latencies = latencies
        self.captured: dict[str, tuple] = {}

    def declare_action(self, valid_actions, hole_card, round_state):
        start = time.perf_counter()
        action = super().declare_action(valid_actions, hole_card, round_state)
        self.latencies[round_state["street"]].append(time.perf_counter() - start)
        self.captured.setdefault(round_state["street"], (valid_actions, round_state, self.uuid))
        return action


class LoosePlayer(QuietPlayer):
    """Calls 80% of the time, raises a random legal amount otherwise: hands reach the river."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def declare_action(self, valid_actions, hole_card, round_state):
        bounds = valid_actions[2]["amount"]
        if self.random.random() < 0.8 or bounds["min"] < 0:
            return "call", valid_actions[1]["amount"]
        return "raise", self.random.randint(bounds["min"], min(bounds["max"], 4 * bounds["min"]))


def play(agent: TimedCFRv2, hands: int) -> float:
    """Play ``hands`` fresh heads-up hands (stacks 1000, blinds 5/10); return seconds a hand.

    ``start_poker`` shuffles its deck with Python's module-level ``random``, which takes no
    injected generator: it is seeded by the hand's number, so a run deals the same cards."""
    start = time.perf_counter()
    for hand in range(hands):
        random.seed(hand)
        config = setup_config(max_round=1, initial_stack=1000, small_blind_amount=5)
        seats = [("cfrv2", agent), ("loose", LoosePlayer(hand))]
        for name, player in seats if hand % 2 else reversed(seats):
            config.register_player(name, player)
        start_poker(config, verbose=0)
    return (time.perf_counter() - start) / hands


def range_query_ms(agent: TimedCFRv2, street: str) -> float:
    """Milliseconds to get the policy of every holding in one captured public state."""
    valid_actions, round_state, agent.uuid = agent.captured[street]
    board = {card for card in round_state["community_card"]}
    holdings = [
        [to_ppe(a), to_ppe(b)]
        for a, b in combinations(range(52), 2)
        if to_ppe(a) not in board and to_ppe(b) not in board
    ]
    start = time.perf_counter()
    for hole in holdings:
        agent.action_probabilities(valid_actions, hole, round_state)
    return (time.perf_counter() - start) * 1000


def table_query_ms(agent: TimedCFRv2, street: str) -> float:
    """Milliseconds for ``policy_table`` over every holding of the same captured state."""
    valid_actions, round_state, agent.uuid = agent.captured[street]
    base = agent.snapshot(valid_actions, ["SA", "SK"], round_state)
    holes = [hole for hole in combinations(range(52), 2) if not set(hole) & set(base.board)]
    start = time.perf_counter()
    agent.policy_table(base, holes)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blueprint", default=None, help="strategy CSV (default: shipped)")
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument(
        "--solve", choices=tuple(SOLVED_STREETS), help="cfrv2's solve= option (its default)"
    )
    parser.add_argument(
        "--gadget", action=argparse.BooleanOptionalAction, help="cfrv2's gadget= option"
    )
    parser.add_argument("--solve-iterations", type=int, help="cfrv2's solve_iterations=")
    arguments = parser.parse_args()
    before = resident_mb()
    start = time.perf_counter()
    blueprint = load_blueprint(arguments.blueprint)
    load_seconds = time.perf_counter() - start
    print(f"blueprint {blueprint.path.name}: {blueprint.rows:,} info sets")
    print(f"blueprint load: {load_seconds:.2f} s (target <= 2)")
    print(
        f"resident memory: {resident_mb():.0f} MB with the blueprint"
        f" ({resident_mb() - before:.0f} MB for it; target <= 300 total)"
    )
    latencies: dict[str, list[float]] = defaultdict(list)
    agent = TimedCFRv2(
        blueprint,
        latencies,
        seed=0,
        solve=arguments.solve,
        gadget=arguments.gadget,
        solve_iterations=arguments.solve_iterations,
    )
    play(agent, 20)  # warm-up: numba kernels load from the cache, tables build
    latencies.clear()
    per_hand = play(agent, arguments.hands)
    everything = []
    for street in ("preflop", "flop", "turn", "river"):
        times = np.array(latencies[street]) * 1000
        everything.extend(times)
        print(
            f"cfrv2 {street:8s} decisions {len(times):5d}: p50 {np.percentile(times, 50):6.2f} ms,"
            f" p99 {np.percentile(times, 99):6.2f} ms, mean {times.mean():6.2f} ms"
        )
    print(
        f"cfrv2 all streets: p50 {statistics.median(everything):.2f} ms,"
        f" p99 {np.percentile(everything, 99):.2f} ms (target p99 <= 50)"
    )
    late = np.array(latencies["turn"] + latencies["river"]) * 1000
    if len(late):
        print(
            f"cfrv2 turn and river decisions: mean {late.mean():.2f} ms"
            " (bound: 200 ms, the decision budget; p99 <= 1000 ms over all streets)"
        )
    print(f"whole hand inside PyPokerEngine (both players): {per_hand * 1000:.1f} ms")
    if agent.fixed.solving.solver is not None:
        solver = agent.fixed.solving.solver
        print(f"subgames solved: {solver.solves} ({solver.nested_solves} below an off-tree bet)")
    for street in ("preflop", "flop", "turn"):
        if street in agent.captured:
            one_by_one = range_query_ms(agent, street)
            table = table_query_ms(agent, street)
            print(
                f"policy of all holdings, one {street} state: {one_by_one:.0f} ms one by one,"
                f" {table:.0f} ms by policy_table ({one_by_one / table:.1f}x)"
            )


if __name__ == "__main__":
    main()
