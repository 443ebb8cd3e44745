"""Bots by git revision (``NAME@REV``): two versions side by side, pinned, and clear errors."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.match import MatchConfig, play_hands, portable_spec
from arena.registry import make_bot, parse_bot_spec
from arena.versions import (
    CACHE_VARIABLE,
    commit_of,
    extracted_version,
    pinned_version,
    source_checkout,
    versioned_target,
    warm_version,
)

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

TINY_BOT = """
import importlib.resources

from agent.helper import greeting
from pypokerengine.players import BasePokerPlayer


class Bot(BasePokerPlayer):
    def declare_action(self, valid_actions, hole_card, round_state):
        return "fold", 0

    def answer(self):
        table = importlib.resources.files("agent.data") / "table.txt"
        return greeting() + table.read_text().strip()
"""
TINY_WARMUP = """
WARMED = []


def cache_is_cold():
    return not WARMED


def warm_up():
    WARMED.append("compiled")
"""
TINY_REGISTRY = 'REGISTRY: dict = {"tiny": ("agent.bots:Bot", "a tiny bot"), "ext": ("x.y:Z", "")}'


def git(folder: Path, *arguments: str) -> str:
    identity = ["-c", "user.name=test", "-c", "user.email=test@example.invalid"]
    done = subprocess.run(
        ["git", "-C", str(folder), *identity, *arguments], capture_output=True, check=True
    )
    return done.stdout.decode().strip()


def tiny_checkout(folder: Path) -> Path:
    """A git checkout with two commits of a tiny agent: its data table says one, then two."""
    for package in ("agent", "data", "arena"):
        (folder / package).mkdir(parents=True)
        (folder / package / "__init__.py").write_text("")
    (folder / "agent" / "bots.py").write_text(TINY_BOT)
    (folder / "agent" / "helper.py").write_text("def greeting():\n    return 'table '\n")
    (folder / "agent" / "poker").mkdir()
    (folder / "agent" / "poker" / "__init__.py").write_text("")
    (folder / "agent" / "poker" / "warmup.py").write_text(TINY_WARMUP)
    (folder / "arena" / "registry.py").write_text(TINY_REGISTRY)
    git(folder, "init", "-q")
    for text in ("one", "two"):
        (folder / "data" / "table.txt").write_text(text)
        git(folder, "add", "-A")
        git(folder, "commit", "-q", "-m", text)
    return folder


@pytest.fixture
def restored_path(monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))


def test_two_versions_play_side_by_side_in_one_process(tmp_path, restored_path):
    checkout = tiny_checkout(tmp_path / "repo")
    cache = tmp_path / "cache"
    answers = {}
    for revision in ("HEAD~1", "HEAD"):
        dotted = versioned_target(f"tiny@{revision}", checkout, cache)
        module, _, name = dotted.partition(":")
        answers[revision] = getattr(__import__(module, fromlist=[name]), name)().answer()
    assert answers == {"HEAD~1": "table one", "HEAD": "table two"}
    old = commit_of("HEAD~1", checkout)
    assert versioned_target("tiny@HEAD~1", checkout, cache).startswith(f"agent_{old[:12]}.bots")
    assert sorted(path.name for path in cache.iterdir()) == sorted(
        [old, commit_of("HEAD", checkout)]
    )


def test_an_extracted_version_is_reused_and_renamed(tmp_path):
    checkout = tiny_checkout(tmp_path / "repo")
    commit = commit_of("HEAD", checkout)
    folder = extracted_version(commit, checkout, tmp_path / "cache")
    package = folder / f"agent_{commit[:12]}"
    assert (package / "data" / "table.txt").read_text() == "two"
    assert (
        "from agent_" + commit[:12] + ".helper import greeting" in (package / "bots.py").read_text()
    )
    (package / "marker").write_text("kept")
    assert extracted_version(commit, checkout, tmp_path / "cache") == folder
    assert (package / "marker").is_file()


def test_a_version_compiles_its_own_kernels_once_before_it_plays(tmp_path, restored_path):
    checkout = tiny_checkout(tmp_path / "repo")
    commit = commit_of("HEAD", checkout)
    versioned_target("tiny@HEAD", checkout, tmp_path / "cache")
    warm_version("tiny@HEAD", checkout)
    warm_version("tiny@HEAD", checkout)
    warmup = __import__(f"agent_{commit[:12]}.poker.warmup", fromlist=["WARMED"])
    assert warmup.WARMED == ["compiled"]


def test_a_revision_is_pinned_to_its_commit(tmp_path):
    checkout = tiny_checkout(tmp_path / "repo")
    first = commit_of("HEAD~1", checkout)
    assert pinned_version("tiny@HEAD~1", checkout) == f"tiny@{first[:12]}"


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("tiny@nosuchbranch", "no such revision"),
        ("other@HEAD", "'other' is not in the registry at HEAD (tiny, ext)"),
        ("ext@HEAD", "is not ours (x.y:Z)"),
        ("tiny@", "expected NAME@REVISION"),
        ("tiny@--output=x", "expected NAME@REVISION"),
    ],
)
def test_bad_versions_are_named(tmp_path, target, message):
    checkout = tiny_checkout(tmp_path / "repo")
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        versioned_target(target, checkout, tmp_path / "cache")


def test_a_folder_that_is_no_checkout_is_named(tmp_path):
    with pytest.raises(ValueError, match="is not a git checkout"):
        versioned_target("tiny@HEAD", tmp_path, tmp_path / "cache")


@pytest.mark.skipif(
    not (source_checkout() / ".git").exists(), reason="the project is not run from a checkout"
)
def test_random_at_head_plays_the_same_hands_as_random(tmp_path, monkeypatch, restored_path):
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path))
    pinned = portable_spec("random@HEAD")
    assert pinned == f"random@{commit_of('HEAD', source_checkout())[:12]}"
    assert type(make_bot(parse_bot_spec(pinned))).__module__.startswith("baselines_")
    hands = {}
    for bot in ("random", pinned):
        config = MatchConfig(bot_a=bot, bot_b="rule-based", hands=20, seed=5)
        hands[bot] = [
            {key: value for key, value in row.items() if not key.startswith("decision_ms")}
            for row in play_hands(config, range(20))
        ]
    assert hands["random"] == hands[pinned]
    assert len({row["actions"] for row in hands["random"]}) > 10


@pytest.mark.skipif(
    not (source_checkout() / ".git").exists(), reason="the project is not run from a checkout"
)
def test_a_copy_reads_its_own_shipped_tables(tmp_path, restored_path):
    import importlib

    from agent.abstraction.preflop_matchup_table import shipped_matchups

    dotted = versioned_target("cfrv2@HEAD", cache=tmp_path)
    package = dotted.partition(".")[0]
    copy = importlib.import_module(f"{package}.abstraction.preflop_matchup_table")
    assert not Path(copy.__file__).is_relative_to(source_checkout())  # (an earlier test's copy
    # of the same commit may be the one imported: one package per commit and process)
    copied, ours = copy.shipped_matchups(), shipped_matchups()
    assert copied is not ours
    assert (copied.pairs == ours.pairs).all() and (copied.win == ours.win).all()


def test_no_module_finds_its_data_beside_its_own_file():
    """Shipped tables are read from the package agent.data, wherever it is installed (a
    wheel, or an earlier version's copy), never from a path built on ``__file__``."""
    checkout = source_checkout()
    readers = [
        str(module.relative_to(checkout))
        for package in ("agent", "blueprint", "baselines")
        for module in (checkout / package).rglob("*.py")
        if "__file__" in module.read_text()
    ]
    assert readers == []
