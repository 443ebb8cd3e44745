"""The server refuses a malformed or stale action with a sentence, and the game goes on; the
first hand waits for the page; the coach names actions as the buttons do and says why."""

from __future__ import annotations

import csv
import time
from pathlib import Path

import httpx
import pytest

from arena.terminal_view import Choices
from arena.web.actions import ActionRejected, Pending, action_label, button_labels, checked_action
from arena.web.game import TableConfig, WebTable
from arena.web.server import Background

FACING = Pending(4, Choices(call_to=20, to_call=10, raise_min=30, raise_max=500))
NO_RAISE = Pending(4, Choices(call_to=500, to_call=480, raise_min=None, raise_max=None))
CRASHER = f"{Path(__file__).parents[1] / 'faulty_bots.py'}:Crasher:every=1"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"decision": 4, "action": "fold"}, ("fold", 0)),
        ({"decision": 4, "action": "call", "amount": 3}, ("call", 20)),  # the engine's amount
        ({"decision": 4, "action": "raise", "amount": 30}, ("raise", 30)),
        ({"decision": 4, "action": "raise", "amount": 500.0}, ("raise", 500)),
    ],
)
def test_legal_actions_get_the_engines_amounts(body, expected):
    assert checked_action(body, FACING) == expected


@pytest.mark.parametrize(
    ("body", "pending", "status", "words"),
    [
        ([1, 2], FACING, 400, "JSON object"),
        ({"decision": "4", "action": "call"}, FACING, 400, "whole number"),
        ({"decision": 4, "action": "check"}, FACING, 400, "fold, call or raise"),
        (
            {"decision": 4, "action": "raise", "amount": "lots"},
            FACING,
            400,
            "whole number of chips",
        ),
        ({"decision": 4, "action": "raise", "amount": 29}, FACING, 422, "between 30 and 500"),
        ({"decision": 4, "action": "raise", "amount": 501}, FACING, 422, "not 501"),
        ({"decision": 4, "action": "raise", "amount": 600}, NO_RAISE, 422, "no raise is possible"),
        ({"decision": 3, "action": "call"}, FACING, 409, "decision 3 is no longer open"),
        ({"decision": 4, "action": "call"}, None, 409, "nothing is asked of you"),
    ],
)
def test_refused_actions_say_why(body, pending, status, words):
    with pytest.raises(ActionRejected, match=words) as refused:
        checked_action(body, pending)
    assert refused.value.status == status


def wait_for(client: httpx.Client, condition, seconds: float = 10.0) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = client.get("/api/state").json()
        if condition(state):
            return state
        time.sleep(0.01)
    raise AssertionError(f"the table never reached the state asked for: {state}")


def test_bad_requests_get_4xx_and_the_hand_goes_on(tmp_path: Path):
    table = WebTable(TableConfig(("fish",), hands=1, seed=3, coach=None), tmp_path)
    with Background(table) as server, httpx.Client(base_url=server.url) as client:
        state = wait_for(client, lambda s: s["decision"] is not None)
        number = state["decision"]["number"]
        malformed = client.post("/api/action", content=b"{not json")
        assert malformed.status_code == 400
        assert malformed.json() == {
            "error": "the action is not JSON: send {decision, action, amount}"
        }
        stale = client.post("/api/action", json={"decision": number + 5, "action": "call"})
        assert stale.status_code == 409
        assert (
            f"decision {number + 5} is no longer open (decision {number} is)"
            in (stale.json()["error"])
        )
        early = client.post("/api/next")
        assert early.status_code == 409 and "not over" in early.json()["error"]
        assert client.get("/api/coach?decision=1").status_code == 409  # no coach at this table
        # the decision is still open after the refusals, and the hand goes on to its end
        while state["status"] != "hand_over":
            if state["decision"] is not None:
                answer = {"decision": state["decision"]["number"], "action": "call"}
                assert client.post("/api/action", json=answer).status_code == 200
                again = client.post("/api/action", json=answer)  # a second click
                assert again.status_code == 409
            state = wait_for(client, lambda s, n=state["version"]: s["version"] > n)
        result = table.results[0]
        assert sum(result.won.values()) == 0
        assert state["last"]["won"] == {"you": result.won["A"], "fish": result.won["B"]}
        assert (tmp_path / "hands.csv").read_text().count("\n") == 2  # header and the hand
        assert (tmp_path / "phh" / "hand-0000000.phh").is_file()


