"""Where a stack started shallow: another blueprint in place of the strategy's own.

A blueprint is trained at one depth: the four-street one (``blueprint=streets``) at 100 big
blinds, where local best response measures it. A tournament starts shallower (the arena's at
50 big blinds) and its blinds rise, so its heads-up pots are played at depths that blueprint
never met. With ``shallow_blueprint``, the strategy's ``blueprint`` plays only where every
stack dealt in started the hand at :data:`AUTO_SOLVE_DEPTH` big blinds or deeper (the depth
the other deep rules, the small and big blind's blueprints and the solves, start at), and
this blueprint plays its rule everywhere shallower: ``shallow_blueprint=study`` keeps the
shipped min-raise blueprint, and so the default's play, at a tournament's depths.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agent.boundary.snapshot import Snapshot
from agent.players.blueprint_store import Blueprint
from agent.players.options import Options, blueprint_option
from agent.players.rules.blueprint import BlueprintRule, everywhere, second_blueprint_rule
from agent.players.rules.rule import Context
from agent.players.rules.street_solving import started_deep

NAME = "shallow blueprint"


@dataclass(frozen=True)
class ShallowOptions(Options):
    """The shallow blueprint rule's option, with its help beside it."""

    shallow_blueprint: str | Path | Blueprint | None = blueprint_option(
        "where a stack started the hand below 75 big blinds (a tournament's depths), play "
        "this blueprint in place of blueprint (a path, study, sizes or streets; default: "
        "blueprint at every depth)",
    )


def shallow(snapshot: Snapshot) -> bool:
    """A stack dealt in started the hand below :data:`AUTO_SOLVE_DEPTH` big blinds."""
    return not started_deep(snapshot)


def blueprint_rules(context: Context) -> tuple[BlueprintRule, BlueprintRule]:
    """The strategy's blueprint rule and the shallow blueprint's: with ``shallow_blueprint``,
    the first deep and the second shallow; without, the first everywhere and the second
    never."""
    where = everywhere if context.shallow_blueprint is None else started_deep
    rule = second_blueprint_rule(context, context.shallow_blueprint, NAME, shallow)
    return BlueprintRule(context, where=where), rule
