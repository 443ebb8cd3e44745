"""The import-linter contracts in pyproject.toml hold, and they catch a broken layer.

The contracts are checked on a copy of the packages, so a test can break a layer on purpose
(the boundary importing the solver, the trainer or a baseline importing a player) and see
``lint-imports`` fail, naming the broken contract.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("agent", "blueprint", "baselines", "arena")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def copy_tree(tmp_path: Path) -> Path:
    """The packages and pyproject.toml, copied (without data files or caches)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.csv*", "*.npz", "*.json")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def lint_imports(folder: Path) -> subprocess.CompletedProcess[str]:
    """Run ``lint-imports`` on the copy in ``folder`` (it shadows the installed packages)."""
    environment = {**os.environ, "PYTHONPATH": str(folder)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def add_import(module: Path, statement: str) -> None:
    module.write_text(module.read_text() + f"\n{statement}  # the layer broken on purpose\n")


pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter not installed")


def test_the_contracts_hold_on_the_tree(tmp_path: Path) -> None:
    result = lint_imports(copy_tree(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 kept, 0 broken" in result.stdout


BROKEN_LAYERS = [
    ("agent/boundary/policy.py", "import blueprint.tree", "agent.boundary.policy -> blueprint"),
    ("blueprint/tree.py", "import agent.players.history", "blueprint.tree -> agent.players"),
    ("agent/poker/cards.py", "import agent.players.history", "agent.poker.cards -> agent.players"),
    ("baselines/fish.py", "from agent.players.cfrv2 import CFRv2Player", "imported by nothing"),
    (
        "agent/players/rules/threshold.py",
        "import agent.players.strategy",
        "agent.players.rules.threshold -> agent.players.strategy",
    ),
    (
        "agent/players/strategy.py",
        "import agent.players.exploitation.exploiter",
        "agent.players.strategy -> agent.players.exploitation.exploiter",
    ),
    (
        "agent/players/rules/street_solving.py",
        "import blueprint.subgame.river",
        "agent.players.rules.street_solving -> blueprint.subgame.river",
    ),
    (
        "agent/players/opponents/model.py",
        "import agent.players.rules.rule",
        "agent.players.opponents.model -> agent.players.rules.rule",
    ),
]


@pytest.mark.parametrize(("module", "statement", "named"), BROKEN_LAYERS)
def test_an_import_against_the_layers_breaks_a_contract(
    tmp_path: Path, module: str, statement: str, named: str
) -> None:
    folder = copy_tree(tmp_path)
    add_import(folder / module, statement)
    result = lint_imports(folder)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout and named in result.stdout
