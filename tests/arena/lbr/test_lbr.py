"""Local best response: known answers against bots whose policies are known exactly.

Always-fold (fold to any bet, check when free) loses 750 mbb/g to LBR with bets and 250 with
fold/call only (Lisy & Bowling 2017). PyPokerEngine's heads-up order puts the big blind on
the button, so the seat figures swap against the literature's (where the button posts the
small blind), but the averages over the rotation are the same: the small blind still acts
first preflop. Here the bot loses 1000 mbb on the button (LBR, in the small blind, raises;
fold/call only: LBR limps and the hand is checked down, 0 in expectation) and 500 off it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import arena.match
from agent.poker.cards import parse_cards
from agent.poker.equity import preflop_equity
from agent.poker.range_equity import HOLDING_CARDS, blocked_mask, range_equity
from agent.poker.rng import mix_seed
from arena.commands.cli import main
from arena.lbr.match import LBRConfig, lbr_table, run_lbr
from arena.lbr.player import LBRPlayer, call_value, parse_bets, raise_targets, raise_value
from arena.registry import make_bot, parse_bot_spec
from arena.results import HANDS_FILE, read_hands
from arena.seeding import deal_deck

BOTS = Path(__file__).with_name("lbr_bots.py")
ALWAYS_FOLD = f"{BOTS}:AlwaysFold"
PAIR_RAISER = f"{BOTS}:PairRaiser"
FAST = {"preflop_samples": 200}


def lbr_match(tmp_path: Path, bot: str, bets: str, hands: int, **options) -> dict:
    config = LBRConfig(bot, parse_bets(bets), preflop_samples=200, **options)
    return run_lbr(config, hands, seed=5, out_dir=tmp_path / "out", workers=1)


def test_always_fold_loses_750_mbb_per_hand_with_bets(tmp_path: Path) -> None:
    summary = lbr_match(tmp_path, ALWAYS_FOLD, "0.5,1,allin", 40)
    assert summary["lbr_mbb_per_hand"] == pytest.approx(750.0)
    rows = read_hands(tmp_path / "out" / HANDS_FILE)
    for row in rows:  # seat 0 is the button, which posts the big blind in PyPokerEngine
        assert row["won_A"] == (5 if row["seats"].startswith("A") else 10)
    assert summary["lbr_bets"] == "0.5,1,allin"
    assert summary["illegal_actions"] == {"lbr": 0, "AlwaysFold": 0}


def test_always_fold_loses_250_mbb_per_hand_with_fold_call_only(tmp_path: Path) -> None:
    summary = lbr_match(tmp_path, ALWAYS_FOLD, "none", 60, model=None)
    rows = read_hands(tmp_path / "out" / HANDS_FILE)
    folded = [row["won_A"] for row in rows if row["seats"].startswith("A")]
    checked_down = np.array([row["won_A"] for row in rows if row["seats"].startswith("B")])
    assert folded == [5] * 30  # the bot in the small blind folds at once
    assert "RAISE" not in "".join(row["actions"] for row in rows)
    assert set(np.abs(checked_down)) <= {0, 10}  # limped pots of 20 chips checked down
    # a checked-down pot is 0 in expectation: the mean is within 3 standard errors of 0,
    # so the match is within noise of 250 mbb/g
    error = checked_down.std(ddof=1) / np.sqrt(len(checked_down))
    assert abs(checked_down.mean()) < 3 * error
    assert summary["lbr_mbb_per_hand"] == pytest.approx(250 + 50 * checked_down.mean())


def test_lbr_crushes_fish(tmp_path: Path) -> None:
    summary = lbr_match(tmp_path, "fish", "0.5,1,allin", 60)
    # Fish's worst result in da Luz's Table 2 (cited in agent.boundary.thresholds) is -6.08 sb/h,
    # small blinds a hand (-3040 mbb/g, milli-big-blinds a game, against rule-based).
    assert summary["lbr_mbb_per_hand"] - summary["lbr_ci95_mbb_per_hand"] > 3040


def test_a_raise_from_a_pair_raiser_leaves_only_pairs_in_the_range() -> None:
    bot = make_bot(parse_bot_spec(PAIR_RAISER), seed=0)
    lbr = LBRPlayer(make_bot(parse_bot_spec(PAIR_RAISER), seed=1), (), seed=2, **FAST)
    table = lbr_table(lbr, bot)  # the model is sent the bot's messages, under its uuid
    raised = 0
    for hand in range(6):
        deck = deal_deck(mix_seed(9, hand))
        result = table.play(deck, "A", mix_seed(10, hand))  # the bot is in the small blind
        if "B:RAISE" not in result.actions:
            continue
        raised += 1
        weights = lbr.range.weights
        live = HOLDING_CARDS[weights > 0]
        assert (live[:, 0] // 4 == live[:, 1] // 4).all()  # pairs only
        assert weights.sum() == pytest.approx(1.0)
        dead = lbr.hole + [int(parse_cards([c])[0]) for c in lbr.last_state["community_card"]]
        assert not weights[blocked_mask(dead)].any()
        assert np.ptp(weights[weights > 0]) < 1e-12  # equally likely pairs
    assert raised > 0


def test_values_of_call_and_raise() -> None:
    assert call_value(1.0, 15, 5) == 15.0  # win the 20-chip pot after adding 5
    assert call_value(0.0, 15, 5) == -5.0
    assert raise_value(0.3, 0.5, 20, 30, 80) == pytest.approx(0.5 * 20 + 0.5 * (0.3 * 80 - 30))
    assert raise_targets(("allin",), 10, 20, -1 + 16, 15) == [15]


def test_same_seed_same_hands_for_one_or_two_workers(tmp_path: Path, monkeypatch) -> None:
    # tasks of 4 hands, not the arena's 100: 14 hands are 4 tasks, the last one short
    monkeypatch.setattr(arena.match, "CHUNK_HANDS", 4)
    config = LBRConfig(PAIR_RAISER, parse_bets("allin"), preflop_samples=100)
    one = run_lbr(config, 14, seed=1, out_dir=tmp_path / "one", workers=1)
    two = run_lbr(config, 14, seed=1, out_dir=tmp_path / "two", workers=2)
    first = [(r["actions"], r["won_A"]) for r in read_hands(tmp_path / "one" / HANDS_FILE)]
    second = [(r["actions"], r["won_A"]) for r in read_hands(tmp_path / "two" / HANDS_FILE)]
    assert first == second and len(first) == 14
    assert any("B:RAISE" in actions for actions, _ in first)  # the pair raiser's range moved
    assert one["lbr_mbb_per_hand"] == two["lbr_mbb_per_hand"]


def test_cli_writes_the_summary_and_rejects_bad_bets(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "cli"
    args = ["lbr", ALWAYS_FOLD, "--hands", "4", "--workers", "1", "--out", str(out)]
    result = runner.invoke(main, [*args, "--bets", "1,allin", "--no-progress"])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["lbr_bets"] == "1,allin"
    assert summary["lbr_mbb_per_hand"] == 750.0
    assert "preflop" in summary["lbr_decision_ms_by_street"]
    bad = runner.invoke(main, ["lbr", "fish", "--bets", "half", "--out", str(tmp_path / "x")])
    assert bad.exit_code != 0 and "'half'" in bad.output


def pairs_from(rank: int) -> np.ndarray:
    """Weights 1 on every pocket pair of ``rank`` (0 = deuces ... 12 = aces) or better."""
    ranks = HOLDING_CARDS // 4
    return ((ranks[:, 0] == ranks[:, 1]) & (ranks[:, 0] >= rank)).astype(np.float64)


def seated_lbr(hole: list[str], weights: np.ndarray | None = None, **options) -> LBRPlayer:
    lbr = LBRPlayer(make_bot(parse_bot_spec("fish"), seed=1), (), seed=2, **options)
    lbr.hole = parse_cards(hole)
    if weights is not None:
        lbr.range.weights = weights / weights.sum()
    return lbr


PREFLOP = {"community_card": []}


def test_the_untouched_range_shortcut_needs_every_unblocked_holding() -> None:
    # A range spread evenly over JJ+ only is not the untouched range: 7c2d has about 12%
    # against it (sampled boards), not its 34% against a random hand (what the
    # shortcut for the untouched range would give).
    jacks_up = pairs_from(9)
    truth = range_equity(["7c", "2d"], [], jacks_up, samples=5000, rng=np.random.default_rng(3))
    lbr = seated_lbr(["7c", "2d"], jacks_up, preflop_samples=5000)
    assert lbr.equity(PREFLOP) == pytest.approx(truth, abs=0.015)
    assert truth == pytest.approx(0.123, abs=0.01)
    # the untouched range (uniform over every holding the hole cards leave) uses the table
    untouched_range = seated_lbr(["As", "Ad"], 1.0 - blocked_mask(parse_cards(["As", "Ad"])))
    assert untouched_range.equity(PREFLOP) == pytest.approx(preflop_equity(["As", "Ad"]).share)
    assert untouched_range.equity(PREFLOP) == pytest.approx(0.852, abs=0.003)


def test_a_hands_preflop_ranges_are_valued_on_one_sample_of_boards() -> None:
    jacks_up = pairs_from(9)
    lbr = seated_lbr(["7c", "2d"], jacks_up, preflop_samples=400)
    first = lbr.equity(PREFLOP)
    assert first == pytest.approx(0.123, abs=0.04)
    lbr.equity(PREFLOP, pairs_from(0))  # another range of the same hand: the same boards
    assert lbr.equity(PREFLOP) == first
    lbr.receive_round_start_message(2, ["7c", "2d"], [])  # a new hand draws new boards
    lbr.range.weights = jacks_up / jacks_up.sum()
    again = lbr.equity(PREFLOP)
    assert again != first and again == pytest.approx(0.123, abs=0.04)


def test_a_called_bet_is_valued_against_the_hands_that_call() -> None:
    hole = ["7c", "2d"]
    start = 1.0 - blocked_mask(parse_cards(hole))
    holdings = np.flatnonzero(start > 0)
    folds = 1.0 - pairs_from(9)[holdings]  # everything folds but JJ+
    continuing = seated_lbr(hole, start, preflop_samples=2000)
    whole = seated_lbr(hole, start, value="whole")
    wp = continuing.equity(PREFLOP)
    assert wp == pytest.approx(preflop_equity(hole).share)
    assert whole.called_equity(PREFLOP, holdings, folds, wp) == wp
    assert continuing.called_equity(PREFLOP, holdings, folds, wp) == pytest.approx(0.123, abs=0.02)


def test_rounds_3_4_checks_or_calls_preflop_and_flop_and_still_wins_750(tmp_path: Path) -> None:
    summary = lbr_match(tmp_path, ALWAYS_FOLD, "1,allin", 40, rounds="3-4")
    assert summary["lbr_mbb_per_hand"] == pytest.approx(750.0)
    assert (summary["lbr_rounds"], summary["lbr_value"]) == ("3-4", "continuing")
    for row in read_hands(tmp_path / "out" / HANDS_FILE):
        early = [s for s in row["actions"].split(";") if s.startswith(("preflop", "flop"))]
        assert "A:RAISE" not in " ".join(early)


def test_bad_value_or_rounds_are_refused() -> None:
    with pytest.raises(ValueError, match="value='all'"):
        seated_lbr(["7c", "2d"], value="all")
    result = CliRunner().invoke(main, ["lbr", "fish", "--rounds", "2-4"])
    assert result.exit_code == 2 and "'2-4' is not one of" in result.output


def test_resume_finishes_a_run_with_its_saved_settings(tmp_path: Path) -> None:
    runner = CliRunner()
    out, fresh = tmp_path / "resumed", tmp_path / "fresh"
    settings = ["--bets", "allin", "--preflop-samples", "100", "--seed", "3", "--no-progress"]
    first = ["lbr", PAIR_RAISER, "--hands", "6", "--workers", "1", "--out", str(out)]
    assert runner.invoke(main, [*first, *settings]).exit_code == 0
    resumed = runner.invoke(main, ["lbr", "--resume", str(out), "--hands", "14", "--no-progress"])
    assert resumed.exit_code == 0, resumed.output
    direct = ["lbr", PAIR_RAISER, "--hands", "14", "--workers", "2", "--out", str(fresh)]
    assert runner.invoke(main, [*direct, *settings]).exit_code == 0
    rows = [(r["actions"], r["won_A"]) for r in read_hands(out / HANDS_FILE)]
    assert rows == [(r["actions"], r["won_A"]) for r in read_hands(fresh / HANDS_FILE)]
    assert json.loads((out / "summary.json").read_text())["lbr_bets"] == "allin"


def test_resume_refuses_changes_that_would_alter_or_drop_the_run(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "run"
    args = ["lbr", ALWAYS_FOLD, "--hands", "8", "--workers", "1", "--out", str(out)]
    assert runner.invoke(main, [*args, "--no-progress"]).exit_code == 0
    before = (out / HANDS_FILE).read_text()
    for extra, message in (
        (["--hands", "4"], "fewer than the 8"),
        (["--bets", "1"], "--bets cannot change"),
        (["fish"], "not fish"),
        (["--out", str(tmp_path / "elsewhere")], "not both"),
    ):
        result = runner.invoke(main, ["lbr", "--resume", str(out), *extra])
        assert result.exit_code == 2 and message in result.output, result.output
    assert (out / HANDS_FILE).read_text() == before
    nothing = runner.invoke(main, ["lbr", "--resume", str(tmp_path)])
    assert nothing.exit_code == 2 and "holds no match.json" in nothing.output
