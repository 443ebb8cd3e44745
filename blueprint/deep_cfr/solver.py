"""Deep CFR (Brown, Lerer, Gross & Sandholm 2019, "Deep Counterfactual Regret Minimization").

Algorithm 1 of the paper, on the solver core's tree and deal arrays. Iteration t, for each
player p in turn: K external-sampling traversals with p as the traverser (``traversal``) add
(info set, t, sampled instantaneous regrets) to p's advantage reservoir and (info set, t,
current strategy) at the opponent's decisions to the strategy reservoir; then p's advantage
network is retrained from scratch on its reservoir with every sample's loss weighted by t
(linear CFR). The current strategy is regret matching on the predicted advantages, or all
probability on the largest advantage when none is positive (the paper's rule; uniform before
any network exists). The output policy is a strategy network fitted, with weights t, to the
strategy reservoir. Randomness (deals, opponent actions, reservoirs, network initialisation
and minibatches) all comes from one injected ``numpy.random.Generator``.

>>> advantages = np.array([[1.0, 3.0, -1.0], [-2.0, -1.0, 0.0], [0.0, 0.0, 0.0]])
>>> legal = np.array([[True, True, True], [True, True, False], [True, True, False]])
>>> strategy_from_advantages(advantages, legal).tolist()
[[0.25, 0.75, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from blueprint.blas import one_blas_thread
from blueprint.deep_cfr.features import infoset_features
from blueprint.deep_cfr.network import (
    Network,
    NetworkConfig,
    fit_distribution,
    fit_regression,
    masked_softmax,
)
from blueprint.deep_cfr.reservoir import Reservoir
from blueprint.deep_cfr.traversal import traverse
from blueprint.game import Game
from blueprint.tree import DECISION


@dataclass(frozen=True)
class DeepCFRConfig:
    """Traversals per player per iteration, reservoir capacities and network training."""

    traversals: int = 500
    advantage_capacity: int = 1_000_000
    strategy_capacity: int = 1_000_000
    advantage_network: NetworkConfig = field(default_factory=NetworkConfig)
    strategy_network: NetworkConfig = field(default_factory=lambda: NetworkConfig(steps=1000))

    def __post_init__(self) -> None:
        if self.traversals < 1:
            raise ValueError(f"traversals must be at least 1, got {self.traversals}")


def strategy_from_advantages(advantages: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Regret matching on predicted advantages over the ``legal`` columns; where none is
    positive, probability 1 on the (first) largest legal advantage."""
    positive = np.where(legal, np.maximum(advantages, 0.0), 0.0)
    total = positive.sum(axis=1, keepdims=True)
    best = np.argmax(np.where(legal, advantages, -np.inf), axis=1)
    greedy = np.zeros_like(positive)
    greedy[np.arange(len(best)), best] = 1.0
    return np.where(total > 0.0, positive / np.where(total > 0.0, total, 1.0), greedy)


class DeepCFRSolver:
    """Deep CFR on a game whose info-set rows are few enough to tabulate (Kuhn, Leduc)."""

    def __init__(self, game: Game, config: DeepCFRConfig, rng: np.random.Generator) -> None:
        self.game, self.config, self.rng = game, config, rng
        tree = game.tree
        self.features = infoset_features(game)
        self.legal = np.arange(tree.max_actions)[None, :] < tree.infoset_actions()[:, None]
        self.row_player = tree.infoset_player()
        self.iteration = 0
        self.advantage_networks: list[Network | None] = [None, None]
        width = tree.max_actions
        self.advantage_buffers = [Reservoir(config.advantage_capacity, width) for _ in range(2)]
        self.strategy_buffer = Reservoir(config.strategy_capacity, width)
        room = config.traversals * int((tree.kind == DECISION).sum())
        self._rows = [np.zeros(room, dtype=np.int32) for _ in range(2)]
        self._values = [np.zeros((room, width)) for _ in range(2)]
        self._policy: tuple[int, np.ndarray] | None = None
        self._strategy_seed = int(rng.integers(2**63))

    def current_strategy(self) -> np.ndarray:
        """Every row's strategy: regret matching on its player's advantage network."""
        table = self.legal / self.legal.sum(axis=1, keepdims=True)
        for player, network in enumerate(self.advantage_networks):
            if network is None:
                continue
            rows = self.row_player == player
            advantages = network.predict(self.features[rows])
            table[rows] = strategy_from_advantages(advantages, self.legal[rows])
        return table

    def run(self, iterations: int) -> None:
        """Advance ``iterations`` Deep CFR iterations (both players each)."""
        with one_blas_thread():
            for _ in range(iterations):
                self.iteration += 1
                for player in range(2):
                    self._traverse(player, self.current_strategy())
                    self.advantage_networks[player] = self._train_advantages(player)

    def _traverse(self, traverser: int, strategy: np.ndarray) -> None:
        """K traversals; their samples go to the reservoirs."""
        tree, deals = self.game.tree, self.game.deals
        chosen = self.rng.choice(
            deals.size, size=self.config.traversals, p=deals.weight / deals.weight.sum()
        )
        regrets, strategies = traverse(
            tree.kind, tree.player, tree.round, tree.first_child, tree.num_children,
            tree.contribution, tree.infoset_base, deals.buckets[chosen], deals.showdown[chosen],
            strategy, traverser, int(self.rng.integers(2**62)),
            self._rows[0], self._values[0], self._rows[1], self._values[1],
        )  # fmt: skip
        buffer = self.advantage_buffers[traverser]
        buffer.add(self._rows[0][:regrets], self.iteration, self._values[0][:regrets], self.rng)
        self.strategy_buffer.add(
            self._rows[1][:strategies], self.iteration, self._values[1][:strategies], self.rng
        )

    def _train_advantages(self, player: int) -> Network:
        """Player ``player``'s advantage network, trained from scratch on its reservoir."""
        rows, weights, targets = self.advantage_buffers[player].by_row()
        return fit_regression(
            self.features[rows],
            targets,
            self.legal[rows],
            weights,
            self.config.advantage_network,
            self.rng,
        )

    def average_strategy(self) -> np.ndarray:
        """The strategy network's policy ``[num_infosets, max_actions]`` (rows sum to 1,
        zero on padded columns), trained on the strategy reservoir (cached per iteration).

        Its generator is keyed by (a seed drawn at construction, the iteration), so asking for
        the policy at checkpoints does not change the run."""
        if self._policy is not None and self._policy[0] == self.iteration:
            return self._policy[1]
        buffer = self.strategy_buffer
        if buffer.size == 0:
            return self.legal / self.legal.sum(axis=1, keepdims=True)
        rows, weights, targets = buffer.by_row()
        with one_blas_thread():
            network = fit_distribution(
                self.features[rows],
                targets,
                self.legal[rows],
                weights,
                self.config.strategy_network,
                np.random.default_rng([self._strategy_seed, self.iteration]),
            )
            policy = masked_softmax(network.predict(self.features), self.legal)
        self._policy = (self.iteration, policy)
        return policy
