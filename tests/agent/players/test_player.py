"""The CFR players on small blueprints written to tmp_path, and the blueprint store."""

from __future__ import annotations

import gzip
import json
import lzma
import math
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from pypokerengine.api.game import setup_config, start_poker

import agent.players.blueprint_store as store
from agent.abstraction.strategy_file import load_strategy
from agent.boundary.policy import QuietPlayer
from agent.boundary.situations import make_decision
from agent.boundary.snapshot import Snapshot, Street, is_legal
from agent.boundary.threshold_law import binomial_tail, level_cutoffs
from agent.boundary.thresholds import STUDY_THRESHOLDS, threshold_action, win_rate
from agent.players.blueprint_store import BlueprintError, load_blueprint, read_blueprint
from agent.players.cfrv2 import CFRv2Player
from agent.players.player import CFRPlayer, CFRv1Player, CFRv2FixedPlayer
from agent.players.rules.pushfold import ALL_HOLES
from agent.players.rules.street_solving import OPPONENT
from agent.poker.cards import parse_cards
from agent.poker.equity import equity
from tests.agent.players.blueprint_files import STUDY_ROWS, write_blueprint


@pytest.fixture
def study_path(tmp_path):
    return write_blueprint(tmp_path / "study.csv.gz", STUDY_ROWS)


@pytest.fixture
def tiny(tmp_path):
    """A one-row blueprint, for tests of the threshold rule."""
    return read_blueprint(
        write_blueprint(tmp_path / "tiny.csv", {"AA": {"fold": 0.0, "call": 1.0}})
    )


class Scripted(QuietPlayer):
    """Plays a shared script of (action, amount); when it runs out, records the decision."""

    def __init__(self, script: list, captured: list) -> None:
        self.script, self.captured = script, captured

    def declare_action(self, valid_actions, hole_card, round_state):
        if not self.script:
            if not self.captured:
                self.captured.append((valid_actions, round_state, self.uuid))
            return "fold", 0
        return self.script.pop(0)


def capture(script: list, ante: int = 0, stack: int = 1000):
    """(valid_actions, round_state, uuid) of the heads-up decision after ``script``."""
    captured: list = []
    config = setup_config(max_round=1, initial_stack=stack, small_blind_amount=5, ante=ante)
    shared = list(script)
    config.register_player("a", Scripted(shared, captured))
    config.register_player("b", Scripted(shared, captured))
    start_poker(config, verbose=0)
    return captured[0]


def policy_of(player: CFRPlayer, decision, hole: list[str]):
    valid_actions, round_state, uuid = decision
    player.uuid = uuid
    return player.action_probabilities(valid_actions, hole, round_state)


def test_the_agent_raises_where_the_blueprint_raises_with_certainty(study_path):
    player = CFRv2Player(study_path, seed=1)
    first = capture([])  # the small blind's first decision
    assert policy_of(player, first, ["SA", "SK"]) == [("raise", 15, 1.0)]
    valid_actions, round_state, _uuid = first
    for seed in range(20):
        player.rng = np.random.default_rng(seed)
        assert player.declare_action(valid_actions, ["HA", "HK"], round_state) == ("raise", 15)
    assert policy_of(player, first, ["C7", "D2"]) == [("fold", 0, 1.0)]
    after_limp = capture([("call", 10)])  # the big blind's option
    # PyPokerEngine's minimum raise-to after a limp is still BB + SB = 15
    assert policy_of(player, after_limp, ["SQ", "HQ"]) == [("raise", 15, 1.0)]


