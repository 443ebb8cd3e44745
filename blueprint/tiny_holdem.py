"""Tiny hold'em: a four-street heads-up game small enough for exact best response.

The game keeps everything of the hold'em training game (``blueprint.holdem``) that the
trainer relies on, and shrinks the cards until every deal can be enumerated:

* **Betting** is the hold'em trainer's own (``agent.abstraction.betting``, played through
  ``blueprint.holdem.betting_tree``): PyPokerEngine's heads-up order, blinds, pot-relative
  raise sizes, all-in and a raise cap, here over four rounds (preflop, flop, turn, river)
  with small stacks.
* **Cards**: a deck of ``ranks`` ranks in ``suits`` suits (by default Leduc's J Q K in two
  suits, Southey et al. 2005). Each player gets one private card; one public card is dealt
  on the flop, one on the turn and one on the river. At the showdown a player whose card
  pairs a board card beats one who does not; otherwise the higher private rank wins; equal
  ranks split the pot.
* **Buckets**: in round r a player's bucket is the rank of its card followed by the ranks of
  the r board cards in the order dealt, a number in base ``ranks``
  (``ranks ** (r + 1)`` buckets). Suits decide nothing but which cards are left, and cards
  of one rank are exchangeable, so merging suits loses nothing; keeping the order of the
  board keeps perfect recall, so best response and NashConv are the exact ones.
* **Deals**: all ordered deals of five distinct cards (two private, three public), each
  with the same probability, for full-width CFR and exact best response
  (``blueprint.best_response``); the trainer samples them by ``sample_deals``, a pure
  function of ``(seed, iteration)`` like the hold'em sampler.

It plays the role Kuhn and Leduc play for the one-round and two-round solvers: a game where
the trainer's result can be checked against an exact exploitability (Johanson et al. 2011,
"Accelerating Best Response Calculation in Large Extensive Games").

>>> config = TinyHoldemConfig()
>>> game = config.game_of()
>>> game.tree.num_rounds, game.deals.size, [len(names) for names in game.bucket_names]
(4, 720, [3, 9, 27, 81])
>>> game.infoset_name(0), showdown_result(np.array([0, 4, 1, 2, 3]), 2)
('J:-', 1)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import ClassVar

import numpy as np
from numba import njit, uint64

from agent.abstraction.betting import ActionAbstraction, GameConfig, parse_actions
from agent.poker.cards import RANKS
from agent.poker.rng import below, mix, next_state
from blueprint.deals import Deals
from blueprint.game import Game
from blueprint.holdem import betting_tree
from blueprint.tree import BettingTree

KIND = "tiny_holdem"
CARDS_PER_DEAL = 5  # a private card each, then flop, turn and river
MAX_CARDS = 12  # 12 * 11 * 10 * 9 * 8 = 95,040 ordered deals


@dataclass(frozen=True)
class TinyHoldemConfig:
    """The deck (``ranks`` x ``suits`` cards), stacks, blinds, rounds and raise sizes."""

    KIND: ClassVar[str] = KIND

    ranks: int = 3
    suits: int = 2
    game: GameConfig = field(default_factory=lambda: GameConfig(10, 1, 4))
    actions: ActionAbstraction = field(default_factory=lambda: parse_actions("pot,allin:1"))

    def __post_init__(self) -> None:
        if not 2 <= self.ranks <= len(RANKS) or self.suits < 1:
            raise ValueError(f"a deck of {self.ranks} ranks and {self.suits} suits is not one")
        if not CARDS_PER_DEAL <= self.ranks * self.suits <= MAX_CARDS:
            raise ValueError(
                f"a deck of {self.ranks * self.suits} cards: expected {CARDS_PER_DEAL} to"
                f" {MAX_CARDS} (five are dealt, and every deal is enumerated)"
            )

    @property
    def num_buckets(self) -> tuple[int, ...]:
        """Buckets per round: the private rank and the board's ranks in order."""
        return tuple(self.ranks ** (r + 1) for r in range(self.game.rounds))

    @cached_property
    def _deals(self) -> Deals:
        return all_deals(self.ranks, self.suits, self.game.rounds)

    def build_tree(self) -> BettingTree:
        """The public betting tree (the hold'em trainer's rules over ``game.rounds``)."""
        return betting_tree(self.game, self.actions, self.num_buckets)

    def deals(self) -> Deals:
        """Every ordered deal with its chance probability."""
        return self._deals

    def game_of(self) -> Game:
        """Tree, enumerated deals and bucket names, for full-width CFR and best response."""
        letters = RANKS[12 - self.ranks : 12]  # up to the king: J Q K for three ranks
        names = tuple(
            tuple(
                "".join(letters[digit] for digit in _digits(b, self.ranks, r + 1))
                for b in range(count)
            )
            for r, count in enumerate(self.num_buckets)
        )
        return Game(KIND, self.build_tree(), self.deals(), names)

    def sample_deals(self, seed: int, first: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        """Buckets ``int32[count, 2, R]`` and showdown signs ``int8[count]`` of iterations
        ``first .. first + count - 1`` of stream ``seed``: deals drawn uniformly."""
        if seed < 0 or first < 0 or count < 0:
            raise ValueError(f"seed {seed}, first {first} and count {count} must be non-negative")
        index = np.empty(count, dtype=np.int64)
        draw_indices(seed, first, self.deals().size, index)
        deals = self.deals()
        return deals.buckets[index], deals.showdown[index]

    def to_json(self) -> dict:
        """The parameters as plain JSON values."""
        return {
            "ranks": self.ranks,
            "suits": self.suits,
            "stack": self.game.stack,
            "small_blind": self.game.small_blind,
            "rounds": self.game.rounds,
            "actions": self.actions.spec,
        }

    @classmethod
    def from_json(cls, data: dict) -> TinyHoldemConfig:
        """The inverse of ``to_json`` (raises ValueError on a missing or bad field)."""
        try:
            game = GameConfig(int(data["stack"]), int(data["small_blind"]), int(data["rounds"]))
            actions = parse_actions(str(data["actions"]))
            return cls(int(data["ranks"]), int(data["suits"]), game, actions)
        except KeyError as missing:
            raise ValueError(f"game parameters lack the field {missing}") from None


def _digits(number: int, base: int, length: int) -> list[int]:
    """``number`` as ``length`` digits in ``base``, most significant first."""
    return [number // base ** (length - 1 - i) % base for i in range(length)]


def showdown_result(cards: np.ndarray, suits: int) -> int:
    """+1 if player 0 wins the showdown of a five-card deal, -1 if player 1 does, 0 a split.

    Card c has rank ``c // suits``; the deal is player 0's card, player 1's, then the board.

    >>> showdown_result(np.array([0, 5, 1, 2, 3]), 2), showdown_result(np.array([0, 1, 2, 3, 4]), 2)
    (1, 0)
    """
    rank = np.asarray(cards) // suits
    board = set(rank[2:].tolist())
    strength = [(int(rank[p] in board), int(rank[p])) for p in (0, 1)]
    return (strength[0] > strength[1]) - (strength[0] < strength[1])


def all_deals(ranks: int, suits: int, rounds: int) -> Deals:
    """All ordered five-card deals of the deck, each of probability 1 / (n (n-1) ... (n-4))."""
    cards = np.array(list(itertools.permutations(range(ranks * suits), CARDS_PER_DEAL)))
    rank = cards // suits
    buckets = np.empty((len(cards), 2, rounds), dtype=np.int64)
    for player in range(2):
        bucket = rank[:, player].copy()
        for r in range(rounds):
            if r > 0:
                bucket = bucket * ranks + rank[:, 1 + r]
            buckets[:, player, r] = bucket
    showdown = [showdown_result(deal, suits) for deal in cards]
    weight = np.full(len(cards), 1.0 / math.perm(ranks * suits, CARDS_PER_DEAL))
    return Deals.build(buckets=buckets, showdown=showdown, weight=weight)


@njit(cache=True, nogil=True)
def draw_indices(seed: int, first: int, size: int, out: np.ndarray) -> None:
    """Iteration ``first + i`` of stream ``seed`` draws deal ``out[i]`` uniformly below ``size``.

    Keyed like ``blueprint.holdem.deal_cards`` (splitmix64 of seed and iteration), so a
    resumed or split run draws the same deals.
    """
    for i in range(out.shape[0]):
        state = mix(uint64(seed) ^ mix(uint64(first + i) + uint64(0x632BE59BD9B4E019)))
        out[i] = below(next_state(state), size)
