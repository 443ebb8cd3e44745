"""The tournament table's heading claims an interval only where there are card sequences to
make one from."""

from __future__ import annotations

from arena.tournament.report import markdown


def summary_of(card_sequences: int, ci: float | None) -> dict:
    bot = {
        "name": "fish",
        "win_share": 0.5,
        "win_share_ci95": ci,
        "mean_place": 1.5,
        "mean_place_ci95": ci,
        "itm_share": 1.0,
        "itm_share_ci95": ci,
        "mean_prize": 1.0,
        "mean_prize_ci95": ci,
        "errors": 0,
        "illegal_actions": 0,
    }
    return {
        "tournaments": 2 * card_sequences,
        "card_sequences": card_sequences,
        "seed": 0,
        "payouts": [1.0],
        "bots": [bot, {**bot, "name": "random"}],
    }


def test_one_card_sequence_has_no_interval() -> None:
    heading = markdown(summary_of(1, None)).splitlines()[0]
    assert heading == (
        "2 tournaments (1 card sequence x 2 seat rotations), seed 0, payouts 1;"
        " 1 card sequence: no interval"
    )


def test_several_card_sequences_have_student_t_intervals() -> None:
    heading = markdown(summary_of(1_000, 0.02)).splitlines()[0]
    assert heading.endswith("; ± 95% CIs, Student's t over the 1,000 card sequences")
    assert "| fish | 50.0% ± 2.0 |" in markdown(summary_of(1_000, 0.02))