def test_a_bucketed_blueprint_reads_every_hole_on_a_flop_of_trips(tmp_path):
    """Our range on A-A-A asks the k-means flop table about all 1,326 holes; the ones that
    hold a flop card cannot be dealt, and once crashed the lookup (two turn decisions in
    60,000 hands fell back to check/fold)."""
    path = write_blueprint(
        tmp_path / "km.csv", {"AA": {"fold": 0.0, "call": 1.0}}, "sizes", "km500"
    )
    player = CFRv2Player(path, seed=0)
    valid_actions, round_state, uuid = capture([("call", 10), ("call", 10)])
    player.uuid = uuid
    flop = player.snapshot(valid_actions, ["S2", "D7"], round_state)
    trips = replace(flop, board=tuple(parse_cards(["Ac", "Ah", "As"])))
    table = player.policy_table(trips, ALL_HOLES)
    assert len(table) == 1326
    assert all(math.isclose(sum(p for _, _, p in row), 1.0) for row in table)


def test_flop_key_uses_the_trainers_label(study_path):
    """After limp and check, AKs on an A-K-5 flop is 'AKs AK5 cc': bet the big blind."""
    player = CFRv2Player(study_path, seed=1)
    valid_actions, round_state, uuid = capture([("call", 10), ("call", 10)])
    round_state = {**round_state, "community_card": ["HA", "DK", "C5"]}
    assert policy_of(player, (valid_actions, round_state, uuid), ["SA", "SK"]) == [
        ("raise", 10, 1.0)
    ]


def test_pot_sized_raise_is_priced_on_the_real_pot(tmp_path):
    path = write_blueprint(
        tmp_path / "sizes.csv.gz",
        {"AKs": {"fold": 0.0, "call": 0.0, "raise_half": 0.0, "raise_pot": 1.0}},
        spec="half,pot,allin:2",
    )
    player = CFRv1Player(path, seed=0)
    # blinds 5/10: pot after calling 20 -> raise to 10 + 20 = 30
    assert policy_of(player, capture([]), ["SA", "SK"]) == [("raise", 30, 1.0)]
    # antes of 5 each: pot 25 + 5 owed = 30 -> raise to 10 + 30 = 40
    assert policy_of(player, capture([], ante=5), ["SA", "SK"]) == [("raise", 40, 1.0)]
    # a 25-chip stack: the pot raise (to 30) is clamped to the all-in (20 behind + 5 posted)
    assert policy_of(player, capture([], stack=25), ["SA", "SK"]) == [("raise", 25, 1.0)]


def test_missing_info_set_falls_back_to_the_thresholds(study_path):
    player = CFRv2FixedPlayer(study_path, sizing="study", rule="study", seed=2)
    valid_actions, round_state, uuid = capture([])
    player.uuid = uuid
    snapshot = player.snapshot(valid_actions, ["ST", "S9"], round_state)
    assert player.policy(snapshot) == player.fixed.threshold.policy(snapshot)
    assert player.last_decision.rule == "blueprint"
    assert player.last_decision.detail == "no row for T9s; 100% by threshold"
    # T9s wins or ties 54% preflop: above .20, so rule=study raises to twice the minimum
    assert player.policy(snapshot) == [("raise", 30, pytest.approx(1.0))]


def test_binomial_law_matches_the_studys_simulated_rule(tiny):
    """CFRv1's turn policy is the distribution of the 50-simulation threshold decision."""
    valid, hole, state = make_decision(["Ah", "7h"], ["Kh", "9h", "2c", "3d"], to_call=20, pot=60)
    player = CFRv1Player(tiny, sizing="study", rule="study", seed=0)
    snapshot = Snapshot.from_ppe(valid, hole, state, "p0")
    policy = {(name, amount): p for name, amount, p in player.policy(snapshot)}
    rng = np.random.default_rng(11)
    draws = 4000
    counts = Counter(
        threshold_action(win_rate(equity(hole, snapshot.board, 1, 50, rng)), snapshot)
        for _ in range(draws)
    )
    assert set(counts) <= set(policy)
    for action, probability in policy.items():
        assert counts[action] / draws == pytest.approx(probability, abs=0.03)
    assert len(policy) >= 2  # a flush draw near the turn thresholds: CFRv1 mixes


