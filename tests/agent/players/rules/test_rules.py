"""Each decision rule of the fixed strategy, alone: built on a bare context (no player), it
does not apply to the spots it does not decide, and its three answers agree with each other and with
the known answer of the spot."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from agent.abstraction.pushfold_table import shipped_table
from agent.boundary.snapshot import Snapshot, Street
from agent.players.blueprint_store import load_blueprint
from agent.players.config import Settled
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.blueprint import BlueprintRule
from agent.players.rules.defence import DefenceRule
from agent.players.rules.multiway import MultiwayRule
from agent.players.rules.pushfold import ALL_HOLES, PushFoldRule, pushfold_policy, read_spot
from agent.players.rules.rule import Context, RuleList
from agent.players.rules.street_solving import StreetSolvingRule
from agent.players.rules.threshold import Levels, ThresholdRule
from agent.poker.cards import parse_cards
from agent.poker.holding_equity import holding_equity
from agent.poker.range_equity import blocked_mask, holding_index

BLUEPRINT = None


def context(**options) -> Context:
    """A bare context of cfrv2's fixed strategy with ``options``, seeded."""
    global BLUEPRINT
    strategy = CFRv2FixedPlayer.configure(**options).strategy
    if BLUEPRINT is None:
        BLUEPRINT = load_blueprint(strategy.blueprint.blueprint)
    rng = np.random.default_rng(0)
    return Context(options=strategy, blueprint=BLUEPRINT, rng=rng, settled=Settled())


def probability(row, action) -> float:
    return sum(p for name, amount, p in row if (name, amount) == action)


def agree(rule, snapshot: Snapshot, holes) -> None:
    """policy, policy_table and likelihood give the same probabilities, hole by hole."""
    rows = rule.policy_table(snapshot, holes)
    actions = {(name, amount) for row in rows for name, amount, _ in row}
    for hole, row in zip(holes, rows, strict=True):
        assert rule.policy(replace(snapshot, hole=hole)) == row
        assert sum(p for *_, p in row) == pytest.approx(1.0)
    for action in actions:
        likelihood = rule.likelihood(snapshot, action)
        for hole, row in zip(holes, rows, strict=True):
            expected = probability(row, action)
            assert likelihood[holding_index(*hole)] == pytest.approx(expected, abs=1e-9)


def declines(rule, snapshot: Snapshot) -> None:
    assert not rule.applies(snapshot)
    assert not RuleList([rule]).rules[0].applies(snapshot)
    with pytest.raises(ValueError, match="no rule applies"):
        RuleList([rule]).policy(snapshot)


@pytest.fixture
def deep_open(scripted_hand) -> Snapshot:
    """The small blind's first decision heads-up at 100 big blinds."""
    return scripted_hand([2000, 2000], ante=0, scripts=[["call"], ["fold"]], seed=5)[1].seen[0]


@pytest.fixture
def river_bet(scripted_hand) -> Snapshot:
    """The small blind facing a pot bet on the river after calls and checks."""
    scripts = [["call", "call", "call", "pot"], ["call", "call", "call", "call", "fold"]]
    bots = scripted_hand([2000, 2000], ante=0, scripts=scripts, seed=7)
    facing = bots[1].seen[-1]
    assert facing.street == Street.RIVER and facing.to_call > 0
    return facing


def test_the_rules_decline_the_spots_they_do_not_decide(scripted_hand, deep_open, river_bet):
    bots = scripted_hand([2000, 2000], ante=0, scripts=[["call", "fold"], ["call"]], seed=5)
    option = next(s for bot in bots for s in bot.seen if s.to_call == 0)
    declines(PushFoldRule(context()), deep_open)  # 100 big blinds is no push/fold spot
    declines(StreetSolvingRule(context(solve="off")), river_bet)
    declines(StreetSolvingRule(context(solve="river")), deep_open)  # preflop is never solved
    declines(BlueprintRule(context()), river_bet)  # after the flop
    levels = Levels(context())
    declines(DefenceRule(context(), levels), option)  # no bet to face...
    declines(MultiwayRule(context(), levels), river_bet)  # ...and one opponent


def test_the_shipped_two_street_blueprint_never_applies_after_the_flop(scripted_hand):
    """A hand checked down to the river stays on the shipped blueprint's tree: it plays every
    preflop and flop decision, and no turn or river one (its game ends with the flop)."""
    scripts = [["call"] * 4, ["call"] * 4]
    bots = scripted_hand([2000, 2000], ante=0, scripts=scripts, seed=5)
    rule = BlueprintRule(context())
    assert rule.blueprint.game.rounds == rule.blueprint.cards.rounds == 2
    seen = [snapshot for bot in bots for snapshot in bot.seen]
    assert {snapshot.street for snapshot in seen} == set(Street)
    for snapshot in seen:
        assert rule.applies(snapshot) == (snapshot.street <= Street.FLOP), snapshot.street
        assert bool(rule.readings(snapshot)[0]) == (snapshot.street <= Street.FLOP)


