"""A person at a PyPokerEngine table of 2 to 10 seats, played from a web page.

The game runs in a worker thread, inside PyPokerEngine, as the arena plays it
(:class:`arena.engine.RingTable`): every hand from fresh stacks, the seats rotated from hand
to hand (:func:`arena.engine.rotated`), the deck dealt from ``arena.seeding.deal_seed(seed,
hand)``, the bots' generators re-seeded for each hand. The person is slot A, behind
:class:`WebPerson`, a ``BasePokerPlayer`` whose ``declare_action`` publishes the decision
and waits for the page's answer; the bots are slots B, C, ... built through
:mod:`arena.registry` and seated behind the arena's :class:`arena.engine.SeatProxy`, which
counts a bot's errors and folds for it. The page's answer is checked against the
decision's ``valid_actions`` (:mod:`arena.web.actions`) before the engine sees it.

The first hand is dealt when a person is there: the worker waits for the page's first
request for the table (:meth:`WebTable.arrive`), so that no hand is played, or even
finished by a bot's fold, before anyone sees it. Each later hand waits for *Next hand*.

Each finished hand is appended to ``hands.csv`` (the arena's heads-up format, or the ring
game's at three seats or more) and written as a PHH file under ``phh/``, so a closed tab
loses nothing played. With a coach (:mod:`arena.web.coach`), a copy of the coach's bot sees
every message of the person's seat and answers, at each of the person's decisions, with the
action probabilities it would have played.
"""

from __future__ import annotations

import csv
import json
import queue
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pypokerengine.players import BasePokerPlayer

from arena.engine import (
    MAX_SEATS,
    BotWithCopies,
    HandResult,
    RingTable,
    ring_slots,
    rotated,
    seat_holes,
)
from arena.match import reseed
from arena.registry import accepted_seed_keyword, make_bot, parse_bot_spec, resolve_factory
from arena.results import HANDS_FILE, HandsWriter, hand_row
from arena.roundrobin import unique_labels
from arena.seeding import bot_seed, deal_deck, deal_seed, hand_seed
from arena.terminal_view import Choices, choices, street_bets
from arena.web.actions import Pending, button_labels, checked_action
from arena.web.coach import Advice, AskLog, Coach
from arena.web.view import card_texts, paid_out, plural, table_state

PERSON = "you"
NAMES_FILE = "players.json"  # the names by slot, for the replay of the PHH files
PHH_FOLDER = "phh"


class TableClosed(BaseException):
    """The server stops: the worker leaves the hand it is in (saved hands are kept)."""


@dataclass(frozen=True)
class TableConfig:
    """A session at the web table: the bots (1 to 9), hands (None: until closed), chips."""

    bots: tuple[str, ...]
    hands: int | None = None
    stack: int = 1000
    small_blind: int = 5
    ante: int = 0
    seed: int = 0
    coach: str | None = "cfrv2"

    def __post_init__(self) -> None:
        if not 1 <= len(self.bots) <= MAX_SEATS - 1:
            raise ValueError(f"a table seats 1 to {MAX_SEATS - 1} bots, got {len(self.bots)}")
        if self.hands is not None and self.hands <= 0:
            raise ValueError(f"hands must be positive, got {self.hands}")
        if self.small_blind <= 0 or self.ante < 0:
            raise ValueError("the small blind must be positive and the ante not negative")
        if self.stack < 2 * self.small_blind + self.ante:
            raise ValueError(f"stack {self.stack} must cover a big blind of {2 * self.small_blind}")

    @property
    def slots(self) -> tuple[str, ...]:
        return ring_slots(len(self.bots) + 1)

    def names(self) -> dict[str, str]:
        """Display names by slot: ``you`` for A, the bots' labels (numbered if alike)."""
        labels = unique_labels(list(self.bots)) if self.bots else []
        return dict(zip(self.slots, [PERSON, *labels], strict=True))


