"""Blueprint strategy files: a CSV of average strategies plus a JSON sidecar of parameters.

The CSV (optionally compressed: gzip ``.csv.gz``, or xz ``.csv.xz``, about half the size,
which is how the shipped tables fit the data budget) has a header row and one row per
information set: an ``info_set`` column holding the key of ``agent.abstraction.betting.infoset_key``
(``'AKs 555 rc'``) and one probability column per abstract action (``fold``, ``call``,
``raise_min`` ...). A probability cell is empty where the action is not available at that
info set; the available ones sum to 1 (to the written precision). The sidecar (same name,
``.json`` instead of ``.csv``/``.csv.gz``/``.csv.xz``) holds the format version, the game and
abstraction parameters, the iterations, seed and algorithm that made the table.

``clean`` drops the rows whose average strategy is still uniform over the available
actions (never updated, as da Luz cleans the bots' table in "Poker AI: Using Monte-Carlo CFR
with Monte-Carlo Simulations", Cardiff University, CM3203). An agent treats a
missing row as "no blueprint here" and falls back to its own rule.

This module needs only pandas and ``agent``, so the agent can load a blueprint without the
trainer.
"""

from __future__ import annotations

import json
import lzma
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

FORMAT = "pokerbot-blueprint-strategy"
FORMAT_VERSION = 1
KEY_COLUMN = "info_set"
DECIMALS = 3
SUFFIXES = (".csv.gz", ".csv.xz", ".csv")
XZ_PRESET = 6  # xz's default: an 8 MiB dictionary, decompressed in about 9 MiB (xz(1))
_TOLERANCE = 10.0**-DECIMALS


@dataclass(frozen=True, eq=False)
class StrategyTable:
    """Average strategies by info-set key, with the parameters that made them."""

    frame: pd.DataFrame  # indexed by info_set; one float column per action, NaN = unavailable
    meta: dict

    @property
    def action_names(self) -> tuple[str, ...]:
        """The probability columns, in action-index order."""
        return tuple(self.meta["action_names"])

    def strategy(self, key: str) -> dict[str, float] | None:
        """The available actions' probabilities at ``key``, or None if the row is absent."""
        if key not in self.frame.index:
            return None
        row = self.frame.loc[key, list(self.action_names)]
        return {name: float(p) for name, p in row.items() if not np.isnan(p)}


def sidecar_path(path: str | Path) -> Path:
    """The JSON sidecar of a strategy CSV.

    >>> sidecar_path("data/blueprint.csv.gz").as_posix()
    'data/blueprint.json'
    """
    path = Path(path)
    name = path.name
    for suffix in SUFFIXES:
        if name.endswith(suffix):
            return path.with_name(name[: -len(suffix)] + ".json")
    raise ValueError(f"strategy file {str(path)!r} must end in {', '.join(SUFFIXES)}")


def write_strategy(path: str | Path, frame: pd.DataFrame, meta: dict) -> Path:
    """Write the CSV (gzip if ``.gz``, xz if ``.xz``) and its sidecar; return the CSV path."""
    path = Path(path)
    sidecar = sidecar_path(path)
    names = list(meta["action_names"])
    missing = [name for name in [KEY_COLUMN, *names] if name not in frame.columns]
    if missing:
        raise ValueError(f"strategy table for {str(path)!r} lacks the columns {missing}")
    path.parent.mkdir(parents=True, exist_ok=True)
    columns = [KEY_COLUMN, *names]
    compression = {"method": "xz", "preset": XZ_PRESET} if path.name.endswith(".xz") else "infer"
    frame[columns].to_csv(path, index=False, float_format=f"%.{DECIMALS}f", compression=compression)
    full_meta = {"format": FORMAT, "format_version": FORMAT_VERSION, **meta, "rows": len(frame)}
    sidecar.write_text(json.dumps(full_meta, indent=2, sort_keys=True) + "\n")
    return path


