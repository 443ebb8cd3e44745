"""The arena's seed schedule: every random draw of a run derives from its seed here.

One match seed determines everything a match, a local-best-response run, a tournament or a
play session draws, whatever process plays which hand:

* the deal's cards: :func:`deal_seed` (seed, deal) seeds :func:`deal_deck`;
* the hand: :func:`hand_seed` (seed, deal, hand index) re-seeds the global ``random`` and
  numpy generators before the hand, and through :func:`seat_seed` each bot's own generator; a
  match in sessions uses the index its deal and seats have without sessions
  (:meth:`arena.match.MatchConfig.seeding_index`), so both layouts draw alike;
* the bots: :func:`bot_seed` seeds the generator a bot is built with (salt ``BOT_SALT``);
  bots built afresh for each session of a match (``--session-hands``) or each tournament
  take :func:`session_bot_seed` instead (salt ``SESSION_SALT``);
* local best response: its own generator (``LBR_SALT``) and the copy of the bot it reads the
  policy from (``LBR_MODEL_SALT``; with ``SESSION_SALT`` and the session's number when it is
  built afresh for each session);
* tournaments: hand ``h`` of card sequence ``deal`` is dealt from
  :func:`tournament_deal_seed` (``TOURNAMENT_SALT``) in every seat rotation, and its
  generators are seeded from :func:`tournament_hand_seed`, which also depends on the rotation.

Seeds are mixed with splitmix64 (:func:`agent.poker.rng.mix_seed`). The salts only keep the
streams apart; their values are arbitrary but fixed, since changing one changes every result.

>>> deal_seed(0, 1)
7430010552196289380
>>> deck = deal_deck(7); len(deck), len(set(deck)), all(1 <= c <= 52 for c in deck)
(9, 9, True)
>>> deal_deck(7, players=6)[:9] == deck  # more seats deal more cards, the first ones alike
True
"""

from __future__ import annotations

import random

from agent.poker.rng import mix_seed

BOT_SALT = 0xB07  # "BOT": the generators the bots are built with
LBR_MODEL_SALT = 0x30DE1  # "MODEL": the copy of the bot that LBR asks for the policy
LBR_SALT = 0x1B2  # "LBR": local best response's own generator
TOURNAMENT_SALT = 0x7017  # "TOUR": a tournament hand's cards and generators
SESSION_SALT = 0x5E55  # "SESS": the bots built afresh for a session or a tournament
BOARD_CARDS = 5


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal ``deal``'s cards."""
    return mix_seed(seed, deal)


def hand_seed(seed: int, deal: int, index: int) -> int:
    """The seed of hand ``index`` (playing deal ``deal``): global generators, bots' generators."""
    return mix_seed(seed, deal, index)


def seat_seed(hand: int, slot_number: int) -> int:
    """The seed a bot's generator is reset to before a hand (slot A is 0, B is 1, ...)."""
    return mix_seed(hand, slot_number)


def bot_seed(seed: int, slot_number: int) -> int:
    """The seed a bot is built with."""
    return mix_seed(seed, BOT_SALT, slot_number)


def session_bot_seed(seed: int, session: int, slot_number: int) -> int:
    """The seed a bot is built with for session ``session`` (a match's session pair, or a
    tournament's card sequence): the same in every seat orientation of that session."""
    return mix_seed(seed, SESSION_SALT, session, slot_number)


def lbr_model_seed(seed: int, session: int | None = None) -> int:
    """The seed of the bot copy that local best response reads the policy from: for the
    whole run, or built afresh for session (pair) ``session``."""
    if session is None:
        return mix_seed(seed, LBR_MODEL_SALT)
    return mix_seed(seed, LBR_MODEL_SALT, SESSION_SALT, session)


def lbr_seed(seed: int) -> int:
    """The seed of local best response's own generator."""
    return mix_seed(seed, LBR_SALT)


def tournament_deal_seed(seed: int, deal: int, hand: int) -> int:
    """The seed of the cards of hand ``hand`` (from 1) of tournament card sequence ``deal``."""
    return mix_seed(seed, TOURNAMENT_SALT, deal, hand)


def tournament_hand_seed(seed: int, deal: int, rotation: int, hand: int) -> int:
    """The seed of the generators in hand ``hand`` of sequence ``deal`` played in ``rotation``."""
    return mix_seed(seed, TOURNAMENT_SALT, deal, hand, rotation + 1)


def deal_deck(deal_seed: int, players: int = 2) -> list[int]:
    """PyPokerEngine card ids (1..52) in dealing order: two hole cards for each seat in seat
    order, then flop, turn and river. The first cards do not depend on ``players``."""
    _DEALER_RNG.seed(deal_seed)
    return _DEALER_RNG.sample(range(1, 53), 2 * players + BOARD_CARDS)


_DEALER_RNG = random.Random()  # reused: seeding is cheaper than building one per hand
