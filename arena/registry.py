"""The bot registry: turn a bot spec on the command line into PyPokerEngine players.

A bot spec is ``TARGET[:OPTIONS]``. ``TARGET`` is one of

- a registry name (``fish``, ``cfrv2``, ... see :data:`REGISTRY` and ``arena list``);
- ``package.module:Class``, an importable PyPokerEngine player class;
- ``path/to/file.py:Class``, a class defined in a file;
- ``path/to/file.py``, a file exposing ``setup_ai()`` (the convention of PyPokerGUI);
- ``NAME@REVISION``, registry bot ``NAME`` as git revision ``REVISION`` of this checkout
  built it (``cfrv2@HEAD~1``, ``cfrv2@91870a4``: :mod:`arena.versions`).

``OPTIONS`` are ``key=value`` pairs separated by commas, passed to the constructor (or to
``setup_ai``) as keyword arguments: ``cfrv2:simulations=1000``,
``my_bot.py:MyBot:aggression=0.5,name=x``. A class with a typed configuration (a
``config_type`` whose ``option_types()`` names each option's type, as our players have) gets
each value read as its option's type: a choice checked against its valid values,
``true``/``false``, an int, a number or text; a wrong key is refused with the valid options
named. Other bots get values read as int, float, ``true``/``false`` or text.

Seeding convention: a constructor that accepts ``rng`` receives a
``numpy.random.Generator`` that the arena re-seeds at the start of every hand from the
match seed, the hand index and the player's slot, so a match is reproducible whatever the
number of workers. A constructor that accepts ``seed`` (and not ``rng``) receives an int
derived from the match seed and the slot. Registry entries are imported lazily, so a
missing module only breaks its own entry.

>>> parse_bot_spec("cfrv2:simulations=1000,verbose=false")
BotSpec(target='cfrv2', options=(('simulations', '1000'), ('verbose', 'false')))
>>> parse_bot_spec("examples.players.fish_player:FishPlayer").target
'examples.players.fish_player:FishPlayer'
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
import typing
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np
from pypokerengine.players import BasePokerPlayer

from agent.boundary.bot import Configurable, Configuration
from arena.versions import split_version, versioned_target, warm_version

# name -> (dotted path "package.module:Class", one-line description)
REGISTRY: dict[str, tuple[str, str]] = {
    "fish": ("baselines.fish:FishPlayer", "always calls (the study's Fish)"),
    "honest": (
        "baselines.honest:HonestPlayer",
        "calls when its Monte Carlo win rate is at least 1/players, else folds",
    ),
    "random": ("baselines.random_player:RandomPlayer", "folds, calls or raises at random"),
    "rule-based": (
        "baselines.rule_based:RuleBasedPlayer",
        "preflop raise with win rate >= .5, postflop bet with a pair or better",
    ),
    "montecarlo": (
        "baselines.montecarlo:MonteCarloPlayer",
        "win-rate thresholds on every street (the study's Monte-Carlo model)",
    ),
    "cfrv1": (
        "agent.players.player:CFRv1Player",
        "MCCFR blueprint preflop/flop, 50-simulation endgame",
    ),
    "cfrv2": (
        "agent.players.cfrv2:CFRv2Player",
        "MCCFR blueprint preflop/flop, 10,000-simulation endgame; heads-up at 75+ BB, "
        "real-time subgame solving once a raise leaves the blueprint's tree; in tournaments "
        "it also models each opponent (adapt=false: the fixed strategy there too)",
    ),
    "adaptive": (
        "agent.players.adaptive.player:AdaptivePlayer",
        "cfrv2 (solve=off) that models each opponent and exploits it safely (learns within a "
        "session)",
    ),
    "ppe-fish": ("examples.players.fish_player:FishPlayer", "PyPokerEngine's example Fish"),
    "ppe-honest": (
        "examples.players.honest_player:HonestPlayer",
        "PyPokerEngine's example Honest (1000 simulations with its own slow evaluator)",
    ),
    "ppe-random": (
        "examples.players.random_player:RandomPlayer",
        "PyPokerEngine's example Random (a bug makes it never call)",
    ),
}

OptionValue = int | float | bool | str
NOT_OPTIONS = ("self", "rng", "seed", "config")  # constructor keywords a spec cannot set


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec: what to load and the keyword options to build it with, as text
    (:func:`typed_options` reads each as its type once the target is loaded)."""

    target: str
    options: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        if not self.options:
            return self.target
        return self.target + ":" + ",".join(f"{key}={value}" for key, value in self.options)

    @property
    def label(self) -> str:
        """A short name for tables and file names: the registry name or the class name."""
        if self.target in REGISTRY or split_version(self.target) is not None:
            base = self.target
        else:
            base = self.target.rsplit(":", 1)[-1] if ":" in self.target else Path(self.target).stem
        return base if not self.options else f"{base}[{_options_text(self.options)}]"


