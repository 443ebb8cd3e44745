"""Compile the agent's kernels before any test where numba's cache lacks them (after an edit to
a kernel's module): a player built on a cold cache would play without them until a separate
process had compiled them, and the tests read the whole strategy."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config, "workerinput", None) is None and config.getoption("numprocesses", None):
        return  # the controller of the test workers runs no test
    from blueprint.subgame.warmup import is_cold, warm_up

    if is_cold():
        warm_up()


@pytest.fixture(autouse=True, scope="session")
def blueprint_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Parsed blueprints are kept in a folder of the test session's own, never the user's."""
    from agent.players.blueprint_cache import CACHE_VARIABLE

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_VARIABLE, str(tmp_path_factory.mktemp("blueprint-cache")))
        yield
