"""Heads-up betting as PyPokerEngine plays it, the action abstraction, and info-set keys.

One module defines the betting that the blueprint trainer builds its tree from and that the
agent replays to find its node, so the two cannot disagree.

**The rules** are PyPokerEngine 1.0.1's heads-up rules (its issue #82), not the textbook's:

* player 0 is the *small blind* (the non-button seat) and acts first on every street,
  preflop and postflop; player 1 is the button and posts the *big blind*;
* amounts are street totals ("raise to"), as in PyPokerEngine's ``valid_actions``;
* the minimum raise-to is the largest street amount so far plus that raise's increment;
  the big blind counts as a raise of one small blind, so preflop the minimum raise-to is
  BB + SB (15 with blinds 5/10), and postflop with no bet it is the big blind;
* a raise is possible only if the raiser can reach the minimum raise-to (an all-in short of
  it is not a legal raise in PyPokerEngine); raising the whole stack is all-in;
* a call closes the street once the other player has acted on it (the big blind's forced
  bet is not an action, so a preflop limp gives the big blind its option); if a player is
  all-in after a call the cards are run out with no more betting.

**The action abstraction** allows fold, call (check when nothing is owed) and a list of raise
sizes, with at most ``raise_cap`` raises per player per round (da Luz's: 2). Each action has
a one-letter code; a betting history is the string of codes since the deal, with no street
separator (the street boundaries follow from the rules):

======  ===========================================================
``f``   fold (only when facing a bet: folding a free check is never offered)
``c``   call, or check when nothing is owed
``r``   minimum raise (da Luz's only raise)
``t``   raise by a third of the pot (pot after calling)
``h``   raise by half the pot
``w``   raise by two thirds of the pot
``p``   raise by the pot
``d``   raise by twice the pot
``a``   all-in
======  ===========================================================

A pot-relative raise of fraction x raises to ``max_bet + x * (pot + owed)``, rounded to a
chip, raised to the minimum raise-to if below it and to all-in if it reaches the stack. At a
node, sizes that land on the same amount are offered once: as ``a`` if that amount is all-in,
as ``r`` if it is the minimum raise, else as the first of them in the list.

**The info-set key** is ``"<cards> <history>"``: the card label of the acting player in the
current round (a hole class like ``AKs`` preflop; for da Luz's flop abstraction the class
and the flop ranks, ``AKs 555``) followed by the history; at the very first decision the
history is empty and the key is the card label alone.

>>> game, actions = GameConfig(), ActionAbstraction()
>>> state = replay(game, actions, "rc")
>>> state.round, state.to_act, state.committed
(1, 0, (15, 15))
>>> infoset_key("K7s 555", "rc"), split_infoset_key("K7s 555 rccr")
('K7s 555 rc', ('K7s 555', 'rccr'))
>>> infoset_key("AKs", "")
'AKs'

References: da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo Simulations", Cardiff
University (CM3203), the bots this project reproduces, for the key form ``AKs 555 rc`` and the
``study`` preset (minimum raises, two a round); pot-relative raise sizes as
in Brown and Sandholm, "Superhuman AI for heads-up no-limit poker: Libratus" (Science 2018).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import NamedTuple

FOLD, CALL = 0, 1
ROUNDS = ("preflop", "flop", "turn", "river")

# name -> (letter, pot fraction); None marks the minimum raise and all-in.
RAISE_SIZES: dict[str, tuple[str, float | None]] = {
    "min": ("r", None),
    "third": ("t", 1 / 3),
    "half": ("h", 0.5),
    "twothirds": ("w", 2 / 3),
    "pot": ("p", 1.0),
    "2pot": ("d", 2.0),
    "allin": ("a", None),
}
ACTION_PRESETS = {"study": "min:2", "sizes": "half,pot,allin:2"}
_KEY_HISTORY = re.compile(r"^[a-z]*$")


@dataclass(frozen=True)
class GameConfig:
    """Stacks, blinds and betting rounds of a heads-up hand (PyPokerEngine's big blind is twice
    the small; 2 rounds is the preflop+flop blueprint, 4 every street to the river)."""

    stack: int = 1000
    small_blind: int = 5
    rounds: int = 2

    def __post_init__(self) -> None:
        if self.small_blind < 1:
            raise ValueError(f"small blind {self.small_blind!r} must be a positive chip count")
        if self.stack < 2 * self.small_blind:
            raise ValueError(
                f"stack {self.stack!r} cannot post the big blind {2 * self.small_blind}"
            )
        if self.rounds not in (1, 2, 3, 4):
            raise ValueError(f"rounds {self.rounds!r}: a heads-up hand has 1 to 4 rounds")

    @property
    def big_blind(self) -> int:
        """The big blind, twice the small blind."""
        return 2 * self.small_blind


@dataclass(frozen=True)
class ActionAbstraction:
    """Fold, call and the named raise sizes, at most ``raise_cap`` raises a player a round."""

    raise_sizes: tuple[str, ...] = ("min",)
    raise_cap: int = 2

    def __post_init__(self) -> None:
        unknown = [name for name in self.raise_sizes if name not in RAISE_SIZES]
        if unknown or not self.raise_sizes:
            raise ValueError(
                f"raise sizes {list(self.raise_sizes)!r}: expected some of {sorted(RAISE_SIZES)}"
            )
        if len(set(self.raise_sizes)) != len(self.raise_sizes):
            raise ValueError(f"raise sizes {list(self.raise_sizes)!r} repeat a size")
        if self.raise_cap < 1:
            raise ValueError(f"raise cap {self.raise_cap!r} must be at least 1")

    @property
    def letters(self) -> str:
        """The action codes in column order: ``'fc'`` then one letter per raise size.

        >>> ActionAbstraction(("half", "pot", "allin")).letters
        'fchpa'
        """
        return "fc" + "".join(RAISE_SIZES[name][0] for name in self.raise_sizes)

    @property
    def names(self) -> tuple[str, ...]:
        """Column names: ``fold``, ``call`` and ``raise_<size>``."""
        return ("fold", "call", *(f"raise_{name}" for name in self.raise_sizes))

    @property
    def num_actions(self) -> int:
        """Fold, call and the raise sizes."""
        return 2 + len(self.raise_sizes)

    @property
    def spec(self) -> str:
        """The spec string that parses back to this abstraction: ``'min:2'``."""
        return ",".join(self.raise_sizes) + f":{self.raise_cap}"


def parse_actions(spec: str) -> ActionAbstraction:
    """An action abstraction from a preset name or ``'size,size,...[:cap]'``.

    >>> parse_actions("study")
    ActionAbstraction(raise_sizes=('min',), raise_cap=2)
    >>> parse_actions("half,pot,allin:3").letters
    'fchpa'
    """
    text = ACTION_PRESETS.get(spec, spec)
    sizes, _, cap = text.partition(":")
    try:
        raise_cap = int(cap) if cap else 2
    except ValueError:
        raise ValueError(f"action spec {spec!r}: the raise cap {cap!r} is not a number") from None
    names = tuple(name.strip() for name in sizes.split(",") if name.strip())
    try:
        return ActionAbstraction(names, raise_cap)
    except ValueError as error:
        raise ValueError(f"action spec {spec!r}: {error}") from None


class LegalAction(NamedTuple):
    """An abstract action allowed at a state, with PyPokerEngine's action and amount."""

    index: int  # type: ignore[assignment]  # shadows tuple.index on purpose
    letter: str
    ppe_action: str
    amount: int


