"""The adaptive agent at the table: legal everywhere, learning within a session, and winning
more than cfrv2 from a bot that leaves chips on the table."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from agent.boundary.situations import make_decision
from agent.boundary.snapshot import Street
from agent.players.adaptive.player import AdaptivePlayer
from agent.players.cfrv2 import CFRv2Player
from agent.players.exploitation.response import Responder, candidate_actions
from agent.players.exploitation.shares import pot_shares
from agent.players.opponents.decisions import Earlier, Facing, Kind, Situation
from agent.players.opponents.model import LAMBDAS, OpponentModel
from agent.players.opponents.ranges import holdings_of_ranks, opening_range
from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDING_CARDS
from arena.match import MatchConfig, rows_stats
from arena.tournament.run import TournamentConfig, play_tournaments
from arena.tournament.structure import doubling_levels

UNSEEN = Path(__file__).with_name("unseen_bots.py")


def session_rows(bot: str, opponent: str, hands: int, seed: int = 0) -> tuple[MatchConfig, list]:
    config = MatchConfig(bot, opponent, hands=hands, seed=seed, session_hands=hands // 2)
    return config, config.play(list(range(hands)))


def session_result(bot: str, opponent: str, hands: int, seed: int = 0) -> float:
    return rows_stats(*session_rows(bot, opponent, hands, seed)).sb_per_hand


def test_the_same_seed_gives_the_same_hands_whatever_ran_before():
    first = session_rows("adaptive", "random", hands=40)[1]
    np.random.default_rng().random(10)  # disturb what is not ours to seed
    second = session_rows("adaptive", "random", hands=40)[1]
    strip = [{k: v for k, v in row.items() if not k.startswith("decision_ms")} for row in first]
    assert strip == [
        {k: v for k, v in r.items() if not k.startswith("decision_ms")} for r in second
    ]


def test_it_wins_far_more_than_cfrv2_from_a_calling_station():
    """Sessions of 50 hands: it has learned the station within the first few."""
    adaptive = session_result("adaptive", "fish", hands=100)
    cfrv2 = session_result("cfrv2", "fish", hands=100)
    assert adaptive > cfrv2 + 10.0, (adaptive, cfrv2)  # about +37 against +5 sb/h in long matches


def test_it_beats_a_bot_that_turns_aggressive_mid_session():
    """Sessions of 40 hands, the bot calling for 30 of them, then raising the pot: the shape
    of ``Switcher``'s 300 hands in sessions of 400 (the long match is in
    docs/results/archive/adaptive.md)."""
    switcher = f"{UNSEEN}:Switcher:after=30"
    adaptive = session_result("adaptive", switcher, hands=80)
    assert adaptive > 0.0


def test_it_is_legal_in_tournaments_with_rising_blinds_and_antes():
    bots = ("adaptive", "random", "fish", "rule-based")
    levels = doubling_levels(10, level_hands=10, ante_from_level=2, max_round=1000, chips=1000)
    config = TournamentConfig(bots, tournaments=4, seed=1, levels=levels, strict=True)
    for row in play_tournaments(config, list(range(4))):
        assert row["illegal_A"] == 0
        assert row["errors_A"] == 0
        assert row["hands"] > 0


def test_a_bet_is_worth_the_pot_against_an_opponent_who_always_folds():
    snapshot = AdaptivePlayer(seed=0).snapshot(
        *make_decision(["2c", "3d"], ["Ah", "Kh", "9s", "8d", "4c"], pot=100, stack=900)
    )
    model = OpponentModel()
    for facing in [facing for facing in Facing if facing != Facing.NONE]:
        for _ in range(100_000):
            model.count(Situation(Street.RIVER, facing), Kind.FOLD)
    weights = opening_range([*snapshot.hole, *snapshot.board])
    shares = pot_shares(snapshot.hole, snapshot.board)
    responder = Responder(snapshot, 1, weights, model, shares)
    values = {o.action: o.value for o in responder.options(candidate_actions(snapshot))}
    check = ("call", 0)
    assert values[check] < 5  # three high: almost nothing checked down
    for action, value in values.items():
        if action[0] == "raise":
            assert abs(value - 100) < 0.1  # every size wins the pot


def test_a_shown_hand_gives_every_suit_combination_of_its_ranks():
    assert len(holdings_of_ranks(12, 11, [])) == 16  # AK
    assert len(holdings_of_ranks(12, 12, [])) == 6  # AA
    assert len(holdings_of_ranks(12, 11, parse_cards(["As"]))) == 12


def test_every_option_is_a_whole_gamble_and_risk_costs_a_shove_more_than_a_call():
    snapshot = AdaptivePlayer(seed=0).snapshot(
        *make_decision(["Ah", "Qd"], ["Ac", "7h", "2s"], pot=100, stack=900)
    )
    weights = opening_range([*snapshot.hole, *snapshot.board])
    shares = pot_shares(snapshot.hole, snapshot.board)
    neutral = Responder(snapshot, 1, weights, OpponentModel(), shares)
    averse = Responder(snapshot, 1, weights, OpponentModel(), shares, aversion=2.0 / 1000)
    for option in neutral.options(candidate_actions(snapshot)):
        assert sum(p for p, _ in option.outcomes) == pytest.approx(1.0)
        assert option.worth(0.0) == pytest.approx(option.value)
    options = {o.action: o for o in averse.options(candidate_actions(snapshot))}
    check, shove = options[("call", 0)], options[("raise", snapshot.max_raise)]
    assert check.value - check.worth(averse.aversion) < shove.value - shove.worth(averse.aversion)


def test_a_call_for_less_than_the_bet_risks_only_the_chips_behind():
    # 10 chips behind facing a shove into 1,040: the call risks 10 and plays for the 500 the
    # stacks match (490 before the call), whatever the range
    snapshot = AdaptivePlayer(seed=0).snapshot(
        *make_decision(["Ac", "8h"], to_call=560, paid=240, pot=1040, stack=10)
    )
    weights = opening_range(list(snapshot.hole))
    shares = pot_shares(snapshot.hole, snapshot.board)
    responder = Responder(snapshot, 1, weights, OpponentModel(), shares, aversion=1 / 1000)
    call = responder.option(("call", 800))
    assert call.committed == 10
    assert sorted({chips for _, chips in call.outcomes}) == [-10.0, 490.0]


def seen_model(hands: int, *kinds: Kind) -> OpponentModel:
    """A model that has seen an opponent take each of ``kinds`` ``hands`` times in every
    situation."""
    model = OpponentModel()
    for street in Street:
        for facing in Facing:
            for earlier in Earlier:
                for kind in kinds:
                    for _ in range(hands):
                        model.count(Situation(street, facing, earlier), kind)
    return model


def station_model(hands: int = 500) -> OpponentModel:
    """A model that has seen an opponent check and call ``hands`` times in every situation."""
    return seen_model(hands, Kind.PASSIVE)


def start_game(player: AdaptivePlayer, stack: int, max_round: int) -> None:
    rule = {"initial_stack": stack, "small_blind_amount": 10, "ante": 0, "blind_structure": {}}
    player.receive_game_start_message({"player_num": 2, "rule": {**rule, "max_round": max_round}})


def test_a_check_wins_the_pot_from_the_hands_that_fold_to_it_so_a_bluff_gains_nothing():
    """Against a rational opponent that folds the weaker half of its range whether we check
    or bet (honest), a river check with air is worth half the pot (its folds) and a pot-sized
    bluff less: it wins the same folds and loses the pot to the callers."""
    model = OpponentModel()
    model.lambda_log[:] = np.log(1e-9)
    model.lambda_log[:, np.argmax(LAMBDAS)] = 0.0  # read as rational as the grid allows
    for facing in Facing:
        for _ in range(1000):
            model.count(Situation(Street.RIVER, facing), Kind.FOLD)
            model.count(Situation(Street.RIVER, facing), Kind.PASSIVE)
    snapshot = AdaptivePlayer(seed=0).snapshot(
        *make_decision(["4c", "2d"], ["As", "Kd", "9s", "6c", "3h"], pot=100, stack=900)
    )
    weights = opening_range([*snapshot.hole, *snapshot.board])
    shares = pot_shares(snapshot.hole, snapshot.board)
    responder = Responder(snapshot, 1, weights, model, shares)
    options = {o.action: o for o in responder.options(candidate_actions(snapshot))}
    check, bluff = options[("call", 0)], options[("raise", 100)]
    (fold_share,), (check_value,), (bluff_value,) = check.outcomes[0][0], check.value, bluff.value
    assert fold_share == pytest.approx(0.5, abs=0.02)
    assert check_value == pytest.approx(100 * fold_share, abs=1.0)  # air wins no showdown
    assert bluff_value < check_value


def test_it_is_risk_averse_only_where_the_stacks_carry_over():
    player = AdaptivePlayer(seed=0, risk=3.0, timid_risk=5.0)
    start_game(player, stack=1500, max_round=1)
    assert player.settled.aversion == 0.0  # one hand a game: the arena's cash matches
    assert player.exploiter.aversion_against(seen_model(50, Kind.FOLD, Kind.PASSIVE)) == 0.0
    start_game(player, stack=1500, max_round=300)
    assert player.settled.aversion == pytest.approx(3.0 / 1500)
    assert player.exploiter.aversion_against(OpponentModel()) == pytest.approx(
        3.0 / 1500
    )  # the prior


def test_its_aversion_rises_to_timid_risk_against_a_bot_that_folds_and_never_bets():
    player = AdaptivePlayer(seed=0, risk=1.0, timid_risk=6.0)
    start_game(player, stack=1000, max_round=300)
    seen = [
        player.exploiter.aversion_against(seen_model(n, Kind.FOLD, Kind.PASSIVE))
        for n in (0, 1, 500)
    ]
    assert seen[0] == pytest.approx(1.0 / 1000)
    # one fold and one check or call in each of the 4 x 5 x 3 situations: aggression
    # 0.25 x 5 / 125 of the decisions, folds more than a sound player's quarter
    assert seen[1] == pytest.approx((1.0 + 5.0 * (1.0 - 5.0 / 125.0)) / 1000)
    assert seen[2] == pytest.approx(6.0 / 1000, rel=1e-3)
    # a calling station never folds, a bettor bets: the aversion stays near risk
    assert player.exploiter.aversion_against(station_model()) == pytest.approx(1.0 / 1000, rel=1e-3)
    bettor = seen_model(10, Kind.FOLD, Kind.AGGRESSIVE)
    assert player.exploiter.aversion_against(bettor) == pytest.approx(1.0 / 1000)


def test_bad_risk_options_are_named():
    with pytest.raises(ValueError, match="timid_risk=-1"):
        AdaptivePlayer(seed=0, timid_risk=-1.0)


def test_in_a_tournament_it_does_not_stake_its_stack_on_top_pair_against_a_station():
    station = station_model()
    decision = make_decision(["Ah", "Td"], ["As", "8c", "5d", "3h", "2s"], pot=100, stack=900)
    chosen = {}
    for max_round in (1, 300):  # a cash game; a 1,000-chip tournament, aversion 1 per stack
        player = AdaptivePlayer(seed=0)
        start_game(player, stack=1000, max_round=max_round)
        player.book.models["p1"] = station
        chosen[max_round] = player.policy(player.snapshot(*decision))
    assert chosen[1] == [("raise", 900, 1.0)]  # all in: it wins most against a caller
    assert chosen[300] == [("raise", 100, 1.0)]  # the pot: most of the gain, less risk


@pytest.mark.parametrize("board", [[], ["As", "8c", "5d", "3h"]])
def test_its_policy_for_every_holding_at_once_is_its_policy_for_each(board):
    """``learned_policy_table`` (what local best response reads) equals ``policy`` hole by
    hole, deviations included (preflop and on the turn, where cfrv2's own law is exact)."""
    station = OpponentModel()
    for situation in [Situation(street, facing) for street in Street for facing in Facing]:
        for _ in range(300):
            station.count(situation, Kind.PASSIVE)
    player = AdaptivePlayer(seed=0)
    player.book.models["p1"] = station
    snapshot = player.snapshot(*make_decision(["Ah", "Td"], board, pot=100, stack=900))
    dead = set(snapshot.board)
    holes = [(int(a), int(b)) for a, b in HOLDING_CARDS if not {a, b} & dead]
    table = player.learned_policy_table(snapshot, holes)
    deviations = player.exploiter.deviations
    for position in range(0, len(holes), 53):
        alone = player.policy(replace(snapshot, hole=holes[position]))
        assert {(n, a): p for n, a, p in alone} == pytest.approx(
            {(n, a): p for n, a, p in table[position]}
        )
    assert (
        player.exploiter.deviations > deviations
    )  # the best response was compared, not only cfrv2


def test_a_hole_among_many_weighs_only_the_actions_it_weighs_alone():
    """Against an opponent that folds to everything, the minimum bet is the cheapest bluff
    and gains over checking. Seven-deuce does not weigh it alone: it is neither a candidate
    nor in its own mix. Beside aces, whose mix is the minimum bet, it must not weigh it
    either, or local best response, which reads every hole at once, would read a player
    that is not the one at the table."""
    folder = OpponentModel()
    for situation in [Situation(street, facing) for street in Street for facing in Facing]:
        for _ in range(300):
            folder.count(situation, Kind.FOLD)
    player = AdaptivePlayer(seed=0, margin=0.0, postflop_bias=0.0)
    player.book.models["p1"] = folder
    snapshot = player.snapshot(*make_decision(["Ah", "Td"], ["As", "8c", "5d", "3h"], pot=100))
    aces, seven_deuce = tuple(parse_cards(["Ad", "Ac"])), tuple(parse_cards(["7c", "2d"]))
    minimum = ("raise", snapshot.min_raise)
    assert minimum not in candidate_actions(snapshot)
    mixes = [[(*minimum, 1.0)], player.fixed.policy_table(snapshot, [seven_deuce])[0]]
    assert minimum not in [(name, amount) for name, amount, _ in mixes[1]]
    alone = player.exploiter.best_responses(snapshot, [seven_deuce], mixes[1:])
    together = player.exploiter.best_responses(snapshot, [aces, seven_deuce], mixes)
    assert together[1] == alone[0]


def test_once_its_budget_is_spent_it_plays_cfrv2_as_the_full_computation_would():
    """A negative budget skips the best response (local best response reads the agent fast
    once it is losing); the full computation rejects every deviation there too."""
    player = AdaptivePlayer(seed=0)
    player.book.models["p1"] = station_model()
    snapshot = player.snapshot(*make_decision(["Ah", "Td"], ["As", "8c", "5d", "3h"], pot=100))
    holes = [(int(a), int(b)) for a, b in HOLDING_CARDS[::97]]
    holes = [hole for hole in holes if not set(hole) & set(snapshot.board)]
    base = player.policy_table(snapshot, holes)
    assert player.learned_policy_table(snapshot, holes) != base  # it deviates with a budget
    player.budget.won = -int(player.exploiter.options.allowance * snapshot.big_blind) - 1
    assert player.learned_policy_table(snapshot, holes) == base
    assert player.exploiter.best_responses(snapshot, holes, base) == [None] * len(holes)


@pytest.mark.parametrize("board", [[], ["As", "8c", "5d", "3h"]])
def test_the_bias_of_its_street_decides_what_a_model_with_no_data_gains(board):
    """Against an opponent it has no data on (its model is the prior), every deviation gains
    as much against the model as against the prior: with all of that gain taken as bias it
    plays cfrv2 everywhere; with none of it after the flop it leaves cfrv2 there, never for
    an overbet or a shove, which keep the preflop bias."""
    holes = [(int(a), int(b)) for a, b in HOLDING_CARDS[::53] if not {a, b} & set(board)]
    choices = {}
    for postflop_bias in (1.0, 0.0):
        player = AdaptivePlayer(seed=0, bias=1.0, postflop_bias=postflop_bias, margin=0.0)
        player.book.models["p1"] = OpponentModel()
        snapshot = player.snapshot(*make_decision(["Ah", "Td"], board, pot=100, stack=900))
        base = player.policy_table(snapshot, holes)
        choices[postflop_bias] = player.exploiter.best_responses(snapshot, holes, base)
    assert choices[1.0] == [None] * len(holes)
    chosen = [choice for choice in choices[0.0] if choice is not None]
    assert len(chosen) == 0 if not board else len(chosen) > 0
    overbets = [amount for name, amount in chosen if name == "raise" and amount > snapshot.pot]
    assert overbets == []
    pot_bet = ("raise", snapshot.pot)
    assert player.exploiter.bias_of(snapshot, pot_bet) == (1.0 if not board else 0.0)
    assert player.exploiter.bias_of(snapshot, ("raise", snapshot.pot + 1)) == 1.0


def test_with_two_opponents_it_reads_the_bettors_range():
    """Three-handed, a pot bet on the river: cfrv2 prices jacks against random hands (0.39,
    a call), the adaptive agent against the bettor's range under a sound player's prior (a
    river bettor holds the top of its range: a fold), and against an opponent it has read
    as random (its actions say nothing of its cards) it is back to random hands."""
    decision = make_decision(
        ["Jh", "Jd"], ["As", "8c", "5d", "3h", "2s"], to_call=100, pot=200, stack=900, players=3
    )
    cfrv2 = CFRv2Player(seed=0)
    random_hands = cfrv2.fixed.multiway.win_rate(cfrv2.snapshot(*decision))
    player = AdaptivePlayer(seed=0, multiway="ranges")
    snapshot = player.snapshot(*decision)
    assert player.fixed.multiway.win_rate(snapshot) < random_hands - 0.2
    assert cfrv2.policy(snapshot) == [("call", 100, 1.0)]
    assert player.policy(snapshot) == [("fold", 0, 1.0)]
    careless = OpponentModel()
    careless.lambda_log[:] = np.where(LAMBDAS == 0.0, 0.0, -np.inf)  # read as random
    player.book.models = {"p1": careless, "p2": careless}
    assert player.fixed.multiway.win_rate(snapshot) == pytest.approx(random_hands, abs=0.02)


@pytest.mark.parametrize(("max_round", "multiway"), [(1, "share"), (100, "ranges")])
def test_by_default_it_reads_multiway_ranges_in_tournaments_only(max_round, multiway):
    player = AdaptivePlayer(seed=0)
    player.receive_game_start_message({"rule": {"initial_stack": 1000, "max_round": max_round}})
    assert player.settled.multiway == multiway
    fixed = AdaptivePlayer(seed=0, multiway="share")
    fixed.receive_game_start_message({"rule": {"initial_stack": 1000, "max_round": 100}})
    assert fixed.settled.multiway == "share"


def test_options_out_of_range_are_refused_by_name():
    for options, name in [
        ({"bias": 1.5}, "bias"),
        ({"postflop_bias": -0.5}, "postflop_bias"),
        ({"risk": -1.0}, "risk"),
        ({"margin": -0.1}, "margin"),
        ({"overbet_bias": 1.5}, "overbet_bias"),
        ({"overbet_bias": "always"}, "overbet_bias"),
    ]:
        with pytest.raises(ValueError, match=name):
            AdaptivePlayer(seed=0, **options)


def test_preflop_defence_by_the_price_is_the_adaptive_default():
    """Before any data, a 100 BB shove is called with A-T by the price (cfrv2 folds it by MDF)
    and a 3x open with 9-6 offsuit."""
    fresh = AdaptivePlayer(seed=0)
    assert fresh.settled.preflop_defense == "odds"
    shove = make_decision(["Ah", "Tc"], to_call=990, paid=10, pot=1010, stack=990)
    opened = make_decision(["9c", "6d"], to_call=20, paid=10, pot=40, stack=990)
    assert [name for name, _, _ in fresh.action_probabilities(*shove)] == ["call"]
    assert [name for name, _, _ in fresh.action_probabilities(*opened)] == ["call"]
    assert (
        AdaptivePlayer(seed=0, preflop_defense="mdf").action_probabilities(*shove)[0][0] == "fold"
    )


def test_in_a_tournament_only_what_it_learned_backs_an_overbet():
    """Where the stacks carry over, a raise of more than the pot after the flop takes all of
    its gain against the prior as bias: against an opponent it knows nothing of it never
    overbets (it bluffed its stack away at the first hand against fish), against a station it
    has seen call 500 times it still overbets for value; in a cash game the bias stays half."""
    board = ["4c", "6d", "Ts", "Ad", "7c"]
    overbets = {}
    for max_round in (1, 300):
        for name, model in (("prior", OpponentModel()), ("station", station_model())):
            player = AdaptivePlayer(seed=0)
            start_game(player, stack=1000, max_round=max_round)
            player.book.models["p1"] = model
            snapshot = player.snapshot(*make_decision(["Qs", "4s"], board, pot=300, stack=850))
            holes = [(int(a), int(b)) for a, b in HOLDING_CARDS[::7] if not {a, b} & set(board)]
            chosen = player.exploiter.best_responses(
                snapshot, holes, player.policy_table(snapshot, holes)
            )
            overbets[max_round, name] = sum(
                1 for c in chosen if c is not None and c[0] == "raise" and c[1] > snapshot.pot
            )
            expected_bias = 1.0 if max_round > 1 else player.exploiter.options.bias
            assert player.exploiter.bias_of(snapshot, ("raise", snapshot.pot + 1)) == expected_bias
    assert overbets[300, "prior"] == 0
    assert overbets[300, "station"] > 0 and overbets[1, "station"] > 0
