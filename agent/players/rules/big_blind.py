"""Heads-up preflop as the big blind, deep, facing a raise off the shipped blueprint's tree:
another blueprint's answer.

The shipped blueprint raises preflop by the minimum only, so an opponent's open to two or
three big blinds has no row in it, and the defence rule answers: it continues with the top
``p / (p + b)`` of all holdings and raises only for value, whatever the opener's range. A
blueprint trained with raises of half the pot and the pot (``blueprint=sizes``) holds those
opens and the re-raises after them, and answers them as an equilibrium of its abstract game
does. With ``big_blind_blueprint``, this rule plays that blueprint's preflop where we are the
big blind heads-up at 75 big blinds or deeper (``AUTO_SOLVE_DEPTH``), facing a raise, and the
shipped blueprint has no row: it sits after the shipped blueprint's rule, so a min-raise keeps
the shipped answer where it has one, and a limp keeps the shipped rules. From the flop on, the
street solver plays (``solve="auto"``), as it does after any raise off the shipped tree. Where
that blueprint has no row either, the rules after this one play. Its option,
:class:`BigBlindOptions`: that blueprint, which the player loads into the context
(``big_blind_blueprint`` of :class:`.rule.Context`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agent.boundary.snapshot import Snapshot
from agent.players.blueprint_store import Blueprint
from agent.players.options import Options, blueprint_option
from agent.players.rules.blueprint import BlueprintRule, second_blueprint_rule
from agent.players.rules.rule import Context
from agent.players.rules.small_blind import BIG_BLIND, deep_heads_up_preflop

NAME = "big-blind blueprint"


@dataclass(frozen=True)
class BigBlindOptions(Options):
    """The big blind's blueprint rule's option, with its help beside it."""

    big_blind_blueprint: str | Path | Blueprint | None = blueprint_option(
        "heads-up preflop as the big blind at 75 big blinds or deeper, facing a raise the "
        "blueprint has no row for, answer from this blueprint's preflop (a path, study or "
        "sizes; default: the defence rule)",
    )


def deep_big_blind_facing_raise(snapshot: Snapshot) -> bool:
    """Preflop, heads-up, we posted the big blind, both stacks started deep, and we face a
    raise (a limp keeps the rules after this one, the shipped blueprint's cleaned rows
    included)."""
    return snapshot.to_call > 0 and deep_heads_up_preflop(snapshot, BIG_BLIND)


def big_blind_rule(context: Context) -> BlueprintRule:
    """The big blind's blueprint rule: ``big_blind_blueprint``'s preflop where we are the deep
    heads-up big blind (never, where the option is None)."""
    return second_blueprint_rule(
        context, context.big_blind_blueprint, NAME, deep_big_blind_facing_raise
    )
