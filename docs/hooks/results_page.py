"""The headline results page, generated from its records.

``docs/results/records.csv`` holds one row per headline figure: what was measured, the figure
and its 95% interval, the units and how many independent units it rests on, the command, the
commit and date it ran on, the machine, and the archive section with the full run. This module
renders ``docs/results/index.md`` (tables of those figures, each with a footnote giving its
command, commit, date and machine) and ``docs/results/lbr-seeds.svg`` (local best response
seed by seed, with intervals) from the records, so the page cannot say what the records do
not.

As a MkDocs hook (``hooks:`` in ``mkdocs.yml``) it rewrites the two files before each build
when the records changed; ``python docs/hooks/results_page.py`` does the same by hand.
"""

from __future__ import annotations

import csv
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parents[1] / "results"
RECORDS = RESULTS / "records.csv"
PAGE = RESULTS / "index.md"
CHART = RESULTS / "lbr-seeds.svg"
FOLD = 750  # mbb/g that local best response wins from a bot that always folds


@dataclass(frozen=True)
class Record:
    """One headline figure and how it was measured (a row of ``records.csv``)."""

    id: str
    section: str
    table: str
    row: str
    column: str
    figure: str
    interval: str
    units: str
    unit_count: str
    command: str
    commit: str
    date: str
    machine: str
    source: str

    @property
    def cell(self) -> str:
        """The figure as a table shows it, with its interval and its footnote."""
        interval = f" ± {self.interval}" if self.interval else ""
        return f"{self.figure}{interval}[^{self.id}]"

    @property
    def footnote(self) -> str:
        """How the figure was measured, in one line."""
        link = f"[runs]({self.source})" if self.source else ""
        if self.machine == "published":
            return " · ".join(part for part in (self.command, link) if part)
        parts = (
            f"`{self.command}`",
            f"`{self.commit}`, {self.date}",
            self.machine,
            self.unit_count,
            link,
        )
        return " · ".join(part for part in parts if part)


def number(text: str) -> float:
    """A figure as written on the page, as a number.

    >>> number("+1,192"), number("−74"), number("750")
    (1192.0, -74.0, 750.0)
    """
    return float(text.replace(",", "").replace("−", "-"))


def read_records(path: Path = RECORDS) -> list[Record]:
    """The records, in the file's order."""
    with path.open(encoding="utf-8", newline="") as file:
        return [Record(**row) for row in csv.DictReader(file)]


# (section, table) -> (heading, text before the table, text after it); sections in page order
HEADINGS = {"cash": "Heads-up cash", "tournaments": "Tournaments", "lbr": "Local best response",
            "speed": "Speed"}  # fmt: skip
