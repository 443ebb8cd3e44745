"""The figures the README and the docs' front and agent pages claim are figures the results hold.

A figure with a 95% interval (``+610 ± 122``) in ``README.md``, ``docs/index.md`` or
``docs/agent.md`` must be written the same way, interval and all, on the results page, in its
records or in its archive (``docs/results/``), where its command, commit, date and machine
are. A sign may be dropped where the text says which way the difference goes ("166 ± 170
less").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "docs" / "results"
NUMBER = r"\d+(?:,\d{3})*(?:\.\d+)?"  # 1,192 or 0.04, not a trailing comma or stop
FIGURE = re.compile(rf"[+−-]?{NUMBER} ± {NUMBER}")


def results_text() -> str:
    """Everything the results hold: the page, the archive and the records."""
    pages = sorted(RESULTS.rglob("*.md"))
    return "\n".join(path.read_text(encoding="utf-8") for path in [*pages, RESULTS / "records.csv"])


def unsourced(text: str, results: str) -> list[str]:
    """The figures with an interval in ``text`` that ``results`` does not hold, signed or not.

    >>> unsourced("LBR wins +415 ± 174 mbb/g, 166 ± 170 less", "+415 ± 174 and −166 ± 170")
    []
    >>> unsourced("+1.37 ± 0.04 sb/h", "+1.36 ± 0.04")
    ['+1.37 ± 0.04']
    >>> unsourced("+369 ± 142, then +1,192 ± 409.", "+369 ± 142 and +1,192 ± 409")
    []
    """
    return [figure for figure in FIGURE.findall(text) if not held(figure, results)]


def held(figure: str, results: str) -> bool:
    """Whether ``results`` writes ``figure`` (its sign aside) as a whole figure: not as the end
    of a larger number, nor followed by more digits.

    >>> held("+415 ± 174", "+1,415 ± 174"), held("415 ± 174", "−415 ± 174.")
    (False, True)
    """
    core = re.escape(figure.lstrip("+−-"))
    return re.search(rf"(?<![\d,.]){core}(?![\d]|[.,]\d)", results) is not None


@pytest.mark.parametrize("document", ["README.md", "docs/index.md", "docs/agent.md"])
def test_every_claimed_figure_is_a_result(document: str) -> None:
    text = (ROOT / document).read_text(encoding="utf-8")
    assert FIGURE.search(text), f"{document} claims no figure: the pattern no longer reads it"
    assert unsourced(text, results_text()) == []


def test_a_figure_the_results_do_not_hold_is_found() -> None:
    results = results_text()
    assert unsourced("LBR wins +610 ± 122 mbb/g", results) == []
    assert unsourced("LBR wins +611 ± 122 mbb/g", results) == ["+611 ± 122"]
