"""Where local best response wins: an LBR match's ``hands.csv`` broken down by street and line.

Local best response (Lisy & Bowling 2017) gives one number, the bot's loss in mbb/g. To fix
the bot one needs to know *where* it loses. This report reads the arena's ``hands.csv`` of an
``arena lbr`` match (LBR is slot ``A``) and groups the hands by

* the street on which the hand ended (a fold or the showdown after the river),
* LBR's line: its largest action in the hand (``fold``, ``check/call``, ``raise`` or
  ``allin``) with the street where it made it, and how the bot answered it,

and prints, per group, the hands, LBR's chips and its contribution to the match's mbb/g (the
contributions add up to the total). Run ``python -m arena.lbr.report RUN_DIR``.

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
from pathlib import Path

import numpy as np
import pandas as pd

from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDINGS, holding_index, range_equity
from arena.chance_adjusted import chance_adjusted
from arena.pipes import reader_may_leave
from arena.results import read_match_file
from arena.stats import mean_ci

PREFLOP_RUNOUTS = 20_000

_STRENGTH = {"FOLD": 0, "CALL": 1, "RAISE": 2, "ALLIN": 3}
_NAMES = {0: "fold", 1: "check/call", 2: "raise", 3: "allin"}


def hand_line(actions: str, lbr_seat: str, stack: int = 1000) -> tuple[str, str, str]:
    """(street ended, LBR's largest action with its street, how the hand ended) of one hand."""
    best, best_street, last_street, ending = -1, "preflop", "preflop", "showdown"
    for part in actions.split(";"):
        street, _, entries = part.partition("=")
        last_street = street
        for entry in entries.split():
            seat, kind, amount = entry.split(":")[:3]
            if kind in ("SMALLBLIND", "BIGBLIND", "ANTE"):
                continue
            if kind == "FOLD":
                ending = "LBR folds" if seat == lbr_seat else "bot folds"
            if seat != lbr_seat:
                continue
            strength = _STRENGTH[kind]
            if kind == "RAISE" and int(amount) >= stack - 10:
                strength = _STRENGTH["ALLIN"]
            if strength > best:
                best, best_street = strength, street
    line = f"{best_street} {_NAMES.get(best, 'none')}"
    return last_street, line, ending


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


def breakdown(hands: pd.DataFrame, big_blind: int = 10, stack: int = 1000) -> pd.DataFrame:
    """Hands, LBR chips and mbb/g contribution per (street ended, LBR line, ending)."""
    groups: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0, 0.0])
    for row in hands.itertuples():
        # the actions column names players by slot (A = LBR) whatever their seat
        key = hand_line(str(row.actions), "A", stack)
        groups[key][0] += 1
        groups[key][1] += float(row.won_A)
    total = len(hands)
    rows = [
        {
            "ended": key[0],
            "lbr_line": key[1],
            "ending": key[2],
            "hands": int(count),
            "lbr_chips": chips,
            "mbb_per_hand": 1000.0 * chips / big_blind / total,
        }
        for key, (count, chips) in groups.items()
    ]
    table = pd.DataFrame(rows)
    return table.sort_values("mbb_per_hand", ascending=False, key=abs).reset_index(drop=True)


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
        stack = int(read_match_file(args.run_dir)["stack"])
    except (ValueError, KeyError) as error:
        raise SystemExit(f"{args.run_dir}: {error}") from None
    table = breakdown(hands, stack=stack)
    raw, raw_ci = mbb_with_ci(hands, hands["won_A"].to_numpy(dtype=np.float64))
    adjusted, adjusted_ci = mbb_with_ci(hands, adjusted_winnings(hands, stack))
    luck_free, luck_free_ci = mbb_with_ci(
        hands, chance_adjusted(hands.to_dict("records"), "A", stack)
    )
    print(
        f"{len(hands)} hands, {stack:,}-chip stacks, LBR {raw:+.0f} ± {raw_ci:.0f} mbb/g; "
        f"all-in adjusted {adjusted:+.0f} ± {adjusted_ci:.0f} mbb/g; "
        f"chance-adjusted {luck_free:+.0f} ± {luck_free_ci:.0f} mbb/g"
        f" (95% t, {hands['deal'].nunique():,} duplicate deals)"
    )
    print(table.head(args.top).to_string(index=False, float_format=lambda v: f"{v:.0f}"))


if __name__ == "__main__":
    with reader_may_leave():
        main()
