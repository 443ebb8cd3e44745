"""Runs' hand histories, replayed hand by hand and street by street for the page.

A run is a folder of PHH files written by the arena (:mod:`arena.phh`): ``arena tournament
--phh DIR`` (``tournament-<index>.phhs``, one file per tournament), ``arena run`` of a ring
game with ``--phh DIR`` (``hand-<index>.phh``), or the web table's ``phh/`` folder. The
players are named by slot (A, B, ...) in the files; their names, and for a tournament each
player's finishing place, come from the run's own files when they are found beside the PHH
folder or in the folder given: ``tournament.json`` and ``tournaments.csv``, ``ring.json``,
or the web table's ``players.json``. A run folder whose ``tournament.json`` or ``ring.json``
names its PHH folder (``phh_dir``) is followed there.

A folder given that holds no hand histories is not passed over in silence:
:func:`missing_histories` says so, and how to get them. Runs write PHH files only when asked
(``--phh DIR``), so that a long run does not fill a disk with files nobody replays; a
heads-up ``arena run`` writes none (its hands are in ``hands.csv``).

Each hand is replayed by pokerkit (``HandHistory`` iteration, its own rules engine): the
board, pot, stacks and street bets after every action. The stacks shown after the hand are
the ``finishing_stacks`` PyPokerEngine paid (pokerkit may pay a few hands differently, see
:mod:`arena.phh`); a hand pokerkit refuses is shown as its action lines alone.
"""

from __future__ import annotations

import csv
import json
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.roundrobin import labels_by_slot
from arena.web.view import HEADS_UP_NOTE, plural

if TYPE_CHECKING:  # pokerkit takes most of a second to import: only a replay loads it
    from pokerkit import HandHistory

SUFFIXES = (".phh", ".phhs")
META_FILES = ("tournament.json", "ring.json", "players.json")
STREET_OF_BOARD = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}
HOW_TO_GET_THEM = (
    "Hand histories (PHH files) are written by arena tournament BOTS --phh DIR, by arena run"
    " with 3 to 10 bots and --phh DIR, and by the web table (in its phh/ folder); a heads-up"
    " arena run writes none (its hands are in hands.csv)."
)
WHAT_RAN = {
    "match.json": "it is a heads-up arena run",
    "tournament.json": "its tournaments ran without --phh",
    "ring.json": "its ring game ran without --phh",
}


@dataclass(frozen=True)
class Run:
    """A folder of PHH files and what names its players."""

    number: int
    phh_dir: Path
    title: str
    names: dict[str, str]  # slot -> name
    places: dict[int, dict[str, int]]  # tournament index -> slot -> place

    def files(self) -> list[Path]:
        return sorted(p for p in self.phh_dir.iterdir() if p.suffix in SUFFIXES)


def phh_dir_of(folder: Path) -> Path | None:
    """The PHH folder of ``folder``: itself if it holds PHH files, the ``phh_dir`` its run
    file names, or its ``phh/`` subfolder; None if there is none."""
    if any(p.suffix in SUFFIXES for p in folder.iterdir()):
        return folder
    for name in ("tournament.json", "ring.json"):
        path = folder / name
        if path.is_file():
            phh = json.loads(path.read_text(encoding="utf-8")).get("phh_dir")
            if phh and Path(phh).is_dir():
                return Path(phh)
    if (folder / "phh").is_dir():
        return folder / "phh"
    return None


def find_runs(roots: list[Path]) -> list[Run]:
    """Every run in ``roots``: each root that is a run, else each subfolder that is one."""
    runs: list[Run] = []
    for root in roots:
        if not root.is_dir():
            raise ValueError(f"{str(root)!r} is not a folder of hand histories")
        candidates = [root] if phh_dir_of(root) else sorted(p for p in root.iterdir() if p.is_dir())
        for folder in candidates:
            phh = phh_dir_of(folder)
            if phh is not None:
                runs.append(load_run(len(runs), folder, phh))
    return runs


