"""Tournaments: chips add up, places are a permutation, duplicate seating, a tournament
worked out by hand, resume and worker count do not change the result."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from arena.rows_file import RowsFile
from arena.tournament.run import (
    TOURNAMENTS_FILE,
    TournamentConfig,
    run_tournaments,
    tournament_columns,
    typed_row,
)
from arena.tournament.structure import doubling_levels

BOTS = Path(__file__).with_name("shove_fold_bots.py")
FIELD = ("fish", "random", "rule-based", "montecarlo")


def config_of(bots, tournaments, **options) -> TournamentConfig:
    players = len(bots)
    levels = doubling_levels(10, 10, 3, 1000, chips=players * 1000)
    return TournamentConfig(tuple(bots), tournaments, levels=levels, **options)


def rows_of(out: Path, config: TournamentConfig) -> list[dict]:
    return RowsFile(out / TOURNAMENTS_FILE, tournament_columns(config), typed_row).read()


@pytest.fixture(scope="module")
def field_run(tmp_path_factory):
    config = config_of(FIELD, 24, seed=3)
    out = tmp_path_factory.mktemp("field")
    summary = run_tournaments(config, out, workers=1)
    return config, out, summary


def test_chips_are_conserved_in_every_tournament(field_run):
    config, out, summary = field_run
    for row in rows_of(out, config):
        stacks = sum(row[f"stack_{slot}"] for slot in config.slots)
        removed = row["forfeited_chips"] + row["split_chips_lost"]
        assert stacks + removed == len(config.bots) * config.stack
        assert row["forfeited_chips"] >= 0 and row["split_chips_lost"] >= 0
        if row["finished"]:
            assert sum(1 for slot in config.slots if row[f"stack_{slot}"] > 0) == 1
    assert summary["chips_unaccounted"] == 0


def test_places_are_a_permutation_and_prizes_add_up_to_the_pool(field_run):
    config, out, _ = field_run
    for row in rows_of(out, config):
        places = sorted(row[f"place_{slot}"] for slot in config.slots)
        assert places == list(range(1, len(config.bots) + 1))
        prizes = sum(row[f"prize_{slot}"] for slot in config.slots)
        assert prizes == pytest.approx(len(config.bots))  # one buy-in each in the pool
        winner = next(slot for slot in config.slots if row[f"place_{slot}"] == 1)
        assert row[f"stack_{winner}"] == max(row[f"stack_{slot}"] for slot in config.slots)


def test_summary_reports_every_bot(field_run):
    _, _, summary = field_run
    assert summary["tournaments"] == 24 and summary["card_sequences"] == 6
    assert [bot["name"] for bot in summary["bots"]] == list(FIELD)
    assert sum(bot["win_share"] for bot in summary["bots"]) == pytest.approx(1.0)
    assert sum(bot["mean_place"] for bot in summary["bots"]) == pytest.approx(10.0, abs=1e-3)
    for bot in summary["bots"]:
        assert sum(bot["place_counts"]) == 24
        assert bot["illegal_actions"] == 0 and bot["errors"] == 0
        for key in ("win_share_ci95", "mean_place", "itm_share", "mean_prize"):
            assert bot[key] is not None


def test_every_card_sequence_is_played_in_every_seat_rotation(field_run):
    config, out, _ = field_run
    rows = rows_of(out, config)
    for deal in {row["deal"] for row in rows}:
        seatings = [row["seats"].split() for row in rows if row["deal"] == deal]
        for seat in range(len(config.bots)):
            assert sorted(seating[seat] for seating in seatings) == list(config.slots)


def test_identical_deterministic_bots_win_exactly_one_nth_each(tmp_path):
    """Four always-call fish: the cards alone decide, and each fish holds every seat's cards
    once per sequence, so each wins exactly a quarter of the tournaments."""
    summary = run_tournaments(config_of(["fish"] * 4, 8), tmp_path)  # two card sequences
    assert [bot["win_share"] for bot in summary["bots"]] == [0.25] * 4
    assert [bot["mean_place"] for bot in summary["bots"]] == [2.5] * 4


def test_identical_random_bots_win_near_one_nth_inside_the_ci(tmp_path):
    summary = run_tournaments(config_of(["random"] * 3, 60, seed=11), tmp_path)
    for bot in summary["bots"]:
        assert abs(bot["win_share"] - 1 / 3) <= bot["win_share_ci95"]


def test_a_shove_fold_tournament_worked_out_by_hand(tmp_path):
    """Stacks 100, blinds 15/30, no ante; A and B fold everything, C moves all-in.

    C wins the blinds every hand. After six hands A and B have 10 chips each; before hand 7
    PyPokerEngine excludes B (small blind, cannot pay 15) and A (cannot pay the big blind),
    taking their 20 chips: C wins with 280. A and B go out together with equal stacks, so
    the lower seat (A, seat 0) takes second place. Payouts 70/30 of a 3-buy-in pool.
    """
    bots = (f"{BOTS}:Folder", f"{BOTS}:Folder", f"{BOTS}:Shover")
    config = TournamentConfig(bots, 3, stack=100, levels=((1, 15, 0),), payouts=(70.0, 30.0))
    run_tournaments(config, tmp_path)
    row = rows_of(tmp_path, config)[0]
    assert row["seats"] == "A B C" and row["hands"] == 6 and row["finished"] == 1
    assert (row["place_A"], row["place_B"], row["place_C"]) == (2, 3, 1)
    assert (row["prize_A"], row["prize_B"], row["prize_C"]) == (0.9, 0.0, 2.1)
    assert (row["stack_A"], row["stack_B"], row["stack_C"]) == (0, 0, 280)
    assert row["forfeited_chips"] == 20 and row["out_hand_A"] == row["out_hand_B"] == 7


def test_unfinished_tournaments_are_scored_by_stack(tmp_path):
    bots = (f"{BOTS}:Folder", f"{BOTS}:Folder", f"{BOTS}:Shover")
    config = TournamentConfig(bots, 3, stack=100, levels=((1, 15, 0),), max_round=2)
    run_tournaments(config, tmp_path)
    row = rows_of(tmp_path, config)[0]  # after 2 hands: A 70, B 85, C 145
    assert row["finished"] == 0 and row["hands"] == 2
    assert (row["stack_A"], row["stack_B"], row["stack_C"]) == (70, 85, 145)
    assert (row["place_A"], row["place_B"], row["place_C"]) == (3, 2, 1)


def test_a_resumed_run_equals_an_uninterrupted_one(tmp_path, interrupted_after):
    config = config_of(("fish", "random", "rule-based"), 12, seed=5)
    run_tournaments(config, tmp_path / "whole")

    with pytest.raises(KeyboardInterrupt):
        run_tournaments(config, tmp_path / "resumed", runner=interrupted_after(2))
    assert len(rows_of(tmp_path / "resumed", config)) == 6
    run_tournaments(config, tmp_path / "resumed")
    whole = (tmp_path / "whole" / TOURNAMENTS_FILE).read_text()
    assert (tmp_path / "resumed" / TOURNAMENTS_FILE).read_text() == whole


def test_one_and_two_workers_give_the_same_tournaments(tmp_path):
    config = config_of(("fish", "random", "rule-based"), 12, seed=9)
    one = run_tournaments(config, tmp_path / "one", workers=1)
    two = run_tournaments(config, tmp_path / "two", workers=2)
    text = (tmp_path / "one" / TOURNAMENTS_FILE).read_text()
    assert (tmp_path / "two" / TOURNAMENTS_FILE).read_text() == text
    assert one["bots"] == two["bots"]


def test_bad_configurations_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="multiple of 3"):
        config_of(("fish", "random", "fish"), 10)
    with pytest.raises(ValueError, match="2 to 10 bots"):
        config_of(("fish",), 1)
    with pytest.raises(ValueError, match="big blind"):
        TournamentConfig(("fish", "fish"), 2, stack=10, levels=((1, 10, 0),))
    assert np.isclose(sum(config_of(FIELD, 4).paid), 100.0)