def test_cfrv2_is_nearly_deterministic_on_the_river(tiny):
    valid, hole, state = make_decision(["Ah", "Ad"], ["Ac", "Kd", "2c", "7h", "9s"], to_call=0)
    player = CFRv2FixedPlayer(tiny, sizing="study", rule="study", seed=0)
    policy = player.policy(Snapshot.from_ppe(valid, hole, state, "p0"))
    assert policy == [("raise", 20, pytest.approx(1.0))]  # three aces: raise twice the minimum


def test_pot_sizing_bets_the_pot_with_the_nuts(tiny):
    valid, hole, state = make_decision(["Ah", "Ad"], ["Ac", "Kd", "2c", "7h", "9s"], pot=60)
    player = CFRv2FixedPlayer(tiny, sizing="pot", seed=0)
    assert player.policy(Snapshot.from_ppe(valid, hole, state, "p0")) == [
        ("raise", 60, pytest.approx(1.0))
    ]
    with pytest.raises(ValueError, match="sizing='huge'"):
        CFRv2FixedPlayer(tiny, sizing="huge")


def test_several_opponents_use_the_adjusted_thresholds(tiny):
    for players in (3, 6, 10):
        valid, hole, state = make_decision(["Qs", "Qh"], ["Qd", "7c", "2h"], players=players)
        player = CFRv2Player(tiny, seed=players)
        snapshot = Snapshot.from_ppe(valid, hole, state, "p0")
        (name, amount, probability), *rest = player.policy(snapshot)
        assert not rest and probability == 1.0 and is_legal(snapshot, (name, amount))
        assert name == "raise"  # a set of queens beats several random hands


def test_level_cutoffs_and_binomial_tail():
    assert level_cutoffs(10_000, Street.RIVER, 1, STUDY_THRESHOLDS) == (7001, 8001, 9001)
    assert level_cutoffs(50, Street.TURN, 1, STUDY_THRESHOLDS) == (21, 24, 24)
    assert binomial_tail(3, 0.5, 2) == pytest.approx(0.5)
    assert binomial_tail(10_000, 0.7, 7001) == pytest.approx(0.5, abs=0.01)
    for trials, p, k in ((50, 0.43, 21), (50, 0.43, 24), (200, 0.9, 181), (400, 0.02, 5)):
        exact = sum(
            math.comb(trials, j) * p**j * (1 - p) ** (trials - j) for j in range(k, trials + 1)
        )
        assert binomial_tail(trials, p, k) == pytest.approx(exact, abs=1e-12)


def test_constructors_setup_ai_and_lazy_exports(study_path, monkeypatch):
    monkeypatch.setattr(store, "default_blueprint_path", lambda: study_path)
    import agent
    from agent.players import cfrv1, cfrv2

    assert agent.CFRv1Player is CFRv1Player and agent.CFRv2Player is CFRv2Player
    v1, v2 = CFRv1Player(), CFRv2Player(seed=3)
    assert (v1.strategy.threshold.simulations, v2.strategy.threshold.simulations) == (50, 10_000)
    assert v1.blueprint is v2.blueprint  # loaded once per process, shared
    assert isinstance(cfrv1.setup_ai(), CFRv1Player)
    assert cfrv2.setup_ai(solve_iterations=50).strategy.solving.solve_iterations == 50
    generator = np.random.default_rng(5)
    assert CFRv2Player(rng=generator, seed=9).rng is generator
    with pytest.raises(ValueError, match="simulations=0"):
        CFRv2FixedPlayer(simulations=0)
    assert cfrv2.setup_ai(solve="turn", solve_iterations=40).fixed.solving.solver.iterations == 40
    assert cfrv1.setup_ai(solve="river").fixed.solving.solver.iterations == 100
    with pytest.raises(ValueError, match="solve_iterations=0"):
        CFRv2Player(solve="turn", solve_iterations=0)


