"""The training loop: the compiled solver equals the Python oracle, resume, workers, CSV, CLI."""

from __future__ import annotations

import gzip
import json
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from agent.abstraction.betting import GameConfig, parse_actions, replay
from agent.abstraction.strategy_file import clean, load_strategy, uniform_rows, write_strategy
from agent.poker.hand_strength import river_strength
from blueprint.commands.cli import main
from blueprint.commands.train import available_cores, recorded_command, train_command
from blueprint.export import strategy_frame
from blueprint.holdem import HoldemConfig, deal_cards, sample_deals
from blueprint.train import TrainConfig, Trainer, load_checkpoint, save_checkpoint
from tests.blueprint.reference_mccfr import reference_iterations

SMALL = HoldemConfig(GameConfig(stack=40), parse_actions("allin:1"))


def test_compiled_chance_sampling_equals_the_python_reference() -> None:
    # 20 big blinds deep: min-raises on every street in a tree of 20 MB a table, not 400
    config = HoldemConfig(GameConfig(stack=20), parse_actions("min,allin:2"))
    trainer = Trainer(config, TrainConfig(iterations=150, streams=1, batch=60))  # 60, 60, 30
    trainer.run()
    stream = trainer.streams[0]
    regret, strategy_sum = trainer.tree.new_table(), trainer.tree.new_table()
    buckets, showdown = sample_deals(config, stream.seed, 0, 150)
    value = reference_iterations(trainer.tree, regret, strategy_sum, buckets, showdown, 1)
    trained_regret, trained_strategy_sum = trainer.tables(0)
    assert np.allclose(trained_regret, regret, rtol=1e-12, atol=1e-9)
    assert np.allclose(trained_strategy_sum, strategy_sum, rtol=1e-12, atol=1e-9)
    assert stream.value_sum == pytest.approx(value, rel=1e-12)
    assert np.abs(regret).sum() > 0


def test_resume_equals_uninterrupted(tmp_path: Path) -> None:
    config = TrainConfig(iterations=900, seed=5, streams=2, batch=100, algorithm="external")
    whole = Trainer(SMALL, config)
    whole.run()
    part = Trainer(SMALL, config)
    part.run(stop_after=500)
    save_checkpoint(part, tmp_path)
    resumed = load_checkpoint(tmp_path)
    assert resumed.done == 500
    resumed.run()
    for a, b in zip(whole.streams, resumed.streams, strict=True):
        assert np.array_equal(a.regret, b.regret)
        assert np.array_equal(a.strategy_sum, b.strategy_sum)
        assert a.value_sum == b.value_sum


def test_the_result_does_not_depend_on_the_worker_count() -> None:
    config = TrainConfig(iterations=2000, seed=1, streams=3, batch=300)
    one, two = Trainer(SMALL, config), Trainer(SMALL, config)
    one.run(workers=1)
    two.run(workers=2)
    assert np.array_equal(one.strategy_sum(), two.strategy_sum())
    assert one.done == two.done == 2000


def _trained(iterations: int = 3000) -> tuple[Trainer, pd.DataFrame]:
    trainer = Trainer(SMALL, TrainConfig(iterations=iterations, seed=2, batch=1000))
    trainer.run()
    return trainer, strategy_frame(trainer.tree, SMALL, trainer.strategy_sum())


def test_exported_rows_are_distributions_over_the_legal_actions() -> None:
    _, frame = _trained()
    names = list(SMALL.actions.names)
    values = frame[names].to_numpy()
    assert np.allclose(np.nansum(values, axis=1), 1.0)
    assert (np.nan_to_num(values) >= 0).all()
    preflop = frame[frame.info_set.str.count(" ") == 0]
    assert len(preflop) == 169  # every hole class at the first decision
    for key in frame.info_set.sample(50, random_state=0):
        history = key.rsplit(" ", 1)[1] if key.count(" ") else ""
        state = replay(SMALL.game, SMALL.actions, history)
        assert not state.terminal
        owed = state.raise_to > state.street[state.to_act]
        assert np.isnan(frame.set_index("info_set").loc[key, "fold"]) == (not owed)


def test_clean_drops_exactly_the_uniform_rows(tmp_path: Path) -> None:
    _, frame = _trained()
    names = list(SMALL.actions.names)
    source = write_strategy(tmp_path / "bp.csv.gz", frame, {"action_names": names})
    loaded = load_strategy(source).frame.reset_index()
    uniform = uniform_rows(loaded, names)
    assert 0 < uniform.sum() < len(loaded)
    before, after = clean(source, tmp_path / "clean.csv")
    assert (before, after) == (len(loaded), int((~uniform).sum()))
    kept = load_strategy(tmp_path / "clean.csv")
    assert set(kept.frame.index) == set(loaded.info_set[~uniform])
    assert json.loads((tmp_path / "clean.json").read_text())["cleaned"] is True


