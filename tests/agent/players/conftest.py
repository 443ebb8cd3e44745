"""A scripted PyPokerEngine player and a one-hand table, for tests that need real snapshots:
the ``scripted_hand`` fixture; a strategy context with a second blueprint, the
``sizes_context`` fixture; and a tiny blueprint trained to the river, the
``four_street_blueprint`` fixture."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from pypokerengine.engine.dealer import Dealer
from pypokerengine.engine.deck import Deck
from pypokerengine.engine.player import Player
from pypokerengine.engine.table import Table

from agent.boundary.policy import QuietPlayer
from agent.boundary.snapshot import Snapshot
from agent.players.blueprint_store import Blueprint, load_blueprint
from agent.players.config import Settled
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.rule import Context, RuleList
from agent.players.rules.threshold import Levels, ThresholdRule
from blueprint.commands.cli import main as blueprint_command

BIG_BLIND = 20


class Scripted(QuietPlayer):
    """Records every decision's snapshot and plays 'push', 'pot', 'bet:F' (F times the pot),
    'raise:N' (a raise to N chips), 'min' (the minimum raise), 'call' or 'fold' in turn."""

    def __init__(self, script: list[str]) -> None:
        self.script = list(script)
        self.seen: list[Snapshot] = []

    def declare_action(self, valid_actions, hole_card, round_state):
        snapshot = Snapshot.from_ppe(valid_actions, hole_card, round_state, self.uuid)
        self.seen.append(snapshot)
        move = self.script.pop(0) if self.script else "fold"
        if move == "push" and snapshot.max_raise is not None:
            return "raise", snapshot.max_raise
        if move == "pot" and snapshot.min_raise is not None:  # bet the pot
            return "raise", max(snapshot.min_raise, min(snapshot.max_raise, snapshot.pot))
        if move == "min" and snapshot.min_raise is not None:
            return "raise", snapshot.min_raise
        if move.startswith("raise:") and snapshot.min_raise is not None:
            return "raise", max(snapshot.min_raise, min(snapshot.max_raise, int(move[6:])))
        if move.startswith("bet:") and snapshot.min_raise is not None:
            size = round(float(move[4:]) * snapshot.pot)
            return "raise", max(snapshot.min_raise, min(snapshot.max_raise, size))
        if move in ("push", "call"):
            return "call", snapshot.call_amount
        return "fold", 0


def play(
    stacks: list[int],
    ante: int,
    scripts: list[list[str]],
    seed: int = 0,
    deck: list[int] | None = None,
) -> list[Scripted]:
    """One hand, seat 0 on the button, each seat playing its script, cards from ``seed`` (or
    ``deck``: PyPokerEngine card numbers in the order dealt, two to each seat in seat order,
    then the flop, the turn and the river)."""
    bots = [Scripted(script) for script in scripts]
    dealer = Dealer(BIG_BLIND // 2, max(stacks), ante)
    dealer.set_verbose(0)
    deck = random.Random(seed).sample(range(1, 53), 52) if deck is None else deck
    table = Table(cheat_deck=Deck(cheat=True, cheat_card_ids=deck))
    for seat, (bot, stack) in enumerate(zip(bots, stacks, strict=True)):
        uuid = f"seat{seat}"
        bot.set_uuid(uuid)
        dealer.message_handler.register_algorithm(uuid, bot)
        table.seats.sitdown(Player(uuid, stack, uuid))
    dealer.table = table
    dealer.start_game(1)
    return bots


@pytest.fixture
def scripted_hand():
    """:func:`play`: one hand of scripted players, their snapshots kept."""
    return play


def context_with_sizes(option: str) -> tuple[Context, RuleList, Blueprint]:
    """The default strategy's context with the pot-relative blueprint as ``option`` (a second
    blueprint's field of :class:`Context`), the threshold rule the rules under test fall back
    to, and that blueprint."""
    sizes = load_blueprint("sizes")
    context = Context(
        options=CFRv2FixedPlayer.configure().strategy,
        blueprint=load_blueprint(None),
        rng=np.random.default_rng(0),
        settled=Settled(),
        **{option: sizes},
    )
    return context, RuleList([ThresholdRule(context, Levels(context))]), sizes


@pytest.fixture
def sizes_context():
    """:func:`context_with_sizes`."""
    return context_with_sizes


FOUR_STREET_TRAINING = [
    "--streets", "4", "--stack", "400", "--small-blind", "10", "--actions", "pot,allin:1",
    "--abstraction", "ehs20", "--turn-buckets", "8", "--river-buckets", "6",
    "--iterations", "600", "--batch", "300", "--algorithm", "external", "--min-reach", "0",
    "--seed", "3", "--workers", "1",
]  # fmt: skip


@pytest.fixture(scope="session")
def four_street_blueprint(tmp_path_factory) -> Path:
    """A tiny blueprint trained to the river by ``blueprint train --streets 4``: 20 big blinds
    deep (the tables' big blind), pot and all-in raises, 8 turn and 6 river buckets."""
    out = tmp_path_factory.mktemp("four_streets") / "bp4.csv"
    result = CliRunner().invoke(
        blueprint_command, ["train", *FOUR_STREET_TRAINING, "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out
