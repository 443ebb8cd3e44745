"""The web application (Starlette): the table, the coach and the replays, as JSON and events.

``/`` is the page (static HTML, JavaScript and CSS from ``arena/web/static``). The table's
state is sent as server-sent events on ``/api/events`` (sse-starlette) and on request at
``/api/state``; the person acts with ``POST /api/action`` and deals the next hand with
``POST /api/next``; the first request for the state or the events deals the first hand
(:meth:`arena.web.game.WebTable.arrive`). A refused request gets its HTTP status and
``{"error": sentence}``, which the page shows; the game goes on. ``/api/coach?decision=N``
gives the coach's advice at the person's decision N, its actions named as the buttons name
them, and the rule that made it ("why"); ``/api/runs`` (the runs, and a sentence for each
folder given that holds no hand histories) and ``/api/replay?run=R&file=F`` the replays.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from arena.web.actions import ActionRejected, action_label
from arena.web.game import WebTable
from arena.web.replay import Run, find_runs, missing_histories, replay_file

STATIC = Path(__file__).parent / "static"
EVENT_POLL_SECONDS = 0.01


def refuse(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(table: WebTable | None = None, replay_roots: tuple[Path, ...] = ()) -> Starlette:
    """The application for a table (or none) and the folders of runs to replay."""

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def config(request: Request) -> Response:
        return JSONResponse({"table": table is not None, "replays": bool(replay_roots)})

    def needs_table() -> WebTable:
        if table is None:
            raise ActionRejected(404, "no table is open here: start it with arena serve BOT")
        return table

    async def state(request: Request) -> Response:
        live = needs_table()
        live.arrive()
        return JSONResponse(live.state())

    async def events(request: Request) -> Response:
        live = needs_table()
        live.arrive()

        async def stream() -> Any:
            seen = -1
            while not live.closing and not await request.is_disconnected():
                if live.version != seen:
                    snapshot = live.state()
                    seen = snapshot["version"]
                    yield {"event": "state", "data": json.dumps(snapshot)}
                await asyncio.sleep(EVENT_POLL_SECONDS)

        return EventSourceResponse(stream(), ping=15)

    async def action(request: Request) -> Response:
        live = needs_table()
        try:
            body = await request.json()
        except ValueError:
            return refuse(400, "the action is not JSON: send {decision, action, amount}")
        name, amount = live.submit(body)
        return JSONResponse({"action": name, "amount": amount})

    async def next_hand(request: Request) -> Response:
        live = needs_table()
        if live.status != "hand_over":
            return refuse(409, "the hand is not over yet: finish it first")
        live.next_hand()
        return JSONResponse({"ok": True})

    def asked_decision(request: Request) -> tuple[WebTable, int]:
        live = needs_table()
        if live.coach is None:
            raise ActionRejected(409, "this table has no coach (start it with --coach cfrv2)")
        number = request.query_params.get("decision", "")
        if not number.isdigit() or not 1 <= int(number) <= len(live.decisions):
            raise ActionRejected(404, f"there is no decision {number!r} of yours to look at")
        return live, int(number)

    async def coach(request: Request) -> Response:
        return JSONResponse(advice(*asked_decision(request)))

    async def coach_equity(request: Request) -> Response:
        live, number = asked_decision(request)
        return JSONResponse(await run_in_threadpool(equities, live, number))

    runs_cache: list[Run] = []

    def runs() -> list[Run]:
        if not runs_cache:
            runs_cache.extend(find_runs(list(replay_roots)))
        return runs_cache

    async def run_list(request: Request) -> Response:
        found = await run_in_threadpool(runs)
        listing = [
            {"run": run.number, "title": run.title, "files": [p.name for p in run.files()]}
            for run in found
        ]
        notices = await run_in_threadpool(missing_histories, list(replay_roots))
        return JSONResponse({"runs": listing, "notices": notices})

    async def replay(request: Request) -> Response:
        number, name = request.query_params.get("run", ""), request.query_params.get("file", "")
        found = await run_in_threadpool(runs)
        if not number.isdigit() or int(number) >= len(found):
            return refuse(404, f"there is no run {number!r}")
        try:
            return JSONResponse(await run_in_threadpool(replay_file, found[int(number)], name))
        except FileNotFoundError as error:
            return refuse(404, str(error))

    async def rejected(request: Request, error: Exception) -> Response:
        assert isinstance(error, ActionRejected)
        return refuse(error.status, str(error))

    return Starlette(
        routes=[
            Route("/", page),
            Route("/api/config", config),
            Route("/api/state", state),
            Route("/api/events", events),
            Route("/api/action", action, methods=["POST"]),
            Route("/api/next", next_hand, methods=["POST"]),
            Route("/api/coach", coach),
            Route("/api/coach/equity", coach_equity),
            Route("/api/runs", run_list),
            Route("/api/replay", replay),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={ActionRejected: rejected},
    )


def advice(table: WebTable, number: int) -> dict[str, Any]:
    """The coach's probabilities at the person's decision ``number`` (computed when asked)."""
    decision = table.decisions[number - 1]
    assert table.coach is not None
    options, advised = decision.options, decision.coach
    rows = None
    if advised is not None:
        rows = [
            {**row, "label": action_label(row["action"], row["amount"], options)}
            for row in advised.rows
        ]
    answer = decision.answer
    return {
        "decision": number,
        "hand": decision.hand + 1,
        "street": decision.round_state["street"],
        "coach": table.coach.spec,
        "probabilities": rows,
        "why": "" if advised is None else advised.why,
        "answer": None if answer is None else list(answer),
        "answer_label": None if answer is None else action_label(*answer, options),
    }


def equities(table: WebTable, number: int) -> dict[str, Any]:
    """The person's equity at decision ``number`` against each opponent's range as the
    coach reads it from the opponent's decisions before it."""
    decision = table.decisions[number - 1]
    assert table.coach is not None
    asks = table.asks_of_hand(decision.hand)[: decision.asks_before]
    rows = table.coach.equities(decision.hole_card, decision.round_state, table.my_uuid, asks)
    named = [
        {"name": table.names[row["uuid"]], "equity": row["equity"], "read": row["decisions_read"]}
        for row in rows
    ]
    return {"decision": number, "equities": named}
