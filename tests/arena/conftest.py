"""Shared test tools for the arena."""

import pytest

from arena.match import run_local


@pytest.fixture
def interrupted_after():
    """A factory of chunk runners that play ``tasks`` tasks, then raise KeyboardInterrupt."""

    def make(tasks: int):
        def runner(config, chunks, workers):
            for number, batch in enumerate(run_local(config, chunks, workers)):
                if number == tasks:
                    raise KeyboardInterrupt
                yield batch

        return runner

    return make
