"""Play heads-up no-limit hold'em against a bot in a terminal (``arena play BOT``).

A human sits in a real PyPokerEngine game behind :class:`HumanPlayer`, a
``BasePokerPlayer`` that reads keys from an injectable text stream (PyPokerEngine's own
``ConsolePlayer`` uses Python 2's ``raw_input``). Hands are played as in the arena
(:mod:`arena.engine`, :mod:`arena.match`): each from fresh stacks, on a deck dealt from
``arena.seeding.deal_seed(seed, hand)`` through PyPokerEngine's prepared deck, the button
alternating (the
human has it on even hands). Every legal action is sent with the exact amount PyPokerEngine
offers, so the engine never turns a human action into a fold; bad input is explained and
asked again. Hands are appended to ``hands.csv`` in the arena's format as they finish (the
human is slot A, the bot slot B), and ``summary.json`` is written when the session ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np
from pypokerengine.players import BasePokerPlayer

from agent.poker.cards import from_ppe_id, parse_card
from arena.engine import SLOTS, HandResult, HeadsUpTable
from arena.match import MatchConfig, summarize
from arena.registry import accepted_seed_keyword, make_bot, parse_bot_spec, resolve_factory
from arena.results import HANDS_FILE, SUMMARY_FILE, HandsWriter, hand_row, write_json
from arena.seeding import bot_seed, deal_deck, deal_seed, hand_seed, seat_seed
from arena.terminal_view import (
    Choices,
    can_print_suits,
    cards_label,
    choices,
    describe_entry,
    render_choices,
    render_table,
    street_bets,
    table_view,
)

HUMAN = "human"  # the human's spec and label in the files (slot A)
PROMPT = "your action> "
HELP = (
    "keys: f = fold, c = check or call, r N = raise to N chips in this street "
    "(e.g. r 60), a = all-in, q = quit and save"
)

Action = tuple[str, int]


class QuitRequested(BaseException):
    """The human typed ``q`` (or the input ended): stop after saving what was played.

    A BaseException, like KeyboardInterrupt: the arena folds for a bot whose decision raises an
    Exception, but a stop request must end the session.
    """


class InputProblem(ValueError):
    """A typed line that is not a legal action here; the message says why."""


def parse_command(text: str, options: Choices) -> Action:
    """The PyPokerEngine action for a typed line, or :class:`InputProblem` saying why not.

    >>> facing = Choices(call_to=10, to_call=5, raise_min=15, raise_max=1000)
    >>> parse_command("c", facing), parse_command("r 40", facing), parse_command("a", facing)
    (('call', 10), ('raise', 40), ('raise', 1000))
    >>> parse_command("r 12", facing)
    Traceback (most recent call last):
    ...
    arena.play.InputProblem: a raise must be to between 15 and 1000 chips, not 12
    >>> parse_command("f", Choices(call_to=0, to_call=0, raise_min=10, raise_max=1000))
    Traceback (most recent call last):
    ...
    arena.play.InputProblem: checking is free here: type c to check, or 'fold' to fold anyway
    """
    words = text.strip().lower().split()
    if not words:
        raise InputProblem("nothing typed; " + HELP)
    key, rest = words[0], words[1:]
    if key[:1] == "r" and key[1:].isdigit():  # "r60" is "r 60"
        key, rest = "r", [key[1:], *rest]
    if key in ("q", "quit", "exit"):
        raise QuitRequested
    if key in ("f", "fold"):
        if options.to_call == 0 and key == "f":
            raise InputProblem("checking is free here: type c to check, or 'fold' to fold anyway")
        return _no_extra(rest, text, ("fold", 0))
    if key in ("c", "k", "call", "check"):
        return _no_extra(rest, text, ("call", options.call_to))
    if key in ("a", "allin", "all-in"):
        action = ("raise", options.raise_max) if options.can_raise else ("call", options.call_to)
        return _no_extra(rest, text, action)  # type: ignore[arg-type]
    if key in ("r", "raise", "b", "bet"):
        return ("raise", _raise_amount(rest, options))
    raise InputProblem(f"unknown key {words[0]!r}; " + HELP)


def _no_extra(rest: list[str], text: str, action: Action) -> Action:
    if rest:
        raise InputProblem(f"{text.strip()!r}: this key takes no amount; " + HELP)
    return action


def _raise_amount(rest: list[str], options: Choices) -> int:
    if not options.can_raise:
        raise InputProblem("no raise is possible here: c to call, f to fold")
    if len(rest) != 1 or not rest[0].isdigit():
        raise InputProblem(
            f"type r and the chips to raise to in this street, {options.raise_min}.."
            f"{options.raise_max} (e.g. r {options.raise_min})"
        )
    amount = int(rest[0])
    assert options.raise_min is not None and options.raise_max is not None
    if not options.raise_min <= amount <= options.raise_max:
        raise InputProblem(
            f"a raise must be to between {options.raise_min} and {options.raise_max} chips, "
            f"not {amount}"
        )
    return amount


class HumanPlayer(BasePokerPlayer):
    """A PyPokerEngine seat driven by lines read from ``reader``; it narrates to ``writer``."""

    def __init__(self, reader: TextIO, writer: TextIO, bot_name: str, ascii_only: bool) -> None:
        super().__init__()
        self.reader = reader
        self.writer = writer
        self.bot_name = bot_name
        self.ascii_only = ascii_only
        self.hole: list[int] = []

    def say(self, text: str) -> None:
        self.writer.write(text + "\n")
        self.writer.flush()

    def _name(self, uuid: str) -> str:
        return "you" if uuid == self.uuid else self.bot_name

    def declare_action(
        self, valid_actions: list[dict[str, Any]], hole_card: list[str], round_state: dict
    ) -> Action:
        view = table_view(round_state, self.uuid, {self.uuid: "you"} | self._bot_names(round_state))
        options = choices(valid_actions, street_bets(round_state).get(self.uuid, 0))
        self.say("")
        self.say(render_table(view, self.hole, self.ascii_only))
        self.say(render_choices(options))
        while True:
            self.writer.write(PROMPT)
            self.writer.flush()
            line = self.reader.readline()
            if not line:
                raise QuitRequested
            try:
                return parse_command(line, options)
            except InputProblem as problem:
                self.say(f"  ! {problem}")

    def _bot_names(self, round_state: dict) -> dict[str, str]:
        return {s["uuid"]: self.bot_name for s in round_state["seats"] if s["uuid"] != self.uuid}

    def receive_game_start_message(self, game_info: dict) -> None:
        self.hole = []

    def receive_round_start_message(self, round_count: int, hole_card: list, seats: list) -> None:
        self.hole = [parse_card(card) for card in hole_card]
        self.say(f"  your cards: {cards_label(self.hole, self.ascii_only)}")

    def receive_street_start_message(self, street: str, round_state: dict) -> None:
        if street == "preflop":
            for entry in round_state["action_histories"].get("preflop") or ():
                self.say("  " + describe_entry(self._name(entry["uuid"]), entry))
            return
        board = cards_label(round_state["community_card"], self.ascii_only)
        pot = round_state["pot"]["main"]["amount"]
        self.say(f"  -- {street}: {board}   (pot {pot})")

    def receive_game_update_message(self, new_action: dict, round_state: dict) -> None:
        entries = round_state["action_histories"].get(round_state["street"]) or ()
        mine = [e for e in entries if e["uuid"] == new_action["player_uuid"]]
        if mine:
            self.say("  " + describe_entry(self._name(new_action["player_uuid"]), mine[-1]))

    def receive_round_result_message(
        self, winners: list, hand_info: list, round_state: dict
    ) -> None:
        """The game loop reports the result, with the bot's cards at a showdown."""


