"""``arena play``: input parsing, the terminal view, whole sessions from a scripted stream,
and the real program driven through a pseudo-terminal with pexpect."""

from __future__ import annotations

import io
import json
import random
import re
import shutil
import sys
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner

from agent.poker.cards import from_ppe_id, parse_card
from agent.poker.evaluator import evaluate
from arena.commands.cli import main
from arena.play import InputProblem, PlayConfig, QuitRequested, parse_command, run_session
from arena.results import HAND_COLUMNS, read_hands
from arena.seeding import deal_deck, deal_seed
from arena.terminal_view import Choices, can_print_suits, cards_label

RAISER = '''
from pypokerengine.players import BasePokerPlayer


class MinRaiser(BasePokerPlayer):
    """Raises the minimum once per street when it may, otherwise calls."""

    def declare_action(self, valid_actions, hole_card, round_state):
        options = {a["action"]: a["amount"] for a in valid_actions}
        street = round_state["action_histories"].get(round_state["street"]) or []
        raised = any(e["uuid"] == self.uuid and e["action"] == "RAISE" for e in street)
        if not raised and options["raise"]["min"] != -1:
            return "raise", options["raise"]["min"]
        return "call", options["call"]

    def receive_game_start_message(self, game_info):
        pass

    def receive_round_start_message(self, round_count, hole_card, seats):
        pass

    def receive_street_start_message(self, street, round_state):
        pass

    def receive_game_update_message(self, action, round_state):
        pass

    def receive_round_result_message(self, winners, hand_info, round_state):
        pass
'''

FACING_BET = Choices(call_to=10, to_call=5, raise_min=15, raise_max=1000)
FREE_CHECK = Choices(call_to=0, to_call=0, raise_min=10, raise_max=990)
NO_RAISE = Choices(call_to=1000, to_call=990, raise_min=None, raise_max=None)


@pytest.fixture
def raiser(tmp_path: Path) -> str:
    path = tmp_path / "raiser.py"
    path.write_text(RAISER)
    return f"{path}:MinRaiser"


def session(bot: str, keys: list[str], out: Path, hands: int | None = None, seed: int = 3):
    reader, writer = io.StringIO("\n".join(keys) + "\n"), io.StringIO()
    summary = run_session(PlayConfig(bot, hands, seed=seed), reader, writer, out, ascii_only=True)
    return summary, writer.getvalue(), read_hands(out / "hands.csv")


def deal_cards(seed: int, index: int) -> list[int]:
    """Our card ids of hand ``index``: seat 0's two, seat 1's two, then the board."""
    return [from_ppe_id(card) for card in deal_deck(deal_seed(seed, index))]


# --- input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "options", "expected"),
    [
        ("c", FACING_BET, ("call", 10)),
        ("  CALL ", FACING_BET, ("call", 10)),
        ("c", FREE_CHECK, ("call", 0)),
        ("check", FREE_CHECK, ("call", 0)),
        ("f", FACING_BET, ("fold", 0)),
        ("fold", FREE_CHECK, ("fold", 0)),
        ("r 15", FACING_BET, ("raise", 15)),
        ("r1000", FACING_BET, ("raise", 1000)),
        ("raise 990", FREE_CHECK, ("raise", 990)),
        ("a", FACING_BET, ("raise", 1000)),
        ("a", NO_RAISE, ("call", 1000)),
        ("c", NO_RAISE, ("call", 1000)),
    ],
)
def test_keys_become_the_exact_legal_action(text, options, expected):
    assert parse_command(text, options) == expected


@pytest.mark.parametrize(
    ("text", "options", "says"),
    [
        ("", FACING_BET, "nothing typed"),
        ("x", FACING_BET, "unknown key 'x'"),
        ("r", FACING_BET, "15..1000"),
        ("r 14", FACING_BET, "between 15 and 1000 chips, not 14"),
        ("r 1001", FACING_BET, "not 1001"),
        ("r -20", FACING_BET, "15..1000"),
        ("r 2.5", FACING_BET, "15..1000"),
        ("r 20 30", FACING_BET, "15..1000"),
        ("r 20", NO_RAISE, "no raise is possible"),
        ("f", FREE_CHECK, "checking is free"),
        ("c 10", FACING_BET, "takes no amount"),
    ],
)
def test_bad_input_is_explained_never_a_fold(text, options, says):
    with pytest.raises(InputProblem, match=re.escape(says)):
        parse_command(text, options)


