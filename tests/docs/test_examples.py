"""Every complete Python example in the README and the documentation runs.

A block fenced as ```` ```python ```` is a complete program: it is run here, in a fresh
namespace, from a scratch directory, so an example that no longer matches the code fails the
suite. A fragment (a signature, a line that needs a player of the reader's own) is fenced as
```` ```py-fragment ```` or as plain text, and is not run.
"""

from __future__ import annotations

import linecache
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def python_blocks(text: str) -> list[str]:
    """The bodies of the ```python blocks of a Markdown text, in order."""
    return FENCE.findall(text)


def documents() -> list[Path]:
    """The README and every page of the site."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def examples() -> list[tuple[str, str]]:
    """(``file#n``, code) for every ```python block of the documents."""
    return [
        (f"{path.relative_to(ROOT)}#{number}", code)
        for path in documents()
        for number, code in enumerate(python_blocks(path.read_text(encoding="utf-8")), 1)
    ]


def test_python_blocks_are_found_and_fragments_are_not() -> None:
    text = "a\n```python\nx = 1\n```\n```py-fragment\ny(\n```\n```python\nz = 2\n```\n"
    assert python_blocks(text) == ["x = 1\n", "z = 2\n"]


def test_the_readme_has_a_runnable_example() -> None:
    names = [name for name, _ in examples() if name.startswith("README.md#")]
    assert names, "README.md has no ```python example"


@pytest.mark.parametrize(("name", "code"), examples(), ids=[name for name, _ in examples()])
def test_example_runs(
    name: str, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    linecache.cache[name] = (len(code), None, code.splitlines(keepends=True), name)
    exec(compile(code, name, "exec"), {"__name__": "__main__"})
