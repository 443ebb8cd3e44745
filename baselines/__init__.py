"""The baseline opponents: fish, honest, random, rule-based, Monte Carlo.

They are the baselines of da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo
Simulations", Cardiff University (CM3203), whose CFR bots this project reproduces; each module
says where it follows da Luz's description and where it pins down what the text leaves open.

Every bot is a :class:`agent.boundary.policy.PolicyPlayer`: constructible with no arguments, seeded
through ``rng``/``seed``, and able to list its action probabilities at any decision.
"""

from baselines.fish import FishPlayer
from baselines.honest import HonestPlayer
from baselines.montecarlo import MonteCarloPlayer
from baselines.random_player import RandomPlayer
from baselines.rule_based import RuleBasedPlayer

__all__ = ["FishPlayer", "HonestPlayer", "MonteCarloPlayer", "RandomPlayer", "RuleBasedPlayer"]
