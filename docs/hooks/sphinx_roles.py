"""A MkDocs hook: Sphinx cross-reference roles in docstrings render as plain code.

The docstrings name other objects as ``:class:`agent.players.player.CFRPlayer```, as Sphinx
writes them; mkdocstrings renders the backquoted name as code and leaves the role's prefix as
text. This hook drops the prefix from each page's HTML, so the API reference reads
``agent.players.player.CFRPlayer``.
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:mod|class|func|meth|attr|data|exc|obj|const):(?=<code)")


def on_page_content(html: str, **_: Any) -> str:
    """The page's HTML without the role prefixes before inline code."""
    return ROLE.sub("", html)