TABLES: dict[tuple[str, str], tuple[str, str, str]] = {
    ("cash", "baselines"): (
        "Against each baseline, 100,000 hands",
        "Small blinds won per hand (sb/h) by the column's bot against the row's, ± a 95% "
        "confidence interval.",
        "Each deal is played twice with the seats swapped, so the cards' luck cancels; the "
        "intervals are over those deal pairs (over pairs of 1,000-hand sessions for "
        "`adaptive`, which learns). `cfrv2`, fixed: the agent's blueprint and rules without "
        "real-time solving (`cfrv2:solve=off,own_range=false` today), the row of Table 2 of "
        "da Luz's study, the reference this project set out to reproduce, beside that study's "
        "CFRv2 (published without intervals). `adaptive` learns each opponent within a session "
        "and exploits it. The baselines: `fish` always calls, `honest` calls by its win rate, "
        "`random` acts at random, `rule-based` raises good hands, `montecarlo` is the study's "
        "Monte Carlo threshold bot and `cfrv1` its CFRv1.",
    ),
    ("cash", "default"): (
        "The default `cfrv2`, 100,000 hands",
        "`cfrv2` as it ships: the blueprint, real-time solving once a hand leaves it, and the "
        "own-range defence on the turn and river.",
        "",
    ),
    ("tournaments", "heads-up"): (
        "Heads-up sit-and-go",
        "Share of tournaments won by `cfrv2`: 400 tournaments (200 card sequences, each played "
        "from both seats) unless the row says otherwise; 1,000 chips, blinds 10/20 doubling "
        "every 20 hands, winner takes all. ± is a 95% confidence interval over card sequences. "
        "In tournaments `cfrv2` models each opponent from the hands it sees.",
        "",
    ),
    ("tournaments", "six-player"): (
        "Six players",
        "600 tournaments (100 card sequences, each in all six seat rotations), payouts 65/35: "
        "one in six (16.7%) is the share of a bot no better than the rest. The row names "
        "`cfrv2`'s five opponents.",
        "",
    ),
    ("lbr", "100bb"): (
        "100 big blinds, the default, fifteen fresh seeds",
        "Local best response (LBR; Lisý & Bowling 2017) plays the bot knowing its strategy "
        "and, at each decision, takes the best of folding, calling and betting half the pot, "
        "the pot or all-in. What it wins is a lower bound on what a best response wins: how "
        "exploitable the bot is. Figures are thousandths of a big blind per game (mbb/g); a "
        "bot that always folds loses 750. `cfrv2` as it ships, on seeds used for nothing else, "
        "10,000 hands each; ± over duplicate deal pairs.\n\n"
        "![LBR's winnings from cfrv2 by seed, with 95% intervals](lbr-seeds.svg)",
        "{lbr_verdict}",
    ),
    ("lbr", "100bb-two"): (
        "100 big blinds, the default until one bet size, eleven fresh seeds",
        "`cfrv2` as it shipped until its solves bet one size (`cfrv2:solve_size=two` since), "
        "each seed of 5,000 hands or more.",
        "{lbr_verdict}",
    ),
    ("lbr", "100bb-other"): (
        "Other settings at 100 big blinds",
        "Each row's seeds pooled as it says. Seeds 0, 2026 and 9091 of the default until one "
        "bet size are not pooled above: its settings were chosen on seed 0, and seeds 2026 and "
        "9091 ran fewer than 5,000 hands.",
        "",
    ),
    ("lbr", "100bb-paired"): (
        "Settings against each other at 100 big blinds",
        "What LBR wins from the first setting less what it wins from the second on the same "
        "deals (`arena compare FIRST SECOND --by deal`): below 0, LBR wins less from the "
        "first. Pairing by deal takes out most of the cards' luck, so these intervals are "
        "narrower than the two rows' own.",
        "",
    ),
    ("lbr", "200bb-default"): (
        "200 big blinds, the default",
        "The depth of the published bots below; `cfrv2`'s blueprint was trained at 100 big "
        "blinds. A seed drawn at random before its run.",
        "",
    ),
    ("lbr", "200bb"): (
        "200 big blinds, the default until one bet size",
        "`cfrv2:solve_size=two`, as above.",
        "",
    ),
    ("lbr", "published"): (
        "Published bots",
        "Table 3 of Lisý & Bowling 2017: LBR allowed only to fold or call, 200 big blinds, "
        "100,000 hands a bot. The LBR above also bets, so its figures are not the same "
        "measure; the row of ours is an earlier fixed strategy under the paper's setting.",
        "",
    ),
    ("speed", "matches"): (
        "Matches",
        "Rates as the arena prints them; decision p99 is the 99th percentile of `cfrv2`'s "
        "decision times. `rule-based` opens with raises the blueprint does not hold, so most "
        "hands against it solve the flop, turn and river in real time; `honest` never raises.",
        "",
    ),
    ("speed", "first-runs"): (
        "First runs compile",
        "The agent's and the solvers' kernels are compiled by numba on their first use and "
        "cached beside the code. `arena warmup` compiles the agent's; the first `blueprint "
        "solve kuhn` then compiles the toy solvers'. Each command twice in a new checkout.",
        "",
    ),
    ("speed", "offline"): ("Training and the checks", "", ""),
}

FIRST_COLUMNS = {"baselines": "against", "default": "against", "heads-up": "against",
                 "six-player": "opponents", "100bb": "seed", "100bb-two": "seed",
                 "100bb-other": "setting", "100bb-paired": "setting", "200bb-default": "seed",
                 "200bb": "seed", "published": "bot", "matches": "run",
                 "first-runs": "command", "offline": "run"}  # fmt: skip

INTRO = """\
# Results

Heads-up at 100 big blinds (1,000 chips, blinds 5/10) unless a table says otherwise. Each
figure's footnote gives its command, commit, date and machine; the [archive](archive/index.md)
holds every other figure, and [records.csv](records.csv) the data of this page.
"""

OUTRO = """\
## How to read these figures

Intervals are Student's t at (units − 1) degrees of freedom over the independent units each
footnote names: deal pairs for bots that do not learn, session pairs for those that do, card
sequences for tournaments. "Commit" is the commit the run was made on, or the one that
published it; the name `cfrv2` has meant different settings over time, and each row says what
it means today. Pooled figures weight each seed by its deal pairs and combine the standard
errors. The machine is a shared 2-core x86_64 machine with 24 GiB of memory; rates vary with
its load from day to day. This page is generated from [records.csv](records.csv) by
`docs/hooks/results_page.py`; edit the records, not the page.
"""


def pivot(first: str, records: list[Record]) -> list[str]:
    """One Markdown table: a row per ``row`` value, a column per ``column`` value."""
    columns = list(dict.fromkeys(record.column for record in records))
    rows = list(dict.fromkeys(record.row for record in records))
    cells = {(record.row, record.column): record.cell for record in records}
    lines = ["| " + " | ".join([first, *columns]) + " |", "|" + "---|" * (len(columns) + 1)]
    for row in rows:
        values = [cells.get((row, column), "—") for column in columns]
        lines.append("| " + " | ".join([row, *values]) + " |")
    return lines


