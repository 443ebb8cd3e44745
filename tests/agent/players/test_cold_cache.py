"""A player built where numba has not compiled its kernels says so, and names ``arena warmup``."""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from agent import CFRv2Player
from blueprint.subgame import warmup


def kernels_in(tmp_path: Path, compiled: bool) -> tuple[tuple[ModuleType, tuple[str, ...]], ...]:
    """One fake kernel whose numba index exists and is newer than its source, or is missing."""
    module = ModuleType("fake")
    module.__file__ = str(tmp_path / "fake.py")
    Path(module.__file__).write_text("")
    os.utime(module.__file__, (1_000, 1_000))
    index = tmp_path / "fake.kernel-1.py311.nbi"
    if compiled:
        index.write_text("")
    module.kernel = SimpleNamespace(  # type: ignore[attr-defined]
        _cache=SimpleNamespace(_cache_file=SimpleNamespace(_index_path=str(index)))
    )
    return ((module, ("kernel",)),)


def test_a_player_on_a_cold_cache_warns_once_and_names_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(warmup, "KERNELS", kernels_in(tmp_path, compiled=False))
    with pytest.warns(warmup.ColdCacheWarning, match="arena warmup"):
        CFRv2Player(seed=0)


def test_a_player_on_a_filled_cache_or_without_the_jit_says_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(warmup, "KERNELS", kernels_in(tmp_path, compiled=True))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        CFRv2Player(seed=0)
        plain = ModuleType("plain")
        plain.__file__ = __file__
        plain.kernel = lambda: None  # type: ignore[attr-defined]
        monkeypatch.setattr(warmup, "KERNELS", ((plain, ("kernel",)),))
        assert warmup.warn_if_cold() is False
