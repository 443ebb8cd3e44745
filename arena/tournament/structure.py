"""A tournament's blind structure and payouts, as PyPokerEngine and sit-and-go players use them.

PyPokerEngine takes the structure as a dict ``{round: {"small_blind": sb, "ante": a}}``: from
that hand (round) on, the blinds and ante are those values. The arena keeps it as a tuple of
``(hand, small_blind, ante)`` levels, built either from a doubling schedule (``--small-blind``,
``--level-hands``, ``--ante-from-level``) or read from a JSON file in PyPokerEngine's format.

The doubling schedule's ante, from its first ante level on, is a tenth of the big blind
(at least one chip), the usual sit-and-go proportion. Levels stop at the first one whose big
blind is at least every chip on the table, since nothing changes after it.

>>> doubling_levels(small_blind=10, level_hands=20, ante_from_level=3, max_round=100, chips=6000)
((1, 10, 0), (21, 20, 0), (41, 40, 8), (61, 80, 16), (81, 160, 32))
>>> default_payouts(6)
(65.0, 35.0)
>>> parse_payouts("50,30,20", players=6)
(50.0, 30.0, 20.0)
"""

from __future__ import annotations

import json
from pathlib import Path

Level = tuple[int, int, int]  # (first hand, small blind, ante)


def doubling_levels(
    small_blind: int, level_hands: int, ante_from_level: int, max_round: int, chips: int
) -> tuple[Level, ...]:
    """Blinds doubling every ``level_hands`` hands, antes from level ``ante_from_level`` on."""
    if small_blind <= 0 or level_hands <= 0:
        raise ValueError(
            f"small blind and hands per level must be positive, got {small_blind}, {level_hands}"
        )
    if ante_from_level <= 0:
        raise ValueError(f"the first ante level counts from 1, got {ante_from_level}")
    levels = []
    for number in range(1, max_round // level_hands + 2):
        first_hand = 1 + (number - 1) * level_hands
        if first_hand > max_round:
            break
        blind = small_blind * 2 ** (number - 1)
        ante = max(1, blind // 5) if number >= ante_from_level else 0
        levels.append((first_hand, blind, ante))
        if 2 * blind >= chips:
            break
    return tuple(levels)


def read_structure(path: Path) -> tuple[Level, ...]:
    """Levels from a JSON file in PyPokerEngine's format; ValueError naming what is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot read blind structure {str(path)!r}: {error}") from None
    if not isinstance(data, dict) or not data:
        raise ValueError(f"{str(path)!r}: expected {{round: {{small_blind, ante}}, ...}}")
    return structure_levels(data)


def structure_levels(data: dict) -> tuple[Level, ...]:
    """Levels from PyPokerEngine's ``{round: {"small_blind": sb, "ante": a}}`` dict.

    >>> structure_levels({"1": {"small_blind": 5, "ante": 0}, "11": {"small_blind": 10, "ante": 1}})
    ((1, 5, 0), (11, 10, 1))
    """
    levels = []
    for key, value in data.items():
        try:
            hand = int(key)
            blind, ante = int(value["small_blind"]), int(value["ante"])
        except (TypeError, ValueError, KeyError):
            raise ValueError(
                f"blind level {key!r}: expected a round number and "
                f'{{"small_blind": int, "ante": int}}, got {value!r}'
            ) from None
        if hand < 1 or blind <= 0 or ante < 0:
            raise ValueError(f"blind level {key!r}: round >= 1, small blind > 0, ante >= 0")
        levels.append((hand, blind, ante))
    levels.sort()
    if levels[0][0] != 1:
        raise ValueError("the blind structure must set round 1 (the first hand's blinds)")
    return tuple(levels)


def engine_structure(levels: tuple[Level, ...]) -> dict[int, dict[str, int]]:
    """The levels in PyPokerEngine's ``set_blind_structure`` format."""
    return {hand: {"small_blind": blind, "ante": ante} for hand, blind, ante in levels}


def default_payouts(players: int) -> tuple[float, ...]:
    """Sit-and-go payouts in percent of the pool: winner takes all up to three players,
    65/35 up to six, 50/30/20 up to ten."""
    if players <= 3:
        return (100.0,)
    if players <= 6:
        return (65.0, 35.0)
    return (50.0, 30.0, 20.0)


def parse_payouts(text: str, players: int) -> tuple[float, ...]:
    """``"50,30,20"``: percent of the pool for 1st, 2nd, ...; ValueError if it is not one."""
    try:
        shares = tuple(float(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"payouts {text!r}: expected percentages such as 50,30,20") from None
    if any(share < 0 for share in shares) or abs(sum(shares) - 100.0) > 1e-6:
        raise ValueError(f"payouts {text!r} must be non-negative and add up to 100")
    if len(shares) > players:
        raise ValueError(f"payouts {text!r} pay {len(shares)} places, but only {players} play")
    return shares
