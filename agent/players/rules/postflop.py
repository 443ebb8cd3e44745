"""Heads-up after the flop, deep: a four-street blueprint's strategy, by lookup.

The shipped blueprint holds preflop and the flop and raises by the minimum; after it, real-time
solves (whose leaves value the rest of the hand as a check-down) and rules play. With
``postflop_blueprint``, this rule plays a blueprint trained to the river (``streets``) from the
street ``postflop_from`` on, heads-up where both stacks started at :data:`AUTO_SOLVE_DEPTH` big
blinds or deeper: the depths the four-street blueprint was trained at and ``solve="auto"``
solves at. The engine's history, our own min-raises included, is read onto that blueprint's
pot-relative tree as an opponent's bet is, by the pseudo-harmonic mapping of Ganzfried and
Sandholm (2013) (:mod:`agent.players.history`). Preflop, and where that blueprint has no row,
the rules after this one play. Its options, :class:`PostflopOptions`: that blueprint, which the
player loads into the context (``postflop_blueprint`` of :class:`.rule.Context`), and the street
it starts on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from agent.boundary.snapshot import Snapshot, Street
from agent.players.blueprint_store import Blueprint
from agent.players.history import heads_up_seats
from agent.players.options import Options, is_blueprint, option
from agent.players.rules.blueprint import BlueprintRule, second_blueprint_rule
from agent.players.rules.rule import Context
from agent.players.rules.street_solving import started_deep

NAME = "postflop blueprint"


class PostflopFrom(StrEnum):
    """The first street the postflop blueprint plays."""

    FLOP = "flop"
    TURN = "turn"

    @property
    def street(self) -> Street:
        """The street of that name."""
        return Street[self.name]


@dataclass(frozen=True)
class PostflopOptions(Options):
    """The postflop blueprint rule's options, with their help beside them."""

    postflop_blueprint: str | Path | Blueprint | None = option(
        None,
        "heads-up from postflop_from on, at 75 big blinds or deeper, play this four-street "
        "blueprint by lookup before any solve (streets or a path; default: none)",
        is_blueprint,
        "a blueprint file that exists, or streets",
    )
    postflop_from: PostflopFrom = option(
        PostflopFrom.FLOP,
        "the first street the postflop blueprint plays: flop or turn",
    )


def deep_heads_up_from(street: Street) -> Callable[[Snapshot], bool]:
    """The spots the rule plays: ``street`` or later, two players dealt in, both deep."""

    def where(snapshot: Snapshot) -> bool:
        return (
            snapshot.street >= street
            and heads_up_seats(snapshot) is not None
            and started_deep(snapshot)
        )

    return where


def postflop_rule(context: Context) -> BlueprintRule:
    """The postflop blueprint's rule: ``postflop_blueprint`` from ``postflop_from`` on, deep and
    heads-up (never, where the option is None)."""
    start = context.options.postflop.postflop_from.street
    return second_blueprint_rule(
        context, context.postflop_blueprint, NAME, deep_heads_up_from(start)
    )
