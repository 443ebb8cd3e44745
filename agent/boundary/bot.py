"""What the arena needs from a bot, declared: the small interfaces a PyPokerEngine player may
offer beyond the engine's own, in the manner of OpenSpiel's ``pyspiel.Bot``
(``python/bots/policy.py``, Lanctot et al. 2019).

A bot offers what it can, and the arena asks by ``isinstance`` on these runtime-checkable
protocols, never by attribute name:

* :class:`Learner`: ``learns`` (its policy depends on the hands it has seen, so the arena
  plays it in sessions and local best response reads it by its learned table);
* :class:`CashGameLearner`: also ``learns_in_cash_games`` (False for a bot that learns only
  where the stacks carry over; a :class:`Learner` without it learns in every game);
* :class:`SelfObserver`: ``observe_own_decision`` (a copy of the bot is told each decision the
  bot made, so that the copy's memory of its own actions follows the bot's);
* :class:`ErrorCounter`: ``errors``, the internal errors it recovered from with a safe action;
* :class:`Explainer`: ``last_decision``, the rule that played its last decision
  (:class:`agent.boundary.policy.Decision`);
* :class:`PolicyBot`: ``action_probabilities``, every legal action with its probability
  (:mod:`agent.boundary.policy`), what local best response and the browser coach read;
* :class:`TablePolicy` and :class:`LearnedTablePolicy`: the same for many holdings at once,
  by the fixed strategy or with what the bot has learned;
* :class:`Seeded`: ``rng``, the generator an arena may replace at every hand;
* :class:`Configurable`: ``config_type``, a typed configuration (:class:`Configuration`) whose
  fields are the bot's options, with their types and help: what the arena's ``NAME:key=value``
  parser reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from agent.boundary.policy import Decision, WeightedAction
from agent.boundary.snapshot import Action, Snapshot


@runtime_checkable
class Learner(Protocol):
    """A bot whose policy depends on the hands it has seen (read on its class)."""

    learns: bool


@runtime_checkable
class CashGameLearner(Protocol):
    """A learner that says whether it learns in cash games (games of one hand)."""

    learns: bool
    learns_in_cash_games: bool


@runtime_checkable
class SelfObserver(Protocol):
    """A bot whose copy can be told each decision the bot made."""

    def observe_own_decision(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
        action: Action,
    ) -> None: ...


@runtime_checkable
class ErrorCounter(Protocol):
    """A bot that counts the internal errors it recovered from with a safe action."""

    errors: int


@runtime_checkable
class Explainer(Protocol):
    """A bot that records which rule played its last decision."""

    last_decision: Decision | None


@runtime_checkable
class PolicyBot(Protocol):
    """A bot that answers every legal action's probability at a decision."""

    def action_probabilities(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
    ) -> list[WeightedAction]: ...


@runtime_checkable
class TablePolicy(Protocol):
    """A bot that answers its policy for many holdings at one public state at once."""

    def policy_table(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]
    ) -> list[list[WeightedAction]]: ...


@runtime_checkable
class LearnedTablePolicy(Protocol):
    """The same, with what the bot has learned in earlier hands."""

    def learned_policy_table(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]
    ) -> list[list[WeightedAction]]: ...


@runtime_checkable
class Seeded(Protocol):
    """A bot whose only randomness is its generator ``rng``."""

    rng: np.random.Generator


class Configuration(Protocol):
    """A typed configuration class: its options' types and help, and a checked configuration
    from flat keyword options (ValueError naming a bad option)."""

    def option_types(self) -> dict[str, Any]: ...

    def option_defaults(self) -> dict[str, Any]: ...

    def option_help(self, name: str) -> str: ...

    def from_options(self, **options: Any) -> Any: ...


@runtime_checkable
class Configurable(Protocol):
    """A bot class whose options are the fields of a typed configuration."""

    config_type: Any  # a Configuration class


def learns(factory: Any) -> bool:
    """Whether a bot (or its class) declares that its policy depends on the hands it has
    seen."""
    return isinstance(factory, Learner) and factory.learns is True


def learns_in_cash_games(factory: Any, options: Mapping[str, Any] | None = None) -> bool:
    """Whether a bot (or its class), built with ``options`` (None: its defaults), learns in
    games of one hand: True where its ``learns_in_cash_games_with(options)`` says so (a bot
    that an option makes learn there), else its ``learns_in_cash_games`` where it says, else
    whether it learns at all."""
    with_options = getattr(factory, "learns_in_cash_games_with", None)
    if callable(with_options) and with_options(options or {}):
        return True
    if isinstance(factory, CashGameLearner):
        return factory.learns_in_cash_games is True
    return learns(factory)


def error_count(bot: Any) -> int | None:
    """The bot's own count of internal errors it recovered from, or None if it keeps none.

    :class:`ErrorCounter`'s member is read directly: the engine asks at every message, and a
    runtime protocol's ``isinstance`` costs tens of microseconds."""
    errors = getattr(bot, "errors", None)
    return errors if type(errors) is int else None


def explanation(bot: Any) -> str:
    """The rule that played the bot's last decision, as text (``""``: the bot records none);
    :class:`Explainer`'s member read directly, as in :func:`error_count`."""
    decision = getattr(bot, "last_decision", None)
    return "" if decision is None else str(decision)
