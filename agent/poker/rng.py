"""splitmix64 (Steele, Lea & Flood 2014), the one definition: kernel streams, seed mixing, hashing.

* Kernels cannot take a ``numpy.random.Generator`` cheaply, so callers draw one 64-bit seed
  from the injected generator and kernels advance an explicit state with ``next_state`` and
  read it through ``mix``, splitmix64's output function. The same seed always yields the same
  stream, in any process.
* ``combine(state, value)`` folds a value into a running 64-bit state with the output
  function's multiply-xorshift rounds. ``mix_seed`` chains it over integers (a per-hand seed
  from a match seed, a deal and a hand index); the blueprint store chains it over the 8-byte
  words of an info-set key.

All of them share :func:`scramble`, the two multiply-xorshift rounds of the output function.

>>> import numpy as np
>>> seed = seed_from(np.random.default_rng(7))
>>> seed == seed_from(np.random.default_rng(7))
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar, cast

import numpy as np
from numba import njit, uint64

GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # the golden-ratio increment; also where chains start
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_SHIFT_27 = np.uint64(27)
_SHIFT_31 = np.uint64(31)
_MASK64 = (1 << 64) - 1

Words = TypeVar("Words", np.ndarray, np.uint64)  # an array of 64-bit words, or one


def seed_from(rng: np.random.Generator) -> int:
    """A 63-bit kernel seed drawn from an injected generator."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return int(rng.integers(0, 2**63 - 1))


def scramble_words(value: Words) -> Words:
    """The two multiply-xorshift rounds that end splitmix64's output function.

    Plain numpy on ``uint64`` arrays (or scalars, under ``np.errstate(over="ignore")``), so
    hashing a blueprint's keys does not start numba; :data:`scramble` is the same function
    compiled for kernels.
    """
    value = value * _MIX_1
    value = (value ^ (value >> _SHIFT_27)) * _MIX_2
    return value ^ (value >> _SHIFT_31)


# compiled for the kernels, which scramble one word at a time (numba's types cannot say it)
scramble = cast(Callable[[np.uint64], np.uint64], njit(cache=True, nogil=True)(scramble_words))


@njit(cache=True, nogil=True)
def mix(value: np.uint64) -> np.uint64:
    """The splitmix64 output function: a well-mixed 64-bit value."""
    return scramble(value ^ (value >> uint64(30)))


@njit(cache=True, nogil=True)
def combine(state: np.uint64, value: np.uint64) -> np.uint64:
    """Fold ``value`` into a running 64-bit ``state``."""
    return scramble(state ^ value)


def mix_seed(*values: int) -> int:
    """A 64-bit seed from integers: :func:`combine` chained over them from the golden ratio.

    Computed with :func:`scramble_words` in numpy, without starting numba.

    >>> mix_seed(0, 1) == mix_seed(0, 1), mix_seed(0, 1) == mix_seed(1, 0)
    (True, False)
    >>> mix_seed(0, 1)
    7430010552196289380
    """
    state = GOLDEN
    with np.errstate(over="ignore"):
        for value in values:
            state = scramble_words(state ^ np.uint64(value & _MASK64))
    return int(state)


@njit(cache=True, nogil=True)
def next_state(state: np.uint64) -> np.uint64:
    """Advance a splitmix64 state by one step."""
    return state + GOLDEN


@njit(cache=True, nogil=True)
def below(state: np.uint64, bound: int) -> int:
    """A number in ``[0, bound)`` from a state (multiply-shift; bias below 2**-32)."""
    return int((mix(state) >> uint64(32)) * uint64(bound) >> uint64(32))


def board_seed(board: Iterable[int]) -> int:
    """A seed that depends on the board's cards alone (sorted, 6 bits each): sampled tables
    of one board (its flop run-outs) are then the same whoever asks, and whatever ran before.

    >>> board_seed([5, 1, 2]) == board_seed([1, 2, 5]) == 1 + (2 << 6) + (5 << 12)
    True
    """
    return sum(int(card) << (6 * i) for i, card in enumerate(sorted(board))) & 0x7FFFFFFF
