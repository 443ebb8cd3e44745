"""The report of a tournament run: ``summary.json``, ``summary.md`` and ``places.png``.

Per bot: the share of tournaments it won, its mean finishing place, its in-the-money share
and its mean prize (in buy-ins: the pool is one buy-in per player, so 1.0 breaks even),
each with a 95% CI that treats a card sequence (played once in every seat rotation) as one
observation; and its errors and illegal actions. Chips are checked: the final stacks plus
the chips PyPokerEngine removed (forfeited stacks, odd chips of split pots) are every chip
the tournament started with.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from arena.results import SUMMARY_FILE, write_json
from arena.roundrobin import labels_by_slot
from arena.stats import mean_ci

MARKDOWN_FILE = "summary.md"
PLOT_FILE = "places.png"


def bot_report(config: Any, rows: list[dict[str, Any]], slot: str) -> dict[str, Any]:
    """One bot's entry of ``summary.json``."""
    units = np.array([row["deal"] for row in rows])
    places = np.array([row[f"place_{slot}"] for row in rows], dtype=float)
    win_share, win_ci = mean_ci(units, places == 1)
    mean_place, place_ci = mean_ci(units, places)
    itm_share, itm_ci = mean_ci(units, places <= len(config.paid))
    mean_prize, prize_ci = mean_ci(units, np.array([row[f"prize_{slot}"] for row in rows]))
    players = len(config.bots)
    counts = np.bincount(places.astype(int), minlength=players + 1)[1:]
    return {
        "slot": slot,
        "win_share": _round(win_share),
        "win_share_ci95": _round(win_ci),
        "mean_place": _round(mean_place),
        "mean_place_ci95": _round(place_ci),
        "itm_share": _round(itm_share),
        "itm_share_ci95": _round(itm_ci),
        "mean_prize": _round(mean_prize),
        "mean_prize_ci95": _round(prize_ci),
        "place_counts": [int(count) for count in counts],
        "illegal_actions": int(sum(row[f"illegal_{slot}"] for row in rows)),
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), 4)


def summarize(
    config: Any,
    rows: list[dict[str, Any]],
    errors: dict[str, int],
    wall_seconds: float,
    played: int,
) -> dict[str, Any]:
    """The ``summary.json`` content."""
    names = labels_by_slot(config.bots)  # display names, numbered where two bots share one
    bots = []
    for slot, spec in zip(config.slots, config.bots, strict=True):
        entry = {"name": names[slot], "bot": spec, **bot_report(config, rows, slot)}
        entry["errors"] = errors.get(names[slot], 0)
        bots.append(entry)
    hands = [row["hands"] for row in rows]
    return {
        "tournaments": len(rows),
        "card_sequences": len({row["deal"] for row in rows}),
        "seed": config.seed,
        "stack": config.stack,
        "levels": [list(level) for level in config.levels],
        "max_round": config.max_round,
        "payouts": list(config.paid),
        "bots": bots,
        "unfinished": sum(1 for row in rows if not row["finished"]),
        "mean_hands": round(float(np.mean(hands)), 2) if hands else None,
        "chips_forfeited": sum(row["forfeited_chips"] for row in rows),
        "chips_lost_to_split_pots": sum(row["split_chips_lost"] for row in rows),
        "chips_unaccounted": sum(unaccounted_chips(config, row) for row in rows),
        "wall_seconds": round(wall_seconds, 3),
        "tournaments_played_this_run": played,
        "tournaments_per_second": round(played / wall_seconds, 3) if wall_seconds > 0 else None,
    }


def unaccounted_chips(config: Any, row: dict[str, Any]) -> int:
    """Chips neither in a final stack nor removed by a known engine rule (0 when all is well)."""
    stacks = sum(row[f"stack_{slot}"] for slot in config.slots)
    removed = row["forfeited_chips"] + row["split_chips_lost"]
    return len(config.bots) * config.stack - stacks - removed


def markdown(summary: dict[str, Any]) -> str:
    """The per-bot table in markdown, best win share first."""
    sequences = summary["card_sequences"]
    counted = "1 card sequence" if sequences == 1 else f"{sequences:,} card sequences"
    intervals = (
        "1 card sequence: no interval"
        if sequences == 1
        else f"± 95% CIs, Student's t over the {sequences:,} card sequences"
    )
    lines = [
        f"{summary['tournaments']:,} tournaments ({counted}"
        f" x {len(summary['bots'])} seat rotations), seed {summary['seed']}, payouts "
        + "/".join(f"{share:g}" for share in summary["payouts"])
        + f"; {intervals}",
        "",
        "| bot | win share | mean place | in the money | mean prize (buy-ins) | errors | illegal |",
        "|---|---|---|---|---|---|---|",
    ]
    ranked = sorted(summary["bots"], key=lambda bot: -bot["win_share"])
    for bot in ranked:
        lines.append(
            f"| {bot['name']} | {_pct(bot['win_share'], bot['win_share_ci95'])}"
            f" | {_plain(bot['mean_place'], bot['mean_place_ci95'])}"
            f" | {_pct(bot['itm_share'], bot['itm_share_ci95'])}"
            f" | {_plain(bot['mean_prize'], bot['mean_prize_ci95'])}"
            f" | {bot['errors']} | {bot['illegal_actions']} |"
        )
    return "\n".join(lines)


def _pct(value: float, ci: float | None) -> str:
    return f"{100 * value:.1f}%" + ("" if ci is None else f" ± {100 * ci:.1f}")


def _plain(value: float, ci: float | None) -> str:
    return f"{value:.2f}" + ("" if ci is None else f" ± {ci:.2f}")


def plot_places(path: Path, summary: dict[str, Any]) -> None:
    """Each bot's finishing-place distribution, as stacked bars (1st place at the bottom)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = summary["bots"]
    counts = np.array([bot["place_counts"] for bot in bots], dtype=float)
    shares = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)
    figure, axes = plt.subplots(figsize=(1.4 * len(bots) + 3, 4.5), dpi=110)
    bottom = np.zeros(len(bots))
    colours = plt.get_cmap("viridis")(np.linspace(0, 1, shares.shape[1]))
    for place in range(shares.shape[1]):
        axes.bar(
            [bot["name"] for bot in bots],
            shares[:, place],
            bottom=bottom,
            color=colours[place],
            label=_ordinal(place + 1),
        )
        bottom += shares[:, place]
    axes.set_ylabel("share of tournaments")
    axes.set_title(f"finishing places over {summary['tournaments']:,} tournaments")
    axes.legend(title="place", bbox_to_anchor=(1.01, 1), loc="upper left")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def _ordinal(place: int) -> str:
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place, 'th') }"


def write_report(
    out_dir: Path,
    config: Any,
    rows: list[dict[str, Any]],
    errors: dict[str, int],
    wall_seconds: float,
    played: int,
) -> dict[str, Any]:
    """Write ``summary.json``, ``summary.md`` and ``places.png``; return the summary."""
    summary = summarize(config, rows, errors, wall_seconds, played)
    write_json(out_dir / SUMMARY_FILE, summary)
    (out_dir / MARKDOWN_FILE).write_text(markdown(summary) + "\n", encoding="utf-8")
    plot_places(out_dir / PLOT_FILE, summary)
    return summary
