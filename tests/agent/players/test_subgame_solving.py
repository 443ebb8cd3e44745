"""The player's real-time solving (``cfrv2:solve=river``, ``solve=turn`` and ``solve=flop``):
known answers on real PyPokerEngine snapshots, the bookkeeping that puts the hand's real line
on the tree."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from agent.boundary.snapshot import ActionRecord, Street, is_legal
from agent.players.cfrv2 import CFRv2Player
from agent.players.player import CFRv1Player, CFRv2FixedPlayer
from agent.players.rules.pushfold import ALL_HOLES
from agent.players.rules.street_solving import StreetStart, real_fractions, street_start, tree_node
from agent.poker.cards import parse_cards
from agent.poker.range_equity import blocked_mask

BOARD = tuple(parse_cards(["Ah", "Kh", "Qh", "7c", "2d"]))


def river_facing(scripted_hand, last: str):
    """Seat 0's river decision facing seat 1's ``last`` ('pot' or 'push') after checks."""
    seats = scripted_hand([1000, 1000], 0, [["call"] * 4, ["call"] * 3 + [last]])
    snapshot = seats[0].seen[-1]
    assert snapshot.street == Street.RIVER and snapshot.to_call > 0
    return replace(snapshot, board=BOARD)


def probabilities(player, snapshot, cards):
    hole = tuple(parse_cards(cards))
    return {name: p for name, _, p in player.policy(replace(snapshot, hole=hole))}


def test_the_nuts_never_fold_and_a_hand_that_cannot_win_never_calls_a_shove(scripted_hand):
    player = CFRv2Player(solve="river", seed=0)
    shove = river_facing(scripted_hand, "push")
    assert probabilities(player, shove, ["Jh", "Th"]).get("fold", 0.0) < 0.01  # royal flush
    assert probabilities(player, shove, ["3c", "4d"]).get("fold", 0.0) > 0.99  # ace high, 4 kicker
    assert player.fixed.solving.solver.solves == 1  # one solve served both hands


def test_the_solved_table_is_the_policy_hole_by_hole_and_legal(scripted_hand):
    player = CFRv2Player(solve="river", seed=0)
    bet = river_facing(scripted_hand, "pot")
    holes = [(a, b) for a in range(52) for b in range(a + 1, 52) if not {a, b} & set(BOARD)]
    holes = holes[::97]
    table = player.policy_table(bet, holes)
    for hole, row in zip(holes, table, strict=True):
        assert row == player.policy(replace(bet, hole=hole))
        assert sum(p for _, _, p in row) == pytest.approx(1.0)
        assert all(is_legal(bet, (name, amount)) for name, amount, _ in row)
    assert player.fixed.solving.solver.solves == 1


def test_the_street_start_undoes_the_rivers_bets(scripted_hand):
    bet = river_facing(scripted_hand, "pot")
    start = street_start(bet)
    assert start.pot == 40 and start.stacks == (980, 980)  # a limped pot, checked to the river
    assert start.seats == (0, 1) and start.before == len(bet.history) - len(start.records)
    assert real_fractions(start) == ()  # a pot bet is on the tree already


def test_real_bet_sizes_are_added_to_the_tree_and_the_line_found():
    from blueprint.subgame.river import BetAbstraction, river_tree

    records = (
        ActionRecord(Street.RIVER, 1, "RAISE", 60, 60, 60),  # 0.6 of the pot of 100
        ActionRecord(Street.RIVER, 0, "RAISE", 225, 225, 165),  # 0.75 of 220, the pot after a call
    )
    start = StreetStart(BOARD, 100, (1000, 1000), 1, (0, 1), 0, records)
    assert real_fractions(start) == (0.6, 0.75)
    sizes = BetAbstraction(pot_fractions=(0.5, 0.6, 0.75, 1.0), max_raises=3)
    tree = river_tree(100.0, (1000.0, 1000.0), 1, sizes)
    node = tree_node(tree, start)
    assert node is not None and int(tree.player[node]) == 1  # the bettor faces the raise
    assert tree.contribution[node].tolist() == [275.0, 110.0]


def test_one_solve_size_builds_trees_of_the_pot_and_all_in_plus_the_real_sizes(scripted_hand):
    player = CFRv2Player(solve="river", solve_size=1, seed=0)
    shove = river_facing(scripted_hand, "push")
    assert probabilities(player, shove, ["Jh", "Th"]).get("fold", 0.0) < 0.01  # royal flush
    (solved,) = player.fixed.solving.solver._solutions.values()
    assert solved.solution.abstraction.pot_fractions == (1.0,)
    both = CFRv2Player(solve="river", solve_size="two", seed=0)
    both.policy(shove)
    (two_sizes,) = both.fixed.solving.solver._solutions.values()
    assert two_sizes.solution.abstraction.pot_fractions == (0.5, 1.0)
    assert solved.tree.num_nodes < two_sizes.tree.num_nodes
    half = StreetStart(BOARD, 100, (1000, 1000), 1, (0, 1), 0, (
        ActionRecord(Street.RIVER, 1, "RAISE", 50, 50, 50),  # half the pot of 100
    ))  # fmt: skip
    assert real_fractions(half, (1.0,)) == (0.5,)  # added to a one-size tree
    assert real_fractions(half) == ()  # on the default's tree already
    with pytest.raises(ValueError, match="solve_size=0"):
        CFRv2Player(solve_size=0)


def test_cfrv2_solves_on_trees_of_the_pot_and_the_study_bot_of_two_sizes():
    """The product's default since its rule: one size, the pot; ``two`` and the other players
    keep half the pot and the pot."""
    assert CFRv2Player(seed=0).fixed.solving.sizes == (1.0,)
    assert CFRv2FixedPlayer(seed=0).fixed.solving.sizes == (1.0,)
    assert CFRv2Player(solve_size="two", seed=0).fixed.solving.sizes == (0.5, 1.0)
    assert CFRv1Player(solve="river", seed=0).fixed.solving.sizes == (0.5, 1.0)
    with pytest.raises(ValueError, match="solve_size='three': expected a positive pot fraction"):
        CFRv2Player(solve_size="three")


def test_a_bet_too_small_to_show_as_a_pot_fraction_is_not_added_to_the_tree():
    # a 2-chip bet into 1,000 is 0.002 of the pot: 0.0 at two digits, not a size a tree can hold
    records = (ActionRecord(Street.RIVER, 1, "RAISE", 2, 2, 2),)
    start = StreetStart(BOARD, 1000, (1000, 1000), 1, (0, 1), 0, records)
    assert real_fractions(start) == ()


def test_a_river_that_started_three_handed_is_played_by_the_rules(scripted_hand):
    scripts = [["call"] * 3 + ["fold"], ["call"] * 4, ["call"] * 3 + ["pot"]]
    seats = scripted_hand([1000, 1000, 1000], 0, scripts)
    snapshot = seats[1].seen[-1]  # facing seat 2's bet after seat 0 folded on the river
    assert snapshot.street == Street.RIVER and snapshot.to_call > 0
    assert len(snapshot.in_hand) == 2 and street_start(snapshot) is None
    player = CFRv2Player(solve="river", seed=0)
    policy = player.policy(snapshot)
    assert sum(p for _, _, p in policy) == pytest.approx(1.0)
    assert player.fixed.solving.solver.solves == 0


def test_a_raise_war_on_the_river_is_left_to_the_rules(scripted_hand):
    seats = scripted_hand([1000, 1000], 0, [["call"] * 3 + ["pot", "pot"]] * 2)
    snapshot = replace(seats[0].seen[-1], board=BOARD)
    raises = [r for r in snapshot.street_history(Street.RIVER) if r.kind == "RAISE"]
    assert snapshot.street == Street.RIVER and len(raises) >= 3
    solving, rules = CFRv2Player(solve="river", seed=0), CFRv2Player(solve="off", seed=0)
    for cards in (["Jh", "Th"], ["3c", "4d"], ["Ac", "9d"]):
        assert probabilities(solving, snapshot, cards) == probabilities(rules, snapshot, cards)


def test_river_solving_keeps_the_defence_among_all_holdings_when_own_range_is_off(scripted_hand):
    seats = scripted_hand([1000, 1000], 0, [["call"] * 4, ["call"] * 3 + ["pot"]])
    turn, river = seats[0].seen[2], replace(seats[0].seen[-1], board=BOARD)
    assert turn.street == Street.TURN and river.street == Street.RIVER and river.to_call > 0
    plain = CFRv2FixedPlayer(own_range=False, solve="off", seed=0)
    solving = CFRv2FixedPlayer(own_range=False, solve="river", seed=0)
    for player in (plain, solving):
        player.fixed.remember(turn, ("call", 0))  # a turn check
    assert (
        solving.context.own_range.decisions and not plain.context.own_range.decisions
    )  # kept for the solve
    holes = [river.hole]
    assert solving.fixed.defence.percentiles(river, holes) == plain.fixed.defence.percentiles(
        river, holes
    )


TURN_BOARD = BOARD[:4]


def turn_facing(scripted_hand, last: str):
    """Seat 0's turn decision facing seat 1's ``last`` ('pot' or 'push') after checks."""
    seats = scripted_hand([1000, 1000], 0, [["call"] * 3, ["call"] * 2 + [last]])
    snapshot = next(s for s in seats[0].seen if s.street == Street.TURN and s.to_call > 0)
    return replace(snapshot, board=TURN_BOARD)


def street_facing_a_shove(scripted_hand, street: Street):
    """Seat 0's flop or turn decision facing seat 1's all-in after checks, on ``BOARD``."""
    checks = int(street)  # preflop call and check, then a check on each street before
    seats = scripted_hand([1000, 1000], 0, [["call"] * (checks + 1), ["call"] * checks + ["push"]])
    snapshot = next(s for s in seats[0].seen if s.street == street and s.to_call > 0)
    return replace(snapshot, board=BOARD[: 2 + int(street)])


@pytest.mark.parametrize(
    ("street", "solve", "less"), [(Street.TURN, "turn", "river"), (Street.FLOP, "flop", "turn")]
)
def test_the_street_is_solved_too_the_nuts_call_a_shove_air_folds(
    scripted_hand, street, solve, less
):
    player = CFRv2Player(solve=solve, seed=0)
    shove = street_facing_a_shove(scripted_hand, street)
    assert probabilities(player, shove, ["Jh", "Th"]).get("fold", 0.0) < 0.01  # a royal flush
    assert probabilities(player, shove, ["3c", "4d"]).get("fold", 0.0) > 0.99  # no pair, no draw
    holes = [(a, b) for a in range(52) for b in range(a + 1, 52) if not {a, b} & set(shove.board)]
    for hole, row in zip(holes[::131], player.policy_table(shove, holes[::131]), strict=True):
        assert row == player.policy(replace(shove, hole=hole))
        assert all(is_legal(shove, (name, amount)) for name, amount, _ in row)
    assert player.fixed.solving.solver.solves == 1
    assert not CFRv2Player(solve=less, seed=0).fixed.solving.applies(shove)


def test_our_turn_action_reveals_the_range_the_turn_solution_gives_it(scripted_hand):
    seats = scripted_hand([1000, 1000], 0, [["call"] * 3, ["call"] * 2 + ["pot"]])
    first = next(s for s in seats[1].seen if s.street == Street.TURN)
    first = replace(first, board=TURN_BOARD)
    assert first.to_call == 0  # seat 1 acts first on the turn
    player = CFRv2Player(solve="turn", seed=0)
    check = player.action_likelihood(first, ("call", 0))
    live = ~blocked_mask(list(TURN_BOARD))
    table = player.policy_table(first, [h for h, ok in zip(ALL_HOLES, live, strict=True) if ok])
    expected = [sum(p for name, _, p in row if name == "call") for row in table]
    assert np.allclose(check[live], expected) and not check[~live].any()
    assert 0.0 < check[live].mean() < 1.0  # the solution checks some hands and bets others


def test_the_adaptive_agent_solves_with_the_range_its_model_gives(scripted_hand):
    from agent.players.adaptive.player import AdaptivePlayer
    from agent.players.opponents.model import LAMBDAS, OpponentModel

    shove = turn_facing(scripted_hand, "pot")
    random_player = OpponentModel()  # learned: its actions do not depend on its cards
    random_player.lambda_log[:] = np.where(LAMBDAS == 0.0, 0.0, -np.inf)
    agent = AdaptivePlayer(solve="turn", seed=0)
    agent.book.seat_uuids = ["us", "them"]
    agent.book.models["them"] = random_player
    learned = agent.fixed.solving.solved(shove)[1].solution.subgame.ranges[1]
    prior = (
        CFRv2Player(solve="turn", seed=0).fixed.solving.solved(shove)[1].solution.subgame.ranges[1]
    )
    assert np.allclose(learned, learned.mean())  # checks and a pot bet say nothing of its cards
    assert prior.std() > 0.1 * prior.mean()  # the prior's sound player bets its strong hands
    watching = AdaptivePlayer(solve="turn", exploit=False, seed=0)
    watching.book.seat_uuids, watching.book.models = agent.book.seat_uuids, agent.book.models
    assert np.allclose(watching.fixed.solving.solved(shove)[1].solution.subgame.ranges[1], prior)


def turn_check_then_bet(scripted_hand, fraction: float):
    """Seat 1's two turn decisions: first to act, then facing seat 0's bet of ``fraction`` of
    the pot after its check."""
    scripts = [["call"] * 2 + [f"bet:{fraction}"], ["call"] * 3 + ["fold"]]
    seats = scripted_hand([1000, 1000], 0, scripts)
    first, facing = (replace(s, board=TURN_BOARD) for s in seats[1].seen if s.street == Street.TURN)
    assert first.to_call == 0 and facing.to_call == round(fraction * first.pot)
    return first, facing


def test_a_bet_of_a_new_size_is_re_solved_below_it_with_the_gadget(scripted_hand):
    first, facing = turn_check_then_bet(scripted_hand, 0.7)
    player = CFRv2Player(solve="turn", gadget=True, seed=0)
    check = player.action_likelihood(first, ("call", 0))
    player.fixed.remember(first, ("call", 0))
    policy = player.policy(replace(facing, hole=tuple(parse_cards(["Jh", "Th"]))))
    assert (
        player.fixed.solving.solver.solves == 2 and player.fixed.solving.solver.nested_solves == 1
    )
    assert all(is_legal(facing, (name, amount)) for name, amount, _ in policy)
    assert {name: p for name, _, p in policy}.get("fold", 0.0) < 0.01  # the nut straight
    start, solved = player.fixed.solving.solved(facing)
    assert solved.offset == 2 and solved.tree.contribution[0].tolist() == [
        start.half,
        start.half + facing.to_call,
    ]
    first_solution = player.fixed.solving.solved(first)[1].solution
    expected = first_solution.subgame.ranges[0] * check[first_solution.holdings]
    assert (solved.solution.holdings == first_solution.holdings).all()
    assert np.allclose(solved.solution.subgame.ranges[0], expected)  # the range that checked
    assert np.allclose(player.action_likelihood(first, ("call", 0)), check)  # the first solve kept
    assert player.fixed.solving.solver.solves == 2


def test_without_the_gadget_the_street_is_solved_again_with_the_size_added(scripted_hand):
    first, facing = turn_check_then_bet(scripted_hand, 0.7)
    player = CFRv2Player(solve="turn", seed=0)
    player.policy(first)
    player.policy(facing)
    assert (
        player.fixed.solving.solver.solves == 2 and player.fixed.solving.solver.nested_solves == 0
    )
    assert player.fixed.solving.solved(facing)[1].offset == 0


def test_two_players_solving_the_same_subgame_share_one_solve_with_the_same_answer(
    scripted_hand, monkeypatch
):
    import agent.players.rules.street_solving as solving

    monkeypatch.setattr(solving, "_shared_solutions", {})
    shove = river_facing(scripted_hand, "push")
    bot, copy, other = (
        CFRv2Player(solve="river", solve_iterations=n, seed=0) for n in (40, 40, 41)
    )
    hole = ["Qc", "Jd"]  # a pair of queens on A-K-Q: a bluff-catcher
    answer = probabilities(bot, shove, hole)
    assert probabilities(copy, shove, hole) == answer

    def solutions(player):
        return [kept.solution for kept in player.fixed.solving.solver._solutions.values()]

    assert solutions(copy) == solutions(bot) and len(solutions(bot)) == 1  # the same object
    probabilities(other, shove, hole)  # 41 iterations: another subgame, solved anew
    assert solutions(other)[0] is not solutions(bot)[0]
    monkeypatch.setattr(solving, "_shared_solutions", {})
    fresh = CFRv2Player(solve="river", solve_iterations=40, seed=0)
    assert probabilities(fresh, shove, hole) == answer  # solved again: the same strategy
    assert np.array_equal(solutions(fresh)[0].strategy, solutions(bot)[0].strategy)


def flop_facing(scripted_hand, last: str):
    """Seat 0's flop decision facing seat 1's ``last`` ('pot' or 'push') after a check."""
    seats = scripted_hand([1000, 1000], 0, [["call"] * 2, ["call", last]])
    snapshot = next(s for s in seats[0].seen if s.street == Street.FLOP and s.to_call > 0)
    return replace(snapshot, board=BOARD[:3])


@pytest.mark.parametrize(
    ("facing", "solve", "later", "without"),
    [
        (turn_facing, "turn", "river", "check-down"),
        (flop_facing, "flop", "turn and river", "turn"),  # turn: the flop checked down
    ],
)
def test_a_four_street_blueprints_solve_continues_with_the_rest_of_the_hand(
    scripted_hand, facing, solve, later, without
):
    """With the four-street blueprint a turn solve's leaves play its river, and a flop solve's
    its turn and river, the opponent choosing how (``leaves=auto``), over our likely hands;
    the royal flush (made on this flop) never folds to a pot bet; the setting without the
    street's continuations keeps the check-down matrix."""
    bet = facing(scripted_hand, "pot")
    player = CFRv2Player(blueprint="streets", solve=solve, solve_iterations=5, seed=0)
    subgame = player.fixed.solving.solved(bet)[1].solution.subgame
    choices = subgame.leaf_choices
    assert choices is not None and subgame.leaf_equity is None
    assert max(choices.counts) == 4  # the blueprint and its three biased continuations
    assert 0 < len(choices.rows) < subgame.hands.size  # a sparse own range
    assert probabilities(player, bet, ["Jh", "Th"]).get("fold", 0.0) < 0.01
    assert f"the blueprint's {later} at its leaves" in player.fixed.solving.detail()
    plain = CFRv2Player(blueprint="streets", solve=solve, solve_iterations=5, leaves=without,
                        seed=0)  # fmt: skip
    assert plain.fixed.solving.solved(bet)[1].solution.subgame.leaf_choices is None
