"""Our bots in the layout of Table 3 of Lisy & Bowling 2017, beside the published rows.

"Equilibrium Approximation Quality of Current No-Limit Poker Bots" (AAAI-17 workshops) gives
local best response's winnings (mbb/g, 2 x 50,000 duplicate hands) against the 2013-2016
research bots in several settings. Two of them, by LBR's actions and the rounds where it
chooses them:

* ``fc, rounds 1-4``: fold or call on every street (``arena lbr BOT --bets none``);
* ``fcpa, rounds 3-4``: check/call preflop and on the flop, then fold, call, pot or all-in
  on the turn and river (``arena lbr BOT --bets 1,allin --rounds 3-4``).

The paper values a called bet against the bot's whole range (``--value whole``); our default
values it against the hands that call (``--value continuing``), a stronger LBR. This module
reads the ``summary.json`` of ``arena lbr`` runs, files each under its setting (and value
rule), and prints the table with the published columns first. Each column names its depth:
the published bots played the Annual Computer Poker Competition's game, 200 big blinds deep
(20,000-chip stacks, blinds 50/100); ours are labelled with the stack they were run at
(``arena lbr --stack``; 1,000 chips at blinds 5/10 is 100 big blinds, 2,000 is 200).
DeepStack was the first bot LBR could not beat (Moravčík et al., Science 2017, report LBR
losing to it in every setting).

>>> setting_of({"lbr_bets": "none", "lbr_rounds": "1-4", "lbr_value": "whole"})
'fc, rounds 1-4'
>>> setting_of({"lbr_bets": "1,allin", "lbr_rounds": "3-4", "lbr_value": "continuing"})
'fcpa, rounds 3-4 (continuing)'
>>> setting_of({"lbr_bets": "0.5,1,allin", "lbr_rounds": "1-4", "lbr_value": "continuing"})
'bets 0.5,1,allin, rounds 1-4 (continuing)'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

FC = "fc, rounds 1-4"
FCPA = "fcpa, rounds 3-4"
PUBLISHED_BOTS = ("Hyperborean 2013", "Hyperborean 2014", "Slumbot 2016", "Act1 2016")
# mbb/g won by LBR, with the 95% CI, Table 3 of Lisy & Bowling 2017
PUBLISHED: dict[str, tuple[tuple[int, int], ...]] = {
    FC: ((1048, 68), (721, 56), (522, 50), (407, 47)),
    FCPA: ((4040, 147), (3852, 141), (4020, 115), (2597, 140)),
}
_BETS = {"none": "fc", "1,allin": "fcpa"}
PUBLISHED_BIG_BLINDS = 200  # ACPC no-limit: 20,000-chip stacks, blinds 50/100


def big_blinds_deep(summary: Mapping[str, Any]) -> float:
    """The depth of an ``arena lbr`` run in big blinds (a summary without its stack: 1,000
    chips at blinds 5/10, the arena's default).

    >>> big_blinds_deep({"stack": 2000, "small_blind": 5}), big_blinds_deep({})
    (200.0, 100.0)
    """
    return int(summary.get("stack", 1000)) / (2 * int(summary.get("small_blind", 5)))


def setting_of(summary: Mapping[str, Any]) -> str:
    """The table row of an ``arena lbr`` summary: the paper's setting, or a row of its own."""
    bets = str(summary.get("lbr_bets", ""))
    rounds = str(summary.get("lbr_rounds", "1-4"))
    value = str(summary.get("lbr_value", "whole"))
    name = f"{_BETS[bets]}, rounds {rounds}" if bets in _BETS else f"bets {bets}, rounds {rounds}"
    return name if value == "whole" else f"{name} ({value})"


def read_summaries(folders: Iterable[Path]) -> list[dict[str, Any]]:
    """The ``summary.json`` of each ``arena lbr`` folder; ValueError naming a bad folder."""
    summaries = []
    for folder in folders:
        path = Path(folder) / "summary.json"
        try:
            summary = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            raise ValueError(
                f"{str(path)!r} is not the summary of an `arena lbr` run: {error}"
            ) from None
        if "lbr_mbb_per_hand" not in summary:
            raise ValueError(f"{str(path)!r} is not the summary of an `arena lbr` run")
        summaries.append(summary)
    return summaries


def cell(mbb: float, ci: float | None) -> str:
    """``mbb ± ci``, rounded to whole mbb/g.

    >>> cell(1048.4, 67.6), cell(-12.0, None)
    ('1048 ± 68', '-12')
    """
    return f"{mbb:.0f}" if ci is None else f"{mbb:.0f} ± {ci:.0f}"


def paper_table(summaries: Iterable[Mapping[str, Any]]) -> str:
    """The markdown table: settings as rows, the published bots then ours as columns."""
    ours: dict[str, dict[str, str]] = {}
    for summary in summaries:
        bot = f"{summary['players'][1]} ({big_blinds_deep(summary):g} bb)"
        hands = int(summary["hands"])
        text = cell(summary["lbr_mbb_per_hand"], summary.get("lbr_ci95_mbb_per_hand"))
        ours.setdefault(setting_of(summary), {})[bot] = f"{text} ({hands:,} h)"
    bots = sorted({bot for row in ours.values() for bot in row})
    settings = [FC, FCPA, *sorted(set(ours) - {FC, FCPA})]
    published_bots = [f"{bot} ({PUBLISHED_BIG_BLINDS} bb)" for bot in PUBLISHED_BOTS]
    lines = [
        "| LBR setting | " + " | ".join([*published_bots, *bots]) + " |",
        "|---" * (1 + len(PUBLISHED_BOTS) + len(bots)) + "|",
    ]
    for setting in settings:
        published = [cell(*figure) for figure in PUBLISHED.get(setting, ())]
        published += [""] * (len(PUBLISHED_BOTS) - len(published))
        mine = [ours.get(setting, {}).get(bot, "") for bot in bots]
        lines.append(f"| {setting} | " + " | ".join([*published, *mine]) + " |")
    lines.append(
        f"\nDepth in big blinds (bb) beside each bot: the published rows are Lisy & Bowling's"
        f" (2017, Table 3), {PUBLISHED_BIG_BLINDS} bb deep; ours as run (`arena lbr --stack`)."
    )
    return "\n".join(lines)
