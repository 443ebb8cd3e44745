"""What the arena's commands share: checking bot specs and output folders, choosing a backend."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from agent.boundary.bot import learns_in_cash_games
from arena.match import ChunkRunner, MatchConfig, portable_spec, run_local, whole_sessions
from arena.registry import (
    BotSpec,
    make_bot,
    parse_bot_spec,
    resolve_factory,
    typed_configuration,
    typed_options,
    validate_spec,
)
from arena.results import HANDS_FILE, read_hands
from arena.rows_file import RowsFile


def checked_bot(text: str) -> str:
    """Validate a bot spec (importable, options accepted, buildable) and make paths absolute.

    A bot with a typed configuration (our players) is checked by it, option by option; any
    other bot is built once here, in this process, so that a bot that cannot be built is one
    clear line before any worker starts or any output folder is made.
    """
    try:
        spec = parse_bot_spec(text)
        validate_spec(spec)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    if typed_configuration(resolve_factory(spec)):
        return portable_spec(text)  # its configuration checked every option
    try:
        make_bot(spec, seed=0)
    except Exception as error:
        first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise click.UsageError(f"bot {text!r} cannot be built: {first_line}") from None
    return portable_spec(text)


def resumed_run(resume: Path, read: Callable[[Path], Any], **counts: int | None) -> Any:
    """The run saved in ``resume`` (a count such as ``hands=`` may extend it), its bots checked.

    UsageError naming the problem if the folder holds no run, or a foreign one.
    """
    try:
        config = read(resume)
    except (ValueError, TypeError) as error:
        raise click.UsageError(f"cannot resume {str(resume)!r}: {error}") from error
    extended = {name: count for name, count in counts.items() if count is not None}
    for name, count in extended.items():
        refuse_dropping(resume, name, count, getattr(config, name))
    try:
        config = replace(config, **extended)
    except (ValueError, TypeError) as error:
        raise click.UsageError(f"cannot resume {str(resume)!r}: {error}") from error
    for bot in config.bots:
        checked_bot(bot)
    ensure_writable(resume)
    return config


def prepare_out_dir(out: Path | None, *bots: str) -> Path:
    """A new or empty output folder (the default is ``results/<time>-A-vs-B``)."""
    if out is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        names = "-vs-".join(_slug(parse_bot_spec(b).label) for b in bots)
        out = Path("results") / f"{stamp}-{names}"
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise click.UsageError(
            f"output folder {str(out)!r} is not empty: choose another --out or use --resume {out}"
        )
    ensure_writable(out)
    return out


def ensure_writable(out: Path) -> None:
    """Create ``out`` and check a file can be written there; UsageError if not."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".arena-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        raise click.UsageError(f"output folder {str(out)!r} is not writable ({error})") from error


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)


def backend_options(command: Callable) -> Callable:
    """The options that choose where a command's hands are played (:func:`chunk_runner`)."""
    options = [
        click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
                     show_default=True,
                     help="Run the hands in worker processes on this machine (local) or as"
                          " tasks on a Ray cluster (ray: pip install 'pokerbot-cfr[ray]')."),
        click.option("--ray-address", default=None, help="Join this Ray cluster (default: local)."),
    ]  # fmt: skip
    for option in reversed(options):
        command = option(command)
    return command


def engine_options(command: Callable) -> Callable:
    """The options every command that plays bots takes: backend, progress bar, bot errors."""
    options = [
        click.option("--quiet", is_flag=True, help="No progress bar."),
        click.option("--decision-timeout", type=float, default=None,
                     help="Seconds a bot's call may take; a slower decision is cut short, "
                          "an error and a fold."),
        click.option("--strict", is_flag=True,
                     help="Stop at a bot's first error instead of folding."),
    ]  # fmt: skip
    for option in reversed(options):
        command = option(command)
    return backend_options(command)


def refuse_dropping(resume: Path, option: str, count: int, saved: int) -> None:
    """UsageError when resuming with ``--option count`` would drop what ``resume`` holds."""
    if count < saved:
        raise click.UsageError(
            f"--{option} {count} is fewer than the {saved} of {str(resume)!r}:"
            f" the {option} beyond it would be dropped"
        )


