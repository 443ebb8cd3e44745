"""Ring games: chips add up, every deal in every seat rotation, identical bots break even
together, and neither the worker count nor an interruption changes the hands."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.results import HANDS_FILE
from arena.ring import RingConfig, ring_columns, run_ring, typed_row
from arena.rows_file import RowsFile

FIELD = ("fish", "random", "rule-based", "honest")
COUNTER = f"{Path(__file__).parent / 'learning_bots.py'}:HandCounter"
SIGNAL_BASE = 100  # learning_bots.SIGNAL_BASE: its first raise of a hand is to 100 + hands seen


def rows_of(out, config):
    return RowsFile(out / HANDS_FILE, ring_columns(config), typed_row).read()


@pytest.fixture(scope="module")
def field_game(tmp_path_factory):
    config = RingConfig(FIELD, 200, seed=4)
    out = tmp_path_factory.mktemp("ring")
    return config, out, run_ring(config, out, workers=1)


def test_chips_add_up_in_every_hand(field_game):
    """Fresh stacks: what some win, others lose, except the odd chips PyPokerEngine drops
    when it splits a pot unevenly (fewer than the number of winners)."""
    config, out, summary = field_game
    for row in rows_of(out, config):
        total = sum(row[f"won_{slot}"] for slot in config.slots)
        assert -len(config.bots) < total <= 0
        assert all(row[f"won_{slot}"] >= -config.stack for slot in config.slots)
    assert summary["chips_lost_to_split_pots"] >= 0


def test_every_deal_is_played_in_every_seat_rotation(field_game):
    config, out, _ = field_game
    rows = rows_of(out, config)
    assert len(rows) == 200
    for deal in range(50):
        seatings = [row["seats"].split() for row in rows if row["deal"] == deal]
        assert len(seatings) == 4
        for seat in range(4):
            assert sorted(seating[seat] for seating in seatings) == list(config.slots)
        holes = {row["holes"] for row in rows if row["deal"] == deal}
        assert len(holes) == 1  # the same cards by seat in every rotation


def test_summary_has_each_bot_with_a_ci(field_game):
    _, _, summary = field_game
    assert [bot["name"] for bot in summary["bots"]] == list(FIELD)
    for bot in summary["bots"]:
        assert bot["ci95_sb_per_hand"] > 0 and bot["illegal_actions"] == 0
    chips = sum(bot["chips"] for bot in summary["bots"])
    assert chips == -summary["chips_lost_to_split_pots"]


def test_identical_deterministic_bots_win_the_same(tmp_path):
    summary = run_ring(RingConfig(("fish",) * 3, 90, seed=1), tmp_path)
    assert len({bot["chips"] for bot in summary["bots"]}) == 1


def same_hands_whatever_the_run(config, tmp_path, interrupted_after, tasks: int) -> str:
    """``hands.csv`` played with one worker, two, and after an interruption after ``tasks``
    tasks: asserted the same, and returned."""
    run_ring(config, tmp_path / "one", workers=1)
    run_ring(config, tmp_path / "two", workers=2)
    with pytest.raises(KeyboardInterrupt):
        run_ring(config, tmp_path / "resumed", runner=interrupted_after(tasks))
    run_ring(config, tmp_path / "resumed")
    text = (tmp_path / "one" / HANDS_FILE).read_text()
    assert (tmp_path / "two" / HANDS_FILE).read_text() == text
    assert (tmp_path / "resumed" / HANDS_FILE).read_text() == text
    return text


def test_workers_and_an_interruption_do_not_change_the_hands(tmp_path, interrupted_after):
    config = RingConfig(("fish", "random", "rule-based"), 150, seed=2)
    same_hands_whatever_the_run(config, tmp_path, interrupted_after, tasks=1)


def test_bad_ring_games_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="multiple of 3"):
        RingConfig(("fish", "fish", "fish"), 100)
    with pytest.raises(ValueError, match="3 to 10 bots"):
        RingConfig(("fish",) * 11, 110)


def test_a_learning_bot_replays_in_sessions_whatever_the_workers(tmp_path, interrupted_after):
    """HandCounter's raise shows how many hands it has seen: in sessions of 6 hands every
    session starts it from one, with one worker, two, or after an interruption."""
    config = RingConfig((COUNTER, "fish", "fish"), 36, seed=3, session_hands=6)
    text = same_hands_whatever_the_run(config, tmp_path, interrupted_after, tasks=2)
    partial = tmp_path / "partial"  # session 0 whole, session 1 cut short and tampered with
    partial.mkdir()
    lines = text.splitlines(keepends=True)
    tampered = lines[8].replace("A:RAISE:", "A:RAISE:9", 1)  # index 7, of session 1
    assert tampered != lines[8]
    lines[8] = tampered
    (partial / HANDS_FILE).write_text("".join(lines[:10]))
    run_ring(config, partial)
    assert (partial / HANDS_FILE).read_text() == text  # the cut session was played again
    for row in rows_of(tmp_path / "one", config):
        seen = row["index"] % 6 + 1  # hands the counter has seen in its session
        assert f"A:RAISE:{SIGNAL_BASE + seen}" in row["actions"]
    summary = run_ring(config, tmp_path / "one")  # all played: the summary alone
    assert summary["session_hands"] == 6 and summary["bots"][0]["ci95_sb_per_hand"] is not None


def test_ring_sessions_hold_whole_deals():
    with pytest.raises(ValueError, match="positive multiple of 3"):
        RingConfig(("fish",) * 3, 36, session_hands=4)
    with pytest.raises(ValueError, match="multiple of the session hands"):
        RingConfig(("fish",) * 3, 36, session_hands=24)
