"""Matches: conservation, positions, duplicate deals, illegal actions, determinism, resume."""

import random
from pathlib import Path

import numpy as np
import pytest

from arena.match import MatchConfig, chunks, play_hands, run_match
from arena.results import read_hands
from arena.seeding import deal_deck, deal_seed

BOTS = Path(__file__).parent / "sample_bots.py"
RNG_BOT = f"{BOTS}:RngRaiser:aggression=0.4"
GLOBAL_BOT = f"{BOTS}:GlobalRandomFolder"


def test_chips_conserved_and_positions_alternate():
    config = MatchConfig(RNG_BOT, "ppe-random", hands=200, seed=3)
    rows = play_hands(config, range(200))
    assert all(row["won_A"] + row["won_B"] == 0 for row in rows)
    assert all(abs(row["won_A"]) <= 1000 for row in rows)
    assert [row["seats"] for row in rows[:4]] == ["A B", "B A", "A B", "B A"]
    for row in rows:  # seat 0 is the button, which posts the big blind heads-up
        button = row["seats"].split()[0]
        assert row["actions"].startswith(f"preflop={'AB'[button == 'A']}:SMALLBLIND:5 ")
        assert f"{button}:BIGBLIND:10" in row["actions"].split(";")[0]
    assert any(row["won_A"] != 0 for row in rows)


def test_duplicate_pairs_share_cards_with_seats_swapped():
    rows = play_hands(MatchConfig(RNG_BOT, GLOBAL_BOT, hands=40, seed=5), range(40))
    for first, second in zip(rows[::2], rows[1::2], strict=True):
        assert first["deal"] == second["deal"] and first["seed"] == second["seed"]
        for column in ("hole_seat0", "hole_seat1", "board"):
            assert first[column] == second[column]
        assert (first["seats"], second["seats"]) == ("A B", "B A")
    deck = deal_deck(deal_seed(5, 0))
    assert len(set(deck)) == 9
    assert len({row["hole_seat0"] for row in rows}) == 20  # a new deal every pair


def test_no_duplicate_deals_every_hand_afresh():
    config = MatchConfig("ppe-fish", "ppe-fish", hands=20, seed=5, duplicate=False)
    rows = play_hands(config, range(20))
    assert len({row["hole_seat0"] for row in rows}) == 20
    assert [row["deal"] for row in rows] == list(range(20))


def test_identical_bots_in_duplicate_break_exactly_even():
    summary_rows = play_hands(MatchConfig("ppe-fish", "ppe-fish", hands=100, seed=1), range(100))
    pair_sums = [
        a["won_A"] + b["won_A"] for a, b in zip(summary_rows[::2], summary_rows[1::2], strict=True)
    ]
    assert pair_sums == [0] * 50
    assert any(row["won_A"] != 0 for row in summary_rows)


def test_illegal_actions_are_counted_as_the_engine_folds_them():
    rows = play_hands(MatchConfig(f"{BOTS}:UnderRaiser", "ppe-fish", hands=10), range(10))
    for row in rows:
        assert row["illegal_A"] == 1 and row["illegal_B"] == 0
        assert "A:FOLD:0" in row["actions"]  # what the under-raise became
        assert row["won_A"] in (-5, -10)  # the blind it left behind


def test_same_hands_whatever_the_order_and_the_global_rng():
    config = MatchConfig(RNG_BOT, GLOBAL_BOT, hands=60, seed=11)
    forward = play_hands(config, range(60))
    random.seed(999)
    np.random.seed(999)
    random.random()
    backward = play_hands(config, reversed(range(60)))[::-1]
    assert _without_timing(forward) == _without_timing(backward)


def test_worker_counts_give_identical_files(tmp_path):
    config = MatchConfig(RNG_BOT, GLOBAL_BOT, hands=400, seed=7)
    one = run_match(config, tmp_path / "one", workers=1)
    random.seed(12345)  # disturb the global RNG between the runs
    two = run_match(config, tmp_path / "two", workers=2)
    rows_one, rows_two = (
        read_hands(tmp_path / "one/hands.csv"),
        read_hands(tmp_path / "two/hands.csv"),
    )
    assert _without_timing(rows_one) == _without_timing(rows_two)
    assert [row["index"] for row in rows_two] == list(range(400))
    for key in ("sb_per_hand", "ci95_sb_per_hand", "bb_per_100", "illegal_actions", "chips"):
        assert one[key] == two[key]
    assert one["hands"] == 400
    assert (tmp_path / "two/winnings.png").stat().st_size > 0


def test_resume_after_interruption_equals_uninterrupted(tmp_path, interrupted_after):
    config = MatchConfig(RNG_BOT, GLOBAL_BOT, hands=500, seed=2)
    whole = run_match(config, tmp_path / "whole", workers=1)

    with pytest.raises(KeyboardInterrupt):
        run_match(config, tmp_path / "cut", workers=1, runner=interrupted_after(2))
    partial = read_hands(tmp_path / "cut/hands.csv")
    assert [row["index"] for row in partial] == list(range(200))
    with (tmp_path / "cut/hands.csv").open("a") as handle:
        handle.write("200,100,123,A B,Ac")  # a torn row, as a kill mid-write leaves
    resumed = run_match(config, tmp_path / "cut", workers=2)
    assert resumed["hands_played_this_run"] == 300
    for key in ("hands", "sb_per_hand", "ci95_sb_per_hand", "mbb_per_hand", "illegal_actions"):
        assert resumed[key] == whole[key]
    assert _without_timing(read_hands(tmp_path / "cut/hands.csv")) == _without_timing(
        read_hands(tmp_path / "whole/hands.csv")
    )


def test_chunks_are_fixed_by_index():
    assert chunks(list(range(250))) == [
        list(range(0, 100)),
        list(range(100, 200)),
        list(range(200, 250)),
    ]


@pytest.mark.parametrize("kwargs", [{"hands": 0}, {"hands": -4}, {"hands": 3}, {"stack": 5}])
def test_bad_configs(kwargs):
    with pytest.raises(ValueError):
        MatchConfig("ppe-fish", "ppe-fish", **kwargs)


def _without_timing(rows):
    return [{k: v for k, v in row.items() if not k.startswith("decision_ms")} for row in rows]
