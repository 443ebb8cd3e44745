"""Regret matching, regret-matching+, discounting and the average strategy over info-set tables.

Tables are ``[num_infosets, max_actions]`` float arrays (float64 or float32); a row's first
``row_actions[row]`` columns are its legal actions. The current strategy is regret matching
(Hart & Mas-Colell 2000): positive regrets normalised, uniform when none is positive.
Regret-matching+ (Tammelin 2014, CFR+) floors cumulative regrets at zero after each update.
Discounting follows DCFR (Brown & Sandholm 2019): after iteration t, positive regrets are
multiplied by t^alpha / (t^alpha + 1), negative ones by t^beta / (t^beta + 1).
The average strategy (the one that converges to equilibrium) normalises the strategy sums.

Kernel signatures (all ``@njit(cache=True)``):

- ``regret_matching_row(regret, row, count, out)``: the current strategy of one row into
  ``out[:count]``;
- ``current_strategy(regret, row_actions, out)``: the whole table into ``out`` (float64);
- ``floor_row(regret, row, count)``: RM+ reset of one row's first ``count`` regrets;
- ``floor_regrets(regret, row_player, player)``: RM+ reset of ``player``'s rows (-1 = all);
- ``discount_regrets(regret, row_player, player, positive, negative)``: scale ``player``'s
  regrets by ``positive`` where >= 0 and ``negative`` where < 0;
- ``scale_table(table, factor)``: multiply a whole table (e.g. Pluribus-style discounting).

>>> import numpy as np
>>> out = np.zeros((2, 3))
>>> current_strategy(np.array([[1.0, 3.0, -2.0], [-1.0, -1.0, 0.0]]), np.array([3, 2]), out)
>>> out.tolist()
[[0.25, 0.75, 0.0], [0.5, 0.5, 0.0]]
>>> average_strategy(np.array([[2.0, 6.0], [0.0, 0.0]]), np.array([2, 2])).tolist()
[[0.25, 0.75], [0.5, 0.5]]
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, inline="always")
def regret_matching_row(regret: np.ndarray, row: int, count: int, out: np.ndarray) -> None:
    """Regret matching for one row: positive regrets normalised, else uniform."""
    total = 0.0
    for k in range(count):
        r = regret[row, k]
        if r > 0.0:
            total += r
    if total > 0.0:
        for k in range(count):
            r = regret[row, k]
            out[k] = r / total if r > 0.0 else 0.0
    else:
        for k in range(count):
            out[k] = 1.0 / count


@njit(cache=True, nogil=True)
def current_strategy(regret: np.ndarray, row_actions: np.ndarray, out: np.ndarray) -> None:
    """The regret-matching strategy of every row, written into ``out`` (unused columns 0)."""
    for row in range(regret.shape[0]):
        count = row_actions[row]
        regret_matching_row(regret, row, count, out[row])
        for k in range(count, out.shape[1]):
            out[row, k] = 0.0


@njit(cache=True, nogil=True)
def floor_row(regret: np.ndarray, row: int, count: int) -> None:
    """Regret-matching+ reset of one row: its first ``count`` negative regrets to 0."""
    for k in range(count):
        if regret[row, k] < 0.0:
            regret[row, k] = 0.0


@njit(cache=True, nogil=True)
def floor_regrets(regret: np.ndarray, row_player: np.ndarray, player: int) -> None:
    """Regret-matching+ reset: negative regrets of ``player``'s rows (-1 = every row) to 0."""
    for row in range(regret.shape[0]):
        if player < 0 or row_player[row] == player:
            floor_row(regret, row, regret.shape[1])


@njit(cache=True, nogil=True)
def discount_regrets(
    regret: np.ndarray, row_player: np.ndarray, player: int, positive: float, negative: float
) -> None:
    """Multiply ``player``'s regrets (-1 = all) by ``positive`` where >= 0, else ``negative``."""
    for row in range(regret.shape[0]):
        if player < 0 or row_player[row] == player:
            for k in range(regret.shape[1]):
                if regret[row, k] >= 0.0:
                    regret[row, k] *= positive
                else:
                    regret[row, k] *= negative


@njit(cache=True, nogil=True)
def scale_table(table: np.ndarray, factor: float) -> None:
    """Multiply every entry of a table in place."""
    flat = table.reshape(-1)
    for i in range(flat.shape[0]):
        flat[i] *= factor


def discount_factor(iteration: int, exponent: float | None) -> float:
    """DCFR's factor t^e / (t^e + 1); 1 when ``exponent`` is None (no discounting).

    >>> discount_factor(1, 1.5), discount_factor(3, 0.0), discount_factor(9, None)
    (0.5, 0.5, 1.0)
    """
    if exponent is None:
        return 1.0
    power = float(iteration) ** exponent
    return power / (power + 1.0)


def average_strategy(strategy_sum: np.ndarray, row_actions: np.ndarray) -> np.ndarray:
    """The normalised strategy sums as float64; uniform over legal actions where never reached.

    Works in place on one output array: a multiplayer preflop table has tens of millions of
    rows, and every whole-table temporary would be as large as the table.
    """
    sums = np.asarray(strategy_sum)
    actions = np.asarray(row_actions)
    if sums.ndim != 2 or sums.shape[0] != len(actions):
        raise ValueError(f"strategy_sum shape {sums.shape} does not fit {len(actions)} rows")
    out = np.maximum(sums, 0.0, dtype=np.float64)
    legal = np.arange(out.shape[1])[None, :] < actions[:, None]
    np.copyto(out, 0.0, where=~legal)
    totals = out.sum(axis=1, keepdims=True)
    reached = totals > 0.0
    np.divide(out, totals, out=out, where=reached)
    unreached = np.flatnonzero(~reached[:, 0])
    if len(unreached):
        out[unreached] = legal[unreached] / np.maximum(actions[unreached, None], 1)
    return out


def uniform_strategy(row_actions: np.ndarray, max_actions: int) -> np.ndarray:
    """The uniform random strategy table.

    >>> uniform_strategy(np.array([2, 3]), 3).round(3).tolist()
    [[0.5, 0.5, 0.0], [0.333, 0.333, 0.333]]
    """
    return average_strategy(np.zeros((len(row_actions), max_actions)), row_actions)
