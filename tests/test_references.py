"""Every dotted name of ours quoted in a docstring, comment or document names something that
exists: a module, or a name a module defines (a class, function, constant, or a class's
member).

A reference is a name in backquotes that starts with one of our packages, such as
``agent.poker.equity.equity`` or :func:`agent.abstraction.betting.replay` in a docstring, or
`arena.match` in a document. The check reads the source with :mod:`ast` and imports nothing,
so it is quick and sees modules whose imports need optional packages. The changelog is left
out: it names modules as they were when each version was made.
"""

from __future__ import annotations

import ast
import re
import subprocess
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("agent", "blueprint", "baselines", "arena")
PACKAGE_DIRS = {"agent.data": ROOT / "data"}  # pyproject's package-dir
SCANNED = re.compile(
    r"^(agent|blueprint|baselines|arena|bench|tests)/.*\.py$|^(docs/.*|README)\.md$"
)
REFERENCE = re.compile(r"`~?((?:agent|blueprint|baselines|arena)(?:\.[A-Za-z_]\w*)+)(?:\(\))?`")
FILE_SUFFIXES = {"csv", "gz", "xz", "json", "npz", "py", "md", "txt", "phh", "toml", "yml"}


def scanned_files() -> list[Path]:
    """The tracked sources and documents that may quote our names."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return [ROOT / name for name in listed.split("\0") if SCANNED.match(name)]


def module_file(module: str) -> Path | None:
    """The source file of a module or package of ours, None if there is none."""
    for package, folder in PACKAGE_DIRS.items():
        if module == package or module.startswith(package + "."):
            path = folder.joinpath(*module.split(".")[len(package.split(".")) :])
            break
    else:
        path = ROOT.joinpath(*module.split("."))
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    if path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    if path.is_dir() and any(path.glob("*.py")):  # a namespace package: it defines no names
        return path
    return None


def _bound_names(statements: list[ast.stmt]) -> dict[str, ast.AST]:
    """The names a block binds (definitions, assignments, imports; inside ``if`` and ``try``
    too), each with the statement that binds it."""
    names: dict[str, ast.AST] = {}
    for statement in statements:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[statement.name] = statement
        elif isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                for node in ast.walk(target):
                    if isinstance(node, ast.Name):
                        names[node.id] = statement
        elif isinstance(statement, ast.Import | ast.ImportFrom):
            for alias in statement.names:
                names[(alias.asname or alias.name).split(".")[0]] = statement
        elif isinstance(statement, ast.If | ast.Try | ast.With):
            for block in ("body", "orelse", "finalbody", "handlers"):
                for part in getattr(statement, block, []):
                    inner = part.body if isinstance(part, ast.ExceptHandler) else [part]
                    names.update(_bound_names(inner))
    return names


@cache
def module_names(path: Path) -> dict[str, ast.AST]:
    """The names a module defines at its top level, and those its ``__all__`` lists."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = _bound_names(tree.body)
    listed = names.get("__all__")
    if isinstance(listed, ast.Assign) and isinstance(listed.value, ast.List | ast.Tuple):
        for item in listed.value.elts:
            if isinstance(item, ast.Constant) and isinstance(item.value, str):
                names.setdefault(item.value, listed)
    return names


def class_has(definition: ast.ClassDef, name: str) -> bool:
    """Whether a class defines ``name``: in its body, or as ``self.name`` in a method; a
    class with bases may inherit it, which this check does not follow."""
    if name in _bound_names(definition.body) or definition.bases:
        return True
    return any(
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        and node.attr == name
        for node in ast.walk(definition)
    )


def resolves(reference: str) -> bool:
    """Whether a dotted name of ours names a module, or something a module defines."""
    parts = reference.split(".")
    for cut in range(len(parts), 0, -1):
        path = module_file(".".join(parts[:cut]))
        if path is not None:
            break
    else:
        return False
    rest = parts[cut:]
    if not rest:
        return True
    if path.is_dir():
        return False
    found = module_names(path).get(rest[0])
    if found is None:
        return False
    if len(rest) > 1 and isinstance(found, ast.ClassDef):
        return class_has(found, rest[1])
    return True  # deeper names (an attribute of a constant, a nested class) are not followed


def unresolved(path: Path) -> list[str]:
    """``path:line: name`` for each quoted name of ours in the file that names nothing."""
    relative = path.relative_to(ROOT)
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for match in REFERENCE.finditer(line):
            name = match.group(1)
            if name.rsplit(".", 1)[-1] not in FILE_SUFFIXES and not resolves(name):
                found.append(f"{relative}:{number}: {name}")
    return found


def test_references_resolve_on_their_own():
    assert resolves("agent.poker.equity.equity")
    assert resolves("agent.abstraction.betting.replay")
    assert resolves("agent.players.rules.street_solving.Solve.OFF_TREE")
    assert resolves("agent.data")
    assert not resolves("agent.equity.equity")
    assert not resolves("agent.poker.cards.no_such_function")


def test_every_quoted_name_of_ours_exists():
    broken = [line for path in scanned_files() for line in unresolved(path)]
    assert not broken, "names that name nothing:\n" + "\n".join(broken)