def test_random_garbage_never_turns_into_a_fold_or_an_illegal_action():
    generator = random.Random(5)
    alphabet = "fcraq0123456789 -.x!"
    for _ in range(3000):
        text = "".join(generator.choice(alphabet) for _ in range(generator.randint(0, 6)))
        for options in (FACING_BET, FREE_CHECK, NO_RAISE):
            try:
                action, amount = parse_command(text, options)
            except (InputProblem, QuitRequested):
                continue
            if action == "fold":
                assert text.strip().lower() in ("f", "fold")
            elif action == "call":
                assert amount == options.call_to
            else:
                assert options.raise_min <= amount <= options.raise_max


def test_quit_keys():
    for text in ("q", "quit", " Q "):
        with pytest.raises(QuitRequested):
            parse_command(text, FACING_BET)


def test_suits_fall_back_to_ascii_where_the_terminal_cannot_encode_them():
    ascii_stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    utf8_stream = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert not can_print_suits(ascii_stream) and can_print_suits(utf8_stream)
    cards = [parse_card("As"), parse_card("Kh"), parse_card("Td"), parse_card("2c")]
    assert cards_label(cards) == "A♠ K♥ T♦ 2♣"
    assert cards_label(cards, ascii_only=True) == "As Kh Td 2c"


def test_an_ascii_terminal_gets_letters_without_asking(tmp_path):
    writer = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict")
    reader = io.StringIO("fold\nfold\n")
    run_session(PlayConfig("ppe-fish", hands=2, seed=3), reader, writer, tmp_path)
    writer.flush()
    screen = writer.buffer.getvalue().decode("ascii")  # would have raised on a suit symbol
    hole = deal_cards(3, 0)[0:2]  # hand 0: the human is seat 0 (the button)
    assert f"your cards: {cards_label(hole, ascii_only=True)}" in screen


# --- whole sessions from a scripted stream -----------------------------------------------


def test_folding_every_hand_loses_the_blinds_by_position(tmp_path):
    # Against always-call: the human has the button (big blind) on even hands and folds
    # when checking is free (-10), and folds the small blind on odd hands (-5).
    summary, screen, rows = session("ppe-fish", ["fold"] * 4, tmp_path, hands=4)
    assert [row["won_A"] for row in rows] == [-10, -5, -10, -5]
    assert [row["seats"] for row in rows] == ["A B", "B A", "A B", "B A"]
    assert summary["hands"] == 4 and summary["chips"] == {"human": -30, "ppe-fish": 30}
    assert summary["sb_per_hand"] == pytest.approx(-30 / (5 * 4))
    assert "running: -30 chips over 4 hands = -1.50 sb/h" in screen
    assert "showdown" not in screen


def test_all_in_every_hand_is_paid_by_the_true_showdown(tmp_path):
    seed, hands = 11, 6
    summary, screen, rows = session("ppe-fish", ["a"] * hands, tmp_path, hands, seed)
    for index, row in enumerate(rows):
        cards = deal_cards(seed, index)
        human_seat = row["seats"].split().index("A")
        mine = evaluate(cards[2 * human_seat : 2 * human_seat + 2] + cards[4:9])
        theirs = evaluate(cards[2 - 2 * human_seat : 4 - 2 * human_seat] + cards[4:9])
        expected = 0 if mine == theirs else (1000 if mine < theirs else -1000)
        assert row["won_A"] == expected, (index, row)
        assert row["won_A"] + row["won_B"] == 0 and row["illegal_A"] == 0
        bot_cards = cards[2 - 2 * human_seat : 4 - 2 * human_seat]
        assert f"ppe-fish shows {cards_label(bot_cards, ascii_only=True)}" in screen
    assert screen.count("showdown: ") == hands
    assert summary["chips"]["human"] == sum(row["won_A"] for row in rows)


