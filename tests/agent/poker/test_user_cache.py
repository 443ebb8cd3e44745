"""The project's cache folders follow the XDG base directory specification, and a variable of
their own overrides each."""

from __future__ import annotations

from pathlib import Path

from agent.poker.user_cache import user_cache_folder


def test_a_folder_is_its_variable_else_under_the_users_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("KEPT_TABLES", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_cache_folder("tables", "KEPT_TABLES") == (
        tmp_path / "home" / ".cache" / "pokerbot-cfr" / "tables"
    )
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert (
        user_cache_folder("tables", "KEPT_TABLES") == tmp_path / "xdg" / "pokerbot-cfr" / "tables"
    )
    monkeypatch.setenv("KEPT_TABLES", "/somewhere/else")
    assert user_cache_folder("tables", "KEPT_TABLES") == Path("/somewhere/else")
