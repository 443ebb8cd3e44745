"""The opponent's choice among continuations at the leaves of a depth-limited solve
(``blueprint.subgame.leaf_choice``): one continuation of the stake times the equity matrix is
the check-down, on every row or on some (the others checked down); the leaves' values and one
regret update against their definitions; a continuation worse for us by c per dealt pair
gives the opponent's best response c times the compatible mass of our rows; and regret
matching settles on it, the average with its exact weights."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDINGS, blocked_mask
from blueprint.subgame.depth_limited import street_subgame
from blueprint.subgame.flop import FlopSpot
from blueprint.subgame.leaf_choice import ChoiceUpdate, LeafChoices
from blueprint.subgame.river import BetAbstraction
from blueprint.subgame.turn import TurnSpot
from blueprint.subgame.vector_cfr import Subgame, SubgameSolver, node_reach, root_values
from blueprint.tree import SHOWDOWN

BOARD = tuple(parse_cards(["Ah", "9h", "5c", "2d"]))
SIZES = BetAbstraction(pot_fractions=(0.5, 1.0), all_in=True, max_raises=2)
NO_BETS = BetAbstraction(pot_fractions=(1.0,), all_in=False, max_raises=0)  # one leaf


def compatible(cards: np.ndarray) -> np.ndarray:
    """``bool[H, H]``: the pairs of holdings that share no card."""
    shared = (cards[:, None, :, None] == cards[None, :, None, :]).any(axis=(2, 3))
    return ~shared


def turn_spot(count: int, seed: int) -> TurnSpot:
    """A turn spot, pot 60, whose random ranges hold the same ``count`` holdings for both."""
    rng = np.random.default_rng(seed)
    live = np.flatnonzero(~blocked_mask(list(BOARD)))
    keep = np.zeros(HOLDINGS)
    keep[rng.choice(live, count, replace=False)] = 1.0
    return TurnSpot(BOARD, 60.0, (500.0, 500.0), 0, rng.random((2, HOLDINGS)) * keep)


def leaf_matrices(
    checked: Subgame, rows: np.ndarray, worse_by: float | None = None
) -> list[np.ndarray]:
    """Per leaf of the check-down subgame, on ``rows``: the stake times D and, with
    ``worse_by``, a second continuation that costs us that many chips on every dealt pair."""
    equity, stakes = checked.leaf_equity, checked.tree.contribution[checked.leaf_nodes, 0]
    dealt = compatible(checked.hands.cards)[rows]
    matrices = []
    for stake in stakes:
        first = stake * equity[rows]
        choices = [first] if worse_by is None else [first, first - worse_by * dealt]
        matrices.append(np.stack(choices).astype(np.float32))
    return matrices


def continued(checked: Subgame, rows: np.ndarray, worse_by: float | None = None) -> Subgame:
    """The check-down subgame's tree with the leaf choices of :func:`leaf_matrices` on
    ``rows``, every other row checked down."""
    tree, hands, equity = checked.tree, checked.hands, checked.leaf_equity
    stakes = tree.contribution[checked.leaf_nodes, 0]
    choices = LeafChoices(leaf_matrices(checked, rows, worse_by), hands.size, rows=rows,
                          equity=equity, stakes=stakes)  # fmt: skip
    return Subgame(tree, hands, checked.ranges, leaf_choices=choices)


class StakeTimesEquity:
    """Leaves for ``street_subgame``: one continuation, the stake times D on the rows asked
    for; None (checked down) where a leaf is all-in."""

    board_cards = 4  # a turn solve's

    def __init__(self, equity: np.ndarray) -> None:
        self.equity = equity

    def matrices(self, tree, board, cards, limit, rows) -> list[np.ndarray | None]:
        out: list[np.ndarray | None] = []
        for node in np.flatnonzero(tree.kind == SHOWDOWN):  # in node order
            stake = float(tree.contribution[node, 0])
            out.append(None if stake >= limit else (stake * self.equity[rows])[None])
        return out


ROW_SETS = {
    "all": lambda size: np.arange(size),
    "even": lambda size: np.arange(0, size, 2),
    "one": lambda size: np.array([size // 2]),
}


@pytest.mark.parametrize("rows", sorted(ROW_SETS))
def test_one_continuation_of_the_stake_times_equity_solves_as_the_check_down(rows) -> None:
    """On every row, on half of them or on one (the others checked down), the leaves are
    valued as the check-down's, to single precision, and 20 DCFR iterations play alike (to
    the rounding that float32 products leave)."""
    checked, _ = street_subgame(turn_spot(150, 3), SIZES)
    tree, size = checked.tree, checked.hands.size
    chosen = continued(checked, ROW_SETS[rows](size))
    leaves = chosen.leaf_nodes
    assert len(leaves) == 19
    reach = np.random.default_rng(5).random((tree.num_nodes, 2, size))
    stakes = tree.contribution[leaves, 0]
    for p in (0, 1):
        mine, theirs = np.zeros((tree.num_nodes, size)), np.zeros((tree.num_nodes, size))
        checked.fill_leaves(reach, p, mine)
        chosen.fill_leaves(reach, p, theirs)
        # the leaves' products run in single precision: 7 digits of the stake times the reach
        digits = 1e-6 * stakes[:, None] * reach[leaves, 1 - p].sum(axis=1)[:, None]
        assert (np.abs(mine[leaves] - theirs[leaves]) <= digits).all()
    first, second = SubgameSolver(checked), SubgameSolver(chosen)
    first.run(20)
    second.run(20)
    # the same iterations, their leaf products rounded otherwise (float32, the rows' part and
    # the checked-down part summed apart): regret matching carries that to ~2e-5 by then
    assert np.allclose(first.average_strategy(), second.average_strategy(), rtol=0, atol=1e-4)


def test_a_street_subgame_takes_its_leaves_matrices_on_our_likely_rows() -> None:
    """``street_subgame`` asks the leaves for our likely hands' rows and checks the rest, and
    the all-in leaves, down: with the stake times D it solves as the check-down."""
    spot = turn_spot(150, 3)
    checked, holdings = street_subgame(spot, SIZES)
    chosen, same = street_subgame(spot, SIZES, StakeTimesEquity(checked.leaf_equity))
    assert np.array_equal(holdings, same)
    choices = chosen.leaf_choices
    assert np.array_equal(choices.equity, checked.leaf_equity)
    assert np.array_equal(choices.stakes, checked.tree.contribution[checked.leaf_nodes, 0])
    ours, kept = chosen.ranges[0], chosen.ranges[0][choices.rows]
    dropped = np.delete(ours, choices.rows)
    assert len(dropped) > 0 and kept.min() >= dropped.max()  # the heaviest hands
    assert kept.sum() - kept.min() < 0.98 * ours.sum() <= kept.sum()  # the fewest with 98%
    assert [m is None for m in choices.matrices] == (choices.stakes == 500.0 + 30.0).tolist()
    first, second = SubgameSolver(checked), SubgameSolver(chosen)
    first.run(20)
    second.run(20)
    assert np.allclose(first.average_strategy(), second.average_strategy(), rtol=0, atol=1e-4)


def leaf_inputs(seed: int):
    """Two leaves (nodes 1 and 3 of four) of 6 hands, our rows 0, 2 and 3: three
    continuations, then none (checked down); stakes 10 and 40, an antisymmetric D."""
    rng = np.random.default_rng(seed)
    matrices = [rng.normal(0.0, 10.0, (3, 3, 6)).astype(np.float32), None]
    upper = np.triu(rng.uniform(-1.0, 1.0, (6, 6)), 1)
    equity = (upper - upper.T).astype(np.float32)
    choices = LeafChoices(matrices, 6, rows=np.array([0, 2, 3]), equity=equity,
                          stakes=[10.0, 40.0])  # fmt: skip
    return choices, matrices, rng.random((4, 2, 6)), np.array([1, 3])


ROWS, OUTSIDE = np.array([0, 2, 3]), np.array([1, 4, 5])


def definition(choices: LeafChoices, matrices, reach: np.ndarray, p: int, node: int, leaf: int):
    """Player p's leaf values by their definition in double precision: p = 0 the mixed
    continuations' values on our rows and the check-down's elsewhere; p = 1 each
    continuation's value, ``[H, k]``, our rows' through its matrix and the others' checked
    down."""
    equity = choices.equity.astype(np.float64)
    stake = choices.stakes[leaf]
    matrix = matrices[leaf]
    if p == 0:
        value = stake * (equity @ reach[node, 1])
        if matrix is not None:
            choice = choices.average(leaf)
            value[ROWS] = sum(m.astype(np.float64) @ (reach[node, 1] * choice[:, k])
                              for k, m in enumerate(matrix))  # fmt: skip
        return value
    if matrix is None:
        return -stake * (reach[node, 0] @ equity)[:, None]
    checked_down = -stake * (reach[node, 0, OUTSIDE] @ equity[OUTSIDE])
    return np.stack(
        [checked_down - reach[node, 0, ROWS] @ m.astype(np.float64) for m in matrix], axis=1
    )


def test_the_leaf_values_are_the_matrices_against_the_other_players_reach() -> None:
    """Before any update the average choice is uniform: our values mix the continuations
    evenly, the chooser's average them or take each hand's best."""
    choices, matrices, reach, leaves = leaf_inputs(7)
    for mode in ("ours", "average", "best"):
        value = np.full((4, 6), np.nan)
        if mode == "ours":
            choices.fill(reach, 0, leaves, value)
        else:
            choices.fill(reach, 1, leaves, value, best_response=mode == "best")
        for leaf, node in enumerate(leaves):
            player = 0 if mode == "ours" else 1
            expected = definition(choices, matrices, reach, player, node, leaf)
            if mode != "ours":
                expected = expected.max(axis=1) if mode == "best" else expected.mean(axis=1)
            assert np.allclose(value[node], expected, rtol=1e-5, atol=1e-4)
        assert np.isnan(value[[0, 2]]).all()  # other nodes are left alone


def test_one_update_of_the_choice_is_regret_matching_on_the_continuations_values() -> None:
    """The chooser's pass: regrets are each continuation's value less the uniform mix's, the
    next choice their positive part normalised, the average the uniform choice weighted by
    the chooser's reach; our next pass reads that choice."""
    choices, matrices, reach, leaves = leaf_inputs(11)
    value = np.zeros((4, 6))
    choices.fill(reach, 1, leaves, value, ChoiceUpdate(2.0, 1.0, 1.0, False))
    node = leaves[0]
    options = definition(choices, matrices, reach, 1, node, 0)
    regret = options - options.mean(axis=1, keepdims=True)
    assert np.allclose(value[node], options.mean(axis=1), rtol=1e-5, atol=1e-4)
    assert np.allclose(choices.regret[0], regret, rtol=1e-5, atol=1e-4)
    positive = np.maximum(regret, 0.0)
    assert (positive.sum(axis=1) > 0).all()
    sigma = positive / positive.sum(axis=1, keepdims=True)
    assert np.allclose(choices.sigma[0], sigma, rtol=1e-5, atol=1e-6)
    assert np.allclose(choices.strategy_sum[0], 2.0 * reach[node, 1][:, None] / 3.0)
    assert np.allclose(choices.average(0), 1.0 / 3.0)
    assert not choices.regret[1].any() and np.allclose(choices.sigma[1], [1.0, 0.0, 0.0])
    ours = np.zeros((4, 6))
    choices.fill(reach, 0, leaves, ours, ChoiceUpdate(1.0, 1.0, 1.0, False))
    matrix = matrices[0].astype(np.float64)
    mixed = sum(m @ (reach[node, 1] * sigma[:, k]) for k, m in enumerate(matrix))
    assert np.allclose(ours[node, ROWS], mixed, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("rows", ["all", "even"])
def test_a_continuation_worse_for_us_by_c_gives_the_chooser_c_times_our_compatible_mass(
    rows,
) -> None:
    """With no bets the root is the leaf: the opponent's best response takes, with every
    hand o, the continuation that costs us c more on each dealt pair of our rows, worth
    ``-(r0 @ 30 D)[o] + c * sum of r0 over our rows that o leaves``."""
    checked, _ = street_subgame(turn_spot(120, 13), NO_BETS)
    size = checked.hands.size
    ours = ROW_SETS[rows](size)
    base, worse = continued(checked, ours), continued(checked, ours, worse_by=2.5)
    assert len(base.leaf_nodes) == 1 and base.tree.contribution[base.leaf_nodes[0], 0] == 30.0
    policy = SubgameSolver(base).average_strategy()
    r0 = base.ranges[0]
    mass = r0[ours] @ compatible(checked.hands.cards)[ours]
    plain = -30.0 * (r0 @ checked.leaf_equity.astype(np.float64))
    digits = 1e-6 * 30.0 * r0.sum()  # single-precision products
    for subgame, gain in ((base, 0.0), (worse, 2.5)):
        best = root_values(subgame, policy, 1, best_response=True)
        assert np.allclose(best, plain + gain * mass, rtol=0, atol=digits)
    assert (mass > 10.0 * digits).all()


def test_the_chooser_settles_on_the_continuation_better_for_it() -> None:
    """With no bets, the first iteration's uniform choice, weighted 1 by DCFR (gamma 2), is
    the only weight left on the worse continuation after 50: ``0.5 / sum t^2`` of the average,
    for every hand."""
    checked, _ = street_subgame(turn_spot(120, 17), NO_BETS)
    subgame = continued(checked, ROW_SETS["even"](checked.hands.size), worse_by=1.0)
    SubgameSolver(subgame).run(50)
    weights = float(sum(t * t for t in range(1, 51)))  # 42,925
    average = subgame.leaf_choices.average(0)
    assert np.allclose(average[:, 1], 1.0 - 0.5 / weights, rtol=0, atol=1e-12)
    assert np.allclose(average.sum(axis=1), 1.0)


def test_in_a_betting_tree_the_chooser_takes_the_better_continuation_wherever_it_goes() -> None:
    """Every leaf is reached with every hand in the first iteration (uniform play), so from
    then on the current choice is the better continuation exactly; the average keeps at most
    the first iteration's half on the other, and little of it where a hand goes often."""
    checked, _ = street_subgame(turn_spot(150, 3), SIZES)
    subgame = continued(checked, np.arange(checked.hands.size), worse_by=1.0)
    solver = SubgameSolver(subgame)
    solver.run(50)
    policy = solver.average_strategy()
    choices = subgame.leaf_choices
    size, leaves = subgame.hands.size, len(subgame.leaf_nodes)
    assert choices.sigma.shape == choices.strategy_sum.shape == (leaves, size, 2)
    for leaf, node in enumerate(subgame.leaf_nodes):
        assert np.array_equal(choices.sigma[leaf], np.tile([0.0, 1.0], (size, 1)))
        average = choices.average(leaf)
        assert (average[:, 1] >= 0.5).all()
        often = node_reach(subgame, policy, int(node))[1] >= 0.01 * subgame.ranges[1]
        assert often.any()
        assert (average[often, 1] > 0.9).all()


def test_leaf_choices_need_finite_matrices_of_the_rows_shape() -> None:
    with pytest.raises(ValueError, match=r"shape \(k, 6, 6\)"):
        LeafChoices([np.zeros((2, 6, 5), dtype=np.float32)], 6)
    with pytest.raises(ValueError, match=r"shape \(k, 6, 6\)"):
        LeafChoices([np.zeros((6, 6), dtype=np.float32)], 6)
    with pytest.raises(ValueError, match=r"shape \(k, 6, 6\)"):
        LeafChoices([np.zeros((0, 6, 6), dtype=np.float32)], 6)
    with pytest.raises(ValueError, match="finite"):
        LeafChoices([np.full((1, 6, 6), np.inf)], 6)
    equity, stakes = np.zeros((6, 6), dtype=np.float32), [1.0]
    with pytest.raises(ValueError, match=r"shape \(k, 2, 6\)"):
        LeafChoices([np.zeros((1, 6, 6))], 6, rows=np.array([0, 1]), equity=equity,
                    stakes=stakes)  # fmt: skip
    for rows in ([0, 0], [0, 6], [-1]):
        with pytest.raises(ValueError, match=r"distinct hands of 0\.\.5"):
            LeafChoices([np.zeros((1, len(rows), 6))], 6, rows=np.array(rows), equity=equity,
                        stakes=stakes)  # fmt: skip
    with pytest.raises(ValueError, match="need the equity matrix and stakes"):
        LeafChoices([np.zeros((1, 2, 6))], 6, rows=np.array([0, 1]))
    with pytest.raises(ValueError, match="need the equity matrix and stakes"):
        LeafChoices([None], 6, equity=equity)
    with pytest.raises(ValueError, match="need the equity matrix and stakes"):
        LeafChoices([None, None], 6, equity=equity, stakes=stakes)


def test_a_subgame_takes_an_equity_matrix_or_leaf_choices_of_its_leaves() -> None:
    spot = turn_spot(60, 19)
    checked, _ = street_subgame(spot, SIZES)
    tree, hands, ranges = checked.tree, checked.hands, checked.ranges
    matrices = leaf_matrices(checked, np.arange(hands.size))
    choices = LeafChoices(matrices, hands.size)
    with pytest.raises(ValueError, match="not both"):
        Subgame(tree, hands, ranges, leaf_equity=checked.leaf_equity, leaf_choices=choices)
    fewer = LeafChoices(matrices[1:], hands.size)
    with pytest.raises(ValueError, match=f"must hold {len(checked.leaf_nodes)} leaves"):
        Subgame(tree, hands, ranges, leaf_choices=fewer)
    flop = FlopSpot(BOARD[:3], 60.0, (500.0, 500.0), 0, spot.ranges)
    with pytest.raises(ValueError, match="board of 4 cards"):
        street_subgame(flop, SIZES, StakeTimesEquity(checked.leaf_equity))