def lbr_verdict(records: list[Record], table: str = "100bb") -> str:
    """What a table of 100-big-blind seeds says against always folding's 750, from the
    records."""
    chosen = [record for record in records if (record.section, record.table) == ("lbr", table)]
    pooled = next(record for record in chosen if "pooled" in record.row)
    seeds = [record for record in chosen if record is not pooled]

    def bounds(record: Record) -> tuple[float, float]:
        value, half = number(record.figure), number(record.interval)
        return value - half, value + half

    low, high = bounds(pooled)
    holds = [record for record in seeds if bounds(record)[0] <= FOLD <= bounds(record)[1]]
    above = [record.row for record in seeds if bounds(record)[0] > FOLD]
    below = [record.row for record in seeds if bounds(record)[1] < FOLD]
    pooled_says = (
        "holds 750: `cfrv2` here is not shown to lose less to LBR than a bot that folds every hand"
        if low <= FOLD <= high
        else (
            "lies above 750"
            if low > FOLD
            else "lies below 750: `cfrv2` here loses less to LBR than a bot that folds every hand"
        )
    )
    seeds_say = f"{len(holds)} of the {len(seeds)} seeds' intervals hold 750"
    seeds_say += f"; above it: seed {', '.join(above)}" if above else ""
    seeds_say += f"; below it: seed {', '.join(below)}" if below else ""
    return f"The pooled interval, {low:,.0f} to {high:,.0f}, {pooled_says}. {seeds_say}."


def wrap(text: str) -> list[str]:
    """A paragraph's lines at the page's width (paragraphs split on blank lines)."""
    lines: list[str] = []
    for paragraph in text.split("\n\n"):
        lines += [*textwrap.wrap(paragraph, 96, break_on_hyphens=False), ""]
    return lines


def render_page(records: list[Record]) -> str:
    """The headline page's Markdown."""
    lines = [INTRO]
    for section, heading in HEADINGS.items():
        lines += [f"## {heading}", ""]
        tables = [key for key in TABLES if key[0] == section]
        for key in tables:
            title, before, after = TABLES[key]
            chosen = [record for record in records if (record.section, record.table) == key]
            lines += [f"### {title}", ""]
            lines += wrap(before) if before else []
            lines += [*pivot(FIRST_COLUMNS[key[1]], chosen), ""]
            if "{lbr_verdict}" in after:
                after = after.format(lbr_verdict=lbr_verdict(records, key[1]))
            lines += wrap(after) if after else []
    lines += [OUTRO]
    lines += [f"[^{record.id}]: {record.footnote}" for record in records]
    return "\n".join(lines) + "\n"


def render_chart(records: list[Record]) -> str:
    """LBR's winnings from ``cfrv2`` by seed, with intervals, as a standalone SVG."""
    chosen = [record for record in records if (record.section, record.table) == ("lbr", "100bb")]
    left, right, top, step, scale_max = 150, 620, 30, 22, 1600
    height = top + step * len(chosen) + 40

    def x(value: float) -> float:
        return round(left + (right - left) * value / scale_max, 1)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="640" height="{height}" '
        f'viewBox="0 0 640 {height}" font-family="sans-serif" font-size="12">',
        '<rect width="640" height="100%" fill="white"/>',
        f'<text x="{left}" y="16" fill="#333">LBR wins from cfrv2, mbb/g (95% interval)</text>',
    ]
    for tick in range(0, scale_max + 1, 400):
        parts.append(
            f'<line x1="{x(tick)}" y1="{top - 6}" x2="{x(tick)}" y2="{height - 34}" stroke="#ddd"/>'
        )
        parts.append(
            f'<text x="{x(tick)}" y="{height - 20}" text-anchor="middle" fill="#555">'
            f"{tick:,}</text>"
        )
    parts.append(
        f'<line x1="{x(750)}" y1="{top - 6}" x2="{x(750)}" y2="{height - 34}" '
        'stroke="#ff8f00" stroke-width="2" stroke-dasharray="5,3"/>'
    )
    parts.append(
        f'<text x="{x(750) + 4}" y="{height - 6}" fill="#ff8f00">750: always folding</text>'
    )
    for index, record in enumerate(chosen):
        y = top + step * index + step / 2
        value, half = number(record.figure), number(record.interval)
        pooled = "pooled" in record.row
        colour = "#004d40" if pooled else "#00897b"
        label = "all pooled" if pooled else f"seed {record.row}"
        weight = ' font-weight="bold"' if pooled else ""
        parts += [
            f'<text x="{left - 10}" y="{y + 4}" text-anchor="end" fill="#333"{weight}>'
            f"{label}</text>",
            f'<line x1="{x(value - half)}" y1="{y}" x2="{x(value + half)}" y2="{y}" '
            f'stroke="{colour}" stroke-width="{3 if pooled else 2}"/>',
            f'<circle cx="{x(value)}" cy="{y}" r="{5 if pooled else 4}" fill="{colour}"/>',
        ]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_if_changed(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` unless it already holds it; whether it wrote."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def generate() -> list[Path]:
    """Render the page and the chart from the records; the files that changed."""
    records = read_records()
    outputs = {PAGE: render_page(records), CHART: render_chart(records)}
    return [path for path, text in outputs.items() if write_if_changed(path, text)]


def on_pre_build(**_: Any) -> None:
    """MkDocs hook: bring the page up to date with the records before the build."""
    generate()


if __name__ == "__main__":
    for path in generate():
        print(f"wrote {path}")
