"""Matches in sessions (``--session-hands``): fresh bots per session, mirrors with the seats
swapped, session pairs as the CI's units, resume of a cut session, the same result for any
worker count; tournaments give every tournament fresh bots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.commands.cli import main
from arena.match import MatchConfig, play_hands, rows_stats, run_match
from arena.results import HandsWriter, read_hands
from arena.rows_file import RowsFile
from arena.tournament.run import (
    TOURNAMENTS_FILE,
    TournamentConfig,
    play_tournaments,
    run_tournaments,
    tournament_columns,
    typed_row,
)
from arena.tournament.structure import doubling_levels

HERE = Path(__file__).parent
COUNTER = f"{HERE / 'learning_bots.py'}:HandCounter"
RNG_BOT = f"{HERE / 'sample_bots.py'}:RngRaiser:aggression=0.4"


SIGNAL_BASE = 100  # HandCounter's first raise of a hand is to 100 + the hands it has seen


def signalled_counts(actions: str, slot: str) -> list[int]:
    """The hand counts a HandCounter in ``slot`` showed in a ``hands.csv`` actions text.

    >>> signalled_counts("preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:CALL:10 A:RAISE:103", "A")
    [3]
    """
    counts = []
    for token in actions.replace(";", " ").split():
        parts = token.split("=")[-1].split(":")
        if parts[:2] == [slot, "RAISE"]:
            counts.append(int(parts[2]) - SIGNAL_BASE)
    return counts


def without_timing(rows):
    return [{k: v for k, v in row.items() if not k.startswith("decision_ms")} for row in rows]


def test_a_learning_bots_memory_starts_afresh_each_session():
    config = MatchConfig(COUNTER, "ppe-fish", hands=40, seed=2, session_hands=5)
    rows = play_hands(config, range(40))
    shown = [signalled_counts(row["actions"], "A")[0] for row in rows]
    assert shown == [1, 2, 3, 4, 5] * 8  # hands seen: never more than a session's 5
    alone = play_hands(config, [13])[0]  # the hand does not depend on what was played before
    assert without_timing([alone]) == without_timing([rows[13]])


def test_the_mirror_session_plays_the_same_deals_with_the_seats_swapped():
    config = MatchConfig(RNG_BOT, "ppe-random", hands=24, seed=4, session_hands=6)
    rows = play_hands(config, range(24))
    for pair in range(2):
        session, mirror = rows[12 * pair : 12 * pair + 6], rows[12 * pair + 6 : 12 * pair + 12]
        assert [row["deal"] for row in session] == list(range(6 * pair, 6 * pair + 6))
        assert [row["seats"] for row in session] == ["A B", "B A"] * 3
        for first, second in zip(session, mirror, strict=True):
            assert first["deal"] == second["deal"] and first["seed"] == second["seed"]
            for column in ("hole_seat0", "hole_seat1", "board"):
                assert first[column] == second[column]
            assert second["seats"] == " ".join(reversed(first["seats"].split()))
    assert len({row["deal"] for row in rows}) == 12


def test_one_and_two_workers_give_the_same_sessions(tmp_path):
    config = MatchConfig(COUNTER, RNG_BOT, hands=80, seed=7, session_hands=10)
    one = run_match(config, tmp_path / "one", workers=1)
    two = run_match(config, tmp_path / "two", workers=2)
    rows_one, rows_two = (read_hands(tmp_path / name / "hands.csv") for name in ("one", "two"))
    assert without_timing(rows_one) == without_timing(rows_two)
    assert [row["index"] for row in rows_two] == list(range(80))
    for key in ("sb_per_hand", "ci95_sb_per_hand", "chips", "illegal_actions", "session_hands"):
        assert one[key] == two[key]
    assert one["session_hands"] == 10


def test_a_session_cut_short_is_played_again_on_resume(tmp_path, interrupted_after):
    config = MatchConfig(COUNTER, RNG_BOT, hands=60, seed=3, session_hands=10)
    whole = run_match(config, tmp_path / "whole", workers=1)
    with pytest.raises(KeyboardInterrupt):
        run_match(config, tmp_path / "cut", workers=1, runner=interrupted_after(2))
    assert [row["index"] for row in read_hands(tmp_path / "cut/hands.csv")] == list(range(20))
    forged = [dict(row, won_A=999, won_B=-999) for row in play_hands(config, range(20, 24))]
    writer = HandsWriter(tmp_path / "cut/hands.csv")  # a session's first hands, then a kill
    writer.write(forged)
    writer.close()
    resumed = run_match(config, tmp_path / "cut", workers=2)
    assert resumed["hands_played_this_run"] == 40  # the cut session from its first hand on
    for key in ("hands", "sb_per_hand", "ci95_sb_per_hand", "chips"):
        assert resumed[key] == whole[key]
    cut, uncut = (read_hands(tmp_path / name / "hands.csv") for name in ("cut", "whole"))
    assert without_timing(cut) == without_timing(uncut)


def test_the_ci_counts_a_session_pair_as_one_observation():
    duplicate = MatchConfig(RNG_BOT, "ppe-random", hands=48, seed=1, session_hands=6)
    rows = play_hands(duplicate, range(48))
    assert rows_stats(duplicate, rows).units == 4  # 48 hands / (2 x 6)
    assert [duplicate.unit_of(i) for i in (0, 11, 12, 47)] == [0, 0, 1, 3]
    single = MatchConfig(RNG_BOT, "ppe-random", hands=48, duplicate=False, session_hands=6)
    assert rows_stats(single, play_hands(single, range(48))).units == 8
    plain = MatchConfig(RNG_BOT, "ppe-random", hands=48, seed=1)
    assert rows_stats(plain, play_hands(plain, range(48))).units == 24  # duplicate pairs


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"session_hands": 0}, "session hands must be positive"),
        ({"session_hands": -5}, "session hands must be positive"),
        ({"hands": 100, "session_hands": 30}, r"multiple of 60, twice the session hands \(30\)"),
        ({"hands": 100, "session_hands": 30, "duplicate": False}, r"session hands \(30\)"),
    ],
)
def test_bad_session_hands_are_refused_with_the_reason(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MatchConfig("ppe-fish", "ppe-fish", **kwargs)


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_the_cli_plays_sessions_and_refuses_what_does_not_fit(tmp_path):
    out = tmp_path / "m"
    common = ("--workers", 1, "--quiet")
    bad = invoke("run", "fish", "vs", "honest", "--hands", 100, "--session-hands", 30, *common)
    assert bad.exit_code == 2 and "multiple of 60" in bad.output
    ring = invoke("run", "fish", "honest", "random", "--hands", 30, "--session-hands", 4, *common)
    assert ring.exit_code == 2 and "positive multiple of 3" in ring.output  # whole deals
    run = invoke("run", "fish", "vs", "honest", "--hands", 40, "--session-hands", 10, "--out", out,
                 *common)  # fmt: skip
    assert run.exit_code == 0, run.output
    assert json.loads((out / "summary.json").read_text())["session_hands"] == 10
    other = invoke("run", "--resume", out, "--session-hands", 20, *common)
    assert other.exit_code == 2 and "in sessions of 10 hands" in other.output
    extended = invoke("run", "--resume", out, "--hands", 50, *common)
    assert extended.exit_code == 2 and "multiple of 20" in extended.output
    assert invoke("run", "--resume", out, "--hands", 80, *common).exit_code == 0
    assert json.loads((out / "summary.json").read_text())["hands"] == 80


def tournament_config(tournaments: int) -> TournamentConfig:
    bots = (COUNTER, "fish", "random")
    levels = doubling_levels(10, 10, 3, 1000, chips=3000)
    return TournamentConfig(bots, tournaments, seed=6, levels=levels)


def test_tournaments_with_a_learning_bot_are_alike_for_any_worker_count(tmp_path):
    config = tournament_config(9)
    run_tournaments(config, tmp_path / "one", workers=1)
    run_tournaments(config, tmp_path / "two", workers=2)
    text = (tmp_path / "one" / TOURNAMENTS_FILE).read_text()
    assert (tmp_path / "two" / TOURNAMENTS_FILE).read_text() == text
    rows = RowsFile(tmp_path / "one" / TOURNAMENTS_FILE, tournament_columns(config), typed_row)
    alone = play_tournaments(config, [7])[0]  # fresh bots: the tournaments before do not count
    assert {k: alone[k] for k in rows.read()[7]} == rows.read()[7]
