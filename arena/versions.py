"""Earlier versions of our bots, by git revision: ``cfrv2@91870a4`` wherever a bot spec goes.

A change to how the agent plays lands with a match against the previous version of itself
(the developers' guide). Options rebuild some earlier behaviour (``cfrv2:solve=off``), but
not all of it: the blueprint, the tables and every fixed rule move on. A spec ``NAME@REV``
plays the registry bot ``NAME`` exactly as git revision ``REV`` of this checkout built it:

* ``git archive`` extracts the revision's packages (``agent``, with its ``data/`` tables,
  ``blueprint`` and ``baselines``, those the revision has) into a cache folder, once per
  commit (``cache_folder``);
* each package is renamed with the commit's hash (``agent`` -> ``agent_91870a4c669e``), and
  the copies' imports with it, so both versions load side by side in one process;
* ``NAME`` is looked up in that revision's own registry (``arena/registry.py``), so a bot
  that moved module since is still found;
* its own numba kernels are compiled before its player is built (:func:`warm_version`), so
  it plays the revision's whole strategy from the first hand.

``arena run cfrv2 vs cfrv2@HEAD~5 --hands 10000`` then measures a change against the
version five commits before, on the same deals. The extraction is written to a temporary
folder and renamed into place, so parallel workers and interrupted runs never see a half
copy.
"""

from __future__ import annotations

import ast
import importlib
import io
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from functools import lru_cache
from pathlib import Path

from agent.poker.user_cache import user_cache_folder

VERSIONED_PACKAGES = ("agent", "blueprint", "baselines")  # ours, renamed per commit
DATA_FOLDER = "data"  # the agent's tables: the package ``agent.data`` (pyproject.toml)
REGISTRY_FILE = "arena/registry.py"
HASH_DIGITS = 12  # of the commit hash, in the renamed packages' names
DONE_MARKER = "EXTRACTED"
CACHE_VARIABLE = "ARENA_VERSIONS_CACHE"  # overrides the cache folder
_IMPORT_LINE = r"^(\s*(?:from|import)\s+)({names})(?=[\s.])"
_DATA_STRING = r"([\"'])agent\.data\1"
_COMMIT_HASH = re.compile(r"[0-9a-f]{7,40}")  # a revision that always names the same commit


def split_version(target: str) -> tuple[str, str] | None:
    """``(name, revision)`` of a ``NAME@REV`` target, None for any other target.

    >>> split_version("cfrv2@HEAD~3")
    ('cfrv2', 'HEAD~3')
    >>> split_version("cfrv2") is None
    True
    """
    if "@" not in target or target.endswith(".py") or ".py:" in target:
        return None
    name, _, revision = target.partition("@")
    if not name or not revision or revision.startswith("-"):
        raise ValueError(f"malformed bot {target!r}: expected NAME@REVISION, as cfrv2@HEAD~1")
    return name, revision


def rewrite_imports(source: str, suffix: str, packages: tuple[str, ...]) -> str:
    """``source`` with its imports of ``packages`` renamed ``<package>_<suffix>``, and the
    agent's data package named in strings with them; attribute names are left alone.

    >>> print(rewrite_imports("from agent.poker import cards\\nimport blueprint.subgame"
    ...     "\\nx = blueprint.lookup()\\nfiles('agent.data')", "ab12", ("agent", "blueprint")))
    from agent_ab12.poker import cards
    import blueprint_ab12.subgame
    x = blueprint.lookup()
    files('agent_ab12.data')
    """
    names = "|".join(re.escape(package) for package in packages)
    pattern = re.compile(_IMPORT_LINE.format(names=names), re.MULTILINE)
    renamed = pattern.sub(lambda match: f"{match[1]}{match[2]}_{suffix}", source)
    if "agent" not in packages:
        return renamed
    return re.sub(_DATA_STRING, lambda match: f"{match[1]}agent_{suffix}.data{match[1]}", renamed)


def cache_folder() -> Path:
    """Where extracted versions are kept: ``$ARENA_VERSIONS_CACHE``, else the user's cache."""
    return user_cache_folder("versions", CACHE_VARIABLE)


def source_checkout() -> Path:
    """The git checkout this arena runs from (the folder holding ``arena/``)."""
    return Path(__file__).resolve().parents[1]


def _git(checkout: Path, *arguments: str) -> bytes:
    try:
        done = subprocess.run(
            ["git", "-C", str(checkout), *arguments], capture_output=True, check=False
        )
    except FileNotFoundError as error:
        raise ValueError("versioned bots (NAME@REVISION) need git, which is missing") from error
    if done.returncode != 0:
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        reason = lines[-1] if lines else f"exit status {done.returncode}"
        raise ValueError(f"git {arguments[0]} failed in {checkout}: {reason}")
    return done.stdout


def commit_of(revision: str, checkout: Path) -> str:
    """The full hash of ``revision`` in ``checkout``; ValueError naming it if there is none.
    A hash is looked up once per process (a pinned bot is resolved for every session)."""
    if _COMMIT_HASH.fullmatch(revision):
        return _commit_of_hash(revision, checkout)
    return _resolved_commit(revision, checkout)


@lru_cache(maxsize=64)
def _commit_of_hash(revision: str, checkout: Path) -> str:
    return _resolved_commit(revision, checkout)


