"""The baseline opponents of the study (seed 004): fish, honest, random, rule-based, Monte Carlo.

Every bot is a :class:`agent.boundary.policy.PolicyPlayer`: constructible with no arguments, seeded
through ``rng``/``seed``, and able to list its action probabilities at any decision.
"""

from baselines.fish import FishPlayer
from baselines.honest import HonestPlayer
from baselines.montecarlo import MonteCarloPlayer
from baselines.random_player import RandomPlayer
from baselines.rule_based import RuleBasedPlayer

__all__ = ["FishPlayer", "HonestPlayer", "MonteCarloPlayer", "RandomPlayer", "RuleBasedPlayer"]