def test_bad_lines_are_asked_again_and_the_hands_file_is_the_arenas(raiser, tmp_path):
    keys = ["zz", "r 1", "", "c", "r 30", "c", "c", "c", "c", "q"]
    summary, screen, rows = session(raiser, keys, tmp_path, hands=None, seed=7)
    header = (tmp_path / "hands.csv").read_text().splitlines()[0]
    assert tuple(header.split(",")) == HAND_COLUMNS
    assert screen.count("your action> ") == len(keys)
    assert "unknown key 'zz'" in screen and "not 1" in screen and "nothing typed" in screen
    assert "MinRaiser raises to 15" in screen and "MinRaiser bets 10" in screen
    assert rows[0]["actions"].startswith("preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:RAISE:15")
    assert "A:RAISE:30" in rows[0]["actions"]
    assert all(row["illegal_A"] == 0 and row["illegal_B"] == 0 for row in rows)
    assert summary["abandoned_hand"] is True and summary["hands"] == len(rows) >= 1
    assert json.loads((tmp_path / "summary.json").read_text()) == summary


def test_quitting_at_once_saves_an_empty_session(tmp_path):
    summary, screen, rows = session("ppe-fish", ["q"], tmp_path)
    assert rows == [] and summary["hands"] == 0 and summary["abandoned_hand"]
    assert "hands played: 0" in screen
    assert (tmp_path / "summary.json").is_file()


def test_end_of_input_quits_like_q(tmp_path):
    summary, _, rows = session("ppe-fish", ["fold"], tmp_path, hands=5)
    assert summary["hands"] == 1 and len(rows) == 1


# --- the command line ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["no-such-bot"], "unknown bot 'no-such-bot'"),
        (["ppe-fish", "--hands", "0"], "--hands must be a positive"),
        (["ppe-fish", "--stack", "5"], "must cover a big blind"),
    ],
)
def test_cli_errors(args, says, tmp_path):
    result = CliRunner().invoke(main, ["play", *args, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and says in result.output
    assert not (tmp_path / "o").exists()


def test_cli_refuses_a_non_empty_output_folder(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    result = CliRunner().invoke(main, ["play", "ppe-fish", "--out", str(tmp_path)], input="q\n")
    assert result.exit_code == 2 and "not empty" in result.output
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_the_real_program_in_a_pseudo_terminal(raiser, tmp_path):
    program = shutil.which("arena") or str(Path(sys.executable).parent / "arena")
    out = tmp_path / "session"
    child = pexpect.spawn(
        program,
        ["play", raiser, "--hands", "3", "--seed", "7", "--out", str(out)],
        encoding="utf-8",
        timeout=20,
        env={"PATH": str(Path(sys.executable).parent), "LANG": "C.UTF-8", "TERM": "dumb"},
        dimensions=(50, 160),
    )
    cards = deal_cards(7, 0)  # hand 1: the human has the button, seat 0
    child.expect_exact(f"your cards: {cards_label(cards[0:2])}")
    child.expect_exact("MinRaiser raises to 15")
    child.expect_exact("[c] call 5   [r N] raise to N, 20..1000")
    child.expect_exact("your action> ")
    child.sendline("r 5")  # below the minimum raise: explained, asked again
    child.expect_exact("a raise must be to between 20 and 1000 chips, not 5")
    child.expect_exact("your action> ")
    child.sendline("hello")
    child.expect_exact("unknown key 'hello'")
    child.expect_exact("your action> ")
    child.sendline("c")  # call the raise, then each street's bet down to the river
    for street in ("flop", "turn", "river"):
        child.expect_exact(f"-- {street}: ")
        child.expect_exact("MinRaiser bets 10")
        child.expect_exact("your action> ")
        child.sendline("c")
    bot_cards = cards_label(cards[2:4])
    child.expect_exact(f"showdown: MinRaiser shows {bot_cards}, you show {cards_label(cards[0:2])}")
    child.expect(r"you (won|lost) (\d+) chips\. running: ([+-]\d+) chips over 1 hands")
    first = int(child.match.group(3))
    child.expect_exact("you are small blind, act first")  # hand 2: the bot has the button
    child.expect_exact("your action> ")
    child.sendline("f")  # folding the small blind preflop: legal, 5 chips
    child.expect_exact(f"running: {first - 5:+d} chips over 2 hands")
    child.expect_exact("your action> ")
    child.sendline("q")
    child.expect_exact("hands played: 2  (the unfinished hand is not counted)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["hands"] == 2 and summary["seed"] == 7
    assert summary["players"] == ["human", "MinRaiser"]
    assert summary["chips"] == {"human": first - 5, "MinRaiser": 5 - first}
    assert summary["illegal_actions"] == {"human": 0, "MinRaiser": 0}
    rows = read_hands(out / "hands.csv")
    assert [row["won_A"] for row in rows] == [first, -5]
