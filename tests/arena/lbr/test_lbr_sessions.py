"""Local best response against a bot that learns: its model copy learns the same, sessions.

``CallsUntilTaught`` calls everything in its first hand and folds to every bet once it has
seen a hand's result, so LBR's known answer against always-fold (it wins the blinds: 5 chips
when the bot has the button, which posts the big blind in PyPokerEngine, 10 off it) holds
from a session's second hand on only if LBR's copy of the bot learned what the bot learned.
Its ``policy_table`` ignores the learning (always call); LBR must not read it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from agent.boundary.situations import make_decision
from agent.boundary.snapshot import Street
from agent.players.opponents.decisions import Facing, Kind, Situation
from agent.poker.cards import parse_cards, to_ppe
from agent.poker.range_equity import HOLDING_CARDS, blocked_mask
from agent.poker.rng import mix_seed
from arena.chance_adjusted import chance_adjusted
from arena.commands.cli import main
from arena.lbr.match import (
    LBRConfig,
    fresh_contestants,
    lbr_table,
    match_config,
    model_kept_bot_hand,
    play_lbr_hands,
    run_lbr,
)
from arena.lbr.player import LBRPlayer, parse_bets
from arena.lbr.report import mbb_with_ci
from arena.match import rows_stats
from arena.registry import make_bot, parse_bot_spec
from arena.results import HANDS_FILE, HandsWriter, read_hands
from arena.seeding import deal_deck

BOTS = Path(__file__).with_name("lbr_bots.py")
TAUGHT = f"{BOTS}:CallsUntilTaught"
FAST = {"preflop_samples": 100}


def taught_config(bets: str = "0.5,1,allin") -> LBRConfig:
    return LBRConfig(TAUGHT, parse_bets(bets), **FAST)


def without_timing(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if not k.startswith("decision_ms")} for row in rows]


def bot_and_lbr(spec: str) -> tuple[Any, LBRPlayer, Any]:
    """A bot of ``spec``, local best response against a copy of it, and their table."""
    bot = make_bot(parse_bot_spec(spec), seed=0)
    lbr = LBRPlayer(make_bot(parse_bot_spec(spec), seed=1), (1.0,), seed=2, **FAST)
    return bot, lbr, lbr_table(lbr, bot)


def play_hand(table: Any, hand: int, deck_seed: int, seed: int) -> None:
    """Hand ``hand`` of a seeded run, the button alternating between the seats."""
    table.play(deal_deck(mix_seed(deck_seed, hand)), "AB"[hand % 2], mix_seed(seed, hand))


def always_fold_winnings(row: dict) -> int:
    """LBR's chips against always-fold: the bot's blind (the button posts the big one)."""
    return 5 if row["seats"].startswith("A") else 10


def test_the_model_copy_is_sent_every_message_the_bot_is_sent() -> None:
    bot, lbr, table = bot_and_lbr(TAUGHT)
    copy = lbr.model.bot
    for hand in range(5):
        play_hand(table, hand, 3, 4)
    assert copy.uuid == bot.uuid == table.proxies["B"].uuid
    assert bot.results_seen == copy.results_seen == 5
    assert copy.heard == bot.heard  # hole cards, streets, actions and results alike
    kinds = {entry[0] for entry in bot.heard}
    assert kinds == {"game_start", "round_start", "street_start", "game_update", "round_result"}
    assert bot.decisions > 0 and copy.decisions == 0  # the engine asks the bot alone


def test_a_learning_bots_copy_learns_and_lbr_wins_the_always_fold_answer() -> None:
    config = match_config(taught_config(), hands=24, seed=5, session_hands=4)
    rows = play_lbr_hands(taught_config(), config, list(range(24)))
    for row in rows:
        first_of_session = row["index"] % 4 == 0
        if first_of_session:  # a fresh bot calls everything: it never folds
            assert "B:FOLD" not in row["actions"]
        else:  # it has learned to fold, and LBR's copy knows it: LBR bets and takes the blinds
            assert row["won_A"] == always_fold_winnings(row)
            assert "B:FOLD" in row["actions"]


def test_each_session_starts_with_a_fresh_bot_and_a_fresh_copy() -> None:
    lbr = taught_config()
    config = match_config(lbr, hands=12, seed=5, session_hands=3)
    for session in range(2):
        players = fresh_contestants(lbr, config, session)
        bot = players.table.proxies["B"].bot.bot
        assert bot.results_seen == players.lbr.model.bot.results_seen == 0
        for index in range(6 * session, 6 * session + 3):
            deal = config.deal_of(index)
            players.table.play(deal_deck(mix_seed(9, deal)), config.button_of(index), index)
        assert bot.results_seen == players.lbr.model.bot.results_seen == 3
        assert bot.heard == players.lbr.model.bot.heard


def test_sessions_give_the_same_result_for_one_or_two_workers(tmp_path: Path) -> None:
    one = run_lbr(taught_config(), 12, 7, tmp_path / "one", workers=1, session_hands=3)
    two = run_lbr(taught_config(), 12, 7, tmp_path / "two", workers=2, session_hands=3)
    rows = read_hands(tmp_path / "one" / HANDS_FILE)
    assert without_timing(rows) == without_timing(read_hands(tmp_path / "two" / HANDS_FILE))
    for key in ("lbr_mbb_per_hand", "lbr_ci95_mbb_per_hand", "chips", "session_hands"):
        assert one[key] == two[key]
    assert one["session_hands"] == 3
    config = match_config(taught_config(), 12, 7, session_hands=3)
    stats = rows_stats(config, rows)
    assert stats.units == 2  # session pairs: 12 hands / (2 x 3)
    assert one["lbr_ci95_mbb_per_hand"] == pytest.approx(stats.ci95_sb_per_hand * 500)


def test_a_session_cut_short_is_played_again_on_resume(tmp_path: Path) -> None:
    whole = run_lbr(taught_config(), 16, 8, tmp_path / "whole", workers=1, session_hands=4)
    rows = read_hands(tmp_path / "whole" / HANDS_FILE)
    forged = [dict(row, won_A=999, won_B=-999) for row in rows[8:10]]  # a session's start
    (tmp_path / "cut").mkdir()
    writer = HandsWriter(tmp_path / "cut" / HANDS_FILE)
    writer.write(rows[:8] + forged)
    writer.close()
    resumed = run_lbr(taught_config(), 16, 8, tmp_path / "cut", workers=2, session_hands=4)
    assert resumed["hands_played_this_run"] == 8  # the cut session from its first hand on
    assert resumed["lbr_mbb_per_hand"] == whole["lbr_mbb_per_hand"]
    cut = read_hands(tmp_path / "cut" / HANDS_FILE)
    assert without_timing(cut) == without_timing(rows)


def test_the_cli_plays_sessions_and_refuses_what_does_not_fit(tmp_path: Path) -> None:
    runner = CliRunner()
    common = ["lbr", TAUGHT, "--workers", "1", "--no-progress", "--preflop-samples", "100"]
    out = tmp_path / "cli"
    result = runner.invoke(main, [*common, "--hands", "8", "--session-hands", "2", "--out", out])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["session_hands"] == 2
    # the CI over the 4 duplicate deals, as the report computes it (t(0.975, 3) sd / sqrt n
    # of the deals' means)
    hands = pd.read_csv(out / HANDS_FILE)
    _, half_width = mbb_with_ci(hands, hands["won_A"].to_numpy())
    assert summary["lbr_ci95_mbb_per_hand_by_deal"] == pytest.approx(half_width)
    assert "95% CI over duplicate deals" in result.output
    luck_free = chance_adjusted(read_hands(out / HANDS_FILE), "A", 1000)
    _, adjusted_half_width = mbb_with_ci(hands, luck_free)
    adjusted_ci = summary["lbr_chance_adjusted_ci95_mbb_per_hand_by_deal"]
    assert adjusted_ci == pytest.approx(adjusted_half_width)
    assert "the same, chance-adjusted" in result.output
    bad = runner.invoke(main, [*common, "--hands", "10", "--session-hands", "4"])
    assert bad.exit_code == 2 and "multiple of 8" in bad.output


def test_a_copy_of_cfrv2_remembers_the_decisions_the_bot_made() -> None:
    """cfrv2 ranks its turn and river defence within its own range, read from its own actions
    in the hand: LBR's copy, never asked to act, must be told them to read the same policy."""
    bot, lbr, table = bot_and_lbr("cfrv2")
    copy = lbr.model.bot
    remembered = 0
    for hand in range(12):
        play_hand(table, hand, 6, 7)
        decisions = [
            [(d.history_length, d.snapshot, d.action) for d in player.context.own_range.decisions]
            for player in (bot, copy)
        ]
        assert decisions[0] == decisions[1]
        remembered += len(decisions[0])
    assert remembered > 0


