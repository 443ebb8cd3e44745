"""Local best response (LBR): a PyPokerEngine player that exploits a bot it can read.

Lisý & Bowling 2017, "Equilibrium Approximation Quality of Current No-Limit Poker Bots"
(Algorithm 1). LBR keeps the bot's range through a hand (:mod:`arena.lbr.range`), updated by
Bayes' rule with the bot's action probabilities for every holding, and at each decision scores
each action relative to folding now, with ``wp`` its share of the pot at showdown against the
range (:mod:`agent.poker.range_equity`):

* call (check): ``wp * (pot + to_call) - to_call``, checking and calling to the showdown;
* a bet adding ``x`` chips, which the bot folds to with range-weighted probability ``fp``:
  ``fp * pot + (1 - fp) * (wp' * final_pot - x)``. ``wp'`` is, by ``value``, the equity
  against the hands that continue (``continuing``) or against the whole range (``whole``, the
  paper's rule, which overvalues a bet only better hands call).

It plays the best (checking rather than folding when checking is free) on the streets
``rounds`` names and checks or calls on the others. Bet sizes are fractions of the pot after
calling, and ``allin``, clamped to the legal raise range. What LBR wins is, in expectation, a
lower bound on the bot's exploitability.

LBR reads the bot through a *model*, a second instance of the bot seated as its copy
(:class:`arena.engine.BotWithCopies`, :class:`ModelSeat`): it is sent every message the bot is
sent, so a bot that learns teaches the model the same, and it is told each decision the bot
made only after LBR has read its policy at that state. A bot with ``action_probabilities``
(the policy interface, :mod:`agent.boundary.policy`) is read exactly (a learning one through
its ``learned_policy_table``); for any other, ``declare_action`` is called ``policy_samples``
times per holding. Each query re-seeds the model's ``rng`` from the public state and the
holding and restores the global generators, so answers can be cached per public state and a
match gives the same results for any number of worker processes.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pypokerengine.engine.action_checker import ActionChecker
from pypokerengine.engine.round_manager import RoundManager
from pypokerengine.players import BasePokerPlayer
from pypokerengine.utils.game_state_utils import restore_game_state

from agent.boundary.bot import (
    LearnedTablePolicy,
    PolicyBot,
    Seeded,
    SelfObserver,
    TablePolicy,
    learns,
)
from agent.boundary.policy import PolicyPlayer, WeightedAction
from agent.poker.cards import parse_card, to_ppe
from agent.poker.equity import preflop_equity
from agent.poker.range_equity import (
    HOLDING_CARDS,
    HOLDINGS,
    PREFLOP_SAMPLES,
    blocked_mask,
    holding_counts_kernel,
    live_holdings,
    weighted_counts,
)
from agent.poker.rng import mix_seed, seed_from
from arena.engine import seed_global_generators
from arena.lbr.range import Range

ALLIN = "allin"
Bet = float | str
DEFAULT_BETS: tuple[Bet, ...] = (0.5, 1.0, ALLIN)
VALUES = ("continuing", "whole")  # how a called bet is valued (module docstring)
ROUNDS = {"1-4": ("preflop", "flop", "turn", "river"), "3-4": ("turn", "river")}
HOLDING_PPE = [[to_ppe(int(a)), to_ppe(int(b))] for a, b in HOLDING_CARDS]
HOLDING_TUPLES = [(int(a), int(b)) for a, b in HOLDING_CARDS]
PREFLOP_CACHE_LIMIT = 4096


def parse_bets(text: str) -> tuple[Bet, ...]:
    """Bet sizes from ``0.5,1,allin`` (pot fractions and ``allin``); ``none`` for fold/call.

    >>> parse_bets("0.5, 1,ALLIN"), parse_bets("none")
    ((0.5, 1.0, 'allin'), ())
    >>> parse_bets("0.5,-1")
    Traceback (most recent call last):
    ...
    ValueError: bet size '-1' in '0.5,-1': expected a positive pot fraction or 'allin'
    """
    if text.strip().lower() in ("", "none", "fc"):
        return ()
    sizes: list[Bet] = []
    for item in text.split(","):
        word = item.strip().lower()
        if word in (ALLIN, "all-in", "all"):
            size: Bet = ALLIN
        else:
            try:
                size = float(word)
            except ValueError:
                size = -1.0
            if not 0 < size < 1000:
                raise ValueError(
                    f"bet size {item.strip()!r} in {text!r}: expected a positive pot fraction "
                    "or 'allin'"
                )
        if size not in sizes:
            sizes.append(size)
    return tuple(sizes)


def bets_text(bets: Sequence[Bet]) -> str:
    """The canonical spelling of bet sizes (``none`` for fold/call only).

    >>> bets_text((0.5, 1.0, "allin")), bets_text(())
    ('0.5,1,allin', 'none')
    """
    return ",".join(b if isinstance(b, str) else f"{b:g}" for b in bets) or "none"


def call_value(wp: float, pot: int, to_call: int) -> float:
    """Check/call to showdown, relative to folding now.

    >>> call_value(0.5, 30, 10), call_value(0.25, 20, 0)
    (10.0, 5.0)
    """
    return wp * (pot + to_call) - to_call


def raise_value(wp: float, fold_probability: float, pot: int, added: int, final_pot: int) -> float:
    """Raise, then check/call to showdown if called, relative to folding now.

    >>> raise_value(0.5, 1.0, 15, 15, 40)  # the bot always folds: LBR takes the pot
    15.0
    >>> raise_value(0.5, 0.0, 20, 20, 60)  # always called with even equity: 30 - 20
    10.0
    """
    return fold_probability * pot + (1 - fold_probability) * (wp * final_pot - added)


def untouched(weights: np.ndarray, live: np.ndarray, hole: Sequence[int]) -> bool:
    """Whether ``weights`` is uniform over every holding that ``hole`` does not block, i.e. the
    bot's range before it acts. A range uniform over a subset (after a pure action) is not.

    >>> from agent.poker.cards import parse_cards
    >>> hole = parse_cards(["7c", "2d"])
    >>> weights = 1.0 - blocked_mask(hole)
    >>> untouched(weights, live_holdings(weights, hole), hole)
    True
    >>> weights[HOLDING_CARDS[:, 0] // 4 < 9] = 0.0  # only holdings with a J or better
    >>> untouched(weights, live_holdings(weights, hole), hole)
    False
    """
    if len(live) != HOLDINGS - int(blocked_mask(list(hole)).sum()):
        return False
    values = weights[live[:, 2]]
    return bool(np.ptp(values) <= 1e-12 * values.max())


def raise_targets(
    bets: Sequence[Bet], call_amount: int, pot_after_call: int, low: int, high: int
) -> list[int]:
    """Raise-to amounts for the bet sizes, clamped to ``[low, high]``, without repeats.

    >>> raise_targets((0.5, 1.0, "allin"), 10, 20, 15, 1000)
    [20, 30, 1000]
    >>> raise_targets((0.1, 100.0), 10, 20, 15, 300)
    [15, 300]
    """
    targets: list[int] = []
    for bet in bets:
        wanted = high if bet == ALLIN else call_amount + round(float(bet) * pot_after_call)
        amount = min(high, max(low, int(wanted)))
        if amount not in targets:
            targets.append(amount)
    return targets


def _valid(valid_actions: Sequence[Mapping[str, Any]], name: str) -> Mapping[str, Any]:
    return next(entry for entry in valid_actions if entry["action"] == name)


def history_key(round_state: Mapping[str, Any]) -> tuple:
    """What identifies a public state: board, blinds and every recorded action."""
    histories = round_state["action_histories"]
    actions = tuple(
        (street, entry["uuid"], entry["action"], int(entry.get("amount", 0)))
        for street in ("preflop", "flop", "turn", "river")
        for entry in histories.get(street) or ()
    )
    return (
        round_state["street"],
        tuple(round_state["community_card"]),
        int(round_state["dealer_btn"]),
        tuple(int(seat["stack"]) for seat in round_state["seats"]),
        actions,
    )


def matches(entry: WeightedAction, action: str, amount: int) -> bool:
    """Whether a policy entry is the action the engine recorded (a call by name only)."""
    name, entry_amount, _ = entry
    if name != action:
        return False
    return action != "raise" or int(entry_amount) == int(amount)


class _GlobalRandomGuard:
    """Saves and restores the global ``random`` and numpy legacy generator states."""

    def __enter__(self) -> None:
        self._python = random.getstate()
        self._numpy = np.random.get_state()

    def __exit__(self, *exc: object) -> None:
        random.setstate(self._python)
        np.random.set_state(self._numpy)


@dataclass
class RangeModel:
    """The bot's policy for every holding at a public state, cached per state."""

    bot: Any
    seed: int = 0
    policy_samples: int = 8
    cache: dict[tuple, list[list[WeightedAction]]] = field(default_factory=dict)
    queries: int = 0

    @property
    def exact(self) -> bool:
        """True when the bot exposes its policy (no sampling needed)."""
        return isinstance(self.bot, PolicyBot)

    @property
    def learns(self) -> bool:
        """True for a bot that declares ``learns = True``: its policy depends on what it has
        learned in earlier hands, so the answers of one hand are not kept for the next, and
        it is asked by ``learned_policy_table`` or holding by holding, never by
        ``policy_table``, which a learning bot may inherit without its learning."""
        return learns(type(self.bot))

    @property
    def snapshot_path(self) -> bool:
        """True for the project's PolicyPlayer bots whose entry point is the default one.

        Their state is then converted once per public state and only the hole cards change
        from holding to holding (``policy(snapshot)``), the same answer for a fraction of the
        cost of ``action_probabilities`` per holding. It holds for a learning bot too: the
        default ``action_probabilities`` is ``policy(snapshot(...))``, so ``policy`` is where
        such a bot's learning acts.
        """
        kind = type(self.bot)
        return (
            isinstance(self.bot, PolicyPlayer)
            and kind.action_probabilities is PolicyPlayer.action_probabilities
            and kind.snapshot is PolicyPlayer.snapshot
        )

    def new_hand(self) -> None:
        """Forget post-flop states; keep preflop ones (they recur) up to a limit, unless
        the bot learns (its answers at a preflop state change from hand to hand)."""
        if self.learns or len(self.cache) > PREFLOP_CACHE_LIMIT:
            self.cache.clear()
        for key in [key for key in self.cache if key[0] != "preflop"]:
            del self.cache[key]

    def policies(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        round_state: Mapping[str, Any],
        holdings: np.ndarray,
    ) -> list[list[WeightedAction]]:
        """The bot's ``(name, amount, probability)`` entries for each holding index."""
        table = self.table(valid_actions, round_state)
        return [table[int(h)] for h in holdings]

    def table(
        self, valid_actions: Sequence[Mapping[str, Any]], round_state: Mapping[str, Any]
    ) -> list[list[WeightedAction]]:
        """The bot's entries for every holding index at this public state, cached.

        On a new public state every holding compatible with the board is queried, in table
        order, after seeding the model from the state alone: the answers are a function of
        the public state, whichever hand or process asks first.
        """
        key = history_key(round_state)
        table = self.cache.get(key)
        if table is None:
            table = self.cache[key] = self._all_holdings(valid_actions, round_state, key)
        return table

    def _all_holdings(
        self, valid_actions: Sequence[Mapping[str, Any]], round_state: Mapping[str, Any], key: tuple
    ) -> list[list[WeightedAction]]:
        seed = mix_seed(self.seed, zlib.crc32(repr(key).encode()))
        board = [parse_card(card) for card in round_state["community_card"]]
        blocked = blocked_mask(board)
        table: list[list[WeightedAction]] = [[] for _ in range(HOLDINGS)]
        with _GlobalRandomGuard():
            if isinstance(self.bot, Seeded) and isinstance(self.bot.rng, np.random.Generator):
                self.bot.rng = np.random.default_rng(seed)
            seed_global_generators(seed)
            live = np.flatnonzero(~blocked)
            batch = self._batch(valid_actions, round_state)
            if batch is not None:
                self.queries += len(live)
                for holding, policy in zip(live, batch(live), strict=True):
                    table[holding] = list(policy)
                return table
            ask = self._asker(valid_actions, round_state)
            for holding in live:
                self.queries += 1
                table[holding] = ask(int(holding))
        return table

    def _batch(
        self, valid_actions: Sequence[Mapping[str, Any]], round_state: Mapping[str, Any]
    ) -> Callable[[np.ndarray], list[list[WeightedAction]]] | None:
        """All holdings in one call: ``policy_table`` for a PolicyPlayer (agent, baselines),
        ``learned_policy_table`` for a learning one that has it (the adaptive agent)."""
        table: Callable[..., list[list[WeightedAction]]] | None = None
        if self.learns and isinstance(self.bot, LearnedTablePolicy):
            table = self.bot.learned_policy_table
        elif not self.learns and self.snapshot_path and isinstance(self.bot, TablePolicy):
            table = self.bot.policy_table
        if table is None:
            return None
        base = self.bot.snapshot(valid_actions, HOLDING_PPE[0], round_state)
        return lambda live: table(base, [HOLDING_TUPLES[h] for h in live])

    def _asker(
        self, valid_actions: Sequence[Mapping[str, Any]], round_state: Mapping[str, Any]
    ) -> Callable[[int], list[WeightedAction]]:
        """A function from a holding index to the bot's policy entries at this state."""
        if self.snapshot_path:
            base = self.bot.snapshot(valid_actions, HOLDING_PPE[0], round_state)
            return lambda h: list(self.bot.policy(base.with_hole(HOLDING_TUPLES[h])))
        if self.exact:
            return lambda h: list(
                self.bot.action_probabilities(valid_actions, list(HOLDING_PPE[h]), round_state)
            )
        return lambda h: self._sampled(valid_actions, round_state, h)

    def _sampled(
        self, valid_actions: Sequence[Mapping[str, Any]], round_state: Mapping[str, Any], h: int
    ) -> list[WeightedAction]:
        """The sampled estimate: frequencies of ``policy_samples`` calls of declare_action."""
        counts: dict[tuple[str, int], int] = {}
        for _ in range(self.policy_samples):
            action, amount = self.bot.declare_action(
                valid_actions, list(HOLDING_PPE[h]), round_state
            )
            if action != "raise":
                amount = 0 if action == "fold" else int(_valid(valid_actions, "call")["amount"])
            counts[(action, int(amount))] = counts.get((action, int(amount)), 0) + 1
        return [(a, m, c / self.policy_samples) for (a, m), c in counts.items()]


@dataclass(frozen=True)
class ModelSeat:
    """LBR's model, seated as a copy of the bot (:class:`arena.engine.BotWithCopies`).

    Every message the bot is sent goes to the model's bot. Each decision the bot made is
    first read into the model's table at the state it was made in, and only then told to the
    copy: a copy whose policy follows its own decisions (the adaptive agent's gift budget is
    charged for each deviation played) then answers there as the bot did when it decided,
    not as it would once charged. LBR reads every such state anyway, to update the range.
    """

    model: RangeModel

    def set_uuid(self, uuid: str) -> None:
        self.model.bot.set_uuid(uuid)

    def receive_notification(self, message: dict) -> None:
        self.model.bot.receive_notification(message)

    def observe_own_decision(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
        action: tuple[str, int],
    ) -> None:
        try:
            self.model.table(valid_actions, round_state)
        finally:  # a failed read is LBR's error; the copy still follows the bot
            if isinstance(self.model.bot, SelfObserver):
                self.model.bot.observe_own_decision(valid_actions, hole_card, round_state, action)


@dataclass
class DecisionLog:
    """What LBR computed at one decision (for tests and diagnostics)."""

    street: str
    wp: float
    values: dict[tuple[str, int], float]
    chosen: tuple[str, int]


class LBRPlayer(BasePokerPlayer):
    """Local best response against the bot that ``model`` is a copy of (see the module doc)."""

    def __init__(
        self,
        model: Any,
        bets: Sequence[Bet] = DEFAULT_BETS,
        *,
        rng: np.random.Generator | None = None,
        seed: int = 0,
        policy_samples: int = 8,
        preflop_samples: int = PREFLOP_SAMPLES,
        value: str = "continuing",
        rounds: str = "1-4",
    ) -> None:
        if policy_samples <= 0 or preflop_samples <= 0:
            raise ValueError(
                f"policy_samples={policy_samples} and preflop_samples={preflop_samples} "
                "must be positive"
            )
        if value not in VALUES or rounds not in ROUNDS:
            raise ValueError(
                f"value={value!r}, rounds={rounds!r}: expected one of {VALUES} and {tuple(ROUNDS)}"
            )
        self.value = value
        self.rounds = rounds
        self.bets = tuple(bets)
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self.model = RangeModel(model, seed=seed, policy_samples=policy_samples)
        self.preflop_samples = preflop_samples
        self.range = Range.uniform()
        self.hole: list[int] = []
        self._counts: tuple[tuple[tuple[int, ...], ...], np.ndarray, np.ndarray] | None = None
        self.opponent_uuid = ""
        self.initial_stack = 0
        self.last_state: Mapping[str, Any] | None = None
        self.log: list[DecisionLog] = []
        self.decision_seconds: dict[str, list[float]] = {}

    # -- messages ---------------------------------------------------------------------------
    def receive_game_start_message(self, game_info: Mapping[str, Any]) -> None:
        self.initial_stack = int(game_info["rule"]["initial_stack"])
        others = [seat["uuid"] for seat in game_info["seats"] if seat["uuid"] != self.uuid]
        if len(others) != 1:
            raise ValueError(f"local best response plays heads-up, not {len(others) + 1} players")
        self.opponent_uuid = others[0]

    def receive_round_start_message(
        self, round_count: int, hole_card: Sequence[str], seats: Sequence[Any]
    ) -> None:
        self.hole = [parse_card(card) for card in hole_card]
        self.range = Range.uniform(self.hole)
        self.model.new_hand()
        self.log = []
        self.last_state = None
        self._counts = None  # preflop boards are drawn afresh each hand

    def receive_street_start_message(self, street: str, round_state: Mapping[str, Any]) -> None:
        self.range.block([parse_card(card) for card in round_state["community_card"]])
        self.last_state = round_state

    def receive_game_update_message(
        self, action: Mapping[str, Any], round_state: Mapping[str, Any]
    ) -> None:
        if action["player_uuid"] == self.opponent_uuid and self.last_state is not None:
            self._observe(action, round_state)
        self.last_state = round_state

    def receive_round_result_message(
        self, winners: Sequence[Any], hand_info: Sequence[Any], round_state: Mapping[str, Any]
    ) -> None:
        pass

    # -- the range ----------------------------------------------------------------------------
    def _observe(self, action: Mapping[str, Any], after: Mapping[str, Any]) -> None:
        """Bayes update of the range with the bot's action at the state before it."""
        before = dict(self.last_state or {})
        seat = self._seat_of(before, self.opponent_uuid)
        before["next_player"] = seat
        state = restore_game_state(before)
        players = state["table"].seats.players
        valid_actions = ActionChecker.legal_actions(players, seat, state["small_blind_amount"])
        recorded = self._recorded(after, action)
        holdings = self.range.live()
        policies = self.model.policies(valid_actions, before, holdings)
        likelihood = np.array(
            [sum(entry[2] for entry in policy if matches(entry, *recorded)) for policy in policies]
        )
        self.range.update(holdings, np.clip(likelihood, 0.0, 1.0))

    def _recorded(self, after: Mapping[str, Any], action: Mapping[str, Any]) -> tuple[str, int]:
        """The action as the engine recorded it (an illegal one became a fold)."""
        entries = after["action_histories"].get(after["street"]) or []
        for entry in reversed(entries):
            if entry["uuid"] == self.opponent_uuid:
                return str(entry["action"]).lower(), int(entry.get("amount", 0))
        return str(action["action"]), int(action["amount"])

    @staticmethod
    def _seat_of(round_state: Mapping[str, Any], uuid: str) -> int:
        return next(i for i, seat in enumerate(round_state["seats"]) if seat["uuid"] == uuid)

    # -- the decision ---------------------------------------------------------------------------
    def declare_action(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
    ) -> tuple[str, int]:
        started = time.perf_counter()
        choice = self._decide(valid_actions, round_state)
        street = round_state["street"]
        self.decision_seconds.setdefault(street, []).append(time.perf_counter() - started)
        return choice

    def _decide(
        self, valid_actions: Sequence[Mapping[str, Any]], round_state: Mapping[str, Any]
    ) -> tuple[str, int]:
        me = self._seat_of(round_state, self.uuid)
        opponent = self._seat_of(round_state, self.opponent_uuid)
        seats = round_state["seats"]
        mine = self.initial_stack - int(seats[me]["stack"])
        theirs = self.initial_stack - int(seats[opponent]["stack"])
        pot = mine + theirs
        call_amount = int(_valid(valid_actions, "call")["amount"])
        if round_state["street"] not in ROUNDS[self.rounds]:
            return ("call", call_amount)  # a round where LBR only checks or calls
        to_call = max(0, min(theirs - mine, int(seats[me]["stack"])))
        wp = self.equity(round_state)
        values: dict[tuple[str, int], float] = {
            ("fold", 0): 0.0,
            ("call", call_amount): call_value(wp, pot, to_call),
        }
        bounds = _valid(valid_actions, "raise")["amount"]
        if self.bets and bounds["min"] != -1:
            street_paid = call_amount - to_call  # this street's chips LBR has already put in
            for target in raise_targets(
                self.bets, call_amount, pot + to_call, bounds["min"], bounds["max"]
            ):
                added = target - street_paid
                called = min(mine + added, theirs + int(seats[opponent]["stack"]))
                holdings, folds = self.responses(round_state, target)
                fold = self.range.mean_of(holdings, folds)
                called_wp = self.called_equity(round_state, holdings, folds, wp)
                values[("raise", target)] = raise_value(
                    called_wp, fold, pot, called - mine, 2 * called
                )
        chosen = self._best(values, to_call)
        self.log.append(DecisionLog(round_state["street"], wp, values, chosen))
        return chosen

    @staticmethod
    def _best(values: dict[tuple[str, int], float], to_call: int) -> tuple[str, int]:
        """The highest value; on ties call, then the smaller raise; a free check beats fold."""
        ranked = sorted(
            values.items(), key=lambda item: (-round(item[1], 9), item[0][0] != "call", item[0][1])
        )
        best = ranked[0][0]
        if best[0] == "fold" and to_call == 0:
            return next(action for action in values if action[0] == "call")
        return best

    def equity(self, round_state: Mapping[str, Any], weights: np.ndarray | None = None) -> float:
        """LBR's expected share of the pot at showdown against ``weights`` (the bot's range)."""
        weights = self.range.weights if weights is None else weights
        board = [parse_card(c) for c in round_state["community_card"]]
        live = live_holdings(weights, [*self.hole, *board])
        if len(live) == 0:
            return 0.5
        if not board and untouched(weights, live, self.hole):
            # the bot has not narrowed its range: the equity against a random hand, from the
            # shipped 2M-deal class table, sharper and far cheaper than sampling boards
            return float(preflop_equity(self.hole).share)
        won, played = weighted_counts(weights, *self.board_counts(board))
        return float(won / played) if played > 0 else 0.5

    def board_counts(self, board: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """LBR's share won against each holding and the completions played, over every
        completion of ``board`` (preflop: ``preflop_samples`` boards, drawn once a hand): one
        enumeration for all the ranges LBR values on a street (the whole range, then the hands
        that call each bet), kept until the board or the hand changes. Preflop, every range
        of the hand is then valued on the same boards (common random numbers), so the values
        of LBR's actions differ by the ranges, not by the boards drawn for each."""
        key = (tuple(self.hole), tuple(board))
        if self._counts is None or self._counts[0] != key:
            hero, cards = np.array(self.hole, dtype=np.int64), np.array(board, dtype=np.int64)
            live = live_holdings(np.ones(HOLDINGS), [*self.hole, *board])
            samples, seed = (0, 0) if board else (self.preflop_samples, seed_from(self.rng))
            self._counts = (key, *holding_counts_kernel(hero, cards, live, samples, seed))
        return self._counts[1], self._counts[2]

    def responses(
        self, round_state: Mapping[str, Any], target: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """The range's live holdings and each one's chance to fold to a raise to ``target``."""
        holdings = self.range.live()
        state = restore_game_state(round_state)
        _, messages = RoundManager.apply_action(state, "raise", target)
        uuid, ask = messages[-1]
        if uuid != self.opponent_uuid or ask["type"] != "ask":
            return holdings, np.zeros(len(holdings))
        asked = ask["message"]
        policies = self.model.policies(asked["valid_actions"], asked["round_state"], holdings)
        folds = np.array([sum(p for name, _, p in policy if name == "fold") for policy in policies])
        return holdings, np.clip(folds, 0.0, 1.0)

    def fold_probability(self, round_state: Mapping[str, Any], target: int) -> float:
        """The range-weighted chance that the bot folds to LBR's raise to ``target``."""
        holdings, folds = self.responses(round_state, target)
        return self.range.mean_of(holdings, folds)

    def called_equity(
        self,
        round_state: Mapping[str, Any],
        holdings: np.ndarray,
        folds: np.ndarray,
        whole_range_equity: float,
    ) -> float:
        """LBR's equity when its bet is called: against the continuing hands, or (``whole``)
        against the whole range, as the paper values it."""
        if self.value == "whole":
            return whole_range_equity
        continuing = np.zeros(HOLDINGS)
        continuing[holdings] = self.range.weights[holdings] * (1.0 - folds)
        if continuing.sum() <= 1e-12:
            return whole_range_equity  # never called: the value does not depend on it
        return self.equity(round_state, continuing)
