"""Cards: one integer id per card and the conversions every package needs.

The id is phevaluator's: ``rank * 4 + suit`` with ranks 0 (deuce) to 12 (ace) and suits
0 to 3 for clubs, diamonds, hearts, spades. PyPokerEngine writes cards suit first
(``'SA'``) and numbers them 1..52 (``rank + 13 * suit`` with the ace as rank 1); people
write them rank first (``'As'``). Both spellings parse.

>>> parse_card("As") == parse_card("SA")
True
>>> to_human(parse_card("H9")), to_ppe(parse_card("9h"))
('9h', 'H9')
>>> hole_class(parse_cards(["SA", "SK"])), hole_class(parse_cards(["Th", "9c"]))
('AKs', 'T9o')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import numpy as np

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52
BOARD_SIZES = (0, 3, 4, 5)
_PPE_SUITS = "CDHS"

CardIds = TypeVar("CardIds", int, "np.ndarray")  # one card id, or an array of them


def make_card(rank: int, suit: int) -> int:
    """The id of the card with ``rank`` (0 = deuce .. 12 = ace) and ``suit`` (0..3)."""
    return rank * 4 + suit


def rank_of(card: CardIds) -> CardIds:
    """The rank of a card id, 0 (deuce) to 12 (ace); of each id, given an array of them (the
    rank is a shift, which numpy maps over arrays)."""
    return card >> 2


def suit_of(card: int) -> int:
    """The suit of a card id, 0..3 for clubs, diamonds, hearts, spades."""
    return card & 3


def parse_card(text: str) -> int:
    """Parse ``'As'`` (human) or ``'SA'`` (PyPokerEngine) into a card id.

    >>> parse_card("2c"), parse_card("CA"), parse_card("as")
    (0, 48, 51)
    """
    if not isinstance(text, str) or len(text) != 2:
        raise ValueError(f"malformed card {text!r}: expected two characters like 'As' or 'SA'")
    first, second = text[0], text[1]
    if first.upper() in RANKS and second.lower() in SUITS:
        rank_char, suit_char = first.upper(), second.lower()
    elif first.upper() in _PPE_SUITS and second.upper() in RANKS:
        rank_char, suit_char = second.upper(), first.lower()
    else:
        raise ValueError(f"malformed card {text!r}: expected a rank and a suit like 'As' or 'SA'")
    return make_card(RANKS.index(rank_char), SUITS.index(suit_char))


def parse_cards(cards: Iterable[str | int]) -> list[int]:
    """Parse several cards (strings or ids) and reject duplicates.

    >>> parse_cards(["As", "Kd"])
    [51, 45]
    >>> parse_cards(["As", "SA"])
    Traceback (most recent call last):
    ...
    ValueError: duplicated card 'SA'
    """
    ids: list[int] = []
    for card in cards:
        card_id = _as_id(card)
        if card_id in ids:
            raise ValueError(f"duplicated card {card!r}")
        ids.append(card_id)
    return ids


def _as_id(card: str | int) -> int:
    if isinstance(card, str):
        return parse_card(card)
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < DECK_SIZE:
        return card
    raise ValueError(f"malformed card {card!r}: expected a string like 'As' or an id 0..51")


def parse_hand_and_board(
    hole: Sequence[str | int], board: Sequence[str | int] = ()
) -> tuple[list[int], list[int]]:
    """Parse two hole cards and a board of 0, 3, 4 or 5 cards, all distinct."""
    if len(hole) != 2:
        raise ValueError(f"hole cards {list(hole)!r}: expected exactly two cards")
    if len(board) not in BOARD_SIZES:
        raise ValueError(f"board {list(board)!r} has {len(board)} cards: expected 0, 3, 4 or 5")
    cards = parse_cards([*hole, *board])
    return cards[:2], cards[2:]


def to_human(card: int) -> str:
    """``'As'`` for the ace of spades."""
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def to_ppe(card: int) -> str:
    """PyPokerEngine's spelling, ``'SA'`` for the ace of spades."""
    return _PPE_SUITS[suit_of(card)] + RANKS[rank_of(card)]


def to_ppe_id(card: int) -> int:
    """PyPokerEngine's card number 1..52 (``Card.from_id``), ace low within its suit.

    >>> to_ppe_id(parse_card("Ac")), to_ppe_id(parse_card("Ks"))
    (1, 52)
    """
    rank = rank_of(card)
    ppe_rank = 1 if rank == 12 else rank + 2
    return ppe_rank + 13 * suit_of(card)


def from_ppe_id(ppe_id: int) -> int:
    """The card id of PyPokerEngine's card number 1..52."""
    if not 1 <= ppe_id <= DECK_SIZE:
        raise ValueError(f"PyPokerEngine card number {ppe_id!r} is outside 1..52")
    suit, ppe_rank = divmod(ppe_id - 1, 13)
    rank = 12 if ppe_rank == 0 else ppe_rank - 1
    return make_card(rank, suit)


def hole_class(cards: Sequence[int]) -> str:
    """The suit-free class of two hole cards: ``'AKs'``, ``'T9o'`` or ``'77'``."""
    high, low = sorted((rank_of(cards[0]), rank_of(cards[1])), reverse=True)
    if high == low:
        return RANKS[high] * 2
    suited = "s" if suit_of(cards[0]) == suit_of(cards[1]) else "o"
    return RANKS[high] + RANKS[low] + suited


def hole_class_index(cards: Sequence[int]) -> int:
    """The index 0..168 of a hole-card class in ``HOLE_CLASSES``.

    Pairs sit on the diagonal of a 13x13 grid, suited hands above it and offsuit below, and
    the grid is numbered row by row: ``index = 13 * row + column``.

    >>> HOLE_CLASSES[hole_class_index(parse_cards(["As", "Ah"]))]
    'AA'
    """
    high, low = sorted((rank_of(cards[0]), rank_of(cards[1])), reverse=True)
    if suit_of(cards[0]) == suit_of(cards[1]) and high != low:
        return 13 * (12 - high) + (12 - low)
    return 13 * (12 - low) + (12 - high)


def _class_name(index: int) -> str:
    row, column = divmod(index, 13)
    first, second = 12 - row, 12 - column
    if first == second:
        return RANKS[first] * 2
    if column > row:
        return RANKS[first] + RANKS[second] + "s"
    return RANKS[second] + RANKS[first] + "o"


HOLE_CLASSES: tuple[str, ...] = tuple(_class_name(index) for index in range(169))


def class_combos(name: str) -> list[tuple[int, int]]:
    """Every pair of hole cards in a class: 6 for a pair, 4 suited, 12 offsuit.

    >>> len(class_combos("AA")), len(class_combos("AKs")), len(class_combos("T9o"))
    (6, 4, 12)
    """
    if name not in HOLE_CLASSES:
        raise ValueError(
            f"unknown hole-card class {name!r}: expected a form like 'AKs', 'T9o', '77'"
        )
    high, low = RANKS.index(name[0]), RANKS.index(name[1])
    pairs = {
        tuple(sorted((make_card(high, a), make_card(low, b)), reverse=True))
        for a in range(4)
        for b in range(4)
    }
    return sorted((p[0], p[1]) for p in pairs if p[0] != p[1] and hole_class(p) == name)