@dataclass(frozen=True)
class BettingState:
    """The public state of a hand between actions (no cards)."""

    round: int
    to_act: int
    committed: tuple[int, int]
    street: tuple[int, int]
    raise_to: int
    raise_add: int
    raises: tuple[int, int]
    acted: tuple[bool, bool]
    history: str = ""
    folded: int = -1
    showdown: bool = False

    @property
    def terminal(self) -> bool:
        """True once a player folded or the hand reached its showdown."""
        return self.folded >= 0 or self.showdown

    @property
    def pot(self) -> int:
        """Chips in the middle."""
        return self.committed[0] + self.committed[1]


def initial_state(game: GameConfig) -> BettingState:
    """The state after the blinds: the small blind (player 0) to act."""
    small, big = game.small_blind, game.big_blind
    return BettingState(
        round=0,
        to_act=0,
        committed=(small, big),
        street=(small, big),
        raise_to=big,
        raise_add=small,
        raises=(0, 0),
        acted=(False, False),
    )


def _pair(values: tuple, player: int, value: object) -> tuple:
    return (value, values[1]) if player == 0 else (values[0], value)


def min_raise_to(state: BettingState, game: GameConfig) -> int:
    """PyPokerEngine's minimum raise-to: the last raise-to plus its increment.

    >>> min_raise_to(initial_state(GameConfig()), GameConfig())
    15
    """
    if state.raise_to == 0:
        return game.big_blind
    return state.raise_to + state.raise_add


def max_raise_to(state: BettingState, game: GameConfig) -> int:
    """The street total of the acting player's all-in."""
    player = state.to_act
    return state.street[player] + game.stack - state.committed[player]


def raise_amount(state: BettingState, game: GameConfig, size: str) -> int:
    """The raise-to street total of a named size, before checking that it is legal."""
    low, high = min_raise_to(state, game), max_raise_to(state, game)
    fraction = RAISE_SIZES[size][1]
    if size == "allin":
        return high
    if fraction is None:
        return min(low, high)
    owed = state.raise_to - state.street[state.to_act]
    wanted = state.raise_to + round(fraction * (state.pot + owed))
    return min(max(wanted, low), high)


