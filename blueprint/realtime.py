"""The real-time solver's one public entry point: what the players call to solve a street.

A heads-up street is solved over both ranges to its showdowns (the river,
:mod:`blueprint.subgame.river`) or to the next card (the flop and the turn, depth-limited:
:mod:`blueprint.subgame.depth_limited`; Brown, Sandholm & Amos 2018), and a bet of a size the
tree lacks is re-solved below it (:mod:`blueprint.subgame.nested`; Brown & Sandholm 2017). The
players build trees and roots, solve and re-solve only through the functions here, and read
the kernels' warm-up state here too; the import-layer contract in ``pyproject.toml`` holds them
to it. The solver modules are imported at the first call, so importing a player compiles and
loads nothing of them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from blueprint.subgame.warmup import ColdCacheWarning, compile_in_background, running

__all__ = [
    "FLOOR_RANK",
    "ColdCacheWarning",
    "bet_tree",
    "blueprint_leaves",
    "compile_in_background",
    "resolve_below",
    "running",
    "solve_street",
    "street_root",
]

FLOOR_RANK = 32  # the rank of the factors through which solve_range=floor solves the floor


def bet_tree(pot_fractions: tuple[float, ...], max_raises: int) -> Any:
    """A street's bet abstraction: bets of ``pot_fractions`` of the pot and all-in, at most
    ``max_raises`` bets and raises (:class:`blueprint.subgame.river.BetAbstraction`)."""
    from blueprint.subgame.river import BetAbstraction

    return BetAbstraction(pot_fractions=pot_fractions, all_in=True, max_raises=max_raises)


def street_root(bets: tuple[float, float], raises: int, last_raise: float) -> Any:
    """The root of a street's subgame after its actions so far: the chips each player put in
    on the street, the bets and raises made and the last raise's increment
    (:class:`blueprint.subgame.river.RiverRoot`)."""
    from blueprint.subgame.river import RiverRoot

    return RiverRoot(bets=bets, raises=raises, last_raise=last_raise)


def blueprint_leaves(
    game: Any,
    actions: Any,
    rows: Any,
    buckets: int,
    prefix: str,
    first_player: int,
    turn_buckets: int | None = None,
) -> Any:
    """A turn solve's leaves valued by a four-street blueprint's river, the opponent choosing
    among its continuations (:class:`blueprint.subgame.continuation.BlueprintLeaves`); with
    ``turn_buckets``, a flop solve's, valued by its turn and river
    (:class:`blueprint.subgame.flop_leaves.FlopLeaves`). ``buckets``: its river buckets."""
    from blueprint.subgame.continuation import BlueprintLeaves
    from blueprint.subgame.flop_leaves import FlopLeaves

    if turn_buckets is None:
        return BlueprintLeaves(game, actions, rows, buckets, prefix, first_player)
    return FlopLeaves(game, actions, rows, buckets, prefix, first_player, turn_buckets=turn_buckets)


def solve_street(
    board: tuple[int, ...],
    pot: float,
    stacks: tuple[float, float],
    first: int,
    ranges: np.ndarray,
    tree: Any,
    iterations: int,
    gadget_player: int | None,
    leaves: Any = None,
    sparse: bool = False,
    rank: int | None = None,
) -> Any:
    """The street of ``board`` (3, 4 or 5 cards) solved from its start by DCFR over both
    ``ranges``: to the showdowns on the river, to the next card on the flop and the turn, each
    line that reaches it valued by checking the board down, or by ``leaves`` (a flop's or a
    turn's: :func:`blueprint_leaves`); ``gadget_player``'s range, if not None, replaced by the
    check-down re-solving gadget (Burch, Johanson & Bowling 2014). ``sparse``: on the flop
    and the turn with check-down leaves, player 0's range kept to its likely hands, those that
    carry ``LIKELY_SHARE`` of it (:func:`blueprint.subgame.depth_limited.street_subgame`).
    ``rank``: on the flop and the turn with check-down leaves, the leaves valued through the
    equity matrix's factors of that rank (with ``sparse``, those of our hands outside the
    likely ones, which are then solved too: ``FLOOR_RANK`` for ``solve_range=floor``)."""
    from blueprint.subgame.depth_limited import LIKELY_SHARE
    from blueprint.subgame.depth_limited import solve_street as solve_to_next_card
    from blueprint.subgame.flop import FlopSpot
    from blueprint.subgame.river import RiverSpot, solve_river
    from blueprint.subgame.turn import TurnSpot

    spots = {3: FlopSpot, 4: TurnSpot}
    if len(board) in spots:
        spot = spots[len(board)](board, pot, stacks, first, ranges)
        own_share = LIKELY_SHARE if sparse and leaves is None else None
        return solve_to_next_card(
            spot,
            tree,
            iterations=iterations,
            gadget_player=gadget_player,
            leaves=leaves,
            own_share=own_share,
            leaf_rank=rank if leaves is None else None,
        )
    river = RiverSpot(board, pot, stacks, first, ranges)
    return solve_river(
        river, tree, iterations=iterations, target_pot_fraction=None, gadget_player=gadget_player
    )


def resolve_below(solution: Any, node: int, root: Any, tree: Any, iterations: int) -> Any:
    """The subgame below the opponent's bet at ``node`` of a solved street, which the bet left
    (a size its tree lacks), re-solved safely from ``root`` with ``tree``'s sizes
    (:func:`blueprint.subgame.nested.resolve_below`); ValueError where our solved strategy
    never reaches the node."""
    from blueprint.subgame.nested import resolve_below as nested_resolve

    return nested_resolve(solution, node, root, tree, iterations=iterations)
