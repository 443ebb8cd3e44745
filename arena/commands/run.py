"""``arena run A vs B``: one reproducible match, its files, and a results table."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import click

from arena.commands.helpers import (
    chance_adjusted_line,
    checked_bot,
    chunk_runner,
    engine_options,
    ensure_writable,
    interval_note,
    learning_warning,
    match_progress_bar,
    prepare_out_dir,
    refuse_dropping,
)
from arena.commands.ring import run_ring_game
from arena.match import (
    BotFailure,
    MatchConfig,
    default_workers,
    portable_spec,
    run_match,
)
from arena.results import MATCH_FILE, read_match_file
from arena.ring import CONFIG_FILE as RING_FILE

VERSUS = ("vs", "v", "versus")


def parse_versus(tokens: Sequence[str]) -> tuple[str, str]:
    """``('A', 'vs', 'B')`` -> ``('A', 'B')``; UsageError otherwise."""
    if len(tokens) != 3 or tokens[1].lower() not in VERSUS:
        raise click.UsageError(f"expected 'A vs B', got {' '.join(tokens)!r}")
    return tokens[0], tokens[2]


def parse_bots(tokens: Sequence[str]) -> tuple[str, ...]:
    """The bots of ``A vs B``, ``A vs B vs C ...`` or ``A B C ...``; UsageError otherwise.

    >>> parse_bots(["fish", "vs", "honest", "vs", "random"])
    ('fish', 'honest', 'random')
    >>> parse_bots(["fish", "honest", "random"])
    ('fish', 'honest', 'random')
    """
    if any(token.lower() in VERSUS for token in tokens):
        bots, separators = tokens[0::2], tokens[1::2]
        if len(tokens) % 2 == 0 or any(token.lower() not in VERSUS for token in separators):
            raise click.UsageError(f"expected 'A vs B [vs C ...]', got {' '.join(tokens)!r}")
    else:
        bots = list(tokens)
    if not 2 <= len(bots) <= 10:
        raise click.UsageError(f"expected 2 to 10 bots, got {' '.join(tokens)!r}")
    return tuple(bots)


def resumed_config(
    resume: Path,
    bots: tuple[str, str] | None,
    hands: int | None,
    seed: int | None,
    session_hands: int | None = None,
) -> MatchConfig:
    """The saved match of ``resume`` (``--hands`` may extend it); UsageError on a mismatch."""
    try:
        saved = read_match_file(resume)
        config = MatchConfig(**saved)
    except (ValueError, TypeError) as error:
        raise click.UsageError(f"cannot resume {str(resume)!r}: {error}") from error
    if bots is not None and (portable_spec(bots[0]), portable_spec(bots[1])) != (
        config.bot_a,
        config.bot_b,
    ):
        raise click.UsageError(
            f"{str(resume)!r} holds {config.bot_a} vs {config.bot_b}, not {bots[0]} vs {bots[1]}"
        )
    if seed is not None and seed != config.seed:
        raise click.UsageError(f"{str(resume)!r} was played with seed {config.seed}, not {seed}")
    if session_hands is not None and session_hands != config.session_hands:
        played = (
            "without sessions"
            if config.session_hands is None
            else f"in sessions of {config.session_hands} hands"
        )
        raise click.UsageError(
            f"{str(resume)!r} was played {played}, not with --session-hands {session_hands}"
        )
    if hands is not None:
        refuse_dropping(resume, "hands", hands, config.hands)
    if hands is not None and hands != config.hands:
        config = _with_hands(config, hands)
    ensure_writable(resume)
    return config


def _with_hands(config: MatchConfig, hands: int) -> MatchConfig:
    try:
        return MatchConfig(**{**config.__dict__, "hands": hands})
    except ValueError as error:
        raise click.UsageError(str(error)) from error


def format_summary(summary: dict[str, Any]) -> str:
    """The end-of-match table in markdown."""
    a, b = summary["players"]
    ci = summary["ci95_sb_per_hand"]
    ci_text = "n/a" if ci is None else f"±{ci:.3f}{interval_note(summary)}"
    rate = summary["hands_per_second"]
    lines = [
        f"| {a} vs {b} | value |",
        "|---|---|",
        f"| hands | {summary['hands']:,} |",
        f"| sb/h ({a}) | {summary['sb_per_hand']:+.3f} |",
        f"| 95% CI | {ci_text} |",
        *chance_adjusted_line(summary, "sb/h", 1.0, ".3f"),
        f"| bb/100 | {summary['bb_per_100']:+.2f} |",
        f"| mbb/hand | {summary['mbb_per_hand']:+.1f} |",
        f"| wall time | {summary['wall_seconds']:.1f} s |",
        f"| hands/s | {'n/a' if rate is None else f'{rate:,.1f}'} |",
    ]
    for name in (a, b):
        times = summary["decision_ms"][name]
        p50 = "n/a" if times["p50"] is None else f"{times['p50']:.3f}"
        p99 = "n/a" if times["p99"] is None else f"{times['p99']:.3f}"
        lines.append(f"| {name} decision ms p50 / p99 | {p50} / {p99} |")
        lines.append(f"| {name} illegal actions | {summary['illegal_actions'][name]} |")
        lines.append(f"| {name} errors (folded) | {summary.get('errors', {}).get(name, 0)} |")
    return "\n".join(lines)


def execute(
    config: MatchConfig,
    out: Path,
    workers: int,
    backend: str,
    ray_address: str | None,
    progress: bool = True,
) -> dict[str, Any]:
    """Run a match with a progress bar; turn interruptions into a sentence about resuming."""
    runner = chunk_runner(backend, ray_address)
    bar = match_progress_bar(config, out, progress)

    def on_progress(count: int, stats: Any) -> None:
        bar.update(count)
        ci = stats.ci95_sb_per_hand
        bar.set_postfix_str(f"sb/h {stats.sb_per_hand:+.2f} ± {ci or float('nan'):.2f}")

    try:
        return run_match(config, out, workers=workers, runner=runner, on_progress=on_progress)
    except KeyboardInterrupt:
        raise click.ClickException(
            f"interrupted; the hands played are in {out / 'hands.csv'}: "
            f"finish the match with `arena run --resume {out}`"
        ) from None
    except BotFailure as failure:
        raise click.ClickException(
            f"{failure} (--strict); the hands before are in {out / 'hands.csv'}: "
            f"continue with `arena run --resume {out}`"
        ) from None
    except BrokenProcessPool:
        raise click.ClickException(
            f"a worker process died; the hands played are in {out / 'hands.csv'}: "
            f"finish the match with `arena run --resume {out}`"
        ) from None
    finally:
        bar.close()


@click.command("run")
@click.argument("versus", nargs=-1, metavar="[A vs B [vs C ...]]")
@click.option("--hands", type=int, default=None, help="Hands to play  [default: 100000].")
@click.option("--seed", type=int, default=None, help="Match seed  [default: 0].")
@click.option("--workers", type=int, default=None, help="Processes  [default: cores].")
@click.option("--duplicate/--no-duplicate", default=True, show_default=True,
              help="Play each deal twice with the seats swapped, so the cards' luck cancels"
                   " (--hands must be even); a ring game always plays each deal in every"
                   " seat rotation.")  # fmt: skip
@click.option("--stack", type=int, default=1000, show_default=True,
              help="Chips each bot starts every hand with.")  # fmt: skip
@click.option("--small-blind", type=int, default=5, show_default=True,
              help="The small blind in chips; the big blind is twice it.")  # fmt: skip
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Output folder.")
@click.option("--resume", type=click.Path(path_type=Path), default=None,
              help="Finish the match or ring game saved in this folder.")  # fmt: skip
@click.option("--session-hands", type=int, default=None,
              help="Play sessions of this many hands, each by fresh bots (learning bots; in"
                   " a ring game a multiple of the bots)  [default: one set of bots for the"
                   " match].")  # fmt: skip
@engine_options
@click.option("--phh", type=click.Path(path_type=Path), default=None,
              help="Ring games: write each hand here as a PHH file (Poker Hand History, the"
                   " text format pokerkit reads).")  # fmt: skip
def run_command(
    versus: tuple[str, ...],
    hands: int | None,
    seed: int | None,
    workers: int | None,
    duplicate: bool,
    stack: int,
    small_blind: int,
    out: Path | None,
    resume: Path | None,
    session_hands: int | None,
    backend: str,
    ray_address: str | None,
    quiet: bool,
    decision_timeout: float | None,
    strict: bool,
    phh: Path | None,
) -> None:
    """Play A vs B inside PyPokerEngine and report A's winnings in small blinds per hand.

    A and B are registry names (see `arena list`), package.module:Class,
    path/to/file.py:Class or path/to/file.py with setup_ai(), each optionally followed by
    :key=value,... constructor options, e.g. `arena run cfrv2:simulations=1000 vs honest`.
    Three to ten bots (`arena run cfrv2 honest fish`) play a ring game: every deal in every
    seat rotation, each bot's small blinds won per hand (sb/h) reported.
    """
    if hands is not None and hands <= 0:
        raise click.UsageError(f"--hands must be a positive number of hands, got {hands}")
    if workers is not None and workers <= 0:
        raise click.UsageError(f"--workers must be at least 1, got {workers}")
    ring = (resume is not None and (resume / RING_FILE).is_file()) or (
        resume is None and len(parse_bots(versus)) > 2
    )
    if phh is not None and not ring:
        raise click.UsageError("--phh writes ring games (3 to 10 bots) and tournaments")
    if ring:
        options: dict[str, Any] = dict(hands=hands, seed=seed, stack=stack, small_blind=small_blind)
        options["session_hands"] = session_hands
        options.update(decision_timeout=decision_timeout, strict=strict, duplicate=duplicate)
        options["phh"] = None if phh is None else str(phh.resolve())
        bots = () if resume is not None else parse_bots(versus)
        run_ring_game(bots, options, out, resume, workers, backend, ray_address, quiet)
        return
    if resume is not None:
        if out is not None and out != resume:
            raise click.UsageError("give either --out or --resume, not both")
        pair = parse_versus(versus) if versus else None
        if pair is not None:
            pair = (checked_bot(pair[0]), checked_bot(pair[1]))
        if not (resume / MATCH_FILE).is_file():
            raise click.UsageError(f"cannot resume {str(resume)!r}: it holds no {MATCH_FILE}")
        config = resumed_config(resume, pair, hands, seed, session_hands)
        for bot in (config.bot_a, config.bot_b):
            checked_bot(bot)
        out = resume
    else:
        bot_a, bot_b = (checked_bot(b) for b in parse_versus(versus))
        try:
            config = MatchConfig(
                bot_a, bot_b, hands or 100_000, seed or 0, duplicate, stack, small_blind,
                decision_timeout, strict, session_hands,
            )  # fmt: skip
        except ValueError as error:
            raise click.UsageError(str(error)) from error
        out = prepare_out_dir(out, bot_a, bot_b)
    summary = execute(
        config, out, workers or default_workers(), backend, ray_address, progress=not quiet
    )
    click.echo(format_summary(summary))
    for line in learning_warning((config.bot_a, config.bot_b), config.session_hands):
        click.echo(line)
    click.echo(f"files: {out}")
