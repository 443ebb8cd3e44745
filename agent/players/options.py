"""How an option is declared and checked: the machinery every configuration of the players
shares.

An option is a field of a frozen dataclass declared with :func:`option`: its default, its
help (what ``arena list BOT`` prints beside it) and, for values an enum does not cover, its
check and the sentence that says what it accepts. A class that mixes in :class:`Options`
checks every field once, when it is built, and raises ValueError naming the option and its
valid values; a str-valued enum field reads its text (``"mdf"`` is ``Rule.MDF``).

A configuration may be composed of others, its ``parts``: each rule of the fixed strategy
holds its own options (``agent.players.rules.threshold.ThresholdOptions``, ...), and
``agent.players.config.PlayerConfig`` is their composition. The options of the parts are
exposed flat: ``from_options(simulations=500)`` reaches the threshold rule's part, and
:func:`option_types` lists every flat option in order, what the arena reads to turn
``key=value`` text into a value.

This module imports nothing of the players but the blueprint store, which the blueprint
options' check reads, so every rule module can declare its options with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import field, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar, Final, Self, TypeVar, get_type_hints

from agent.boundary.equity_share import ALL_OPPONENTS
from agent.boundary.thresholds import Thresholds
from agent.players.blueprint_store import Blueprint, resolve_blueprint_path

AUTO: Final = "auto"

Check = Callable[[Any], bool]
T = TypeVar("T")


def resolved(value: T | None, name: str) -> T:
    """An option the player class resolved (None replaced by its default when the player was
    configured: :meth:`agent.players.player.CFRPlayer.configure`); ValueError if it was not."""
    if value is None:
        raise ValueError(f"{name} is unresolved: build the configuration through a player class")
    return value


def option(default: Any, help: str, check: Check | None = None, expected: str = "") -> Any:
    """A configuration field: its default, its help (what ``arena`` prints beside it), and
    for values an enum does not cover, its check and the sentence that says what it
    accepts."""
    metadata: dict[str, Any] = {"help": help}
    if check is not None:
        metadata |= {"check": check, "expected": expected}
    return field(default=default, metadata=metadata)


def option_help(kind: type, name: str) -> str:
    """The help of keyword option ``name`` of configuration class ``kind`` (parts included)."""
    parts: Mapping[str, tuple[str, ...] | None] = getattr(kind, "parts", {})
    hints = get_type_hints(kind)
    for spec in fields(kind):
        if spec.name == name and spec.name not in parts:
            return str(spec.metadata.get("help", ""))
        if spec.name in parts and name in _part_names(hints[spec.name], parts[spec.name]):
            return option_help(hints[spec.name], name)
    raise ValueError(f"no option {name!r}")


def is_bool(value: Any) -> bool:
    """True or false."""
    return isinstance(value, bool)


def is_optional_bool(value: Any) -> bool:
    """None (the default left to the player class), true or false."""
    return value is None or isinstance(value, bool)


def is_positive_int(value: Any) -> bool:
    """A whole number, 1 or more."""
    return isinstance(value, int) and value >= 1


def is_optional_positive_int(value: Any) -> bool:
    """None (the default left to the player class), or a whole number, 1 or more."""
    return value is None or is_positive_int(value)


def is_number(value: Any) -> bool:
    """A number that is not NaN."""
    return isinstance(value, int | float) and not math.isnan(value)


def is_at_least_zero(value: Any) -> bool:
    """A number, 0 or more."""
    return is_number(value) and value >= 0


def is_share(value: Any) -> bool:
    """A number from 0 to 1."""
    return is_number(value) and 0 <= value <= 1


def is_auto_or_share(value: Any) -> bool:
    """``"auto"`` or a number from 0 to 1."""
    return value == AUTO or is_share(value)


def is_auto_or_opponents(value: Any) -> bool:
    """``"auto"`` or a count of opponents at a table of ten, 1 to 9."""
    return value == AUTO or (isinstance(value, int) and 1 <= value <= ALL_OPPONENTS)


def is_table_size(value: Any) -> bool:
    """A count of players at a table, 2 to 10."""
    return isinstance(value, int) and 2 <= value <= 10


def is_blueprint(value: Any) -> bool:
    """None, a loaded blueprint, a shipped one's name, or a file that exists."""
    if value is None or isinstance(value, Blueprint):
        return True
    return isinstance(value, str | Path) and resolve_blueprint_path(value).is_file()


def blueprint_option(help: str) -> Any:
    """A configuration field that names a blueprint: None by default, checked by
    :func:`is_blueprint`."""
    return option(None, help, is_blueprint, "a blueprint file that exists, study, sizes or streets")


