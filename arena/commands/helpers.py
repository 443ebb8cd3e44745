"""What the arena's commands share: checking bot specs and output folders, choosing a backend."""

from __future__ import annotations

import time
from pathlib import Path

import click

from arena.match import ChunkRunner, portable_spec, run_local
from arena.registry import make_bot, parse_bot_spec, validate_spec


def checked_bot(text: str) -> str:
    """Validate a bot spec (importable, options accepted, buildable) and make paths absolute.

    The bot is built once here, in this process, so that a bot that cannot be built is one
    clear line before any worker starts or any output folder is made.
    """
    try:
        spec = parse_bot_spec(text)
        validate_spec(spec)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    try:
        make_bot(spec, seed=0)
    except Exception as error:
        first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise click.UsageError(f"bot {text!r} cannot be built: {first_line}") from None
    return portable_spec(text)


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


def chunk_runner(backend: str, ray_address: str | None) -> ChunkRunner:
    """The function that plays a match's chunks: in local processes, or on a Ray cluster."""
    if backend == "local":
        return run_local
    from arena.ray_backend import ray_available, ray_runner

    if not ray_available():
        raise click.UsageError("--backend ray needs ray: pip install 'pokerbot-cfr[ray]'")
    return ray_runner(ray_address)