def test_a_crashing_bot_is_counted_and_folded_at_a_table_of_three(tmp_path: Path):
    table = WebTable(TableConfig((CRASHER, "fish"), hands=1, seed=4, coach=None), tmp_path)
    with Background(table) as server, httpx.Client(base_url=server.url) as client:
        state = wait_for(client, lambda s: s["decision"] is not None or s["status"] == "hand_over")
        while state["status"] != "hand_over":
            if state["decision"] is not None:
                answer = {"decision": state["decision"]["number"], "action": "call"}
                assert client.post("/api/action", json=answer).status_code == 200
            state = wait_for(client, lambda s, n=state["version"]: s["version"] > n)
    result = table.results[0]
    crashes = len(result.errors["B"])
    assert crashes == 1  # its only decision: it crashed, and the seat folded for it
    assert result.actions.count("B:FOLD") == 1
    assert sum(result.won.values()) == 0
    assert state["last"]["errors"] == {table.names_by_slot["B"]: crashes}
    with (tmp_path / "hands.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [int(rows[0][f"errors_{slot}"]) for slot in "ABC"] == [0, crashes, 0]
    assert [int(rows[0][f"won_{slot}"]) for slot in "ABC"] == [result.won[s] for s in "ABC"]


@pytest.mark.parametrize(
    ("action", "options", "label"),
    [
        (("fold", 0), FACING.options, "Fold"),
        (("call", 20), FACING.options, "Call 10"),  # the engine's street total; the button's cost
        (("raise", 30), FACING.options, "Raise to 30"),
        (("raise", 500), FACING.options, "All-in (500)"),
        (("call", 0), Choices(call_to=0, to_call=0, raise_min=10, raise_max=990), "Check"),
        (("call", 10), Choices(call_to=10, to_call=0, raise_min=15, raise_max=990), "Check"),
        (("call", 500), NO_RAISE.options, "Call 480"),
    ],
)
def test_actions_are_named_as_the_buttons_name_them(action, options, label):
    assert action_label(*action, options) == label


def test_the_buttons_are_labelled_by_the_same_function():
    assert button_labels(FACING.options) == {
        "fold": "Fold",
        "call": "Call 10",
        "all_in": "All-in (500)",
    }
    assert button_labels(NO_RAISE.options)["all_in"] is None


def test_the_first_hand_waits_for_the_page_and_a_fold_deals_no_board(tmp_path: Path):
    # the crasher sits in the small blind of hand 1 and acts first: it folds at once, so a
    # hand dealt before the page's first request would be over before anyone saw it
    table = WebTable(TableConfig((CRASHER,), hands=1, seed=3, coach=None), tmp_path)
    with Background(table) as server, httpx.Client(base_url=server.url) as client:
        time.sleep(0.3)
        assert table.results == [] and table.round_state is None
        assert table.status == "waiting"
        state = wait_for(client, lambda s: s["status"] == "hand_over")
    assert state["played"] == 1 and state["last"]["showdown"] is False
    final = state["last"]["table"]
    assert final["board"] == [] and final["street"] == "preflop"
    assert len(table.engine.proxies["A"].last_result["round_state"]["community_card"]) == 5


def test_a_fold_on_the_flop_shows_the_flop_alone(tmp_path: Path):
    table = WebTable(TableConfig(("fish",), hands=1, seed=3, coach=None), tmp_path)
    with Background(table) as server, httpx.Client(base_url=server.url) as client:
        state = wait_for(client, lambda s: s["decision"] is not None)
        chips = sum(seat["stack"] for seat in state["table"]["seats"]) + state["table"]["pot"]
        while state["status"] != "hand_over":
            if state["decision"] is not None:
                action = "call" if state["table"]["street"] == "preflop" else "fold"
                answer = {"decision": state["decision"]["number"], "action": action}
                assert client.post("/api/action", json=answer).status_code == 200
            state = wait_for(client, lambda s, n=state["version"]: s["version"] > n)
    final = state["last"]["table"]
    assert final["street"] == "flop" and len(final["board"]) == 3
    assert state["last"]["showdown"] is False
    # the stacks hold the paid pot, so the felt shows each chip once
    assert final["pot"] == 0 and all(seat["bet"] == 0 for seat in final["seats"])
    assert sum(seat["stack"] for seat in final["seats"]) == chips
    assert final["paid"] == 2 * 10  # the blinds, called: the person folded on the flop


def test_the_coachs_advice_names_the_buttons_and_says_why(tmp_path: Path):
    table = WebTable(TableConfig(("fish",), hands=1, seed=3, coach="cfrv2"), tmp_path)
    with Background(table) as server, httpx.Client(base_url=server.url) as client:
        state = wait_for(client, lambda s: s["decision"] is not None, seconds=30)
        number, labels = state["decision"]["number"], state["decision"]["labels"]
        answer = {"decision": number, "action": "call"}
        assert client.post("/api/action", json=answer).status_code == 200
        advice = client.get(f"/api/coach?decision={number}").json()
    assert advice["why"].startswith("blueprint")  # the rule that made cfrv2's preflop answer
    options = table.decisions[number - 1].options
    for row in advice["probabilities"]:
        assert row["label"] == action_label(row["action"], row["amount"], options)
    calls = [row["label"] for row in advice["probabilities"] if row["action"] == "call"]
    assert calls == [labels["call"]]
    assert advice["answer_label"] == labels["call"]