def match_progress_bar(config: MatchConfig, out: Path, progress: bool) -> tqdm:
    """A progress bar over a match's hands (LBR's too), starting at the whole sessions (or
    hands) already in ``out``'s ``hands.csv``."""
    rows = [row for row in read_hands(out / HANDS_FILE) if row["index"] < config.hands]
    already = len(whole_sessions(config, rows))
    return tqdm(
        total=config.hands, initial=already, unit="hand", disable=not progress, dynamic_ncols=True
    )


def progress_bar(store: RowsFile, total: int, unit: str, quiet: bool) -> tqdm:
    """A progress bar over a resumable run's ``total`` units, starting at those already done."""
    already = sum(1 for row in store.read() if row["index"] < total)
    return tqdm(total=total, initial=already, unit=unit, disable=quiet, dynamic_ncols=True)


@contextmanager
def resume_hint_on_stop(hint: str, failure: type[Exception]) -> Iterator[None]:
    """Turn Ctrl-C, a ``--strict`` bot failure or a dead worker into one line ending in ``hint``."""
    try:
        yield
    except KeyboardInterrupt:
        raise click.ClickException(f"interrupted; {hint}") from None
    except failure as error:
        raise click.ClickException(f"{error} (--strict); {hint}") from None
    except BrokenProcessPool:
        raise click.ClickException(f"a worker process died; {hint}") from None


def chunk_runner(backend: str, ray_address: str | None) -> ChunkRunner:
    """The function that plays a match's chunks: in local processes, or on a Ray cluster."""
    if backend == "local":
        return run_local
    from arena.ray_backend import ray_available, ray_runner

    if not ray_available():
        raise click.UsageError("--backend ray needs ray: pip install 'pokerbot-cfr[ray]'")
    return ray_runner(ray_address)


def backend_session(
    backend: str, ray_address: str | None, workers: int
) -> AbstractContextManager[None]:
    """Where a command plays several runs on Ray, one Ray instance for all of them
    (:func:`arena.ray_backend.ray_session`); nothing to hold for the local pool."""
    if backend == "local":
        return nullcontext()
    from arena.ray_backend import ray_session

    return ray_session(ray_address, workers)


def interval_note(summary: dict[str, Any]) -> str:
    """What a printed 95% CI is over: `` (95% t, 500 duplicate pairs)``, from the summary's
    ``ci_units`` (Student's t with units - 1 degrees of freedom); empty for older summaries.

    >>> interval_note({"ci_units": "4 session pairs"})
    ' (95% t, 4 session pairs)'
    """
    units = summary.get("ci_units")
    return "" if units is None else f" (95% t, {units})"


def learning_warning(bots: tuple[str, ...], session_hands: int | None) -> list[str]:
    """A warning for each bot that learns from hand to hand in the arena's games of one hand
    (``learns = True``, unless ``learns_in_cash_games = False``) played without sessions: its
    hands depend on each other, so an interval that takes deal pairs as independent units is
    too narrow; sessions make the session pair the unit."""
    if session_hands is not None:
        return []
    return [
        f"warning: {spec} learns from hand to hand: without --session-hands its hands are not"
        " independent and the 95% CI above is too narrow; play sessions (--session-hands N)"
        " to measure it over session pairs"
        for spec in bots
        if _learns_in_cash_games(parse_bot_spec(spec))
    ]


def _learns_in_cash_games(spec: BotSpec) -> bool:
    """Whether the bot a spec builds learns in the arena's games of one hand."""
    factory = resolve_factory(spec)
    return learns_in_cash_games(factory, typed_options(spec, factory))


def chance_adjusted_line(summary: dict[str, Any], name: str, scale: float, spec: str) -> list[str]:
    """The chance-adjusted figure and its CI (:mod:`arena.chance_adjusted`), in ``name``
    units (sb/h times ``scale``), where the summary has it (runs made since)."""
    value = summary.get("sb_per_hand_chance_adjusted")
    if value is None:
        return []
    ci = summary.get("ci95_sb_per_hand_chance_adjusted")
    ci_text = "" if ci is None else f" ± {scale * ci:{spec}}{interval_note(summary)}"
    return [
        f"| {name}, chance-adjusted (the board's luck out) | {scale * value:+{spec}}{ci_text} |"
    ]
