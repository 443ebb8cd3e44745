"""Small blueprint files for the players' and the store's tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from agent.abstraction.betting import parse_actions
from agent.abstraction.strategy_file import write_strategy
from blueprint.holdem import HoldemConfig


def write_blueprint(
    path: Path, rows: dict[str, dict[str, float]], spec: str = "study", abstraction: str = "study"
) -> Path:
    """A blueprint CSV + sidecar with the given rows (unlisted actions are unavailable)."""
    config = HoldemConfig(abstraction=abstraction, actions=parse_actions(spec))
    names = list(config.actions.names)
    frame = pd.DataFrame(
        [{"info_set": key, **{name: probs.get(name, np.nan) for name in names}}
         for key, probs in rows.items()]
    )  # fmt: skip
    meta = {**config.to_json(), "iterations": 0, "seed": 0, "algorithm": "test"}
    return write_strategy(path, frame, meta)


STUDY_ROWS = {
    "AKs": {"fold": 0.0, "call": 0.0, "raise_min": 1.0},
    "72o": {"fold": 1.0, "call": 0.0, "raise_min": 0.0},
    "QQ c": {"call": 0.0, "raise_min": 1.0},
    "AKs AK5 cc": {"call": 0.0, "raise_min": 1.0},
    "AKs AK5 ccc": {"call": 0.0, "raise_min": 1.0},
}
