"""Equity of one hand against a weighted range of the 1,326 two-card holdings.

Local best response (Lisy & Bowling 2017, "Equilibrium Approximation Quality of Current
No-Limit Poker Bots", the ``WpRollout`` of its algorithm) needs, at every decision, the
chance that its hand beats the opponent's *range*: a probability distribution over the
opponent's holdings. This module holds the holdings table (every pair ``c0 < c1`` of card
ids, in lexicographic order) and a compiled kernel that scores the hero's hand against every
holding of positive weight on every board completion:

* river: the one board; turn: every river; flop: every turn and river (exact enumeration);
* preflop: ``samples`` boards drawn without replacement from the unseen cards (Monte Carlo,
  seeded from an injected generator through :mod:`agent.poker.rng`).

Every holding disjoint from the hero's cards and the board is disjoint from the same number
of completions, so the weighted share summed over completions, divided by the weight summed
over the same (holding, completion) pairs, is exactly the range equity; ties count half.

>>> from agent.poker.cards import parse_card
>>> weights = np.zeros(HOLDINGS)
>>> weights[holding_index(parse_card("7c"), parse_card("7h"))] = 1.0  # a set of sevens
>>> board = parse_cards(["2c", "7d", "9h", "Js", "3s"])
>>> range_equity(parse_cards(["As", "Ah"]), board, weights)
0.0
>>> weights[holding_index(parse_card("Kd"), parse_card("Kh"))] = 1.0  # and kings
>>> range_equity(parse_cards(["As", "Ah"]), board, weights)
0.5
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numba import njit

from agent.poker.cards import hole_class_index, parse_cards
from agent.poker.equity import copy_into, joined, remaining_deck
from agent.poker.evaluator import board_ranker, rank_holdings, ranked
from agent.poker.rng import below, next_state, seed_from

HOLDINGS = 1326
PREFLOP_SAMPLES = 1000


def _holding_tables() -> tuple[np.ndarray, np.ndarray]:
    pairs = np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.int64)
    index = np.full((52, 52), -1, dtype=np.int64)
    for position, (a, b) in enumerate(pairs):
        index[a, b] = index[b, a] = position
    return pairs, index


HOLDING_CARDS, _HOLDING_INDEX = _holding_tables()


def holding_index(first: int, second: int) -> int:
    """The position of a two-card holding (card ids, either order) in the holdings table.

    >>> holding_index(0, 1), holding_index(1, 0), holding_index(50, 51)
    (0, 0, 1325)
    """
    position = int(_HOLDING_INDEX[first, second])
    if position < 0:
        raise ValueError(f"cards {first} and {second} do not make a holding of two distinct cards")
    return position


@lru_cache(maxsize=1)
def holding_classes() -> np.ndarray:
    """The hole-card class (``hole_class_index``, 0..168) of each of the 1,326 holdings.

    >>> int(holding_classes()[holding_index(48, 49)])  # two aces: AA, class 0
    0
    """
    classes = np.array([hole_class_index((int(a), int(b))) for a, b in HOLDING_CARDS])
    classes.flags.writeable = False
    return classes


@lru_cache(maxsize=1)
def disjoint_pairs() -> np.ndarray:
    """True where two holdings share no card: 1,326 by 1,326, read only.

    >>> int(disjoint_pairs()[holding_index(0, 1)].sum())  # the 50 x 49 / 2 of the other cards
    1225
    """
    incidence = np.zeros((HOLDINGS, 52))
    incidence[np.arange(HOLDINGS)[:, np.newaxis], HOLDING_CARDS] = 1.0
    pairs = incidence @ incidence.T == 0
    pairs.flags.writeable = False
    return pairs


def blocked_mask(cards: Sequence[int]) -> np.ndarray:
    """True for every holding that shares a card with ``cards``.

    >>> int(blocked_mask([0, 1]).sum())  # 51 + 51 - 1 holdings hold card 0 or card 1
    101
    """
    dead = np.zeros(52, dtype=np.bool_)
    dead[list(cards)] = True
    return dead[HOLDING_CARDS[:, 0]] | dead[HOLDING_CARDS[:, 1]]


@njit(cache=True, nogil=True)
def _score_board(
    hero: np.ndarray,
    full: np.ndarray,
    live: np.ndarray,
    won: np.ndarray,
    played: np.ndarray,
    ranks: np.ndarray,
) -> None:
    """Add each live holding's share won by the hero, and one deal played, on one full board
    (``ranks``: room for the live holdings' ranks); the loop has no branch."""
    ranker = board_ranker(full)
    hero_rank = ranked(ranker, hero[0], hero[1])
    rank_holdings(full, live, ranks)  # its first two columns: the cards
    for position in range(len(live)):
        rank, holding = ranks[position], live[position, 2]
        dealt = rank >= 0  # no card of the full board
        played[holding] += dealt
        won[holding] += dealt * ((hero_rank < rank) + 0.5 * (hero_rank == rank))


@njit(cache=True, nogil=True)
def holding_counts_kernel(
    hero: np.ndarray, board: np.ndarray, live: np.ndarray, samples: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """The hero's share won against each holding, and the deals played, over the board's
    completions (1,326 entries each; zero for holdings not in ``live``).

    ``live`` rows are (card, card, holding index) of holdings with no card in common with
    the hero or the board. ``samples == 0`` enumerates every completion (flop, turn,
    river); otherwise ``samples`` completions are drawn.
    """
    deck = remaining_deck(joined(hero, board))
    size = len(deck)
    known = len(board)
    full = np.zeros(5, dtype=np.int64)
    copy_into(full, 0, board)
    won = np.zeros(HOLDINGS)
    played = np.zeros(HOLDINGS)
    ranks = np.empty(len(live), dtype=np.int64)
    if samples > 0:
        state = np.uint64(seed)
        for _ in range(samples):
            for draw in range(5 - known):
                state = next_state(state)
                pick = draw + below(state, size - draw)
                deck[draw], deck[pick] = deck[pick], deck[draw]
                full[known + draw] = deck[draw]
            _score_board(hero, full, live, won, played, ranks)
    elif known == 5:
        _score_board(hero, full, live, won, played, ranks)
    elif known == 4:
        for river in range(size):
            full[4] = deck[river]
            _score_board(hero, full, live, won, played, ranks)
    else:
        for turn in range(size):
            for river in range(turn + 1, size):
                full[3], full[4] = deck[turn], deck[river]
                _score_board(hero, full, live, won, played, ranks)
    return won, played


@njit(cache=True, nogil=True)
def range_equity_kernel(
    hero: np.ndarray,
    board: np.ndarray,
    live: np.ndarray,
    weights: np.ndarray,
    samples: int,
    seed: int,
) -> np.ndarray:
    """[weighted share won, weight played] over the board's completions (see
    :func:`holding_counts_kernel`; ``live`` holds only holdings of positive weight)."""
    won, played = holding_counts_kernel(hero, board, live, samples, seed)
    return weighted_counts(weights, won, played)


@njit(cache=True, nogil=True)
def weighted_counts(weights: np.ndarray, won: np.ndarray, played: np.ndarray) -> np.ndarray:
    """[weighted share won, weight played] of per-holding counts: one enumeration of a
    board's completions (:func:`holding_counts_kernel`) serves every range of the hero's."""
    out = np.zeros(2)
    out[0] = np.sum(weights * won)
    out[1] = np.sum(weights * played)
    return out


def live_holdings(weights: np.ndarray, dead: Sequence[int]) -> np.ndarray:
    """(card, card, index) rows of the holdings with positive weight and no dead card."""
    keep = (weights > 0) & ~blocked_mask(dead)
    positions = np.flatnonzero(keep)
    return np.column_stack((HOLDING_CARDS[positions], positions)).astype(np.int64)


def range_equity(
    hole: Sequence[int | str],
    board: Sequence[int | str],
    weights: np.ndarray,
    samples: int | None = None,
    rng: np.random.Generator | None = None,
) -> float:
    """The hero's expected share of the pot at showdown against a weighted range.

    ``weights`` has one non-negative entry per holding (any scale; holdings sharing a card
    with the hero or the board are ignored). Flop, turn and river are enumerated exactly;
    preflop (or whenever ``samples`` is given) draws ``samples`` boards with ``rng``.
    """
    hero = np.array(parse_cards(list(hole)), dtype=np.int64)
    known = np.array(parse_cards(list(board)), dtype=np.int64)
    if len(hero) != 2:
        raise ValueError(f"hole cards {list(hole)!r}: expected two cards")
    if len(known) not in (0, 3, 4, 5):
        raise ValueError(f"board {list(board)!r} has {len(known)} cards: expected 0, 3, 4 or 5")
    if len(set(hero.tolist()) | set(known.tolist())) != len(hero) + len(known):
        raise ValueError(f"hole {list(hole)!r} and board {list(board)!r} share a card")
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (HOLDINGS,) or (weights < 0).any():
        raise ValueError(f"weights must be {HOLDINGS} non-negative numbers, got {weights.shape}")
    if samples is None:
        samples = PREFLOP_SAMPLES if len(known) == 0 else 0
    if samples < 0 or (samples == 0 and len(known) == 0):
        raise ValueError(f"samples={samples}: preflop equity needs a positive number of boards")
    seed = 0
    if samples > 0:
        if rng is None:
            raise ValueError("sampled range equity needs rng=numpy.random.Generator")
        seed = seed_from(rng)
    live = live_holdings(weights, np.concatenate((hero, known)).tolist())
    if len(live) == 0:
        raise ValueError("the range holds no holding compatible with the hero's cards and board")
    won, played = range_equity_kernel(hero, known, live, weights, samples, seed)
    return float(won / played)


def holding_shares(
    hole: Sequence[int],
    board: Sequence[int],
    samples: int | None = None,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """The hero's expected pot share against each of the 1,326 holdings (0 where blocked).

    The range equity against any weights is then ``weights @ shares / weights[live].sum()``
    over the live holdings: one pass over the completions serves every range of a decision.
    Flop, turn and river are enumerated unless ``samples`` boards are drawn with ``rng``.

    >>> from agent.poker.cards import parse_card
    >>> board = parse_cards(["2c", "7d", "9h", "Js", "3s"])
    >>> shares = holding_shares(parse_cards(["As", "Ah"]), board)
    >>> float(shares[holding_index(parse_card("7c"), parse_card("7h"))])
    0.0
    >>> float(shares[holding_index(parse_card("Kc"), parse_card("Kh"))])
    1.0
    """
    hero = np.array(list(hole), dtype=np.int64)
    known = np.array(list(board), dtype=np.int64)
    samples = samples or 0
    seed = seed_from(rng) if samples > 0 and rng is not None else 0
    if samples > 0 and rng is None:
        raise ValueError("sampled holding shares need rng=numpy.random.Generator")
    live = live_holdings(np.ones(HOLDINGS), np.concatenate((hero, known)).tolist())
    won, played = holding_counts_kernel(hero, known, live, samples, seed)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(played > 0, won / np.maximum(played, 1.0), 0.0)
