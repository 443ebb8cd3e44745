"""Two runs on the same cards, compared unit by unit: what a change of bot is worth.

Two heads-up matches (``arena run A vs B``), two ring games (``arena run A B C ...``), two
tournament runs (``arena tournament``) or two local best response runs (``arena lbr``) with the
same seed and layout deal the same cards:
hand ``i`` of one is hand ``i`` of the other, and tournament ``i`` plays the same card
sequence in the same seat rotation. Where one bot is changed (a new version, an option), the
difference of its results is then measured on each of the runs' units (a duplicate pair or
session pair; a deal in all its seat rotations, or a session; a card sequence in all its
rotations), and the luck of the cards that both runs share cancels out: the paired CI is
several times narrower than the two runs' own intervals combined (the idea of the Annual
Computer Poker Competition's duplicate matches, carried from seats to versions). Only the
units both runs have finished are compared, so a run still under way can be compared with a
finished one.

Two LBR runs compare the bots LBR played (slot B) by what LBR won from each, in mbb/g: how
much less exploitable one version is than the other, on the same deals. Their settings (bet
sizes, rounds, how a called bet is valued, sample sizes) must be the same.

The unit is the run's own (``by="run"``): a duplicate pair, or with sessions of fresh bots a
session pair, because a bot that learns makes the hands of a session depend on each other.
``by="deal"`` pairs heads-up matches and LBR runs on their duplicate deals even in sessions:
hundreds of units instead of a few, and valid for bots that do not learn from hand to hand
(the unit of ``python -m arena.lbr.report``).

A learning bot played in sessions can be compared with a fixed bot played without them, on the
same seed: sessions lay the same deals out in another order, so each hand is paired with the
other run's hand of the same deal and seats, and the unit is the session pair of the run in
sessions (the fixed bot's hands are grouped as the learning bot's sessions group its own).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from arena.chance_adjusted import chance_adjusted
from arena.lbr.match import LBR_LABEL, LBRConfig, read_lbr_run
from arena.match import MatchConfig
from arena.results import HANDS_FILE, MATCH_FILE, read_hands, read_match_file
from arena.ring import CONFIG_FILE as RING_FILE
from arena.ring import read_config as read_ring_config
from arena.ring import ring_columns
from arena.ring import typed_row as typed_ring_row
from arena.rows_file import RowsFile
from arena.stats import match_stats, mean_ci
from arena.tournament.run import CONFIG_FILE as TOURNAMENT_FILE
from arena.tournament.run import TOURNAMENTS_FILE, read_config, tournament_columns, typed_row

# what may differ between two runs that deal the same cards: the bots, and how they ran
MATCH_FREE = ("bot_a", "bot_b", "decision_timeout", "strict")
# what may also differ between two heads-up runs: sessions lay the same deals out otherwise
LAYOUT_FREE = ("session_hands",)
TOURNAMENT_FREE = RING_FREE = ("bots", "decision_timeout", "strict", "phh_dir")
LBR_FREE = ("bot", "model")  # two LBR runs may differ in the bot played and its model only
LBR_KIND = "local best response"
UNITS = ("run", "deal")  # a run's own unit, or its duplicate deals (matches and LBR runs)


@dataclass(frozen=True)
class Measure:
    """One figure of the compared bot in both runs, and the paired difference (second minus
    first) with its 95% CI half-width (None with fewer than two units)."""

    name: str
    first: float
    second: float
    difference: float
    ci95: float | None


@dataclass(frozen=True)
class Comparison:
    """The compared bot's figures in both runs, on the units both runs finished (``pairs``:
    how many pairs of runs, on other cards each, :func:`pooled` made it of)."""

    kind: str  # "match", "ring game", "tournament" or "local best response"
    unit: str  # what one observation of the CI is, plural: "duplicate pairs", ...
    slot: str
    first_bot: str
    second_bot: str
    units: int
    measures: tuple[Measure, ...]
    pairs: int = 1


def compare_runs(first: Path, second: Path, slot: str | None = None, by: str = "run") -> Comparison:
    """Compare bot ``slot`` (A; in LBR runs the bot LBR played, B) of two runs on the same
    cards, on the units ``by`` names; ValueError naming what differs."""
    kinds = [run_kind(folder) for folder in (first, second)]
    if kinds[0] != kinds[1]:
        raise ValueError(f"{str(first)!r} holds a {kinds[0]} run, {str(second)!r} a {kinds[1]} run")
    if by not in UNITS:
        raise ValueError(f"units by {by!r}: expected one of {', '.join(UNITS)}")
    if kinds[0] == LBR_KIND:
        return compare_lbr_runs(first, second, slot, by)
    if by == "deal" and kinds[0] != "match":
        raise ValueError(f"units by deal pair heads-up matches and LBR runs, not a {kinds[0]} run")
    if kinds[0] == "match":
        return compare_matches(first, second, slot or "A", by)
    compare = compare_rings if kinds[0] == "ring game" else compare_tournaments
    return compare(first, second, slot or "A")


def pooled(comparisons: Sequence[Comparison]) -> Comparison:
    """Comparisons of pairs of runs on other cards each (other seeds) as one, as the results
    pool seeds: each figure the mean of theirs weighted by their units, each 95% half-width
    combined as independent standard errors are, ``sqrt(sum((n_i h_i)^2)) / sum(n_i)`` (each
    pair's t quantile kept; None if any pair has none). ValueError unless they compare the
    same bots, slot, kind of run, unit and measures."""
    if not comparisons:
        raise ValueError("nothing to pool: no comparison given")
    head = comparisons[0]
    for other in comparisons[1:]:
        what = pooling_differences(head, other)
        if what:
            raise ValueError(f"cannot pool these comparisons: their {what} differ")
    counts = np.array([comparison.units for comparison in comparisons], dtype=float)
    total = float(counts.sum())
    measures = tuple(
        pooled_measure([comparison.measures[index] for comparison in comparisons], counts)
        for index in range(len(head.measures))
    )
    pairs = sum(comparison.pairs for comparison in comparisons)
    return replace(head, units=int(total), measures=measures, pairs=pairs)


def pooling_differences(first: Comparison, second: Comparison) -> str:
    """What keeps two comparisons from pooling, named; empty if nothing does."""
    named = {
        "bots": (first.first_bot, first.second_bot) != (second.first_bot, second.second_bot),
        "slots": first.slot != second.slot,
        "kinds of run": (first.kind, first.unit) != (second.kind, second.unit),
        "measures": [m.name for m in first.measures] != [m.name for m in second.measures],
    }
    return ", ".join(name for name, differs in named.items() if differs)


def pooled_measure(measures: list[Measure], counts: np.ndarray) -> Measure:
    """One measure of several pairs of runs, weighted by their units (:func:`pooled`)."""
    total = float(counts.sum())

    def mean(values: list[float]) -> float:
        return float(np.dot(counts, values)) / total

    ci95 = None
    if all(measure.ci95 is not None for measure in measures):
        widths = np.array([measure.ci95 for measure in measures], dtype=float)
        ci95 = float(np.sqrt(np.sum((counts * widths) ** 2))) / total
    return Measure(
        measures[0].name,
        mean([measure.first for measure in measures]),
        mean([measure.second for measure in measures]),
        mean([measure.difference for measure in measures]),
        ci95,
    )


def run_kind(folder: Path) -> str:
    """``"match"``, ``"ring game"``, ``"tournament"`` or ``"local best response"``;
    ValueError for any other folder."""
    if (folder / MATCH_FILE).is_file() and read_match_file(folder).get("bot_a") == LBR_LABEL:
        return LBR_KIND
    for kind, name in (
        ("match", MATCH_FILE),
        ("ring game", RING_FILE),
        ("tournament", TOURNAMENT_FILE),
    ):
        if (folder / name).is_file():
            return kind
    raise ValueError(
        f"{str(folder)!r} holds no {MATCH_FILE}, {RING_FILE} or {TOURNAMENT_FILE}: "
        "it is not the folder of an `arena run` or `arena tournament` run"
    )


def same_cards(first: Any, second: Any, free: tuple[str, ...]) -> None:
    """ValueError naming the settings that make two runs deal different cards."""
    shown = differences(first, second, free)
    if shown:
        raise ValueError(f"the runs do not deal the same cards: {shown}")


def differences(first: Any, second: Any, free: tuple[str, ...]) -> str:
    """The settings other than ``free`` in which two configurations differ, as text ("" if
    none)."""
    left, right = first.__dict__, second.__dict__
    differ = [key for key in left if key not in free and left[key] != right.get(key)]
    return ", ".join(f"{key} {left[key]!r} and {right.get(key)!r}" for key in differ)


def same_opponents(first: tuple[str, ...], second: tuple[str, ...], index: int) -> None:
    """ValueError unless the runs seat the same bots but for the compared one."""
    others = [
        (a, b) for seat, (a, b) in enumerate(zip(first, second, strict=True)) if seat != index
    ]
    if any(a != b for a, b in others):
        raise ValueError(
            f"the runs seat other opponents ({', '.join(first)} and {', '.join(second)}): "
            "only the compared bot may differ"
        )


def seated_pairs(
    folders: tuple[Path, Path],
    configs: list[Any],
    slots: tuple[str, ...],
    slot: str,
    read: Callable[[Path, Any], list[dict[str, Any]]],
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The rows both runs of several seats finished, paired, once ``slot`` is known to be
    one of ``slots`` and the other seats are known to hold the same bots."""
    if slot not in slots:
        raise ValueError(f"the runs have slots {' '.join(slots)}, not {slot!r}")
    same_opponents(configs[0].bots, configs[1].bots, slots.index(slot))
    first, second = (read(f, c) for f, c in zip(folders, configs, strict=True))
    return common_rows(first, second)


def common_rows(
    first: list[dict[str, Any]],
    second: list[dict[str, Any]],
    key: Callable[[dict[str, Any]], Any] = lambda row: row["index"],
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The rows both runs finished, paired by ``key`` (the index by default); ValueError if
    there are none."""
    by_key = {key(row): row for row in second}
    pairs = [(row, by_key[key(row)]) for row in first if key(row) in by_key]
    if not pairs:
        raise ValueError("the runs have no finished hand or tournament in common")
    return pairs


def columns(
    pairs: list[tuple[dict[str, Any], dict[str, Any]]], column: str
) -> tuple[np.ndarray, np.ndarray]:
    """One column of the paired rows, as the first run's and the second run's arrays."""
    first, second = zip(*((a[column], b[column]) for a, b in pairs), strict=True)
    return np.array(first, dtype=float), np.array(second, dtype=float)


def paired(name: str, units: np.ndarray, first: np.ndarray, second: np.ndarray) -> Measure:
    """A :class:`Measure` of per-row values, each unit one observation."""
    before, _ = mean_ci(units, first)
    after, _ = mean_ci(units, second)
    difference, ci = mean_ci(units, second - first)
    return Measure(name, before, after, difference, ci)


def compare_matches(first: Path, second: Path, slot: str, by: str = "run") -> Comparison:
    """Slot A's or B's sb/h in two heads-up matches, paired hand for hand."""
    if slot not in ("A", "B"):
        raise ValueError(f"a match has slots A and B, not {slot!r}")
    configs = [MatchConfig(**read_match_file(folder)) for folder in (first, second)]
    same_match_cards(*configs)
    first_bots, second_bots = ((config.bot_a, config.bot_b) for config in configs)
    same_opponents(first_bots, second_bots, index="AB".index(slot))
    pairs, units, unit = paired_hands((first, second), (configs[0], configs[1]), by)
    measures = sb_measures(units, pairs, slot, configs[0].small_blind, configs[0].stack)
    first_name, second_name = (getattr(config, f"bot_{slot.lower()}") for config in configs)
    units_done = len(set(units.tolist()))
    return Comparison("match", unit, slot, first_name, second_name, units_done, measures)


def compare_lbr_runs(first: Path, second: Path, slot: str | None, by: str) -> Comparison:
    """What LBR won from the bot of each of two ``arena lbr`` runs, in mbb/g, paired hand
    for hand: the bots (slot B) may differ, LBR's settings may not."""
    if slot not in (None, "B"):
        raise ValueError(
            "in an LBR run slot A is local best response itself: "
            f"the compared bot is B, not {slot!r}"
        )
    (lbr_first, first_match), (lbr_second, second_match) = map(read_lbr_run, (first, second))
    same_match_cards(first_match, second_match)
    same_lbr_settings(lbr_first, lbr_second)
    pairs, units, unit = paired_hands((first, second), (first_match, second_match), by)
    to_mbb = 1000.0 / (2 * first_match.small_blind)  # chips to thousandths of a big blind
    won = columns(pairs, "won_A")
    adjusted = adjusted_columns(pairs, "A", first_match.stack)
    measures = (
        paired("LBR mbb/g", units, to_mbb * won[0], to_mbb * won[1]),
        paired("LBR mbb/g, chance-adjusted", units, to_mbb * adjusted[0], to_mbb * adjusted[1]),
    )
    names = (first_match.bot_b, second_match.bot_b)
    return Comparison(LBR_KIND, unit, "B", *names, len(set(units.tolist())), measures)


def same_match_cards(first: MatchConfig, second: MatchConfig) -> None:
    """ValueError unless two matches deal the same cards (one may be longer), in sessions of
    one length or with one of them in sessions."""
    same_cards(replace(first, hands=second.hands), second, MATCH_FREE + LAYOUT_FREE)
    lengths = {config.session_hands for config in (first, second)} - {None}
    if len(lengths) > 1:
        raise ValueError(
            f"the runs play sessions of {first.session_hands} and {second.session_hands} hands:"
            " compare runs in sessions of one length, or one of them without sessions"
        )


def unit_side(first: MatchConfig, second: MatchConfig) -> int:
    """Which run's units the comparison counts: the one in sessions (a learning bot's
    session pairs), else the first."""
    return 1 if first.session_hands is None and second.session_hands is not None else 0


def same_lbr_settings(first: LBRConfig, second: LBRConfig) -> None:
    """ValueError naming the settings in which local best response plays otherwise."""
    shown = differences(first, second, LBR_FREE)
    if shown:
        raise ValueError(f"local best response plays otherwise in the two runs: {shown}")


def match_rows(first: Path, second: Path) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The hands both heads-up runs finished, each paired with the other run's hand of the
    same deal and seats: hand for hand in one layout, and across a run in sessions and one
    without them, which lay the same deals out in another order."""
    first_rows, second_rows = (read_hands(folder / HANDS_FILE) for folder in (first, second))
    return common_rows(first_rows, second_rows, key=lambda row: (row["deal"], row["seats"]))


def match_units(
    config: MatchConfig,
    pairs: list[tuple[dict[str, Any], dict[str, Any]]],
    by: str,
    side: int = 0,
) -> np.ndarray:
    """Each paired hand's unit in run ``side``'s layout: the run's own
    (:meth:`MatchConfig.unit_of`) or its deal."""
    unit_of = config.deal_of if by == "deal" else config.unit_of
    return np.array([unit_of(pair[side]["index"]) for pair in pairs])


def paired_hands(
    folders: tuple[Path, Path], configs: tuple[MatchConfig, MatchConfig], by: str
) -> tuple[list[tuple[dict[str, Any], dict[str, Any]]], np.ndarray, str]:
    """Two heads-up runs' hands paired, each pair's unit and the units' name: the units of
    the run in sessions where one is (:func:`unit_side`)."""
    pairs = match_rows(*folders)
    side = unit_side(*configs)
    units = match_units(configs[side], pairs, by, side)
    return pairs, units, match_unit(configs[side], by)


def sb_measures(
    units: np.ndarray,
    pairs: list[tuple[dict[str, Any], dict[str, Any]]],
    slot: str,
    small_blind: int,
    stack: int,
) -> tuple[Measure, Measure]:
    """``slot``'s sb/h in both runs, paired hand for hand: as the engine paid it, and with
    the luck of the board taken out (:mod:`arena.chance_adjusted`)."""
    adjusted = adjusted_columns(pairs, slot, stack) / small_blind
    return (
        winnings(units, *columns(pairs, f"won_{slot}"), small_blind),
        paired("sb/h, chance-adjusted", units, *adjusted),
    )


def adjusted_columns(
    pairs: list[tuple[dict[str, Any], dict[str, Any]]], slot: str, stack: int
) -> np.ndarray:
    """``slot``'s chance-adjusted chips per paired hand (:mod:`arena.chance_adjusted`), the
    first run's row and the second run's."""
    first, second = zip(*pairs, strict=True)
    return np.array([chance_adjusted(rows, slot, stack) for rows in (first, second)])


def winnings(units: np.ndarray, first: np.ndarray, second: np.ndarray, small_blind: int) -> Measure:
    """sb/h in both runs and of the hand-by-hand difference (:func:`arena.stats.match_stats`)."""
    before, after, difference = (
        match_stats(units, chips, small_blind) for chips in (first, second, second - first)
    )
    return Measure(
        "sb/h",
        before.sb_per_hand,
        after.sb_per_hand,
        difference.sb_per_hand,
        difference.ci95_sb_per_hand,
    )


def compare_rings(first: Path, second: Path, slot: str) -> Comparison:
    """Slot ``slot``'s sb/h in two ring games, paired hand for hand."""
    configs = [read_ring_config(folder) for folder in (first, second)]
    same_cards(replace(configs[0], hands=configs[1].hands), configs[1], RING_FREE)
    slots = configs[0].slots

    def read(folder: Path, config: Any) -> list[dict[str, Any]]:
        return RowsFile(folder / HANDS_FILE, ring_columns(config), typed_ring_row).read()

    pairs = seated_pairs((first, second), configs, slots, slot, read)
    units = np.array([configs[0].unit_of(row["index"]) for row, _ in pairs])
    measures = sb_measures(units, pairs, slot, configs[0].small_blind, configs[0].stack)
    first_name, second_name = (config.bots[slots.index(slot)] for config in configs)
    unit = "sessions" if configs[0].session_hands is not None else "deals"
    units_done = len(set(units.tolist()))
    return Comparison("ring game", unit, slot, first_name, second_name, units_done, measures)


def match_unit(config: MatchConfig, by: str = "run") -> str:
    """What one observation of a match's CI is (:meth:`MatchConfig.unit_of`), plural."""
    if by == "deal":
        return "duplicate pairs" if config.duplicate else "hands"
    if config.session_hands is not None:
        return "session pairs" if config.duplicate else "sessions"
    return "duplicate pairs" if config.duplicate else "hands"


def compare_tournaments(first: Path, second: Path, slot: str) -> Comparison:
    """Slot ``slot``'s win share, mean place, in-the-money share and mean prize in two
    tournament runs, paired tournament for tournament."""
    configs = [read_config(folder) for folder in (first, second)]
    base = replace(configs[0], tournaments=configs[1].tournaments)
    same_cards(base, configs[1], TOURNAMENT_FREE)
    slots = tuple(chr(ord("A") + seat) for seat in range(len(configs[0].bots)))

    def read(folder: Path, config: Any) -> list[dict[str, Any]]:
        return RowsFile(folder / TOURNAMENTS_FILE, tournament_columns(config), typed_row).read()

    pairs = seated_pairs((first, second), configs, slots, slot, read)
    units = np.array([row["deal"] for row, _ in pairs])
    places = columns(pairs, f"place_{slot}")
    paid = len(configs[0].paid)
    measures = (
        paired("win share", units, *(1.0 * (place == 1) for place in places)),
        paired("mean place", units, *places),
        paired("in the money", units, *(1.0 * (place <= paid) for place in places)),
        paired("mean prize (buy-ins)", units, *columns(pairs, f"prize_{slot}")),
    )
    index = slots.index(slot)
    first_name, second_name = (config.bots[index] for config in configs)
    units_done = len(set(units.tolist()))
    return Comparison(
        "tournament", "card sequences", slot, first_name, second_name, units_done, measures
    )


def counted(count: int, plural: str) -> str:
    """``count`` units, named in the singular for one.

    >>> counted(1, "session pairs"), counted(1_000, "card sequences")
    ('1 session pair', '1,000 card sequences')
    """
    return f"{count:,} {plural.removesuffix('s') if count == 1 else plural}"


def markdown(comparison: Comparison) -> str:
    """The comparison as a Markdown table with a line that says what was compared."""
    units = counted(comparison.units, comparison.unit)
    runs = f" over {comparison.pairs} pairs of runs" if comparison.pairs > 1 else ""
    interval = "pooled 95% CI" if comparison.pairs > 1 else "paired 95% t CI"
    lines = [
        f"slot {comparison.slot}: {comparison.first_bot} (first) against "
        f"{comparison.second_bot} (second), {units} in common{runs}",
        "",
        f"| measure | first | second | second - first ({interval}, {units}) |",
        "|---|---|---|---|",
    ]
    for measure in comparison.measures:
        percent = measure.name in ("win share", "in the money")
        scale, digits = (100.0, 1) if percent else (1.0, 0 if "mbb" in measure.name else 2)
        ci = "" if measure.ci95 is None else f" ± {scale * measure.ci95:.{digits}f}"
        lines.append(
            f"| {measure.name} | {scale * measure.first:.{digits}f} | "
            f"{scale * measure.second:.{digits}f} | {scale * measure.difference:+.{digits}f}{ci} |"
        )
    return "\n".join(lines)