class WebPerson(BasePokerPlayer):
    """The person's seat: asks wait for the page; messages update what the page shows."""

    def __init__(self, table: WebTable) -> None:
        super().__init__()
        self.table = table

    def declare_action(
        self, valid_actions: list[dict], hole_card: list[str], round_state: dict
    ) -> tuple[str, int]:
        return self.table.ask(valid_actions, hole_card, round_state)

    def receive_game_start_message(self, game_info: dict) -> None:
        """Each hand is a game of one round; nothing to keep."""

    def receive_round_start_message(self, round_count: int, hole_card: list, seats: list) -> None:
        self.table.hole = card_texts(hole_card)

    def receive_street_start_message(self, street: str, round_state: dict) -> None:
        self.table.observe(round_state)

    def receive_game_update_message(self, new_action: dict, round_state: dict) -> None:
        self.table.observe(round_state)

    def receive_round_result_message(self, winners: list, hand_info: list, round_state: dict):
        self.table.observe(round_state)


@dataclass
class Decision:
    """One of the person's decisions: what the engine asked, and the coach's answer."""

    number: int
    hand: int
    valid_actions: list[dict]
    hole_card: list[str]
    round_state: dict
    asks_before: int  # the bots' decisions seen before it (the coach reads their ranges)
    options: Choices  # the legal actions as the page's buttons offer them
    coach: Advice | None = None
    answer: tuple[str, int] | None = None