@dataclass(frozen=True)
class PlayConfig:
    """A terminal session: the bot, how many hands (None: until q), chips and the seed."""

    bot: str
    hands: int | None = None
    stack: int = 1000
    small_blind: int = 5
    seed: int = 0

    def __post_init__(self) -> None:
        if self.hands is not None and self.hands <= 0:
            raise ValueError(f"hands must be positive, got {self.hands}")
        if self.small_blind <= 0 or self.stack < 2 * self.small_blind:
            raise ValueError(
                f"stack {self.stack} must cover a big blind of {2 * self.small_blind} chips"
            )

    def match_config(self, hands: int) -> MatchConfig:
        """The arena's config for the hands played (human as A, no duplicate)."""
        return MatchConfig(
            HUMAN, self.bot, max(hands, 1), self.seed, False, self.stack, self.small_blind
        )


@dataclass
class Session:
    """A running session: the table, the bot's generator and the rows played so far."""

    config: PlayConfig
    human: HumanPlayer
    table: HeadsUpTable
    bot_name: str
    rng: np.random.Generator | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)


def build_session(config: PlayConfig, reader: TextIO, writer: TextIO, ascii_only: bool) -> Session:
    """Load the bot (ValueError if it cannot be), seat it and the human at one table."""
    spec = parse_bot_spec(config.bot)
    rng = None
    if accepted_seed_keyword(resolve_factory(spec)) == "rng":
        rng = np.random.default_rng(bot_seed(config.seed, 1))
    bot = make_bot(spec, rng=rng, seed=bot_seed(config.seed, 1))
    human = HumanPlayer(reader, writer, spec.label, ascii_only)
    table = HeadsUpTable({"A": human, "B": bot}, config.stack, config.small_blind)
    return Session(config, human, table, spec.label, rng)


def play_one(session: Session, index: int) -> tuple[HandResult, dict[str, Any]]:
    """Play hand ``index`` (seeded as the arena seeds it): the result and its ``hands.csv`` row."""
    seed = session.config.seed
    cards_seed = deal_seed(seed, index)
    this_hand = hand_seed(seed, index, index)
    if session.rng is not None:
        session.rng.bit_generator.state = np.random.PCG64(seat_seed(this_hand, 1)).state
    button = SLOTS[index % 2]
    result = session.table.play(deal_deck(cards_seed), button, this_hand)
    return result, hand_row(index, index, cards_seed, result)


