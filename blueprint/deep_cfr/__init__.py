"""Deep CFR (Brown et al. 2019): sampled regrets fitted by networks instead of tables.

``features`` (info-set inputs), ``traversal`` (the sampling kernel), ``reservoir`` (the
memories), ``network`` (a numpy perceptron trained with Adam) and ``solver`` (Algorithm 1).
"""

from blueprint.deep_cfr.solver import DeepCFRConfig, DeepCFRSolver

__all__ = ["DeepCFRConfig", "DeepCFRSolver"]
