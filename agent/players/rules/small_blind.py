"""Heads-up preflop as the small blind, deep: another blueprint's preflop strategy.

The shipped blueprint raises preflop by the minimum only. Its small blind opens to one and a
half big blinds, and a best responder three-bets it, or calls and bets the flop, at sizes the
tree does not hold. A blueprint trained with raises of half the pot and the pot
(``blueprint=sizes``) opens larger and answers those sizes on its own tree. With
``small_blind_blueprint``, this rule plays that blueprint's preflop where we are the small
blind heads-up at :data:`AUTO_SOLVE_DEPTH` big blinds or deeper; the hand then leaves the
shipped blueprint's tree with our first raise, and from the flop on the street solver plays
(``solve="auto"``), as it does after an opponent's raise of those sizes. Elsewhere, and where
that blueprint has no row, the rules after this one play.

``small_blind_open`` keeps only that blueprint's first decision: whether to fold, limp or open
and to what size. The rest of the hand plays as the shipped strategy does after its own open:
the blueprints read our open as their smallest raise (the shipped one's minimum raise; an open
all in keeps the mapping, and a blueprint on the open's own raise sizes reads it as it is), so
the shipped blueprint answers a re-raise where it has a row and the defence rule where it has
none, the flop is looked up, and the later streets are played as after the shipped
blueprint's own open. The open thus keeps the other blueprint's sizes and
frequencies, and the flop costs a lookup, not a solve.

Its options, :class:`SmallBlindOptions`: those blueprints, which the player loads into the
context (``small_blind_blueprint`` and ``small_blind_open`` of :class:`.rule.Context`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agent.boundary.snapshot import Snapshot, Street
from agent.players.blueprint_store import Blueprint
from agent.players.history import first_action, heads_up_seats
from agent.players.options import Options, blueprint_option
from agent.players.rules.blueprint import BlueprintRule, second_blueprint_rule
from agent.players.rules.rule import Context
from agent.players.rules.street_solving import started_deep

NAME = "small-blind blueprint"
OPEN_NAME = "small-blind open"
SMALL_BLIND, BIG_BLIND = 0, 1  # places in heads_up_seats' (small blind, big blind)


@dataclass(frozen=True)
class SmallBlindOptions(Options):
    """The small blind's blueprint rules' options, with their help beside them."""

    small_blind_blueprint: str | Path | Blueprint | None = blueprint_option(
        "heads-up preflop as the small blind at 75 big blinds or deeper, play this "
        "blueprint's preflop (a path, study or sizes; default: blueprint everywhere)",
    )
    small_blind_open: str | Path | Blueprint | None = blueprint_option(
        "heads-up preflop as the small blind at 75 big blinds or deeper, the first decision "
        "(fold, limp or open) from this blueprint, the rest of the hand as the shipped "
        "blueprint's after its minimum raise (a path, study or sizes; default: none)",
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.small_blind_blueprint is not None and self.small_blind_open is not None:
            raise ValueError(
                "small_blind_blueprint and small_blind_open both play the small blind's first "
                "decision: set one of them"
            )


def deep_heads_up_preflop(snapshot: Snapshot, place: int) -> bool:
    """Preflop, heads-up, we posted the blind at ``place`` (:data:`SMALL_BLIND` or
    :data:`BIG_BLIND`), and both stacks started deep."""
    if snapshot.street != Street.PREFLOP:
        return False
    seats = heads_up_seats(snapshot)  # (small blind, big blind) heads-up
    return seats is not None and seats[place] == snapshot.seat and started_deep(snapshot)


def deep_small_blind(snapshot: Snapshot) -> bool:
    """Preflop, heads-up, we posted the small blind, and both stacks started deep."""
    return deep_heads_up_preflop(snapshot, SMALL_BLIND)


def first_decision_as_deep_small_blind(snapshot: Snapshot) -> bool:
    """Our first decision of the hand, preflop as the deep heads-up small blind."""
    return first_action(snapshot) is None and deep_small_blind(snapshot)


def small_blind_open_rule(context: Context) -> BlueprintRule:
    """The small blind's open: ``small_blind_open``'s first decision where we are the deep
    heads-up small blind (never, where the option is None)."""
    return second_blueprint_rule(
        context, context.small_blind_open, OPEN_NAME, first_decision_as_deep_small_blind
    )


def small_blind_rule(context: Context) -> BlueprintRule:
    """The small blind's blueprint rule: ``small_blind_blueprint``'s preflop where we are the
    deep heads-up small blind (never, where the option is None)."""
    return second_blueprint_rule(context, context.small_blind_blueprint, NAME, deep_small_blind)