def test_bad_strategy_files_name_the_file_and_the_problem(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"missing\.csv' does not exist"):
        load_strategy(tmp_path / "missing.csv")
    names = ["fold", "call"]
    frame = pd.DataFrame({"info_set": ["AA", "KK"], "fold": [0.5, np.nan], "call": [0.5, 1.0]})
    path = write_strategy(tmp_path / "ok.csv", frame, {"action_names": names})
    assert load_strategy(path).strategy("KK") == {"call": 1.0}
    path.with_suffix(".json").unlink()
    with pytest.raises(ValueError, match="has no sidecar"):
        load_strategy(path)
    path = write_strategy(tmp_path / "bad.csv", frame, {"action_names": names})
    sidecar = json.loads((tmp_path / "bad.json").read_text())
    (tmp_path / "bad.json").write_text(json.dumps({**sidecar, "action_names": ["fold", "raise"]}))
    with pytest.raises(ValueError, match=r"bad\.csv' has columns"):
        load_strategy(path)
    frame.loc[0, "call"] = 0.9
    path = write_strategy(tmp_path / "sum.csv", frame, {"action_names": names})
    with pytest.raises(ValueError, match=r"'AA'.*not a distribution"):
        load_strategy(path)
    corrupt = tmp_path / "corrupt.csv.gz"
    corrupt.write_bytes(b"not gzip at all")
    write_strategy(tmp_path / "tmp.csv", frame, {"action_names": names})
    (tmp_path / "corrupt.json").write_text((tmp_path / "tmp.json").read_text())
    with pytest.raises(ValueError, match=r"corrupt\.csv\.gz' cannot be read"):
        load_strategy(corrupt)


def test_recorded_paths_are_relative_to_the_working_directory(tmp_path: Path) -> None:
    inside = recorded_command(train_command.params, {"out": tmp_path / "a" / "b.csv"}, tmp_path)
    assert inside == "blueprint train --out a/b.csv"
    outside = recorded_command(train_command.params, {"out": Path("/elsewhere/c.csv")}, tmp_path)
    assert outside == "blueprint train --out c.csv"


def test_training_uses_every_core_by_default(tmp_path: Path, monkeypatch) -> None:
    used = []
    run = Trainer.run

    def counted_run(self: Trainer, workers: int, *rest) -> None:
        used.append(workers)
        run(self, workers, *rest)

    monkeypatch.setattr(Trainer, "run", counted_run)
    out = tmp_path / "bp.csv"
    options = ["--stack", "40", "--actions", "allin:1", "--batch", "100", "--iterations", "200"]
    result = CliRunner().invoke(main, ["train", *options, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert used == [available_cores()] == [len(os.sched_getaffinity(0))]


def test_cli_train_info_clean_and_resume(tmp_path: Path) -> None:
    runner = CliRunner()
    out, checkpoint = tmp_path / "bp.csv.gz", tmp_path / "ck"
    base = ["train", "--stack", "40", "--actions", "allin:1", "--batch", "500", "--seed", "3"]
    result = runner.invoke(
        main, [*base, "--iterations", "1000", "--out", str(out), "--checkpoint", str(checkpoint)]
    )
    assert result.exit_code == 0, result.output
    meta = json.loads((tmp_path / "bp.json").read_text())
    assert (meta["iterations"], meta["seed"], meta["actions"]) == (1000, 3, "allin:1")
    assert str(tmp_path) not in meta["command"] and "--checkpoint" not in meta["command"]
    assert meta["command"].startswith("blueprint train --iterations 1000 --abstraction study")
    assert "--seed 3 " in meta["command"] and meta["command"].endswith("--min-reach 0.05")
    assert "--out bp.csv.gz" in meta["command"]  # outside the working directory: its name
    with gzip.open(out, "rt") as handle:
        assert handle.readline().strip() == "info_set,fold,call,raise_allin"
    result = runner.invoke(main, ["info", str(out)])
    counts = re.search(r"rows +([\d,]+): preflop ([\d,]+), flop ([\d,]+)", result.output)
    rows, preflop, flop = (int(group.replace(",", "")) for group in counts.groups())
    assert rows == preflop + flop == meta["rows"] and 0 < preflop <= 4 * 169  # 4 decisions
    result = runner.invoke(
        main,
        [*base, "--iterations", "2000", "--out", str(out), "--checkpoint", str(checkpoint),
         "--resume"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "bp.json").read_text())["iterations"] == 2000
    result = runner.invoke(main, ["clean", str(out), str(tmp_path / "clean.csv.gz")])
    assert result.exit_code == 0 and "uniform" in result.output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--actions", "huge"], "'huge'"),
        (["--stack", "5"], "stack 5"),
        (["--resume"], "--resume needs --checkpoint"),
        (["--out", "strategy.txt"], "must end in .csv"),
        (["--turn-buckets", "8"], "need --streets 4"),
        (["--prune", "0.5"], "pruning is for external sampling"),
        (["--streets", "3"], "'3' is not one of '2', '4'"),
    ],
)
def test_cli_bad_options(tmp_path: Path, arguments: list[str], message: str) -> None:
    out = ["--out", str(tmp_path / "x.csv")] if "--out" not in arguments else []
    result = CliRunner().invoke(main, ["train", "--iterations", "10", *out, *arguments])
    assert result.exit_code == 2 and message in result.output