def _options_text(options: tuple[tuple[str, str], ...]) -> str:
    return ",".join(f"{key}={value}" for key, value in options)


def parse_option_value(text: str) -> OptionValue:
    """Read an option value as int, float, bool or text.

    >>> [parse_option_value(t) for t in ["10", "0.5", "true", "False", "fast"]]
    [10, 0.5, True, False, 'fast']
    """
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_bot_spec(text: str) -> BotSpec:
    """Split ``TARGET[:key=value,...]`` into a :class:`BotSpec` (no import happens here).

    >>> parse_bot_spec("bots/mine.py:MyBot:depth=2")
    BotSpec(target='bots/mine.py:MyBot', options=(('depth', '2'),))
    >>> parse_bot_spec("fish:")
    Traceback (most recent call last):
    ...
    ValueError: malformed bot spec 'fish:': an empty part between colons
    """
    if not text or not text.strip():
        raise ValueError("empty bot spec: give a registry name, module:Class or file.py")
    parts = text.strip().split(":")
    if any(not part for part in parts):
        raise ValueError(f"malformed bot spec {text!r}: an empty part between colons")
    options: tuple[tuple[str, str], ...] = ()
    if len(parts) > 1 and "=" in parts[-1]:
        options = _parse_options(text, parts.pop())
    if len(parts) > 2:
        raise ValueError(f"malformed bot spec {text!r}: expected TARGET[:Class][:key=value,...]")
    return BotSpec(":".join(parts), options)


def _parse_options(spec: str, text: str) -> tuple[tuple[str, str], ...]:
    options = []
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ValueError(f"malformed option {item!r} in bot spec {spec!r}: expected key=value")
        options.append((key.strip(), value.strip()))
    return tuple(options)


def typed_configuration(factory: Callable[..., Any]) -> Configuration | None:
    """The typed configuration a bot's class declares (``config_type``), else None."""
    return factory.config_type if isinstance(factory, Configurable) else None


def option_types(factory: Callable[..., Any]) -> dict[str, Any]:
    """Each option's type, read from the typed configuration a loaded class declares; empty
    for a bot without one."""
    config = typed_configuration(factory)
    return {} if config is None else dict(config.option_types())


def option_help(factory: Callable[..., Any], name: str) -> str:
    """The help of option ``name``, read from the field that declares it (``""``: none)."""
    config = typed_configuration(factory)
    return "" if config is None else config.option_help(name)


def typed_options(spec: BotSpec, factory: Callable[..., Any]) -> dict[str, Any]:
    """The spec's options as keyword arguments: each read as its option's type where the
    factory has a typed configuration, else by :func:`parse_option_value`."""
    types = option_types(factory)
    return {
        key: read_typed(spec.target, key, text, types[key])
        if key in types
        else parse_option_value(text)
        for key, text in spec.options
    }


