"""The headline results page says what its records say, and nothing else.

``docs/results/index.md`` and its chart are generated from ``docs/results/records.csv``: the
committed files must equal a fresh rendering, every figure in the page's tables must carry the
footnote of a record holding that very figure, and every record must appear. The pooled local
best response figures must follow from the seeds' records, as their footnotes say they do.
"""

from __future__ import annotations

import doctest
import importlib.util
import math
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
CELL = re.compile(r"^(?P<figure>[+−]?[\d,.]+)(?: ± (?P<interval>[\d,.]+))?\[\^(?P<id>[\w-]+)\]$")


def load_generator() -> ModuleType:
    path = ROOT / "docs" / "hooks" / "results_page.py"
    spec = importlib.util.spec_from_file_location("results_page", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    return load_generator()


def table_cells(page: str) -> list[str]:
    """The figure cells of the page's tables: each body row's cells but the first ("—" marks
    an empty one)."""
    cells: list[str] = []
    in_body = False
    for line in page.splitlines():
        if line.startswith("|---"):
            in_body = True
        elif in_body and line.startswith("| "):
            cells += [cell for cell in line.strip("| ").split(" | ")[1:] if cell != "—"]
        else:
            in_body = False
    return cells


def test_the_committed_page_and_chart_are_the_records_rendered(generator: ModuleType) -> None:
    records = generator.read_records()
    page = (ROOT / "docs" / "results" / "index.md").read_text(encoding="utf-8")
    chart = (ROOT / "docs" / "results" / "lbr-seeds.svg").read_text(encoding="utf-8")
    assert page == generator.render_page(records), "run python docs/hooks/results_page.py"
    assert chart == generator.render_chart(records), "run python docs/hooks/results_page.py"


def test_every_figure_on_the_page_is_its_records_figure(generator: ModuleType) -> None:
    records = {record.id: record for record in generator.read_records()}
    page = (ROOT / "docs" / "results" / "index.md").read_text(encoding="utf-8")
    cells = table_cells(page)
    assert len(cells) == len(records)
    for cell in cells:
        match = CELL.match(cell)
        assert match, f"a figure without a record's footnote: {cell!r}"
        record = records[match["id"]]
        assert (match["figure"], match["interval"] or "") == (record.figure, record.interval)
    assert {CELL.match(cell)["id"] for cell in cells} == set(records)


def test_every_record_says_how_it_was_measured(generator: ModuleType) -> None:
    for record in generator.read_records():
        assert record.command and record.units and record.source, record.id
        if record.machine != "published":
            assert re.fullmatch(r"[0-9a-f]{7}", record.commit), record.id
            assert re.fullmatch(r"2026-\d\d-\d\d", record.date), record.id
            assert record.unit_count, record.id


def pooled(generator: ModuleType, records: list, table: str) -> tuple[float, float]:
    """The seeds' estimates weighted by their deal pairs, and the 95% half-width of that mean
    with the seeds' standard errors combined as independent."""
    seeds = [record for record in records if record.table == table and "pooled" not in record.row]
    pairs = [int(record.unit_count.split()[0].replace(",", "")) for record in seeds]
    figures = [generator.number(record.figure) for record in seeds]
    half_widths = [generator.number(record.interval) for record in seeds]
    total = sum(pairs)
    estimate = sum(n * x for n, x in zip(pairs, figures, strict=True)) / total
    spread = math.sqrt(sum((n * h) ** 2 for n, h in zip(pairs, half_widths, strict=True)))
    return estimate, spread / total


@pytest.mark.parametrize(
    ("table", "figure", "interval"),
    [("100bb", 660, 77), ("100bb-two", 740, 96), ("200bb", 1192, 409)],
)
def test_pooled_local_best_response_follows_from_the_seeds(
    generator: ModuleType, table: str, figure: int, interval: int
) -> None:
    records = [record for record in generator.read_records() if record.section == "lbr"]
    estimate, half_width = pooled(generator, records, table)
    (record,) = [r for r in records if r.table == table and "pooled" in r.row]
    assert (round(estimate), round(half_width)) == (figure, interval)
    assert (generator.number(record.figure), generator.number(record.interval)) == (
        figure,
        interval,
    )


def test_the_verdict_on_always_folding_follows_the_intervals(generator: ModuleType) -> None:
    records = generator.read_records()
    verdict = generator.lbr_verdict(records)
    assert verdict.startswith("The pooled interval, 583 to 737, lies below 750")
    assert verdict.endswith("14 of the 15 seeds' intervals hold 750; below it: seed 5886.")
    verdict = generator.lbr_verdict(records, "100bb-two")
    assert verdict.startswith("The pooled interval, 644 to 836, holds 750")
    assert verdict.endswith("10 of the 11 seeds' intervals hold 750; above it: seed 7748.")


def test_the_generators_examples_hold(generator: ModuleType) -> None:
    assert doctest.testmod(generator).failed == 0