@dataclass
class WebTable:
    """The session: the engine's table in a worker thread and what the page shows."""

    config: TableConfig
    out_dir: Path
    changed: threading.Condition = field(default_factory=threading.Condition)
    version: int = 0
    hole: list[str] = field(default_factory=list)
    hand: int = 0
    status: str = "starting"
    pending: Pending | None = None
    decisions: list[Decision] = field(default_factory=list)
    results: list[HandResult] = field(default_factory=list)
    finished: list[dict[str, Any]] = field(default_factory=list)
    message: str = ""

    def __post_init__(self) -> None:
        self.names_by_slot = self.config.names()
        self.answers: queue.Queue[tuple[str, int]] = queue.Queue()
        self.proceed = threading.Event()
        self.present = threading.Event()  # set by the page's first request: deal hand 1
        self.closing = False
        self.round_state: dict | None = None
        self.asks = AskLog()
        self.coach = Coach.load(self.config.coach, self.config.seed) if self.config.coach else None
        self.person = WebPerson(self)
        self.rngs: dict[str, np.random.Generator] = {}
        self.engine = RingTable(self._seated(), self.config.stack, self.config.small_blind)
        self.engine.dealer.ante = self.config.ante
        self.names = {p.uuid: self.names_by_slot[s] for s, p in self.engine.proxies.items()}
        self.my_uuid = self.engine.proxies["A"].uuid
        self.thread = threading.Thread(target=self._run, name="web-table", daemon=True)

    def _seated(self) -> dict[str, Any]:
        person: Any = self.person
        if self.coach is not None:
            person = BotWithCopies(self.person, (self.coach.advisor,))
        seated = {"A": person}
        pairs = zip(self.config.slots[1:], self.config.bots, strict=True)
        for number, (slot, text) in enumerate(pairs, 1):
            spec = parse_bot_spec(text)
            seed = bot_seed(self.config.seed, number)
            rng = None
            if accepted_seed_keyword(resolve_factory(spec)) == "rng":
                rng = self.rngs[slot] = np.random.default_rng(seed)
            bot = make_bot(spec, rng=rng, seed=seed)
            seated[slot] = BotWithCopies(bot, (self.asks.watcher(),))
        return seated

    # -- the worker ------------------------------------------------------------------------

    def start(self) -> None:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        (self.out_dir / PHH_FOLDER).mkdir(exist_ok=True)
        names = {"players": self.names_by_slot, "config": self.config.__dict__}
        (self.out_dir / NAMES_FILE).write_text(json.dumps(names, indent=1), encoding="utf-8")
        self.thread.start()

    def arrive(self) -> None:
        """A page asked for the table: the first hand may be dealt."""
        self.present.set()

    def close(self) -> None:
        self.closing = True
        self.present.set()
        self.proceed.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        writer = HandsFile(self.out_dir / HANDS_FILE, self.config)
        try:
            self._publish(status="waiting", message="hand 1 is dealt when the page opens")
            self.present.wait()
            while not self.closing and (self.config.hands is None or self.hand < self.config.hands):
                self._play_hand(writer)
                self.proceed.wait()
                self.proceed.clear()
            self._publish(status="over", message="the session is over; the hands are saved")
        except TableClosed:
            pass
        except Exception as error:  # the engine itself failed: say so on the page
            self._publish(status="over", message=f"the table stopped: {error}")
        finally:
            writer.close()

    def _play_hand(self, writer: HandsFile) -> None:
        index = self.hand
        players = len(self.config.slots)
        this_hand = hand_seed(self.config.seed, index, index)
        reseed(self.rngs, this_hand)
        self.asks.new_hand()
        deck = deal_deck(deal_seed(self.config.seed, index), players=players)
        self.round_state = None
        self._publish(status="playing", message=f"hand {index + 1}: dealing")
        seats = rotated(self.config.slots, index)
        result = self.engine.play_seated(deck, seats, this_hand)
        self.results.append(result)
        final = self.engine.proxies["A"].last_result
        assert final is not None
        writer.write(index, deal_seed(self.config.seed, index), result)
        write_hand_phh(self.out_dir / PHH_FOLDER, index, final["round_state"], deck, self.config)
        summary = hand_summary(result, final["round_state"], self)
        self.finished.append(summary)
        self.hand += 1
        self._publish(status="hand_over", message=summary["verdict"])

    # -- the person's decisions ----------------------------------------------------------

    def ask(self, valid_actions: list[dict], hole_card: list[str], round_state: dict):
        number = len(self.decisions) + 1
        mine = street_bets(round_state).get(self.my_uuid, 0)
        options = choices(valid_actions, mine)
        asks_before = len(self.asks.asks)
        decision = Decision(
            number, self.hand, valid_actions, hole_card, round_state, asks_before, options
        )
        if self.coach is not None:
            decision.coach = self.coach.probabilities(valid_actions, hole_card, round_state)
        self.decisions.append(decision)
        self.round_state = round_state
        with self.changed:
            self.pending = Pending(number, options)
        self._publish(status="your_turn", message=f"hand {self.hand + 1}: your turn")
        while True:
            try:
                answer = self.answers.get(timeout=0.2)
                break
            except queue.Empty:
                if self.closing:
                    raise TableClosed from None
        return answer

    def submit(self, body: Any) -> tuple[str, int]:
        """Check the page's answer and hand it to the engine; ActionRejected if refused."""
        with self.changed:
            answer = checked_action(body, self.pending)
            assert self.pending is not None
            # kept before the reply, so that the coach asked next knows what was played
            self.decisions[self.pending.number - 1].answer = answer
            self.pending = None
        self.answers.put(answer)
        self._publish(status="playing", message=f"hand {self.hand + 1}: the bots act")
        return answer

    def next_hand(self) -> None:
        self.proceed.set()

    def asks_of_hand(self, hand: int) -> list:
        """The bots' decisions in hand ``hand`` (from 0)."""
        return self.asks.hands[hand] if hand < len(self.asks.hands) else []

    # -- what the page shows ---------------------------------------------------------------

    def observe(self, round_state: dict) -> None:
        self.round_state = round_state
        self._publish()

    def _publish(self, status: str | None = None, message: str | None = None) -> None:
        with self.changed:
            if status is not None:
                self.status = status
            if message is not None:
                self.message = message
            self.version += 1
            self.changed.notify_all()

    def state(self) -> dict[str, Any]:
        """The JSON the page draws."""
        with self.changed:
            pending, version = self.pending, self.version
        table = None
        if self.round_state is not None:
            shown = {self.my_uuid: self.hole}
            table = table_state(self.round_state, self.names, self.my_uuid, shown)
        return {
            "version": version,
            "status": self.status,
            "message": self.message,
            "hand": self.hand + (0 if self.status == "hand_over" else 1),
            "hands": self.config.hands,
            "small_blind": self.config.small_blind,
            "big_blind": 2 * self.config.small_blind,
            "ante": self.config.ante,
            "coach": self.config.coach,
            "table": table,
            "decision": None if pending is None else decision_json(pending),
            "last": self.finished[-1] if self.finished and self.status != "playing" else None,
            "total": sum(row["won"][PERSON] for row in self.finished),
            "played": len(self.finished),
        }