def is_optional_positive_number(value: Any) -> bool:
    """None, or a number above 0."""
    return value is None or (is_number(value) and value > 0)


def is_thresholds(value: Any) -> bool:
    """A table of the study's win-rate thresholds."""
    return isinstance(value, Thresholds)


class Options:
    """Checking and building for a dataclass whose fields are options, or parts that hold
    options (``parts``: each part's field name and the options of it exposed flat, None for
    all of them)."""

    parts: ClassVar[Mapping[str, tuple[str, ...] | None]] = {}

    def __post_init__(self) -> None:
        hints = get_type_hints(type(self))
        for spec in fields(self):  # type: ignore[arg-type]
            value, hint = getattr(self, spec.name), hints[spec.name]
            if spec.name in self.parts and not isinstance(value, hint):
                raise ValueError(f"{spec.name}={value!r}: expected {hint.__name__}(...)")
            kind = _enum_of(hint)
            if kind is not None and value is not None:
                object.__setattr__(self, spec.name, _choice(spec.name, value, kind))
                continue
            check = spec.metadata.get("check")
            if check is not None and not check(value):
                raise ValueError(f"{spec.name}={value!r}: expected {spec.metadata['expected']}")
            if float in getattr(hint, "__args__", (hint,)) and is_number(value):
                object.__setattr__(self, spec.name, float(value))  # a number given as an int

    @classmethod
    def option_types(cls) -> dict[str, Any]:
        """Each keyword option of this family and its type, in order (:func:`option_types`):
        what the arena reads to turn ``key=value`` text into a value."""
        return option_types(cls)

    @classmethod
    def option_defaults(cls) -> dict[str, Any]:
        """Each keyword option's default (:meth:`option_values` of the defaults)."""
        return cls().option_values()

    @classmethod
    def option_help(cls, name: str) -> str:
        """The help of keyword option ``name`` (:func:`option_help`)."""
        return option_help(cls, name)

    @classmethod
    def from_options(cls, **options: Any) -> Self:
        """The family's defaults with ``options`` (flat keywords) in their place, checked."""
        return cls().with_options(**options)

    def option_values(self) -> dict[str, Any]:
        """Each keyword option's value, parts flattened as in :func:`option_types`."""
        values: dict[str, Any] = {}
        for spec in fields(self):  # type: ignore[arg-type]
            value = getattr(self, spec.name)
            if spec.name not in self.parts:
                values[spec.name] = value
                continue
            inner = value.option_values()
            values |= {
                name: inner[name] for name in _part_names(type(value), self.parts[spec.name])
            }
        return values

    def with_options(self, **options: Any) -> Self:
        """This configuration with ``options`` (flat keywords) in place, checked."""
        names = option_types(type(self))
        unknown = [key for key in options if key not in names]
        if unknown:
            raise ValueError(f"no option {unknown[0]!r} (the options: {', '.join(names)})")
        changes: dict[str, Any] = {}
        for part, exposed in self.parts.items():
            inner = getattr(self, part)
            keys = _part_names(type(inner), exposed)
            given = {key: options.pop(key) for key in keys if key in options}
            if given:
                changes[part] = inner.with_options(**given)
        return replace(self, **changes, **options)  # type: ignore[type-var]


def _enum_of(hint: Any) -> type[StrEnum] | None:
    """The StrEnum a field's type names (``Solve | None`` included), else None."""
    for member in getattr(hint, "__args__", (hint,)):
        if isinstance(member, type) and issubclass(member, StrEnum):
            return member
    return None


def _choice(name: str, value: Any, kind: type[StrEnum]) -> StrEnum:
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(member.value for member in kind)
        raise ValueError(f"{name}={value!r}: expected one of {choices}") from None


def _part_names(kind: type, exposed: tuple[str, ...] | None) -> tuple[str, ...]:
    return tuple(option_types(kind)) if exposed is None else exposed


def option_types(kind: type) -> dict[str, Any]:
    """Each keyword option of a configuration class and its type, parts flattened in order:
    what the arena reads to turn ``key=value`` text into a value."""
    hints = get_type_hints(kind)
    parts: Mapping[str, tuple[str, ...] | None] = getattr(kind, "parts", {})
    types: dict[str, Any] = {}
    for spec in fields(kind):
        if spec.name not in parts:
            types[spec.name] = hints[spec.name]
            continue
        inner = option_types(hints[spec.name])
        for name in _part_names(hints[spec.name], parts[spec.name]):
            types[name] = inner[name]
    return types