def test_lbr_reads_the_copy_at_a_decision_before_the_copy_is_told_it() -> None:
    """``RaisesOnce`` raises at its first decision, which spends the raise for it and for its
    copy once told. In hand 0 the bot acts first, so LBR has not read that state yet: read
    after the copy was told, every holding would call, and the bot's raise would rule out its
    real cards. Read before, as the bot decided, the range keeps them."""
    bot, lbr, table = bot_and_lbr(f"{BOTS}:RaisesOnce")
    for hand in range(3):
        result = table.play(deal_deck(mix_seed(3, hand)), "AB"[hand % 2], mix_seed(4, hand))
        assert ("B:RAISE" in result.actions) == (hand == 0)
        assert model_kept_bot_hand(lbr.range, bot.hole)
        assert bot.spent and lbr.model.bot.spent


def test_a_copy_that_cannot_be_read_is_still_told_the_decision() -> None:
    """Reading the copy fails (an error of LBR's, recorded as the model copy's); the copy is
    told the bot's decision all the same, so it stays in step with the bot."""
    bot = make_bot(parse_bot_spec(f"{BOTS}:RaisesOnce"), seed=0)
    copy = make_bot(parse_bot_spec(f"{BOTS}:UnreadableRaisesOnce"), seed=1)
    errors: list[str] = []
    table = lbr_table(LBRPlayer(copy, (1.0,), seed=2, **FAST), bot, model_errors=errors)
    table.play(deal_deck(mix_seed(3, 0)), "A", mix_seed(4, 0))
    assert bot.spent and copy.spent
    assert errors and "cannot be read" in errors[0]


