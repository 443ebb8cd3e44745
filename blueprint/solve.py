"""Solve Kuhn or Leduc with one algorithm, measuring exploitability at checkpoints.

The library behind ``blueprint solve``: full-width CFR variants (``blueprint.cfr``), MCCFR
(``blueprint.mccfr``), fictitious play (``blueprint.xfp``) and Deep CFR
(``blueprint.deep_cfr``, whose policy is its strategy network's) advance in chunks up to each
checkpoint, where the exact best response (``blueprint.best_response``) measures NashConv,
exploitability in mbb/g and the game value of the average strategy (as OpenSpiel reports
them; Lanctot et al. 2017). For Kuhn the average betting probability of every information
set is kept at each checkpoint, beside the equilibrium family of Kuhn 1950.

>>> checkpoint_schedule(1000, None)
[1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
>>> checkpoint_schedule(10, 4)
[4, 8, 10]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from blueprint.best_response import expected_value, nash_conv, to_mbb
from blueprint.cfr import PRESETS, FullWidthSolver
from blueprint.deep_cfr import DeepCFRConfig, DeepCFRSolver
from blueprint.game import Game
from blueprint.kuhn import fit_alpha, kuhn_equilibrium, kuhn_game
from blueprint.leduc import leduc_game
from blueprint.mccfr import KERNELS
from blueprint.mccfr_solver import MCCFRConfig, MCCFRSolver
from blueprint.xfp import XFPSolver

GAMES: dict[str, Callable[[], Game]] = {"kuhn": kuhn_game, "leduc": leduc_game}
DEEP_CFR = "deep-cfr"
ALGORITHMS = (*PRESETS, *KERNELS, "xfp", DEEP_CFR)
RESULT_FORMAT = 1


@dataclass(frozen=True)
class Checkpoint:
    """Exploitability and value of the average strategy after ``iteration`` iterations."""

    iteration: int
    nash_conv: float
    exploitability_mbb: float
    game_value: float
    seconds: float
    bet_probabilities: tuple[float, ...] = ()


@dataclass(frozen=True, eq=False)
class SolveResult:
    """A finished run: its checkpoints and final average strategy."""

    game: Game
    algorithm: str
    seed: int
    checkpoints: list[Checkpoint]
    policy: np.ndarray = field(repr=False)
    traversals: int | None = None

    @property
    def final(self) -> Checkpoint:
        """The last checkpoint."""
        return self.checkpoints[-1]

    def to_json(self) -> dict:
        """The numbers as a JSON-ready dict (with a format version)."""
        result = {
            "format": RESULT_FORMAT,
            "game": self.game.name,
            "algorithm": self.algorithm,
            "seed": self.seed,
            **({"traversals": self.traversals} if self.traversals is not None else {}),
            "iterations": self.final.iteration,
            "game_value": self.final.game_value,
            "nash_conv": self.final.nash_conv,
            "exploitability_mbb": self.final.exploitability_mbb,
            "checkpoints": [
                {
                    "iteration": c.iteration,
                    "nash_conv": c.nash_conv,
                    "exploitability_mbb": c.exploitability_mbb,
                    "game_value": c.game_value,
                    "seconds": c.seconds,
                }
                for c in self.checkpoints
            ],
        }
        if self.game.name == "kuhn":
            result["kuhn_table"] = kuhn_table(self.game, self.policy)
        return result


def checkpoint_schedule(iterations: int, every: int | None) -> list[int]:
    """Checkpoint iterations: every ``every``, else 1-2-5 steps per decade; always the last."""
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    if every is not None and every < 1:
        raise ValueError(f"--every must be at least 1, got {every}")
    if every is not None:
        points = list(range(every, iterations + 1, every))
    else:
        points = [m * 10**e for e in range(12) for m in (1, 2, 5) if m * 10**e <= iterations]
    if not points or points[-1] != iterations:
        points.append(iterations)
    return points


def make_solver(
    game: Game, algorithm: str, seed: int, traversals: int | None = None
) -> FullWidthSolver | MCCFRSolver | XFPSolver | DeepCFRSolver:
    """The solver object for an algorithm name (``traversals``: Deep CFR's K)."""
    if traversals is not None and algorithm != DEEP_CFR:
        raise ValueError(f"traversals apply only to {DEEP_CFR}, not {algorithm!r}")
    if algorithm in PRESETS:
        return FullWidthSolver(game.tree, game.deals, PRESETS[algorithm])
    if algorithm in KERNELS:
        rng = np.random.default_rng(seed)
        return MCCFRSolver(game.tree, game.deals, MCCFRConfig(algorithm), rng)
    if algorithm == "xfp":
        return XFPSolver(game.tree, game.deals)
    if algorithm == DEEP_CFR:
        config = DeepCFRConfig() if traversals is None else DeepCFRConfig(traversals=traversals)
        return DeepCFRSolver(game, config, np.random.default_rng(seed))
    raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")


def solve(
    game_name: str,
    algorithm: str,
    iterations: int,
    every: int | None = None,
    seed: int = 0,
    progress: Callable[[Checkpoint], None] | None = None,
    traversals: int | None = None,
) -> SolveResult:
    """Run ``algorithm`` on a game, measuring the average strategy at each checkpoint.

    The seconds of a checkpoint include computing its policy (Deep CFR trains its strategy
    network then), not measuring it.
    """
    if game_name not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}, got {game_name!r}")
    game = GAMES[game_name]()
    make_solver(game, algorithm, seed, traversals).run(1)  # compile kernels before timing
    solver = make_solver(game, algorithm, seed, traversals)
    checkpoints, elapsed = [], 0.0
    for point in checkpoint_schedule(iterations, every):
        start = time.perf_counter()
        solver.run(point - solver.iteration)
        policy = solver.average_strategy()
        elapsed += time.perf_counter() - start
        checkpoint = _measure(game, policy, point, elapsed)
        checkpoints.append(checkpoint)
        if progress is not None:
            progress(checkpoint)
    return SolveResult(game, algorithm, seed, checkpoints, policy, traversals)


def _measure(game: Game, policy: np.ndarray, iteration: int, seconds: float) -> Checkpoint:
    """Exact NashConv, exploitability and value of a policy."""
    conv = nash_conv(game.tree, game.deals, policy)
    bets = tuple(float(p) for p in policy[:, 1]) if game.name == "kuhn" else ()
    return Checkpoint(
        iteration=iteration,
        nash_conv=conv,
        exploitability_mbb=to_mbb(conv / 2.0),
        game_value=expected_value(game.tree, game.deals, policy),
        seconds=seconds,
        bet_probabilities=bets,
    )


def kuhn_table(game: Game, policy: np.ndarray) -> list[dict]:
    """Per Kuhn info set: our betting probability, the Nash target at the fitted family
    parameter, and the family's range over a in [0, 1/3]."""
    alpha = fit_alpha(policy, game)
    target = kuhn_equilibrium(game, alpha)
    low, high = kuhn_equilibrium(game, 0.0), kuhn_equilibrium(game, 1.0 / 3.0)
    player = game.tree.infoset_player()
    return [
        {
            "infoset": game.infoset_name(row),
            "player": int(player[row]),
            "bet": float(policy[row, 1]),
            "nash": float(target[row, 1]),
            "nash_low": float(min(low[row, 1], high[row, 1])),
            "nash_high": float(max(low[row, 1], high[row, 1])),
            "alpha": alpha,
        }
        for row in range(game.tree.num_infosets)
    ]