def test_the_shipped_four_street_blueprint_plays_every_street(scripted_hand):
    """``blueprint=streets`` holds rows on all four streets: a hand checked down to the river
    stays on its tree, and the rule plays every decision of it from a row."""
    scripts = [["call"] * 4, ["call"] * 4]
    bots = scripted_hand([1000, 1000], ante=0, scripts=scripts, seed=5)
    streets = load_blueprint("streets")
    rule = BlueprintRule(context(), streets)
    rule.fallback = RuleList([ThresholdRule(context(), Levels(context()))])
    assert streets.game.rounds == streets.cards.rounds == 4
    seen = [snapshot for bot in bots for snapshot in bot.seen]
    assert {snapshot.street for snapshot in seen} == set(Street)
    for snapshot in seen:
        assert rule.applies(snapshot), snapshot.street
        policy = rule.policy(snapshot)
        assert rule.detail().startswith("row "), (snapshot.street, rule.detail())
        assert sum(p for *_, p in policy) == pytest.approx(1.0)


def test_push_fold_plays_the_tables_strategy_and_aces_push(scripted_hand):
    short = scripted_hand([200, 200], ante=0, scripts=[["call"], ["fold"]], seed=5)[1].seen[0]
    rule = PushFoldRule(context(pushfold_players=2))  # heads-up spots too
    table = shipped_table()
    aces = replace(short, hole=tuple(parse_cards(["AS", "AH"])))
    assert rule.policy(aces) == pushfold_policy(table, read_spot(aces), aces)
    assert rule.policy(aces) == [("raise", short.max_raise, 1.0)]  # aces always push
    agree(rule, short, ALL_HOLES[::37])


def test_the_blueprints_three_answers_agree(deep_open):
    levels = Levels(context())
    rule = BlueprintRule(context())
    rule.fallback = RuleList([ThresholdRule(context(), levels)])
    assert rule.applies(deep_open)
    agree(rule, deep_open, ALL_HOLES[::29])


def test_the_threshold_law_is_certain_at_the_extremes_of_the_river(river_bet):
    """The nuts win every deal and raise; the hand that wins least folds: the Binomial law of
    the estimate has no spread at a rate of 1, and none worth an entry near 0."""
    rule = ThresholdRule(context(), Levels(context()))
    rates = holding_equity(river_bet.board).win_rate
    live = [h for h in ALL_HOLES if not set(h) & set(river_bet.board)]
    best = max(live, key=lambda h: rates[h[0], h[1]])
    worst = min(live, key=lambda h: rates[h[0], h[1]])
    assert rates[best[0], best[1]] == pytest.approx(1.0)
    top = rule.policy(replace(river_bet, hole=best))
    assert len(top) == 1 and top[0][0] == "raise"
    assert rule.policy(replace(river_bet, hole=worst)) == [("fold", 0, 1.0)]
    agree(rule, river_bet, [best, worst])


def test_defence_folds_all_but_the_minimum_defense_frequency(river_bet):
    """Facing a pot bet, the holdings that continue are the top half of those the board leaves
    (ranked among all holdings: we have not acted yet), and the fold likelihood says so."""
    rule = DefenceRule(context(), Levels(context()))
    assert rule.frequency(river_bet) == pytest.approx(0.5)
    fold = rule.likelihood(river_bet, ("fold", 0))
    live = ~blocked_mask(list(river_bet.board))
    assert fold[live].mean() == pytest.approx(0.5, abs=0.03)
    holes = ALL_HOLES[::31]
    for hole, row in zip(holes, rule.policy_table(river_bet, holes), strict=True):
        if live[holding_index(*hole)]:
            assert probability(row, ("fold", 0)) == fold[holding_index(*hole)]


def test_a_table_row_is_the_policy_asked_with_that_hole_alone(deep_open, river_bet):
    """The defence's and the threshold rule's tables read the price, the ranks and each
    level's action once for all holes, and each distinct win rate's law once; every row is
    still what the policy answers for that hole, folds, calls and value raises alike."""
    levels = Levels(context())
    for snapshot in (deep_open, river_bet):
        holes = [h for h in ALL_HOLES[::7] if not set(h) & set(snapshot.board)]
        threshold = ThresholdRule(context(), levels)
        for rule in (DefenceRule(context(), levels), threshold):
            rows = rule.policy_table(snapshot, holes)
            assert rows == [rule.policy(replace(snapshot, hole=hole)) for hole in holes]
            kinds = {name for row in rows for name, _, _ in row}
            if rule is not threshold or snapshot is river_bet:  # the study raises every hole here
                assert kinds == {"fold", "call", "raise"}


def test_multiway_pricing_decides_with_two_opponents_and_reads_no_range(scripted_hand):
    bots = scripted_hand([2000] * 3, ante=0, scripts=[["call"], ["call"], ["call"]], seed=2)
    snapshot = next(s for bot in bots for s in bot.seen if s.opponents == 2)
    rule = MultiwayRule(replace_settled(context(), Settled()), Levels(context()))
    (action,) = rule.policy(snapshot)
    assert action[2] == 1.0
    with pytest.raises(ValueError, match="heads-up"):
        rule.likelihood(snapshot, action[:2])


def test_the_solved_rivers_three_answers_agree(river_bet):
    rule = StreetSolvingRule(context(solve="river", solve_iterations=20))
    live = [h for h in ALL_HOLES[::37] if not set(h) & set(river_bet.board)]
    agree(rule, river_bet, live)
    assert rule.solver.solves == 1  # one solve served every answer


def replace_settled(context: Context, settled: Settled) -> Context:
    context.settled = settled
    return context