def legal_actions(
    state: BettingState, game: GameConfig, actions: ActionAbstraction
) -> list[LegalAction]:
    """The abstract actions allowed at ``state``, in column order, with PPE amounts.

    >>> game, actions = GameConfig(), parse_actions("half,pot,allin")
    >>> [(a.letter, a.amount) for a in legal_actions(initial_state(game), game, actions)]
    [('f', 0), ('c', 10), ('h', 20), ('p', 30), ('a', 1000)]
    """
    if state.terminal:
        return []
    player = state.to_act
    owed = state.raise_to - state.street[player]
    legal: list[LegalAction] = []
    if owed > 0:
        legal.append(LegalAction(FOLD, "f", "fold", 0))
    call_to = min(state.raise_to, max_raise_to(state, game))
    legal.append(LegalAction(CALL, "c", "call", call_to))
    low, high = min_raise_to(state, game), max_raise_to(state, game)
    if state.raises[player] >= actions.raise_cap or high < low:
        return legal
    chosen: dict[int, int] = {}  # amount -> offset of the size that offers it
    for offset, size in enumerate(actions.raise_sizes):
        amount = raise_amount(state, game, size)
        exact = (size == "allin" and amount == high) or (size == "min" and amount == low)
        if amount not in chosen or exact:
            chosen[amount] = offset
    for offset in sorted(chosen.values()):
        size = actions.raise_sizes[offset]
        amount = raise_amount(state, game, size)
        legal.append(LegalAction(2 + offset, RAISE_SIZES[size][0], "raise", amount))
    return legal


def apply_action(
    state: BettingState, game: GameConfig, actions: ActionAbstraction, index: int
) -> BettingState:
    """The state after the acting player takes abstract action ``index``."""
    chosen = [action for action in legal_actions(state, game, actions) if action.index == index]
    if not chosen:
        raise ValueError(
            f"action {index!r} is not legal after history {state.history!r}"
            f" (legal: {[a.letter for a in legal_actions(state, game, actions)]})"
        )
    action = chosen[0]
    player = state.to_act
    history = state.history + action.letter
    if action.index == FOLD:
        return replace(state, history=history, folded=player)
    paid = action.amount - state.street[player]
    moved = replace(
        state,
        history=history,
        committed=_pair(state.committed, player, state.committed[player] + paid),
        street=_pair(state.street, player, action.amount),
        acted=_pair(state.acted, player, True),
    )
    if action.index == CALL:
        return _after_call(moved, game)
    return replace(
        moved,
        raise_to=action.amount,
        raise_add=action.amount - state.raise_to,
        raises=_pair(state.raises, player, state.raises[player] + 1),
        to_act=1 - player,
    )


def _after_call(state: BettingState, game: GameConfig) -> BettingState:
    player = state.to_act
    all_in = max(state.committed) >= game.stack
    if all_in:
        return replace(state, showdown=True)
    if not state.acted[1 - player]:
        return replace(state, to_act=1 - player)
    if state.round + 1 >= game.rounds:
        return replace(state, showdown=True)
    return replace(
        state,
        round=state.round + 1,
        to_act=0,
        street=(0, 0),
        raise_to=0,
        raise_add=0,
        raises=(0, 0),
        acted=(False, False),
    )


def replay(game: GameConfig, actions: ActionAbstraction, history: str) -> BettingState:
    """The state reached by a history of action letters from the deal.

    >>> replay(GameConfig(), ActionAbstraction(), "cr").street
    (10, 15)
    >>> replay(GameConfig(), ActionAbstraction(), "cx")
    Traceback (most recent call last):
    ...
    ValueError: history 'cx': 'x' is not one of the action codes 'fcr'
    """
    state = initial_state(game)
    letters = actions.letters
    for letter in history:
        if letter not in letters:
            raise ValueError(
                f"history {history!r}: {letter!r} is not one of the action codes {letters!r}"
            )
        state = apply_action(state, game, actions, letters.index(letter))
    return state


def history_actions(history: str, actions: ActionAbstraction) -> list[int]:
    """Action indices of a history string.

    >>> history_actions("rcp", parse_actions("min,pot"))
    [2, 1, 3]
    """
    letters = actions.letters
    unknown = [letter for letter in history if letter not in letters]
    if unknown:
        raise ValueError(f"history {history!r}: {unknown[0]!r} is not one of {letters!r}")
    return [letters.index(letter) for letter in history]


def actions_history(indices: list[int], actions: ActionAbstraction) -> str:
    """The history string of a list of action indices (inverse of ``history_actions``).

    >>> actions_history([2, 1, 3], parse_actions("min,pot"))
    'rcp'
    """
    letters = actions.letters
    bad = [index for index in indices if not 0 <= index < len(letters)]
    if bad:
        raise ValueError(f"action index {bad[0]!r} is outside 0..{len(letters) - 1}")
    return "".join(letters[index] for index in indices)


def infoset_key(card_label: str, history: str) -> str:
    """``'<cards> <history>'``, or the card label alone before any action.

    >>> infoset_key("AKs", "rr")
    'AKs rr'
    """
    return f"{card_label} {history}" if history else card_label


def split_infoset_key(key: str) -> tuple[str, str]:
    """The card label and history of a key (inverse of ``infoset_key``).

    >>> split_infoset_key("AKs"), split_infoset_key("AKs 555 rc")
    (('AKs', ''), ('AKs 555', 'rc'))
    >>> split_infoset_key("")
    Traceback (most recent call last):
    ...
    ValueError: info-set key '' is empty
    """
    if not key.strip():
        raise ValueError(f"info-set key {key!r} is empty")
    head, _, last = key.rpartition(" ")
    if head and _KEY_HISTORY.match(last):
        return head, last
    return key, ""
