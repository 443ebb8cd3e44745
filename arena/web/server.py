"""Serve the web application on the loopback interface with uvicorn.

:func:`serve` blocks until Ctrl-C (the ``arena serve`` command); :class:`Background` runs the
same server in a thread of this process (tests, notebooks) and stops it on request.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import uvicorn

from arena.web.app import create_app
from arena.web.game import WebTable

HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def server_for(
    table: WebTable | None, replay_roots: tuple[Path, ...], port: int, host: str = HOST
) -> uvicorn.Server:
    app = create_app(table, replay_roots)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=1,  # the page's event stream stays open until it is closed
    )
    return uvicorn.Server(config)


def serve(table: WebTable | None, replay_roots: tuple[Path, ...], port: int) -> None:
    """Run until interrupted; the table's worker is stopped after (its hands are saved)."""
    if table is not None:
        table.start()
    try:
        server_for(table, replay_roots, port).run()
    finally:
        if table is not None:
            table.close()


class Background:
    """The server in a thread of this process, on ``port`` (0: any free port)."""

    def __init__(
        self, table: WebTable | None, replay_roots: tuple[Path, ...] = (), port: int = 0
    ) -> None:
        self.table = table
        self.server = server_for(table, replay_roots, port)
        self.thread = threading.Thread(target=self.server.run, name="web-server", daemon=True)

    def __enter__(self) -> Background:
        if self.table is not None:
            self.table.start()
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            time.sleep(0.01)
        return self

    @property
    def url(self) -> str:
        socket = self.server.servers[0].sockets[0]
        host, port = socket.getsockname()[:2]
        return f"http://{host}:{port}"

    def __exit__(self, *exc: object) -> None:
        if self.table is not None:
            self.table.close()  # first: it ends the page's event stream
        self.server.should_exit = True
        self.thread.join(timeout=5)