def missing_histories(roots: list[Path]) -> list[str]:
    """A sentence for each folder of ``roots`` with nothing to replay, or with run folders
    that hold no hand histories: what is there and how to get them."""
    notices = []
    for root in roots:
        if not root.is_dir() or phh_dir_of(root) is not None:
            continue
        folders = sorted(p for p in root.iterdir() if p.is_dir())
        without = [folder for folder in folders if phh_dir_of(folder) is None]
        if len(without) == len(folders):
            what = next((w for name, w in WHAT_RAN.items() if (root / name).is_file()), None)
            ran = f": {what}" if what else ""
            notices.append(f"{root} holds no hand histories to replay{ran}. {HOW_TO_GET_THEM}")
        elif without:
            count = plural(len(without), "folder")
            verb = "holds" if len(without) == 1 else "hold"
            notices.append(f"{count} in {root} {verb} no hand histories. {HOW_TO_GET_THEM}")
    return notices


def load_run(number: int, folder: Path, phh: Path) -> Run:
    """A run's names and places from its files in ``folder``, ``phh`` or ``phh``'s parent."""
    meta = next(
        (d for d in (folder, phh, phh.parent) if any((d / n).is_file() for n in META_FILES)),
        None,
    )
    names: dict[str, str] = {}
    places: dict[int, dict[str, int]] = {}
    kind = "hand histories"
    if meta is not None:
        for name in META_FILES:
            path = meta / name
            if path.is_file():
                data = json.loads(path.read_text(encoding="utf-8"))
                kind = {"tournament.json": "tournaments", "ring.json": "ring game"}.get(
                    name, "web table"
                )
                names = data["players"] if "players" in data else labels_by_slot(data["bots"])
                break
        places = read_places(meta / "tournaments.csv")
    title = f"{folder.name}: {kind}" + (f" ({', '.join(names.values())})" if names else "")
    return Run(number, phh, title, names, places)


def read_places(path: Path) -> dict[int, dict[str, int]]:
    """Each tournament's finishing place by slot, from ``tournaments.csv`` (if present)."""
    if not path.is_file():
        return {}
    places = {}
    with path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            places[int(row["index"])] = {
                column.removeprefix("place_"): int(value)
                for column, value in row.items()
                if column.startswith("place_") and value
            }
    return places


def load_histories(path: Path) -> list[HandHistory]:
    from pokerkit import HandHistory

    with path.open("rb") as handle:
        if path.suffix == ".phhs":
            return list(HandHistory.load_all(handle))
        return [HandHistory.load(handle)]


def tournament_index(path: Path) -> int | None:
    """``tournament-000004.phhs`` -> 4.

    >>> tournament_index(Path("tournament-000004.phhs")), tournament_index(Path("hand-1.phh"))
    (4, None)
    """
    stem = path.stem
    if stem.startswith("tournament-") and stem[11:].isdigit():
        return int(stem[11:])
    return None


def replay_file(run: Run, name: str) -> dict[str, Any]:
    """The page's replay of one file of ``run``: hands, stacks by hand, places."""
    path = run.phh_dir / name
    if path.name != name or path.suffix not in SUFFIXES or not path.is_file():
        raise FileNotFoundError(f"no hand history {name!r} in this run")
    hands = [replay_hand(history, run.names) for history in load_histories(path)]
    index = tournament_index(path)
    places = None
    if index is not None and index in run.places:
        places = {run.names.get(slot, slot): place for slot, place in run.places[index].items()}
    return {
        "file": name,
        "title": run.title,
        "tournament": index,
        "places": places,
        "stacks": [{"hand": i + 1, "stacks": hand["finishing"]} for i, hand in enumerate(hands)],
        "hands": hands,
    }


def replay_hand(history: HandHistory, names: dict[str, str]) -> dict[str, Any]:
    """One hand: players, blinds, the state after every action, the engine's final stacks."""
    players = [names.get(str(slot), str(slot)) for slot in history.players or []]
    starting = [int(s) for s in history.starting_stacks]
    finishing = [int(s) for s in history.finishing_stacks or []]
    return {
        "players": players,
        "roles": phh_roles(len(players)),
        "role_note": HEADS_UP_NOTE if len(players) == 2 else "",
        "seats": list(history.seats or []),
        "blinds": [int(b) for b in history.blinds_or_straddles or []],
        "antes": [int(a) for a in history.antes],
        "starting": dict(zip(players, starting, strict=True)),
        "finishing": dict(zip(players, finishing, strict=False)),
        "steps": replay_steps(history, players),
    }