def read_typed(target: str, key: str, text: str, kind: Any) -> Any:
    """``text`` read as type ``kind`` (a union tries its members: none where it may be None,
    true/false, int, number, a choice, a literal, text); ValueError naming the option and what
    it accepts.

    >>> read_typed("bot", "depth", "2", int | None), read_typed("bot", "depth", "None", int | None)
    (2, None)
    >>> read_typed("bot", "fast", "yes", bool)
    Traceback (most recent call last):
    ...
    ValueError: bot 'bot': fast=yes: expected true or false
    """
    members = typing.get_args(kind) if typing.get_origin(kind) is not typing.Literal else ()
    members = members or (kind,)
    expected = []
    for reader in (_as_none, _as_bool, _as_int, _as_float, _as_choice, _as_literal, _as_text):
        value, accepts = reader(text, members)
        if accepts:
            if value is not _NO_VALUE:
                return value
            expected.append(accepts)
    raise ValueError(f"bot {target!r}: {key}={text}: expected {' or '.join(expected)}")


_NO_VALUE = object()


def _as_none(text: str, members: tuple[Any, ...]) -> tuple[Any, str]:
    if type(None) not in members:
        return _NO_VALUE, ""
    return (None if text.lower() == "none" else _NO_VALUE), "none"


def _as_bool(text: str, members: tuple[Any, ...]) -> tuple[Any, str]:
    if bool not in members:
        return _NO_VALUE, ""
    lowered = text.lower()
    return (lowered == "true" if lowered in ("true", "false") else _NO_VALUE), "true or false"


def _as_int(text: str, members: tuple[Any, ...]) -> tuple[Any, str]:
    if int not in members:
        return _NO_VALUE, ""
    try:
        return int(text), "an integer"
    except ValueError:
        return _NO_VALUE, "an integer"


def _as_float(text: str, members: tuple[Any, ...]) -> tuple[Any, str]:
    if float not in members:
        return _NO_VALUE, ""
    try:
        return float(text), "a number"
    except ValueError:
        return _NO_VALUE, "a number"


def _as_choice(text: str, members: tuple[Any, ...]) -> tuple[Any, str]:
    for member in members:
        if isinstance(member, type) and issubclass(member, Enum):
            choices = [str(choice.value) for choice in member]
            value = member(text) if text in choices else _NO_VALUE
            return value, "one of " + ", ".join(choices)
    return _NO_VALUE, ""


def _as_literal(text: str, members: tuple[Any, ...]) -> tuple[Any, str]:
    values = [v for m in members if typing.get_origin(m) is typing.Literal for v in m.__args__]
    if not values:
        return _NO_VALUE, ""
    return (text if text in values else _NO_VALUE), " or ".join(map(str, values))


def _as_text(text: str, members: tuple[Any, ...]) -> tuple[Any, str]:
    if str in members:
        return text, "text"
    if Path in members:
        return Path(text), "a path"
    return _NO_VALUE, ""


def resolve_factory(spec: BotSpec) -> Callable[..., Any]:
    """The class (or ``setup_ai`` function) a spec names; ValueError with a sentence if absent."""
    target = spec.target
    if target in REGISTRY:
        return _import_dotted(REGISTRY[target][0], f"registry bot {target!r}")
    if split_version(target) is not None:
        return _import_dotted(versioned_target(target), f"bot {target!r}")
    if target.endswith(".py") or ".py:" in target:
        path_text, _, attr = target.partition(".py")
        return _load_from_file(Path(path_text + ".py"), attr.lstrip(":") or "setup_ai")
    if ":" in target:
        return _import_dotted(target, f"bot {target!r}")
    known = ", ".join(REGISTRY)
    raise ValueError(
        f"unknown bot {target!r}: use a registry name ({known}), "
        "package.module:Class, path/to/file.py:Class, path/to/file.py with setup_ai() "
        "or NAME@REVISION (cfrv2@HEAD~1)"
    )


def _import_dotted(dotted: str, what: str) -> Callable[..., Any]:
    module_name, _, attr = dotted.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"{what} cannot be loaded: module {module_name!r} ({error})") from error
    if not hasattr(module, attr):
        raise ValueError(f"{what} cannot be loaded: module {module_name!r} has no {attr!r}")
    return getattr(module, attr)