def test_cfrv2_solves_off_the_tree_by_default_and_cfrv1_keeps_the_study_rules():
    from agent.players import cfrv1, cfrv2

    for player in (CFRv2Player(), cfrv2.setup_ai()):
        solver = player.fixed.solving.solver
        assert (
            player.fixed.solving.only_off_tree
            and player.fixed.solving.streets
            and player.fixed.solving.depth == 75
        )
        assert (solver.iterations, solver.gadget_player) == (30, OPPONENT)
    assert (
        CFRv1Player().fixed.solving.solver is None and cfrv1.setup_ai().fixed.solving.solver is None
    )
    assert CFRv2Player(solve="off").fixed.solving.solver is None
    assert not CFRv2Player(solve="off").fixed.solving.streets
    off_tree = CFRv2Player(solve="off-tree")  # at every depth, with the same defaults
    assert off_tree.fixed.solving.depth == 0 and off_tree.fixed.solving.solver.iterations == 30
    turn = CFRv2Player(solve="turn").fixed.solving.solver  # the other modes keep their defaults
    assert (turn.iterations, turn.gadget_player) == (100, None)
    chosen = CFRv2Player(gadget=False, solve_iterations=100).fixed.solving.solver
    assert (chosen.iterations, chosen.gadget_player) == (100, None)
    with pytest.raises(ValueError, match="solve='on'"):
        CFRv2Player(solve="on")


def test_a_four_street_blueprint_plays_every_street_with_no_solve_by_default():
    streets = CFRv2Player(blueprint="streets")
    assert streets.blueprint.game.rounds == 4 and streets.strategy.solving.solve == "off"
    assert streets.fixed.solving.solver is None
    assert CFRv2Player(blueprint="streets", solve="auto").fixed.solving.solver is not None
    assert CFRv2Player().strategy.solving.solve == "auto"  # the min-raise blueprint's default


def test_missing_default_blueprint_names_the_file_and_the_command(tmp_path, monkeypatch):
    missing = tmp_path / "data" / "blueprint.csv.gz"
    monkeypatch.setattr(store, "default_blueprint_path", lambda: missing)
    with pytest.raises(BlueprintError, match="blueprint train") as error:
        CFRv2Player()
    assert str(missing) in str(error.value)


def test_store_round_trip_and_lookup(study_path):
    blueprint = load_blueprint(study_path)
    assert blueprint.rows == len(STUDY_ROWS)
    assert load_blueprint(study_path) is blueprint
    assert blueprint.lookup("AKs").tolist() == [0.0, 0.0, 1.0]
    assert blueprint.lookup("QQ c").tolist() == [0.0, 0.0, 1.0]  # fold unavailable: 0
    assert blueprint.lookup("AKs c") is None and blueprint.lookup("x" * 40) is None
    rows = blueprint.lookup_many(["72o", "nope", "AKs AK5 ccc"])
    assert rows[1] == -1 and blueprint.probabilities[rows[0]].tolist() == [1.0, 0.0, 0.0]
    assert blueprint.probabilities[rows[2]].tolist() == [0.0, 0.0, 1.0]


def test_named_blueprints(monkeypatch, tmp_path):
    """ "study" is the shipped min-raise blueprint, "sizes" the shipped pot-relative one;
    where an installation lacks it, asking for it names the command that rebuilds it."""
    assert store.resolve_blueprint_path("study") == store.default_blueprint_path()
    assert store.resolve_blueprint_path(None) == store.default_blueprint_path()
    assert store.resolve_blueprint_path(tmp_path / "x.csv") == tmp_path / "x.csv"
    assert store.resolve_blueprint_path("sizes").name == "blueprint_sizes.csv.xz"
    monkeypatch.setattr(store, "SIZES_NAMES", ("not_built_here.csv.gz",))
    with pytest.raises(BlueprintError, match="--abstraction km500 --actions sizes"):
        CFRv2Player("sizes")