def phh_roles(count: int) -> list[str]:
    """Each PHH player's role at the table: p1 the small blind, p2 the big blind, the last the
    button (:mod:`arena.phh`); heads-up, PyPokerEngine's button is the big blind.

    >>> phh_roles(2), phh_roles(4)
    (['small blind', 'button, big blind'], ['small blind', 'big blind', '', 'button'])
    """
    if count == 2:
        return ["small blind", "button, big blind"]
    return ["small blind", "big blind"] + [""] * (count - 3) + ["button"]


def replay_steps(history: HandHistory, players: list[str]) -> list[dict[str, Any]]:
    """The state after each action, as pokerkit replays it; the lines alone if it refuses."""
    steps: list[dict[str, Any]] = []
    previous = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        try:
            for state, action in history.state_actions:
                if action is not None:
                    steps.append(step(state, action, previous, players))
                previous = state_numbers(state)
        except (ValueError, KeyError) as error:
            done = len(steps)
            steps += [{"text": line, "street": None} for line in history.actions[done:]]
            steps.append({"text": f"(pokerkit stops here: {error})", "street": None})
    return steps


def state_numbers(state: Any) -> dict[str, Any]:
    board = [repr(card) for cards in state.board_cards for card in cards]
    return {
        "board": board,
        "street": STREET_OF_BOARD.get(len(board), "river"),
        "pot": int(state.total_pot_amount),
        "stacks": [int(s) for s in state.stacks],
        "bets": [int(b) for b in state.bets],
        "in_hand": [bool(s) for s in state.statuses],
        "holes": [[repr(card) for card in cards] for cards in state.hole_cards],
    }


def step(state: Any, action: str, before: dict | None, players: list[str]) -> dict[str, Any]:
    """The numbers after ``action`` and the action in words."""
    after = state_numbers(state)
    return {**after, "text": action_words(action, before, after, players)}


def action_words(action: str, before: dict | None, after: dict, players: list[str]) -> str:
    """A PHH action line in words, with the chips it moved.

    >>> numbers = {"bets": [5, 10], "stacks": [95, 90], "board": []}
    >>> action_words("p1 cbr 60", numbers, {"bets": [60, 10], "stacks": [40, 90]}, ["fish", "you"])
    'fish raises to 60'
    >>> action_words("p1 cc", numbers, {"bets": [10, 10], "stacks": [90, 90]}, ["you", "fish"])
    'you call 5'
    >>> action_words("d db AcQs8h", numbers, {"board": ["Ac", "Qs", "8h"]}, ["fish", "you"])
    'flop: Ac Qs 8h'
    """
    line, _, comment = action.partition("#")
    words = line.split()
    note = f" ({comment.strip()})" if comment.strip() else ""
    if not words:
        return comment.strip()
    if words[:2] == ["d", "db"]:
        board = after.get("board", [])
        return f"{STREET_OF_BOARD.get(len(board), 'board')}: {' '.join(board)}"
    if words[:2] == ["d", "dh"]:
        name = players[int(words[2][1:]) - 1]
        return f"{name} {'are' if name == 'you' else 'is'} dealt two cards"
    player = int(words[0][1:]) - 1
    name, kind = players[player], words[1]

    def says(verb: str) -> str:
        return f"{name} {verb if name == 'you' else verb + 's'}"

    if kind == "f":
        return says("fold") + note
    if kind == "sm":
        cards = words[2] if len(words) > 2 else ""
        return says("show") + " " + " ".join(cards[i : i + 2] for i in range(0, len(cards), 2))
    if kind == "cc":
        paid = before["stacks"][player] - after["stacks"][player] if before else 0
        return (says("call") + f" {paid}" if paid else says("check")) + note
    if kind == "cbr":
        verb = "raise" if before and max(before["bets"]) > 0 else "bet"
        return f"{says(verb)}{' to' if verb == 'raise' else ''} {words[2]}{note}"
    return action
