"""The server refuses a malformed or stale action with a sentence, and the game goes on."""

from __future__ import annotations

import csv
import time
from pathlib import Path

import httpx
import pytest

from arena.terminal_view import Choices
from arena.web.actions import ActionRejected, Pending, checked_action
from arena.web.game import TableConfig, WebTable
from arena.web.server import Background

FACING = Pending(4, Choices(call_to=20, to_call=10, raise_min=30, raise_max=500))
NO_RAISE = Pending(4, Choices(call_to=500, to_call=480, raise_min=None, raise_max=None))


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
    crasher = f"{Path(__file__).parents[1] / 'faulty_bots.py'}:Crasher:every=1"
    table = WebTable(TableConfig((crasher, "fish"), hands=1, seed=4, coach=None), tmp_path)
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