def test_store_matches_the_trainers_reader_on_random_rows(tmp_path):
    rng = np.random.default_rng(4)
    cards = rng.choice(list("AKQJT98"), (300, 3))
    lengths = rng.integers(0, 9, 300)
    keys = {f"{c}{d} {k}{'c' * int(n)}" for (c, d, k), n in zip(cards, lengths, strict=True)}
    rows = {
        key: dict(zip(["fold", "call", "raise_min"], p.round(3), strict=True))
        for key, p in zip(sorted(keys), rng.dirichlet([1, 1, 1], len(keys)), strict=True)
    }
    for key in rows:  # make each row sum to exactly 1 at three decimals
        rows[key]["raise_min"] = round(1 - rows[key]["fold"] - rows[key]["call"], 3)
    path = write_blueprint(tmp_path / "random.csv", rows)
    blueprint = read_blueprint(path)
    for key, probs in rows.items():
        assert blueprint.lookup(key).tolist() == pytest.approx(list(probs.values()), abs=1e-6)


def test_corrupt_files_are_reported_with_the_file_name(tmp_path, study_path):
    broken = tmp_path / "broken.csv.gz"
    broken.write_bytes(b"not gzip at all")
    broken.with_name("broken.json").write_text(study_path.with_name("study.json").read_text())
    with pytest.raises(BlueprintError, match=r"broken.csv.gz.*cannot be read"):
        read_blueprint(broken)
    bad_rows = tmp_path / "bad.csv.gz"
    bad_rows.write_bytes(gzip.compress(b"info_set,fold,call,raise_min\nAKs,0.5,0.5,0.5\n"))
    good_row = gzip.compress(b"info_set,fold,call,raise_min\nAKs,0.5,0.5,0.0\n")
    meta = json.loads(study_path.with_name("study.json").read_text())
    bad_rows.with_name("bad.json").write_text(json.dumps({**meta, "rows": 1}))
    with pytest.raises(BlueprintError, match=r"bad.csv.gz.*not a distribution"):
        read_blueprint(bad_rows)
    bad_rows.write_bytes(good_row)
    bad_rows.with_name("bad.json").write_text(json.dumps({**meta, "rows": 2}))
    with pytest.raises(BlueprintError, match="sidecar says 2"):
        read_blueprint(bad_rows)
    command = "blueprint train --iterations 9 --out raw.csv.gz"  # the sidecar's own command
    bad_rows.with_name("bad.json").write_text(json.dumps({**meta, "rows": 2, "command": command}))
    with pytest.raises(BlueprintError, match=f"regenerate it with `{command}`"):
        read_blueprint(bad_rows)
    no_sidecar = tmp_path / "lonely.csv"
    no_sidecar.write_text("info_set,fold,call,raise_min\n")
    with pytest.raises(BlueprintError, match=r"lonely.csv.*no sidecar.*blueprint train"):
        read_blueprint(no_sidecar)
    wrong_columns = tmp_path / "cols.csv"
    wrong_columns.write_text("info_set,fold,call\nAKs,0.5,0.5\n")
    wrong_columns.with_name("cols.json").write_text(json.dumps({**meta, "rows": 1}))
    with pytest.raises(BlueprintError, match=r"cols.csv.*columns"):
        read_blueprint(wrong_columns)


def test_xz_files_read_as_their_gzip_twins_and_a_broken_one_is_named(tmp_path, study_path):
    mixed = {"fold": 0.25, "call": 0.5, "raise_min": 0.25}
    rows = {f"{a}{b}o": mixed for a in "AKQ" for b in "JT9"} | STUDY_ROWS
    gz = read_blueprint(write_blueprint(tmp_path / "twin.csv.gz", rows))
    xz_path = write_blueprint(tmp_path / "twin.csv.xz", rows)
    assert xz_path.read_bytes()[:6] == b"\xfd7zXZ\x00"  # really xz
    xz = read_blueprint(xz_path)
    assert xz.hashes.tolist() == gz.hashes.tolist()
    assert np.array_equal(xz.probabilities, gz.probabilities)
    assert load_strategy(xz_path).frame.equals(load_strategy(tmp_path / "twin.csv.gz").frame)
    broken = tmp_path / "cut.csv.xz"
    broken.write_bytes(xz_path.read_bytes()[:40])  # truncated mid-stream
    broken.with_name("cut.json").write_text(xz_path.with_name("twin.json").read_text())
    with pytest.raises(BlueprintError, match=r"cut.csv.xz.*cannot be read"):
        read_blueprint(broken)


