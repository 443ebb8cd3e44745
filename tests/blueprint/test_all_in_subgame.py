"""The preflop all-in subgame: without the call-down option it is the heads-up push/fold
game, whose equilibrium at 10 big blinds is published (the small blind pushes 58.4% of hands,
the big blind calls 37.3%); deeper, with ranges, its solution is an equilibrium to within the
exploitability the iterations leave."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import HOLE_CLASSES, parse_cards
from agent.poker.range_equity import HOLDINGS, holding_classes, holding_index
from blueprint.pushfold_hu import range_fraction
from blueprint.subgame.all_in import AllInSpot, class_weights, exploitability, solve_all_in

EVERY = np.ones(HOLDINGS)


def holdings_of(*names: str) -> np.ndarray:
    """Weight 1 on the holdings of the named classes, 0 elsewhere."""
    wanted = [HOLE_CLASSES.index(name) for name in names]
    return np.isin(holding_classes(), wanted).astype(np.float64)


def test_without_calling_down_it_is_the_push_fold_game():
    spot = AllInSpot(their_level=0.5, level=1.0, all_in=10.0, calls_down=False)
    solution = solve_all_in(spot, EVERY, EVERY)
    assert range_fraction(solution.call) == pytest.approx(0.373, abs=0.003)
    assert range_fraction(solution.all_in) == pytest.approx(0.584, abs=0.003)
    assert (solution.theirs[:, 1] == 0).all()  # calling down was never offered
    assert exploitability(spot, EVERY, EVERY, solution) < 1e-4  # big blinds a deal


def test_a_deep_spot_with_ranges_is_solved_near_equilibrium():
    spot = AllInSpot(their_level=60, level=180, all_in=2000)  # 100 big blinds of 20
    ours = np.random.default_rng(3).random(HOLDINGS) * holdings_of("AA", "KK", "AKs", "A5s", "76s")
    theirs = np.random.default_rng(4).random(HOLDINGS)
    solution = solve_all_in(spot, ours, theirs)
    assert exploitability(spot, ours, theirs, solution) < 0.01 * spot.level
    assert exploitability(spot, ours, theirs, solve_all_in(spot, ours, theirs, 5)) > 0.01
    aces, suited = HOLE_CLASSES.index("AA"), HOLE_CLASSES.index("76s")
    assert solution.call[aces] == 1.0 and solution.call[suited] < 0.5
    np.testing.assert_allclose(solution.theirs.sum(axis=1), 1.0)


def test_classes_outside_our_range_get_a_best_response():
    spot = AllInSpot(their_level=60, level=180, all_in=2000)
    solution = solve_all_in(spot, holdings_of("AA", "KK"), EVERY)
    held = [HOLE_CLASSES.index("AA"), HOLE_CLASSES.index("KK")]
    assert set(np.unique(np.delete(solution.call, held))) <= {0.0, 1.0}
    assert solution.call[HOLE_CLASSES.index("72o")] == 0.0
    by_holding = solution.call_by_holding()
    aces = holding_index(*parse_cards(["As", "Ah"]))
    assert by_holding[aces] == solution.call[HOLE_CLASSES.index("AA")] == 1.0


def test_bad_spots_and_ranges_are_refused():
    with pytest.raises(ValueError, match="their_level <= level < all_in"):
        AllInSpot(their_level=180, level=60, all_in=2000)
    with pytest.raises(ValueError, match="their_level <= level < all_in"):
        AllInSpot(their_level=60, level=180, all_in=180)
    with pytest.raises(ValueError, match="1,326 non-negative weights"):
        class_weights(np.zeros(HOLDINGS))
    with pytest.raises(ValueError, match="1,326 non-negative weights"):
        class_weights(np.ones(169))
    with pytest.raises(ValueError, match="iterations must be at least 1"):
        solve_all_in(AllInSpot(60, 180, 2000), EVERY, EVERY, iterations=0)