def test_ehs_blueprint_keys_parse_back_to_buckets_and_histories() -> None:
    config = HoldemConfig(GameConfig(stack=40), parse_actions("half,allin:1"), "ehs20")
    trainer = Trainer(config, TrainConfig(iterations=3000, seed=4, algorithm="external"))
    trainer.run()
    frame = strategy_frame(trainer.tree, config, trainer.strategy_sum())
    flop = frame[~frame.info_set.str.split(" ").str[0].str.match(r"^[2-9TJQKA]{2}[so]?$")]
    assert len(flop) > 0
    for key in flop.info_set:
        label, history = key.split(" ")
        assert 0 <= config.cards.parse_label(1, label) < 20
        assert replay(config.game, config.actions, history).round == 1


FOUR_STREETS = HoldemConfig(
    GameConfig(stack=40, rounds=4), parse_actions("allin:1"), "ehs20", turn_buckets=8,
    river_buckets=6,
)  # fmt: skip


def test_four_street_deals_bucket_turn_and_river_by_exact_equity() -> None:
    buckets, showdown = sample_deals(FOUR_STREETS, seed=2, first=7, count=5)
    two = HoldemConfig(GameConfig(stack=40), FOUR_STREETS.actions, "ehs20")
    flop_only, same_showdown = sample_deals(two, seed=2, first=7, count=5)
    assert np.array_equal(buckets[:, :, :2], flop_only) and np.array_equal(showdown, same_showdown)
    cards = np.empty(9, dtype=np.int64)
    for d in range(5):
        deal_cards(2, 7 + d, cards)
        for player in range(2):
            hole = [int(c) for c in cards[2 * player : 2 * player + 2]]
            board = [int(c) for c in cards[4:]]
            turn = sum(river_strength(hole, [*board[:4], r]) for r in range(52)
                       if r not in (*hole, *board[:4]))  # fmt: skip
            assert buckets[d, player, 2] == min(turn * 8 // (46 * 1980), 7)
            assert buckets[d, player, 3] == min(river_strength(hole, board) * 6 // 1980, 5)
            # the player's card abstraction reads the same buckets from the same cards
            assert FOUR_STREETS.cards.bucket(hole, board[:4]) == buckets[d, player, 2]
            assert FOUR_STREETS.cards.bucket(hole, board) == buckets[d, player, 3]


def test_cli_trains_four_streets_and_info_reads_them(tmp_path: Path) -> None:
    out = tmp_path / "bp4.csv"
    options = ["--streets", "4", "--stack", "40", "--actions", "allin:1", "--abstraction",
               "ehs20", "--turn-buckets", "8", "--river-buckets", "6", "--iterations", "300",
               "--batch", "150", "--algorithm", "external", "--regret", "rm",
               "--linear-regrets", "--prune", "0.9", "--prune-after", "100", "--min-reach",
               "0"]  # fmt: skip
    result = CliRunner().invoke(main, ["train", *options, "--out", str(out)])
    assert result.exit_code == 0, result.output
    meta = json.loads((tmp_path / "bp4.json").read_text())
    assert (meta["rounds"], meta["turn_buckets"], meta["river_buckets"]) == (4, 8, 6)
    assert "--streets 4" in meta["command"] and (meta["prune"], meta["prune_after"]) == (0.9, 100)
    result = CliRunner().invoke(main, ["info", str(out)])
    counts = re.search(
        r"rows +([\d,]+): preflop ([\d,]+), flop ([\d,]+), turn ([\d,]+), river ([\d,]+)",
        result.output,
    )
    rows, *streets = (int(group.replace(",", "")) for group in counts.groups())
    assert rows == sum(streets) == meta["rows"] and min(streets) > 0
    frame = load_strategy(out).frame
    for key in frame.index:
        label, history = key.split(" ") if " " in key else (key, "")
        round_index = replay(FOUR_STREETS.game, FOUR_STREETS.actions, history).round
        expected = {0: r"^[2-9TJQKA]{2}[so]?$", 1: r"^E\d+$", 2: r"^U[0-7]$", 3: r"^R[0-5]$"}
        assert re.match(expected[round_index], label), key