def test_a_bad_row_late_in_a_large_file_is_reported_while_reading_ahead(tmp_path, study_path):
    """Blocks are decompressed on a thread ahead of the parser: an error in any block (here
    the third of 1 MB blocks) stops the read with the row's number."""
    header = b"info_set,fold,call,raise_min\n"
    good = b"".join(b"K%07d,0.5,0.5,0.0\n" % i for i in range(150_000))
    path = tmp_path / "late.csv.xz"
    path.write_bytes(lzma.compress(header + good + b"BAD,0.9,0.9,0.9\n"))
    meta = json.loads(study_path.with_name("study.json").read_text())
    path.with_name("late.json").write_text(json.dumps({**meta, "rows": 150_001}))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "BLOCK_BYTES", 1 << 20)
        with pytest.raises(BlueprintError, match="data row 150001 is not a distribution"):
            read_blueprint(path)


def test_the_shipped_pot_relative_blueprint_loads_by_name():
    sizes = load_blueprint("sizes")
    assert sizes.actions.names == ("fold", "call", "raise_half", "raise_pot", "raise_allin")
    assert sizes.rows == sizes.meta["rows"] == 653_178
    assert np.allclose(sizes.probabilities.sum(axis=1), 1.0, atol=5 * 1e-3)


def test_same_seed_same_actions_whatever_the_global_generators(study_path):
    import random

    decisions = [capture([]), capture([("call", 10)]), capture([("raise", 40)])]
    decisions += [
        (*make_decision(["Ah", "7h"], ["Kh", "9h", "2c", "3d"], to_call=20, pot=60)[::2], "p0"),
        (*make_decision(["Qs", "Jh"], ["Qd", "7c", "2h"], players=4)[::2], "p0"),
    ]
    holes = [["HA", "H7"], ["ST", "S9"], ["C8", "D8"], ["HA", "H7"], ["SQ", "HJ"]]

    def run(seed: int) -> list:
        player = CFRv1Player(study_path, seed=seed)  # default sizing
        actions = []
        for (valid_actions, round_state, uuid), hole in zip(decisions * 4, holes * 4, strict=True):
            player.uuid = uuid
            actions.append(player.declare_action(valid_actions, hole, round_state))
        return actions

    first = run(7)
    random.seed(99)
    np.random.seed(99)
    np.random.random(1000)
    assert run(7) == first
    assert len(set(map(tuple, first))) > 3


SHOVE_ROWS = {  # the big blind facing the small blind's raise, read as a min-raise ("r")
    "72o r": {"fold": 0.0, "call": 1.0, "raise_min": 0.0},
    "AA r": {"fold": 0.0, "call": 1.0, "raise_min": 0.0},
}


def test_an_all_in_leaves_the_blueprint_under_the_mdf_rule(tmp_path):
    path = write_blueprint(tmp_path / "shove.csv.gz", SHOVE_ROWS)
    shove = capture([("raise", 1000)])  # 100 BB into 15 chips: MDF = 20 / 1010, about 2%
    study = CFRv2FixedPlayer(path, rule="study", seed=0)
    mdf = CFRv2Player(path, seed=0)
    assert mdf.strategy.defence.rule == "mdf"
    # rule=study reads the shove as a min-raise and calls it as the blueprint says
    assert policy_of(study, shove, ["C7", "D2"]) == [("call", 1000, 1.0)]
    assert policy_of(mdf, shove, ["C7", "D2"]) == [("fold", 0, 1.0)]
    assert policy_of(mdf, shove, ["SA", "HA"]) == [("call", 1000, pytest.approx(1.0))]


