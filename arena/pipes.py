"""Printing into a pipe whose reader leaves early, as ``python -m arena.lbr.report DIR | head``.

When the reader closes the pipe, the next write raises ``BrokenPipeError``; left alone, Python
prints its traceback, and prints another when it flushes standard output at exit. The
``arena`` commands end quietly there already (click catches the error). The reports run with
``python -m`` end the same way inside :func:`reader_may_leave`: standard output is pointed at
the null device, so the final flush has somewhere to go, and the process exits with status 1,
as click's do. The Python documentation's note on SIGPIPE describes the pattern.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def reader_may_leave() -> Iterator[None]:
    """Within the block, a closed standard output ends the process quietly (status 1)."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        raise SystemExit(1) from None
