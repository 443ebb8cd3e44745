"""``arena table --backend ray`` starts one Ray instance for all its pairs, not one a pair, and
shuts it down at the end. Skipped when ray is absent."""

import pytest
from click.testing import CliRunner

from arena.commands.cli import main

ray = pytest.importorskip("ray")


def test_a_table_on_ray_starts_ray_once_for_its_three_pairs(tmp_path, monkeypatch):
    ray.shutdown()  # no instance left by another module's tests
    starts: list[dict] = []
    real_init = ray.init

    def counted_init(**options):
        starts.append(options)
        return real_init(**options)

    monkeypatch.setattr(ray, "init", counted_init)
    args = ["table", "fish", "random", "rule-based", "--hands", "4", "--seed", "3", "--quiet"]
    args += ["--workers", "2", "--backend", "ray", "--out", str(tmp_path / "t")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert len(starts) == 1 and starts[0]["num_cpus"] == 2
    assert not ray.is_initialized()
    assert len([folder for folder in (tmp_path / "t").iterdir() if folder.is_dir()]) == 3