def test_an_on_tree_min_raise_keeps_the_blueprint_under_the_mdf_rule(tmp_path):
    path = write_blueprint(tmp_path / "shove.csv.gz", SHOVE_ROWS)
    min_raise = capture([("raise", 15)])
    assert policy_of(CFRv2Player(path, seed=0), min_raise, ["C7", "D2"]) == [("call", 15, 1.0)]


def test_mdf_rule_on_the_river_continues_with_the_mdf_share_of_holdings(tiny):
    board = ["2c", "7d", "9h", "Js", "Kc"]
    valid, hole, state = make_decision(["Ah", "Ad"], board, to_call=100, pot=300)
    player = CFRv2Player(tiny, seed=0)
    base = Snapshot.from_ppe(valid, hole, state, "p0")
    dead = set(base.board)
    holdings = [(a, b) for a in range(52) for b in range(a + 1, 52) if not {a, b} & dead]
    folds = 0
    for a, b in holdings:
        policy = player.policy(replace(base, hole=(a, b)))
        assert all(is_legal(base, (name, amount)) for name, amount, _ in policy)
        folds += sum(p for name, _, p in policy if name == "fold")
    # a bet of 100 into 200: defend 2/3 of the holdings
    assert 1 - folds / len(holdings) == pytest.approx(2 / 3, abs=0.01)
    # rule=study calls any river bet with a win rate above .70: about 30% of holdings
    study = CFRv2FixedPlayer(tiny, rule="study", seed=0)
    calls = sum(
        p
        for a, b in holdings
        for name, _, p in study.policy(replace(base, hole=(a, b)))
        if name != "fold"
    )
    assert calls / len(holdings) < 0.45


def test_unknown_rule_is_rejected(tiny):
    with pytest.raises(ValueError, match="rule='loose'"):
        CFRv2FixedPlayer(tiny, rule="loose")


@pytest.mark.parametrize("rule", ["study", "mdf"])
def test_policy_table_equals_the_policy_holding_by_holding(study_path, rule):
    player = CFRv2FixedPlayer(study_path, rule=rule, seed=0)
    scripts = ([], [("raise", 15)], [("raise", 400)], [("call", 10), ("call", 10)])
    for script in scripts:
        valid_actions, round_state, uuid = capture(script)
        player.uuid = uuid
        base = player.snapshot(valid_actions, ["SA", "SK"], round_state)
        holes = [(a, b) for a in range(0, 52, 3) for b in range(a + 1, 52, 5)]
        holes = [hole for hole in holes if not set(hole) & set(base.board)]
        table = player.policy_table(base, holes)
        if base.street == Street.PREFLOP:
            assert table == [player.policy(replace(base, hole=hole)) for hole in holes]
        else:  # the flop's law is exact in the table, simulated in a single decision
            assert table == [player.policy_table(base, [hole])[0] for hole in holes]


def test_a_flop_decision_samples_the_law_policy_table_gives(study_path):
    player = CFRv1Player(study_path, rule="study", seed=5)  # 50 simulations: a mixed decision
    valid_actions, round_state, uuid = capture([("call", 10), ("call", 10)])
    player.uuid = uuid
    base = player.snapshot(valid_actions, ["S9", "S8"], round_state)
    hole = next(
        (a, b)
        for a in range(52)
        for b in range(a + 1, 52)
        if not {a, b} & set(base.board) and len(player.policy_table(base, [(a, b)])[0]) >= 2
    )
    law = {(n, m): p for n, m, p in player.policy_table(base, [hole])[0]}
    draws = 1500
    counts = Counter(
        (name, amount)
        for _ in range(draws)
        for name, amount, _ in player.policy(replace(base, hole=hole))
    )
    assert set(counts) <= set(law)
    for action, probability in law.items():
        assert counts[action] / draws == pytest.approx(probability, abs=0.04)