def decision_json(pending: Pending) -> dict[str, Any]:
    options = pending.options
    return {
        "number": pending.number,
        "call_to": options.call_to,
        "to_call": options.to_call,
        "raise_min": options.raise_min,
        "raise_max": options.raise_max,
        "labels": button_labels(options),
    }


def hand_summary(result: HandResult, round_state: dict, table: WebTable) -> dict[str, Any]:
    """The hand as the page shows it after the end: showdown, stacks, chips won, history."""
    names = table.names_by_slot
    players = len(result.seat_slots)
    holes = seat_holes(list(result.deck), players)
    in_hand = [i for i, seat in enumerate(round_state["seats"]) if seat["state"] != "folded"]
    showdown = len(in_hand) > 1
    shown = {}
    for position, slot in enumerate(result.seat_slots):
        if slot == "A" or (showdown and position in in_hand):
            shown[round_state["seats"][position]["uuid"]] = card_texts(list(holes[position]))
    final = paid_out(table_state(round_state, table.names, table.my_uuid, shown))
    won = {names[slot]: result.won[slot] for slot in result.seat_slots}
    mine = won[PERSON]
    verdict = f"you won {plural(mine, 'chip')}" if mine > 0 else "even"
    if mine < 0:
        verdict = f"you lost {plural(-mine, 'chip')}"
    errors = {names[s]: len(e) for s, e in result.errors.items() if e and s != "A"}
    return {
        "hand": table.hand + 1,
        "showdown": showdown,
        "table": final,
        "stacks": {seat["name"]: seat["stack"] for seat in final["seats"]},
        "won": won,
        "errors": errors,
        "verdict": f"hand {table.hand + 1}: {verdict}",
        "decisions": [d.number for d in table.decisions if d.hand == table.hand],
    }


class HandsFile:
    """``hands.csv`` as the arena writes it: heads-up rows, or ring rows at 3+ seats."""

    def __init__(self, path: Path, config: TableConfig) -> None:
        self.config = config
        self.heads_up = len(config.slots) == 2
        if self.heads_up:
            self.writer: Any = HandsWriter(path)
            return
        from arena.ring import RingConfig, ring_columns

        players = len(config.slots)
        self.ring = RingConfig(("human", *config.bots), players, config.seed, config.stack)
        new = not path.exists() or path.stat().st_size == 0
        self.file = path.open("a", newline="", encoding="utf-8")
        self.rows = csv.DictWriter(self.file, ring_columns(self.ring), extrasaction="ignore")
        if new:
            self.rows.writeheader()

    def write(self, index: int, seed: int, result: HandResult) -> None:
        if self.heads_up:
            self.writer.write([hand_row(index, index, seed, result)])
            return
        from arena.ring import ring_row

        self.rows.writerow(ring_row(self.ring, index, index, result))
        self.file.flush()

    def close(self) -> None:
        (self.writer if self.heads_up else self.file).close()


def write_hand_phh(
    folder: Path, index: int, round_state: dict, deck: list[int], config: TableConfig
) -> None:
    """The hand as ``<folder>/hand-<index>.phh`` (players named by slot, as the arena does)."""
    from arena.phh import hand_record, write_phh

    players = len(config.slots)
    holes = seat_holes(deck, players)
    record = hand_record(round_state, [config.stack] * players, holes, config.ante)
    write_phh(folder / f"hand-{index:07d}.phh", [record])