def test_lbr_reads_the_adaptive_agent_through_its_learned_table() -> None:
    """The adaptive agent learns, so LBR may not read its (cfrv2) ``policy_table``; it reads
    ``learned_policy_table``, which answers what ``action_probabilities`` answers holding by
    holding (on the river, where cfrv2's own law is exact), deviations from cfrv2 included."""
    bot, lbr, table = bot_and_lbr("adaptive")
    for hand in range(2):  # teach both copies the same hands (one in each seat)
        play_hand(table, hand, 8, 9)
    copy = lbr.model.bot
    assert copy.book.models.keys() == bot.book.models.keys() and copy.budget.won == bot.budget.won
    valid, _, state = make_decision(["Ah", "Td"], ["As", "8c", "5d", "3h", "2s"], pot=100)
    opponent = next(iter(copy.book.models))  # the opponent it has learned: LBR
    for _ in range(300):  # ... as a calling station, with a budget, so that it deviates
        for situation in [Situation(Street.RIVER, facing) for facing in Facing]:
            copy.book.models[opponent].count(situation, Kind.PASSIVE)
    copy.budget.won = 0  # LBR won its budget in these hands
    state = json.loads(
        json.dumps(state).replace('"p0"', f'"{copy.uuid}"').replace('"p1"', f'"{opponent}"')
    )
    holdings = np.flatnonzero(~blocked_mask(parse_cards(state["community_card"])))
    asked_one_by_one = []
    copy.action_probabilities = lambda *args: asked_one_by_one.append(args)
    answers = lbr.model.policies(valid, state, holdings)
    assert asked_one_by_one == [] and len(answers) == len(holdings)
    del copy.action_probabilities
    deviations = copy.exploiter.deviations
    for holding in holdings[::97]:
        cards = [to_ppe(int(card)) for card in HOLDING_CARDS[holding]]
        alone = copy.action_probabilities(valid, cards, state)
        table_answer = answers[list(holdings).index(holding)]
        assert {(n, a): p for n, a, p in alone} == pytest.approx(
            {(n, a): p for n, a, p in table_answer}
        )
    assert (
        copy.exploiter.deviations > deviations
    )  # the model's best response, not cfrv2, was compared
