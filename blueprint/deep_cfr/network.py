"""A small multilayer perceptron in numpy, trained with Adam on a weighted loss.

Deep CFR (Brown et al. 2019) fits two kinds of network to reservoir buffers: advantage
networks, regressing sampled instantaneous regrets with a mean squared error over the legal
actions (their eq. 4), and a strategy network, fitted to sampled current strategies. Every
sample's loss is weighted by the iteration t that produced it (linear CFR weighting). Here the
strategy network ends in a softmax over the legal actions and is fitted by cross-entropy to
the sampled strategies, whose minimiser is the same t-weighted average strategy as the
paper's squared error. Adam is Kingma & Ba 2015. All randomness (initial weights, minibatches)
comes from an injected ``numpy.random.Generator``.

Why numpy and not a learning library: scikit-learn's ``MLPRegressor`` (1.9) accepts sample
weights, but has no per-sample mask of legal actions nor a softmax output over them, counts
training in epochs rather than steps; torch or JAX would be heavy installs for networks this
small (64-unit layers, batches of a few hundred rows).

>>> rng = np.random.default_rng(0)
>>> x = np.eye(4)
>>> y = np.array([[1.0, -1.0], [0.5, 0.0], [-1.0, 2.0], [0.0, 0.0]])
>>> config = NetworkConfig(hidden=(16,), steps=400, batch_size=4, learning_rate=0.02)
>>> net = fit_regression(x, y, np.ones_like(y, dtype=bool), np.ones(4), config, rng)
>>> bool(np.abs(net.predict(x) - y).max() < 0.05)
True
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class NetworkConfig:
    """Layer widths and the Adam schedule of one from-scratch training run."""

    hidden: tuple[int, ...] = (64, 64)
    steps: int = 300
    batch_size: int = 1024
    learning_rate: float = 3e-3
    beta1: float = 0.9
    beta2: float = 0.999
    epsilon: float = 1e-8


@dataclass(frozen=True, eq=False)
class Network:
    """A ReLU perceptron: ``weights[i]`` is [in, out], ``biases[i]`` is [out]."""

    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]

    def predict(self, features: np.ndarray) -> np.ndarray:
        """The linear outputs for a batch of feature rows."""
        return _forward(self.weights, self.biases, features)[-1]


def init_network(sizes: list[int], rng: np.random.Generator) -> Network:
    """He-initialised weights (zero biases) for layer widths ``sizes``."""
    weights = tuple(
        rng.normal(0.0, np.sqrt(2.0 / fan_in), size=(fan_in, fan_out))
        for fan_in, fan_out in itertools.pairwise(sizes)
    )
    return Network(weights, tuple(np.zeros(size) for size in sizes[1:]))


def _forward(weights, biases, features: np.ndarray) -> list[np.ndarray]:
    """Every layer's activation, the input first and the linear output last."""
    layers = [features]
    for i, (weight, bias) in enumerate(zip(weights, biases, strict=True)):
        out = layers[-1] @ weight + bias
        layers.append(out if i == len(weights) - 1 else np.maximum(out, 0.0))
    return layers


def _backward(weights, layers: list[np.ndarray], grad_out: np.ndarray):
    """Gradients of the loss for every weight and bias, given dLoss/dOutput."""
    grads_w, grads_b = [], []
    grad = grad_out
    for i in range(len(weights) - 1, -1, -1):
        grads_w.append(layers[i].T @ grad)
        grads_b.append(grad.sum(axis=0))
        if i > 0:
            grad = (grad @ weights[i].T) * (layers[i] > 0.0)
    return grads_w[::-1], grads_b[::-1]


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax over the columns where ``mask`` holds, zero elsewhere.

    >>> masked_softmax(np.array([[0.0, 0.0, 5.0]]), np.array([[True, True, False]])).tolist()
    [[0.5, 0.5, 0.0]]
    """
    shifted = np.where(mask, logits, -np.inf)
    shifted = shifted - shifted.max(axis=1, keepdims=True)
    exp = np.where(mask, np.exp(shifted), 0.0)
    return exp / exp.sum(axis=1, keepdims=True)


def _regression_grad(output, targets, mask, weights):
    """d/dOutput of the weighted mean squared error over the legal actions."""
    return 2.0 * weights[:, None] * mask * (output - targets) / len(output)


def _cross_entropy_grad(output, targets, mask, weights):
    """d/dLogits of the weighted cross-entropy of a masked softmax against ``targets``."""
    return weights[:, None] * (masked_softmax(output, mask) - targets) / len(output)


def _fit(features, targets, mask, weights, config, rng, loss_grad) -> Network:
    """Adam from a fresh initialisation on minibatches drawn uniformly from the samples
    (every sample in each step when ``batch_size`` covers them all)."""
    sizes = [features.shape[1], *config.hidden, targets.shape[1]]
    net = init_network(sizes, rng)
    params = [*net.weights, *net.biases]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    count = len(features)
    scaled = weights / weights.mean()
    layers_count = len(net.weights)
    everything = np.arange(count)
    for step in range(1, config.steps + 1):
        full = config.batch_size >= count
        batch = everything if full else rng.integers(0, count, size=config.batch_size)
        layers = _forward(params[:layers_count], params[layers_count:], features[batch])
        grad_out = loss_grad(layers[-1], targets[batch], mask[batch], scaled[batch])
        grads_w, grads_b = _backward(params[:layers_count], layers, grad_out)
        correction = np.sqrt(1.0 - config.beta2**step) / (1.0 - config.beta1**step)
        rate = config.learning_rate * correction
        for param, grad, m, v in zip(params, [*grads_w, *grads_b], first, second, strict=True):
            m *= config.beta1
            m += (1.0 - config.beta1) * grad
            v *= config.beta2
            v += (1.0 - config.beta2) * grad * grad
            param -= rate * m / (np.sqrt(v) + config.epsilon)
    return Network(tuple(params[:layers_count]), tuple(params[layers_count:]))


def fit_regression(features, targets, mask, weights, config, rng) -> Network:
    """A network fitted to ``targets`` by weighted squared error on the ``mask`` columns."""
    return _fit(features, targets, mask, weights, config, rng, _regression_grad)


def fit_distribution(features, targets, mask, weights, config, rng) -> Network:
    """A network whose masked softmax is fitted to ``targets`` by weighted cross-entropy."""
    return _fit(features, targets, mask, weights, config, rng, _cross_entropy_grad)