def read_meta(path: str | Path) -> dict:
    """The sidecar of a strategy CSV, checked for its format and version."""
    sidecar = sidecar_path(path)
    if not sidecar.is_file():
        raise ValueError(f"strategy file {str(path)!r} has no sidecar {str(sidecar)!r}")
    try:
        meta = json.loads(sidecar.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"sidecar {str(sidecar)!r} is not valid JSON: {error}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ValueError(f"sidecar {str(sidecar)!r} is not a {FORMAT} file")
    if meta.get("format_version") != FORMAT_VERSION:
        raise ValueError(
            f"sidecar {str(sidecar)!r} has format version {meta.get('format_version')!r};"
            f" this program reads version {FORMAT_VERSION}"
        )
    if not isinstance(meta.get("action_names"), list) or not meta["action_names"]:
        raise ValueError(f"sidecar {str(sidecar)!r} does not list the action_names")
    return meta


def load_strategy(path: str | Path) -> StrategyTable:
    """Read and validate a strategy CSV and its sidecar.

    Raises ValueError naming the file for a missing or unreadable file, a sidecar that does
    not match the columns or row count, a duplicated key, or probabilities that are not a
    distribution.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"strategy file {str(path)!r} does not exist")
    meta = read_meta(path)
    names = list(meta["action_names"])
    try:
        frame = pd.read_csv(path, dtype={KEY_COLUMN: str}, keep_default_na=False, na_values=[""])
    except (OSError, ValueError, pd.errors.ParserError, EOFError, lzma.LZMAError) as error:
        raise ValueError(f"strategy file {str(path)!r} cannot be read as CSV: {error}") from None
    if list(frame.columns) != [KEY_COLUMN, *names]:
        raise ValueError(
            f"strategy file {str(path)!r} has columns {list(frame.columns)}, but its sidecar"
            f" says {[KEY_COLUMN, *names]}"
        )
    if "rows" in meta and meta["rows"] != len(frame):
        raise ValueError(
            f"strategy file {str(path)!r} has {len(frame)} rows, its sidecar says {meta['rows']}"
        )
    _check_probabilities(path, frame, names)
    duplicated = frame[KEY_COLUMN].duplicated()
    if duplicated.any():
        key = frame[KEY_COLUMN][duplicated].iloc[0]
        raise ValueError(f"strategy file {str(path)!r} repeats the info set {key!r}")
    return StrategyTable(frame.set_index(KEY_COLUMN), meta)


def _check_probabilities(path: Path, frame: pd.DataFrame, names: Sequence[str]) -> None:
    try:
        values = frame[list(names)].to_numpy(dtype=np.float64)
    except ValueError:
        raise ValueError(
            f"strategy file {str(path)!r} has a probability that is not a number"
        ) from None
    low = np.nanmin(values, axis=1, initial=np.inf) < 0
    high = np.nanmax(values, axis=1, initial=-np.inf) > 1
    sums = np.nansum(values, axis=1)
    bad = np.flatnonzero(low | high | (np.abs(sums - 1) > len(names) * _TOLERANCE))
    if len(bad):
        row = int(bad[0])
        raise ValueError(
            f"strategy file {str(path)!r}: the probabilities of {frame[KEY_COLUMN].iloc[row]!r}"
            f" (data row {row + 1}) are not a distribution (they sum to {sums[row]:.4f})"
        )


def uniform_rows(frame: pd.DataFrame, names: Sequence[str]) -> np.ndarray:
    """A mask of the rows whose available actions all have the same probability.

    >>> frame = pd.DataFrame({"fold": [np.nan, 0.5, 0.2], "call": [0.5, 0.5, 0.8]})
    >>> frame["raise_min"] = [0.5, np.nan, np.nan]
    >>> uniform_rows(frame, ["fold", "call", "raise_min"]).tolist()
    [True, True, False]
    """
    values = frame[list(names)].to_numpy(dtype=np.float64)
    spread = np.nanmax(values, axis=1) - np.nanmin(values, axis=1)
    return spread <= _TOLERANCE * 1.01


def clean(source: str | Path, target: str | Path) -> tuple[int, int]:
    """Copy a strategy file without its uniform rows; return the row counts before and after."""
    table = load_strategy(source)
    frame = table.frame.reset_index()
    keep = ~uniform_rows(frame, list(table.action_names))
    meta = {key: value for key, value in table.meta.items() if key != "rows"}
    meta.update(cleaned=True, rows_before_cleaning=len(frame))
    write_strategy(target, frame[keep], meta)
    return len(frame), int(keep.sum())
