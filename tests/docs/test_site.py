"""The documentation site builds in MkDocs' strict mode: every page in the nav, every link and
anchor resolved, the CLI reference generated from the click groups and the API reference from
the docstrings, with no warning."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    site = tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert built.returncode == 0, built.stdout + built.stderr
    cli = (site / "cli" / "index.html").read_text(encoding="utf-8")
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    assert ("arena tournament" in cli, "blueprint train" in cli) == (True, True)
    assert "CFRv2Player" in api
