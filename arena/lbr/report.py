"""Where local best response wins: an LBR match's ``hands.csv`` broken down by street and line.

Local best response (Lisy & Bowling 2017) gives one number, the bot's loss in mbb/g. To fix
the bot one needs to know *where* it loses. This report reads the arena's ``hands.csv`` of an
``arena lbr`` match (LBR is slot ``A``) and groups the hands by

* the street on which the hand ended (a fold or the showdown after the river),
* LBR's line: its largest action in the hand (``fold``, ``check/call``, ``raise`` or
  ``allin``) with the street where it made it, and how the bot answered it,

and prints, per group, the hands, LBR's chips and its contribution to the match's mbb/g (the
contributions add up to the total). Two more tables group the same hands

* by the bot's blind and the preflop line (the first voluntary actions, raises in big blinds),
  which shows whether the leak sits in the bot's small blind or in its big blind, and which
  sizes of LBR's it answers worst;
* by how the hand ended, a fold told with the folder's action on the street before, so that a
  call followed by a fold on the next street (chips put in and given up) stands apart;
* by the rule of the bot's that made its last decision in the hand, and that decision's street
  (the ``why_B`` column: :class:`agent.boundary.policy.Decision`), which answers which rule
  costs the bot the most against this opponent.

Run ``python -m arena.lbr.report RUN_DIR``.

It also prints the *chance-adjusted* winnings (:mod:`arena.chance_adjusted`: every card's
luck taken out) and the *all-in adjusted* ones, a standard variance reduction: a hand in which
both players were all in before the river is scored by LBR's exact expected share of the pot
given both hands and the board dealt at that moment, not by the cards that came (exact from
the flop on; preflop the mean over 20,000 seeded random boards, itself an unbiased estimate).
The adjustment is unbiased (the expectation of the realized result given the cards is that
share) and removes the luck of the run-out, the bulk of the variance
when LBR shoves. Confidence intervals: Student's t (deals - 1 degrees of freedom) standard
errors over the duplicate deals (the mean of each pair of seat-swapped hands), as in the arena;
valid for a bot that does not learn from hand to hand (``arena lbr`` reports the session-pair
interval of one that does).

>>> hand_line("preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:CALL:10 A:RAISE:1000 B:FOLD:0", "A")
('preflop', 'preflop allin', 'bot folds')
>>> hand_line("preflop=A:CALL:10 B:CALL:10;flop=A:CALL:0 B:RAISE:10 A:FOLD:0", "A")
('flop', 'preflop check/call', 'LBR folds')
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDINGS, holding_index, range_equity
from arena.chance_adjusted import chance_adjusted
from arena.pipes import reader_may_leave
from arena.results import WHY_SEPARATOR, read_match_file
from arena.stats import mean_ci

PREFLOP_RUNOUTS = 20_000

_FORCED = ("small blind", "big blind", "ante")
_STREETS = ("preflop", "flop", "turn", "river")
_STRENGTH = {"fold": 0, "check": 1, "call": 1, "raise": 2, "allin": 3}
_NAMES = {0: "fold", 1: "check/call", 2: "raise", 3: "allin"}


def _moves(actions: str) -> list[tuple[str, str, str, int]]:
    """(street, slot, verb, amount) of every entry of an actions column. The verbs: ``small
    blind``, ``big blind``, ``ante``, ``fold``, ``check`` (a call that adds no chip: the big
    blind's option, a check after the flop), ``call`` and ``raise``; amounts are the street's
    totals, as the column has them."""
    moves = []
    for part in actions.split(";"):
        street, _, entries = part.partition("=")
        paid: dict[str, int] = defaultdict(int)
        for entry in entries.split():
            slot, kind, amount = entry.split(":")[:3]
            verb = kind.lower().replace("blind", " blind")
            if kind == "CALL" and int(amount) <= paid[slot]:
                verb = "check"
            paid[slot] = max(paid[slot], int(amount))
            moves.append((street, slot, verb, int(amount)))
    return moves


def hand_line(actions: str, lbr_seat: str, stack: int = 1000) -> tuple[str, str, str]:
    """(street ended, LBR's largest action with its street, how the hand ended) of one hand."""
    best, best_street, ending = -1, "preflop", "showdown"
    for street, slot, verb, amount in _moves(actions):
        if verb in _FORCED:
            continue
        if verb == "fold":
            ending = "LBR folds" if slot == lbr_seat else "bot folds"
        if slot != lbr_seat:
            continue
        strength = _STRENGTH[verb]
        if verb == "raise" and amount >= stack - 10:
            strength = _STRENGTH["allin"]
        if strength > best:
            best, best_street = strength, street
    last_street = actions.split(";")[-1].partition("=")[0]
    return last_street, f"{best_street} {_NAMES.get(best, 'none')}", ending


_BOARD_SIZE = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}


def all_in_street(actions: str, stack: int = 1000) -> str | None:
    """The street on which both players had put in their whole ``stack``, else None.

    >>> all_in_street("preflop=B:SMALLBLIND:5 A:BIGBLIND:10 A:RAISE:1000 B:CALL:1000")
    'preflop'
    >>> all_in_street("preflop=A:CALL:10 B:CALL:10;flop=A:RAISE:990 B:CALL:990")
    'flop'
    >>> all_in_street("preflop=A:CALL:10 B:CALL:10;flop=A:RAISE:990 B:FOLD:0") is None
    True
    """
    paid: dict[str, int] = defaultdict(int)
    for part in actions.split(";"):
        street, _, entries = part.partition("=")
        totals: dict[str, int] = {}
        for entry in entries.split():
            seat, kind, amount = entry.split(":")[:3]
            if kind != "FOLD" and kind != "ANTE":
                totals[seat] = max(totals.get(seat, 0), int(amount))
            if kind == "FOLD":
                return None
        for seat, total in totals.items():
            paid[seat] += total
        if len(paid) == 2 and all(value >= stack for value in paid.values()):
            return street
    return None


def showdown_share(lbr: list[str], bot: list[str], board: list[str], seed: int = 0) -> float:
    """LBR's expected share of the pot, hand against hand (ties half).

    >>> showdown_share(["As", "Ah"], ["Kd", "Kc"], ["Ac", "Kh", "2d", "7s"]) == 43 / 44  # not Ks
    True
    """
    weights = np.zeros(HOLDINGS)
    first, second = parse_cards(bot)
    weights[holding_index(first, second)] = 1.0
    if board:
        return range_equity(lbr, board, weights)
    rng = np.random.default_rng(seed)
    return range_equity(lbr, board, weights, samples=PREFLOP_RUNOUTS, rng=rng)


def adjusted_winnings(hands: pd.DataFrame, stack: int = 1000) -> np.ndarray:
    """LBR's chips per hand, all-in hands before the river scored by their expectation."""
    won = hands["won_A"].to_numpy(dtype=np.float64).copy()
    for position, row in enumerate(hands.itertuples()):
        street = all_in_street(str(row.actions), stack)
        if street is None or street == "river":
            continue
        lbr_cards = row.hole_seat0 if str(row.seats).split()[0] == "A" else row.hole_seat1
        bot_cards = row.hole_seat1 if str(row.seats).split()[0] == "A" else row.hole_seat0
        board = str(row.board).split()[: _BOARD_SIZE[street]] if isinstance(row.board, str) else []
        share = showdown_share(str(lbr_cards).split(), str(bot_cards).split(), board, position)
        won[position] = share * 2 * stack - stack
    return won


def mbb_with_ci(hands: pd.DataFrame, won: np.ndarray, big_blind: int = 10) -> tuple[float, float]:
    """Mean mbb/g and its 95% half-width over the duplicate deals (:func:`arena.stats.mean_ci`,
    each deal one unit)."""
    mean, half = mean_ci(hands["deal"].to_numpy(), won)
    scale = 1000.0 / big_blind
    return float(mean * scale), float("nan") if half is None else float(half * scale)


def _who(slot: str, lbr_seat: str) -> str:
    return "LBR" if slot == lbr_seat else "bot"


def _on(street: str) -> str:
    return street if street == "preflop" else f"on the {street}"


def bot_blind(actions: str, lbr_seat: str = "A") -> str:
    """The blind the bot posted heads-up: ``"bot small blind"`` or ``"bot big blind"``.

    >>> bot_blind("preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:FOLD:0")
    'bot small blind'
    """
    posted = [slot for _, slot, verb, _ in _moves(actions) if verb == "small blind"]
    if not posted:
        return "no blinds"
    return "bot small blind" if posted[0] != lbr_seat else "bot big blind"


def preflop_line(actions: str, lbr_seat: str = "A", big_blind: int = 10, depth: int = 3) -> str:
    """The first ``depth`` voluntary preflop actions, raises as the total in big blinds.

    >>> preflop_line("preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:RAISE:15 A:RAISE:45 B:CALL:45")
    'bot raise 1.5, LBR raise 4.5, bot call'
    """
    steps: list[str] = []
    for street, slot, verb, amount in _moves(actions):
        if street == "preflop" and verb not in _FORCED and len(steps) < depth:
            step = f"{_who(slot, lbr_seat)} {verb}"
            steps.append(f"{step} {amount / big_blind:g}" if verb == "raise" else step)
    return ", ".join(steps)


def hand_ending(actions: str, lbr_seat: str = "A") -> str:
    """How the hand ended; a fold after the preflop says whether the folder called a bet on
    the street before (chips put in there, then given up).

    >>> hand_ending("preflop=A:CALL:10 B:CALL:10;flop=A:RAISE:10 B:CALL:10;turn=B:FOLD:0")
    'bot folds on the turn after a call on the flop'
    >>> hand_ending("preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:RAISE:1000 A:CALL:1000")
    'showdown after the preflop'
    """
    moves = _moves(actions)
    folds = [(street, slot) for street, slot, verb, _ in moves if verb == "fold"]
    if not folds:
        return f"showdown after the {moves[-1][0]}" if moves else "no actions"
    street, folder = folds[0]
    text = f"{_who(folder, lbr_seat)} folds {_on(street)}"
    if street == _STREETS[0]:
        return text
    before = _STREETS[_STREETS.index(street) - 1]
    called = (before, folder, "call") in {move[:3] for move in moves}
    return f"{text} {'after a call' if called else 'without a call'} {_on(before)}"


def keyed_table(
    hands: pd.DataFrame,
    keys: Sequence[tuple[str, ...]],
    columns: Sequence[str],
    big_blind: int = 10,
) -> pd.DataFrame:
    """Hands, LBR chips and mbb/g contribution per group (``keys``: each hand's group, in the
    order of ``hands``), largest first; the contributions add up to the match's mbb/g."""
    groups: dict[tuple[str, ...], list[float]] = defaultdict(lambda: [0, 0.0])
    for key, won in zip(keys, hands["won_A"], strict=True):
        groups[key][0] += 1
        groups[key][1] += float(won)
    total = len(hands)
    rows = [
        {
            **dict(zip(columns, group, strict=True)),
            "hands": int(count),
            "lbr_chips": chips,
            "mbb_per_hand": 1000.0 * chips / big_blind / total,
        }
        for group, (count, chips) in groups.items()
    ]
    table = pd.DataFrame(rows, columns=[*columns, "hands", "lbr_chips", "mbb_per_hand"])
    return table.sort_values("mbb_per_hand", ascending=False, key=abs).reset_index(drop=True)


def grouped_table(
    hands: pd.DataFrame,
    key: Callable[[str], tuple[str, ...]],
    columns: Sequence[str],
    big_blind: int = 10,
) -> pd.DataFrame:
    """:func:`keyed_table` per group of ``key(actions)`` (the actions column names players by
    slot, A = LBR, whatever their seat)."""
    keys = [key(str(actions)) for actions in hands["actions"]]
    return keyed_table(hands, keys, columns, big_blind)


def breakdown(hands: pd.DataFrame, big_blind: int = 10, stack: int = 1000) -> pd.DataFrame:
    """Hands, LBR chips and mbb/g contribution per (street ended, LBR line, ending)."""
    return grouped_table(
        hands,
        lambda actions: hand_line(actions, "A", stack),
        ("ended", "lbr_line", "ending"),
        big_blind,
    )


def by_preflop_line(hands: pd.DataFrame, big_blind: int = 10) -> pd.DataFrame:
    """The same per (the bot's blind, the preflop line)."""
    return grouped_table(
        hands,
        lambda actions: (bot_blind(actions), preflop_line(actions, big_blind=big_blind)),
        ("blind", "preflop_line"),
        big_blind,
    )


def by_ending(hands: pd.DataFrame, big_blind: int = 10) -> pd.DataFrame:
    """The same per way the hand ended (:func:`hand_ending`)."""
    return grouped_table(hands, lambda actions: (hand_ending(actions),), ("ending",), big_blind)


def last_decision_rule(actions: str, why: str) -> tuple[str, str]:
    """The street and the rule of the bot's (slot ``B``'s) last decision in a hand, from its
    ``actions`` and its ``why`` (one entry per decision, in order); ``("-", "no decision")``
    where the bot never acted, ``"unrecorded"`` for a bot that records no rule.

    >>> last_decision_rule("preflop=B:CALL:10 A:RAISE:30 B:FOLD:0", "blueprint: row 72o | defence")
    ('preflop', 'defence')
    >>> last_decision_rule("preflop=A:SMALLBLIND:5 B:BIGBLIND:10 A:FOLD:0", "")
    ('-', 'no decision')
    """
    decisions = [
        street for street, slot, verb, _ in _moves(actions) if slot == "B" and verb not in _FORCED
    ]
    if not decisions:
        return "-", "no decision"
    entries = why.split(WHY_SEPARATOR) if why else []
    rule = entries[-1].split(":")[0].strip() if entries and entries[-1] else "unrecorded"
    return decisions[-1], rule


def by_rule(hands: pd.DataFrame, big_blind: int = 10) -> pd.DataFrame:
    """The same per (street, rule) of the bot's last decision in the hand
    (:func:`last_decision_rule`); a run of a version without the ``why`` columns reads as
    unrecorded."""
    why = hands["why_B"] if "why_B" in hands else pd.Series("", index=hands.index)
    texts = why.astype(object).where(why.notna(), "").astype(str)
    keys = [
        last_decision_rule(str(actions), text)
        for actions, text in zip(hands["actions"], texts, strict=True)
    ]
    return keyed_table(hands, keys, ("street", "rule"), big_blind)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    path = args.run_dir / "hands.csv"
    if not path.exists():
        raise SystemExit(f"{path} does not exist: give the folder of an `arena lbr` match")
    hands = pd.read_csv(path)
    try:
        match = read_match_file(args.run_dir)
        stack, big_blind = int(match["stack"]), 2 * int(match["small_blind"])
    except ValueError as error:
        raise SystemExit(f"{args.run_dir}: {error}") from None
    except KeyError as error:
        raise SystemExit(f"{args.run_dir}: the match file has no {error}") from None
    tables = {
        "By LBR's line": breakdown(hands, big_blind, stack),
        "By the bot's blind and the preflop line": by_preflop_line(hands, big_blind),
        "By how the hand ended": by_ending(hands, big_blind),
        "By the rule of the bot's last decision": by_rule(hands, big_blind),
    }
    raw, raw_ci = mbb_with_ci(hands, hands["won_A"].to_numpy(dtype=np.float64), big_blind)
    adjusted, adjusted_ci = mbb_with_ci(hands, adjusted_winnings(hands, stack), big_blind)
    luck_free, luck_free_ci = mbb_with_ci(
        hands, chance_adjusted(hands.to_dict("records"), "A", stack), big_blind
    )
    print(
        f"{len(hands)} hands, {stack:,}-chip stacks, LBR {raw:+.0f} ± {raw_ci:.0f} mbb/g; "
        f"all-in adjusted {adjusted:+.0f} ± {adjusted_ci:.0f} mbb/g; "
        f"chance-adjusted {luck_free:+.0f} ± {luck_free_ci:.0f} mbb/g"
        f" (95% t, {hands['deal'].nunique():,} duplicate deals)"
    )
    for title, table in tables.items():
        print(f"\n{title}:")
        print(table.head(args.top).to_string(index=False, float_format=lambda v: f"{v:.0f}"))


if __name__ == "__main__":
    with reader_may_leave():
        main()
