"""CFRv1 as a PyPokerEngine bot file: ``setup_ai()`` returns a fresh player.

The convention of PyPokerGUI and other PyPokerEngine tools that load a bot from a file. The
player is :class:`agent.players.player.CFRv1Player` (the study's CFRv1, seed 004: the MCCFR
blueprint preflop and on the flop, 50-simulation equity thresholds on the turn and river).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from agent.players.blueprint_store import Blueprint
from agent.players.player import (
    CFRV1_SIMULATIONS,
    DEFAULT_MULTIWAY,
    DEFAULT_PREFLOP_DEFENSE,
    DEFAULT_PREFLOP_TABLE,
    DEFAULT_PUSHFOLD_PLAYERS,
    DEFAULT_RULE,
    DEFAULT_SIZING,
    CFRv1Player,
)


def setup_ai(
    blueprint: str | Path | Blueprint | None = None,
    simulations: int = CFRV1_SIMULATIONS,
    *,
    sizing: str = DEFAULT_SIZING,
    rule: str = DEFAULT_RULE,
    pushfold: bool = True,
    pushfold_players: int = DEFAULT_PUSHFOLD_PLAYERS,
    own_range: bool = True,
    multiway: str = DEFAULT_MULTIWAY,
    preflop_defense: str = DEFAULT_PREFLOP_DEFENSE,
    solve: str | None = None,
    gadget: bool | None = None,
    solve_iterations: int | None = None,
    preflop_table: bool | str | Path = DEFAULT_PREFLOP_TABLE,
    preflop_opponents: int | str = "auto",
    rng: np.random.Generator | None = None,
    seed: int | None = None,
) -> CFRv1Player:
    """A CFRv1 player (the shipped blueprint unless ``blueprint`` names another file).

    ``rule="mdf"`` (default) answers bets the blueprint does not cover by minimum defense
    frequency; ``rule="study"`` keeps the study's thresholds (see ``agent.players.player``).
    ``pushfold=False`` turns off the push/fold equilibrium at 15 big blinds or less, which
    applies with ``pushfold_players`` (3) or more players dealt in;
    ``own_range=False`` ranks a defence among all holdings, not within our own range;
    ``multiway="study"`` plays the study's thresholds with two or more opponents;
    ``preflop_defense="odds"`` defends preflop by the call's price as well as by MDF;
    ``solve="river"`` solves the heads-up river in real time, ``solve="turn"`` the turn and the
    river, ``solve="flop"`` the flop as well (``agent.players.subgame_solving``),
    ``solve="off-tree"`` the flop, turn and river once a raise left the blueprint's tree
    (``"auto"``: the same at 75 big blinds or deeper; ``"off"``: none; the default here is
    ``"off"``), with ``gadget=True`` by the check-down re-solving gadget instead of the
    opponent's range model, each solve ``solve_iterations`` DCFR iterations (by default the
    gadget and 30 iterations off the tree, neither and 100 for the other modes);
    ``preflop_table=True`` plays the N-player preflop blueprint at tables of 3 to 6 players
    deeper than push/fold (``agent.players.preflop_table``);
    ``preflop_opponents=9`` prices preflop multiway hands against every opponent (``"auto"``,
    the default: one in a cash game, all in a tournament).
    """
    return CFRv1Player(
        blueprint,
        simulations,
        sizing=sizing,
        rule=rule,
        pushfold=pushfold,
        pushfold_players=pushfold_players,
        own_range=own_range,
        multiway=multiway,
        preflop_defense=preflop_defense,
        solve=solve,
        gadget=gadget,
        solve_iterations=solve_iterations,
        preflop_table=preflop_table,
        preflop_opponents=preflop_opponents,
        rng=rng,
        seed=seed,
    )