def _load_from_file(path: Path, attr: str) -> Callable[..., Any]:
    if not path.is_file():
        raise ValueError(f"bot file {str(path)!r} does not exist")
    resolved = path.resolve()
    name = "arena_user_bot_" + hashlib.sha1(str(resolved).encode()).hexdigest()[:12]
    module = sys.modules.get(name)
    if module is None:
        module_spec = importlib.util.spec_from_file_location(name, resolved)
        if module_spec is None or module_spec.loader is None:
            raise ValueError(f"bot file {str(path)!r} is not a loadable Python file")
        module = importlib.util.module_from_spec(module_spec)
        sys.path.insert(0, str(resolved.parent))  # bots often import their sibling modules
        try:
            module_spec.loader.exec_module(module)
        finally:
            sys.path.remove(str(resolved.parent))
        sys.modules[name] = module
    if not hasattr(module, attr):
        raise ValueError(f"bot file {str(path)!r} defines no {attr!r}")
    return getattr(module, attr)


def accepted_seed_keyword(factory: Callable[..., Any]) -> str | None:
    """``'rng'`` or ``'seed'`` if the factory takes that keyword (rng preferred), else None."""
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return None
    for keyword in ("rng", "seed"):
        parameter = parameters.get(keyword)
        if parameter is not None and parameter.kind in (
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            inspect.Parameter.KEYWORD_ONLY,
        ):
            return keyword
    return None


def check_options(spec: BotSpec, factory: Callable[..., Any]) -> None:
    """ValueError naming the first option the factory does not accept, or a value that is not
    of its option's type."""
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return
    accepted = [name for name, p in parameters.items() if p.kind is not p.VAR_POSITIONAL]
    for key, _ in spec.options:
        if key not in parameters or key in NOT_OPTIONS:
            listed = ", ".join(n for n in accepted if n not in NOT_OPTIONS) or "none"
            raise ValueError(f"bot {spec.target!r} has no option {key!r} (its options: {listed})")
    typed = typed_options(spec, factory)
    config = typed_configuration(factory)
    if config is not None and set(typed) <= set(option_types(factory)):  # it checks them all
        try:
            config.from_options(**typed)
        except ValueError as error:
            raise ValueError(f"bot {spec.target!r}: {error}") from error


def validate_spec(spec: BotSpec) -> None:
    """Import what a spec names and check its options, without building a player."""
    check_options(spec, resolve_factory(spec))


def make_bot(spec: BotSpec, rng: np.random.Generator | None = None, seed: int = 0) -> Any:
    """Build a player from a spec, handing it ``rng`` or ``seed`` if its constructor takes one.

    The agent's kernels are compiled first where numba's cache lacks them (once, on a fresh
    install), so our players play their whole strategy from the first hand and a match is
    the same as on a machine that ran ``arena warmup``."""
    factory = resolve_factory(spec)
    check_options(spec, factory)
    _compile_kernels_if_cold()
    if split_version(spec.target) is not None:
        warm_version(spec.target)
    kwargs = typed_options(spec, factory)
    keyword = accepted_seed_keyword(factory)
    if keyword == "rng":
        kwargs["rng"] = rng if rng is not None else np.random.default_rng(seed)
    elif keyword == "seed":
        kwargs["seed"] = seed
    bot = factory(**kwargs)
    if not isinstance(bot, BasePokerPlayer):
        raise ValueError(f"bot {spec.target!r} did not build a PyPokerEngine BasePokerPlayer")
    return bot


def _compile_kernels_if_cold() -> None:
    from blueprint.subgame.warmup import is_cold, warm_up

    if is_cold():
        print(
            "compiling the agent's numba kernels once (arena warmup), about a minute",
            file=sys.stderr,
        )
        warm_up()


def known_bots() -> list[tuple[str, str, str]]:
    """``(name, description, status)`` for every registry entry; status says if it loads."""
    rows = []
    for name, (dotted, description) in REGISTRY.items():
        try:
            _import_dotted(dotted, name)
            status = "ok"
        except ValueError as error:
            status = "unavailable: " + str(error).rsplit("(", 1)[-1].rstrip(")")
        rows.append((name, description, status))
    return rows
