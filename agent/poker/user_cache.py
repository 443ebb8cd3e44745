"""The project's folders in the user's cache: where a machine keeps what it derives once.

A folder is ``$VARIABLE`` where that is set, else ``pokerbot-cfr/NAME`` in the user's cache
(``$XDG_CACHE_HOME``, else ``~/.cache``, as the XDG base directory specification says).
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_FOLDER = "pokerbot-cfr"


def user_cache_folder(name: str, variable: str) -> Path:
    """The cache folder ``name``, or the folder the environment variable ``variable`` names."""
    configured = os.environ.get(variable)
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / PROJECT_FOLDER / name