def _resolved_commit(revision: str, checkout: Path) -> str:
    if not (checkout / ".git").exists():
        raise ValueError(
            f"bot version @{revision}: {checkout} is not a git checkout, so earlier versions "
            "cannot be read (install the project from a clone to use NAME@REVISION)"
        )
    try:
        found = _git(checkout, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    except ValueError:
        raise ValueError(f"bot version @{revision}: no such revision in {checkout}") from None
    return found.decode().strip()


def extracted_version(commit: str, checkout: Path, cache: Path) -> Path:
    """The folder holding ``commit``'s renamed packages (extracted on first use)."""
    folder = cache / commit
    if (folder / DONE_MARKER).is_file():
        return folder
    cache.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{commit[:HASH_DIGITS]}-", dir=cache))
    try:
        _extract(commit, checkout, staging)
        (staging / DONE_MARKER).write_text(commit + "\n")
        try:
            staging.rename(folder)
        except OSError:  # another worker finished first: its copy is the same
            if not (folder / DONE_MARKER).is_file():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def _extract(commit: str, checkout: Path, into: Path) -> None:
    listed = _git(checkout, "ls-tree", "--name-only", commit).decode().split()
    packages = tuple(package for package in VERSIONED_PACKAGES if package in listed)
    if "agent" not in packages:
        raise ValueError(f"bot version @{commit[:HASH_DIGITS]}: that commit has no agent package")
    paths = [*packages, *([DATA_FOLDER] if DATA_FOLDER in listed else [])]
    archive = _git(checkout, "archive", "--format=tar", commit, *paths)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            tar.extractall(into, filter="data")
        else:  # our own commit's files, from git
            tar.extractall(into)
    suffix = commit[:HASH_DIGITS]
    if DATA_FOLDER in listed:
        (into / DATA_FOLDER).rename(into / "agent" / DATA_FOLDER)
    for package in packages:
        for module in (into / package).rglob("*.py"):
            module.write_text(rewrite_imports(module.read_text(), suffix, packages))
        (into / package).rename(into / f"{package}_{suffix}")


# a version's own warm-up modules, newest layout first: the solver's (which runs the ground
# floor's too), then the ground floor's alone
WARMUP_MODULES = ("blueprint.subgame.warmup", "agent.poker.warmup")


def warm_version(target: str, checkout: Path | None = None) -> None:
    """Compile ``NAME@REV``'s own numba kernels where numba's cache lacks them, in this
    process, before its player is built.

    A version's player checks its own kernels' cache, and where it is cold starts a warm-up
    by module name in a separate process; that name is the current checkout's module, which
    compiles the current kernels, so the version would play its compiling fallback in the
    hands that start meanwhile. Warming the version's renamed copy here first keeps its play
    the revision's from the first hand, as :func:`arena.registry.make_bot` does for ours."""
    _, _, commit = named_commit(target, checkout or source_checkout())
    for dotted in WARMUP_MODULES:
        package, _, rest = dotted.partition(".")
        try:
            module = importlib.import_module(f"{package}_{commit[:HASH_DIGITS]}.{rest}")
        except ImportError:  # a revision without this warm-up
            continue
        is_cold = getattr(module, "is_cold", None) or getattr(module, "cache_is_cold", None)
        if is_cold is not None and hasattr(module, "warm_up"):
            if is_cold():
                module.warm_up()
            return


@lru_cache(maxsize=64)
def registry_at(commit: str, checkout: Path) -> dict[str, str]:
    """The registry of ``commit`` (name -> ``package.module:Class``), read without running it."""
    source = _git(checkout, "show", f"{commit}:{REGISTRY_FILE}").decode()
    for statement in ast.parse(source).body:
        targets: list[ast.expr]
        if isinstance(statement, ast.AnnAssign):
            targets, value = [statement.target], statement.value
        elif isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        else:
            continue
        if value is not None and any(getattr(t, "id", None) == "REGISTRY" for t in targets):
            entries = ast.literal_eval(value)
            return {name: entry[0] for name, entry in entries.items()}
    raise ValueError(f"bot version @{commit[:HASH_DIGITS]}: its {REGISTRY_FILE} has no REGISTRY")


def named_commit(target: str, checkout: Path) -> tuple[str, str, str]:
    """``(name, revision, commit)`` of a ``NAME@REV`` target."""
    version = split_version(target)
    if version is None:
        raise ValueError(f"bot {target!r} names no version: expected NAME@REVISION")
    name, revision = version
    return name, revision, commit_of(revision, checkout)


def pinned_version(target: str, checkout: Path | None = None) -> str:
    """``NAME@REV`` with the revision replaced by its commit's hash, so that a match run,
    resumed or read later names the same code whatever ``HEAD`` is then."""
    name, _, commit = named_commit(target, checkout or source_checkout())
    return f"{name}@{commit[:HASH_DIGITS]}"


def versioned_target(target: str, checkout: Path | None = None, cache: Path | None = None) -> str:
    """The importable ``module:Class`` that plays ``NAME@REV``; its copy is put on
    ``sys.path``. ValueError with a sentence for an unknown name, revision or checkout."""
    checkout = checkout or source_checkout()
    name, revision, commit = named_commit(target, checkout)
    registry = registry_at(commit, checkout)
    if name not in registry:
        raise ValueError(
            f"bot {target!r}: {name!r} is not in the registry at {revision} ({', '.join(registry)})"
        )
    dotted = registry[name]
    package, _, rest = dotted.partition(".")
    if package not in VERSIONED_PACKAGES:
        raise ValueError(f"bot {target!r}: {name!r} is not ours ({dotted}), so it has no versions")
    folder = extracted_version(commit, checkout, cache or cache_folder())
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return f"{package}_{commit[:HASH_DIGITS]}.{rest}"