def hand_header(session: Session, index: int) -> str:
    """The line that opens a hand: number, blinds and who has the button."""
    config = session.config
    total = f" of {config.hands}" if config.hands else ""
    if index % 2 == 0:
        seats = f"you have the button (big blind); {session.bot_name} is small blind, acts first"
    else:
        seats = f"{session.bot_name} has the button (big blind); you are small blind, act first"
    blinds = f"blinds {config.small_blind}/{2 * config.small_blind}, stacks {config.stack}"
    return f"\n===== hand {index + 1}{total} | {blinds} | {seats} ====="


def hand_footer(session: Session, result: HandResult, row: dict[str, Any]) -> str:
    """Showdown cards (if any), the hand's result and the running result."""
    lines = []
    ascii_only = session.human.ascii_only
    if ":FOLD" not in result.actions:  # a showdown: the board was dealt out to the river
        bot_seat = result.seat_slots.index("B")
        bot_cards = list(result.deck[2 * bot_seat : 2 * bot_seat + 2])
        mine = list(result.deck[2 - 2 * bot_seat : 4 - 2 * bot_seat])
        lines.append(f"  board: {_ppe_cards(list(result.deck[4:9]), ascii_only)}")
        lines.append(
            f"  showdown: {session.bot_name} shows {_ppe_cards(bot_cards, ascii_only)}, "
            f"you show {_ppe_cards(mine, ascii_only)}"
        )
    won = row["won_A"]
    verdict = f"you won {won}" if won > 0 else (f"you lost {-won}" if won < 0 else "split pot, 0")
    lines.append(f"  {verdict} chips. {running_line(session)}")
    return "\n".join(lines)


def _ppe_cards(ppe_ids: list[int], ascii_only: bool) -> str:
    return cards_label([from_ppe_id(card) for card in ppe_ids], ascii_only)


def running_line(session: Session) -> str:
    """Total chips and sb/h over the hands played so far.

    The unit is small blinds won per hand: sb/h = chips won / (small blind x hands).
    """
    rows = session.rows
    total = sum(row["won_A"] for row in rows)
    rate = total / (session.config.small_blind * len(rows)) if rows else 0.0
    return f"running: {total:+d} chips over {len(rows)} hands = {rate:+.2f} sb/h"


def run_session(
    config: PlayConfig,
    reader: TextIO,
    writer: TextIO,
    out_dir: Path,
    ascii_only: bool | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, Any]:
    """Play until ``config.hands`` are done or the human quits; save and return the summary."""
    if ascii_only is None:
        ascii_only = not can_print_suits(writer)
    session = build_session(config, reader, writer, ascii_only)
    out_dir.mkdir(parents=True, exist_ok=True)
    hands_writer = HandsWriter(out_dir / HANDS_FILE)
    started = clock()
    human = session.human
    human.say(f"you vs {session.bot_name}. {HELP}")
    abandoned = False
    try:
        index = 0
        while config.hands is None or index < config.hands:
            human.say(hand_header(session, index))
            try:
                result, row = play_one(session, index)
            except (QuitRequested, KeyboardInterrupt):  # Ctrl-C quits like q
                abandoned = True
                break
            session.rows.append(row)
            hands_writer.write([row])
            human.say(hand_footer(session, result, row))
            index += 1
    finally:
        hands_writer.close()
    summary = session_summary(session, clock() - started, abandoned)
    write_json(out_dir / SUMMARY_FILE, summary)
    human.say(render_summary(summary, out_dir))
    return summary


def session_summary(session: Session, wall_seconds: float, abandoned: bool) -> dict[str, Any]:
    """The arena's ``summary.json`` for the hands played, plus what only a session has."""
    rows = session.rows
    summary = summarize(session.config.match_config(len(rows)), rows, wall_seconds, len(rows))
    summary["mode"] = "human"
    summary["abandoned_hand"] = abandoned
    return summary


def render_summary(summary: dict[str, Any], out_dir: Path) -> str:
    """The closing lines: hands, chips, sb/h with its interval, where the files are."""
    human, bot = summary["players"]
    chips = summary["chips"][human] if summary["hands"] else 0
    ci = summary["ci95_sb_per_hand"]
    units = f", {summary['ci_units']}" if "ci_units" in summary else ""
    ci_text = f" +/- {ci:.2f} (95% t{units})" if ci is not None else ""
    lines = [
        "",
        f"===== session over: you vs {bot} =====",
        f"  hands played: {summary['hands']}"
        + ("  (the unfinished hand is not counted)" if summary["abandoned_hand"] else ""),
        f"  your result: {chips:+d} chips = {summary['sb_per_hand']:+.2f} sb/h{ci_text}, "
        f"{summary['bb_per_100']:+.1f} bb/100",
        f"  saved: {out_dir / HANDS_FILE} and {out_dir / SUMMARY_FILE}",
    ]
    return "\n".join(lines)
