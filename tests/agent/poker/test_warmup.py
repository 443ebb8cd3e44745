"""The warm-up's test of a cold cache: a kernel without an index, or with one older than its
source, is cold; the real kernels' indexes are numba's own files."""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from agent.poker.warmup import KERNELS, cache_is_cold


def fake_module(tmp_path: Path) -> ModuleType:
    module = ModuleType("fake")
    module.__file__ = str(tmp_path / "fake.py")
    Path(module.__file__).write_text("")
    index = tmp_path / "fake.kernel-1.py311.nbi"
    module.kernel = SimpleNamespace(  # type: ignore[attr-defined]
        _cache=SimpleNamespace(_cache_file=SimpleNamespace(_index_path=str(index)))
    )
    return module


def test_a_kernel_is_cold_without_an_index_or_with_one_older_than_its_source(
    tmp_path: Path,
) -> None:
    module = fake_module(tmp_path)
    kernels = [(module, ("kernel",))]
    assert cache_is_cold(kernels)
    index = tmp_path / "fake.kernel-1.py311.nbi"
    index.write_text("")
    os.utime(module.__file__, (1_000, 1_000))
    assert not cache_is_cold(kernels)
    os.utime(index, (500, 500))  # compiled before the source last changed
    assert cache_is_cold(kernels)


def test_the_listed_kernels_exist_and_name_numbas_index_files() -> None:
    for module, names in KERNELS:
        for name in names:
            index = Path(getattr(module, name)._cache._cache_file._index_path)
            assert index.name.startswith(f"{module.__name__.rsplit('.', 1)[1]}.{name}-")
            assert index.suffix == ".nbi"


def test_warm_ups_take_turns_on_a_lock_beside_the_cache(tmp_path: Path) -> None:
    import fcntl

    from agent.poker.warmup import one_at_a_time

    kernels = [(fake_module(tmp_path), ("kernel",))]
    with (
        one_at_a_time(kernels),
        (tmp_path / "warmup.lock").open("a") as other,
        pytest.raises(BlockingIOError),
    ):
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
    with (tmp_path / "warmup.lock").open("a") as other:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free once the block is done
