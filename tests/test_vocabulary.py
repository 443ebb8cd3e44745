"""The project speaks of itself: no tracked file numbers a step of the work that made it.

Code, comments, docstrings, tests, printed strings and documents name an earlier version by its
version number or commit, never by a numbered step or ticket of the development process. The
scan reads every tracked text file (``git ls-files``); binary files (compressed tables, numpy
archives, images) are skipped. A ticket of another project, such as PyPokerEngine's ``#82``,
carries a ``#`` and is not matched.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROCESS_WORDS = re.compile(r"\b(stop|stops) [0-9]+|\bissues? [0-9]+", re.IGNORECASE)
BINARY_SUFFIXES = (".png", ".npz", ".xz")


def tracked_text_files() -> list[Path]:
    """Every file git tracks in the checkout, except the binary ones."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    paths = [ROOT / name for name in listed.split("\0") if name]
    return [path for path in paths if path.is_file() and not path.name.endswith(BINARY_SUFFIXES)]


def process_words(path: Path) -> list[str]:
    """``path:line: text`` for each line of a text file that names a step of the process."""
    data = path.read_bytes()
    if b"\0" in data:
        return []
    lines = data.decode("utf-8", errors="replace").splitlines()
    relative = path.relative_to(ROOT)
    return [
        f"{relative}:{n}: {line.strip()}"
        for n, line in enumerate(lines, 1)
        if PROCESS_WORDS.search(line)
    ]


def test_the_pattern_finds_process_words_and_spares_other_numbers() -> None:
    # written in two parts, so that this file does not match the pattern it tests
    examples = [("as of stop", "12"), ("Issue", "17 measured"), ("stops", "47-48"), ("issues", "3")]
    found = [words for words in examples if PROCESS_WORDS.search(" ".join(words))]
    others = [("PyPokerEngine's issue", "#82"), ("a backstop", "3 deep"), ("tissue", "4")]
    spared = [words for words in others if PROCESS_WORDS.search(" ".join(words))]
    assert (len(found), spared) == (4, [])


def test_no_tracked_file_names_a_step_of_the_process() -> None:
    matches = [match for path in tracked_text_files() for match in process_words(path)]
    assert matches == [], "\n".join(matches)
