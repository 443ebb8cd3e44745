"""``arena lbr BOT``: how much local best response wins against a bot, in mbb/g.

Local best response (Lisy & Bowling 2017, "Equilibrium Approximation Quality of Current
No-Limit Poker Bots") plays the bot inside PyPokerEngine with the arena's decks, seats and
files; its winnings are a lower bound on the bot's exploitability. See :mod:`arena.lbr.player`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import click
import pandas as pd
from click.core import ParameterSource

from arena.commands.helpers import (
    backend_options,
    chance_adjusted_line,
    checked_bot,
    chunk_runner,
    ensure_writable,
    interval_note,
    learning_warning,
    match_progress_bar,
    prepare_out_dir,
    refuse_dropping,
    resume_hint_on_stop,
)
from arena.lbr.match import LBRConfig, match_config, read_lbr_run, run_lbr
from arena.lbr.paper_table import paper_table, read_summaries
from arena.lbr.player import DEFAULT_BETS, ROUNDS, VALUES, bets_text, parse_bets
from arena.lbr.report import by_rule
from arena.match import BotFailure, ChunkRunner, MatchConfig, check_sessions, default_workers
from arena.results import HANDS_FILE


def deal_ci_line(summary: dict[str, Any]) -> list[str]:
    """In sessions, the CI over duplicate deals as well (for a bot that does not learn)."""
    ci = summary.get("lbr_ci95_mbb_per_hand_by_deal")
    if not summary.get("session_hands") or ci is None:
        return []
    deals = f" (95% t, {summary['hands'] // 2:,} duplicate pairs)" if summary["duplicate"] else ""
    lines = [f"| 95% CI over duplicate deals (a bot that does not learn) | ±{ci:.1f}{deals} |"]
    adjusted = summary.get("lbr_chance_adjusted_ci95_mbb_per_hand_by_deal")
    if adjusted is not None:
        lines.append(f"| the same, chance-adjusted | ±{adjusted:.1f} |")
    return lines


def format_lbr_summary(summary: dict[str, Any]) -> str:
    """The end-of-run table in markdown."""
    ci = summary["lbr_ci95_mbb_per_hand"]
    stack, small_blind = summary.get("stack", 1000), summary.get("small_blind", 5)
    lines = [
        f"| LBR vs {summary['players'][1]} | value |",
        "|---|---|",
        f"| hands | {summary['hands']:,} |",
        f"| depth | {stack / (2 * small_blind):g} big blinds ({stack:,} chips, blinds"
        f" {small_blind}/{2 * small_blind}) |",
        f"| hands per session | {summary.get('session_hands') or 'one bot for the match'} |",
        f"| LBR bets | {summary['lbr_bets']} |",
        f"| called bets valued against | {summary['lbr_value']} range |",
        f"| LBR chooses in rounds | {summary['lbr_rounds']} |",
        f"| LBR mbb/g | {summary['lbr_mbb_per_hand']:+.1f} |",
        f"| 95% CI | {'n/a' if ci is None else f'±{ci:.1f}{interval_note(summary)}'} |",
        *chance_adjusted_line(summary, "LBR mbb/g", 500.0, ".1f"),
        *deal_ci_line(summary),
        f"| wall time | {summary['wall_seconds']:.1f} s |",
        f"| hands/s | {summary['hands_per_second'] or 'n/a'} |",
    ]
    for street, times in summary["lbr_decision_ms_by_street"].items():
        lines.append(
            f"| LBR decision ms on the {street}, p50 / p99 | {times['p50']} / {times['p99']} |"
        )
    lines.append(f"| illegal actions (LBR, bot) | {tuple(summary['illegal_actions'].values())} |")
    lbr_errors, bot_errors = summary.get("lbr_errors", 0), summary.get("bot_errors", 0)
    lines.append(f"| errors, each a fold (LBR, bot) | ({lbr_errors}, {bot_errors}) |")
    checked, lost = (
        summary.get("lbr_model_checked_hands", 0),
        summary.get("lbr_model_lost_hands", 0),
    )
    if checked:
        lines.append(
            f"| hands where LBR's model ruled out the bot's real cards | {lost} of {checked:,} |"
        )
    if lbr_errors:
        lines.append(
            f"\nwarning: LBR itself failed {lbr_errors} times (its valuation, its range or its"
            " model of the bot; errors.csv, slot A) and folded each time: its figure"
            " understates how exploitable the bot is. `--strict` stops at the first error."
        )
    if lost:
        lines.append(
            f"\nwarning: in {lost} hands LBR's model of the bot gave what the bot did with its "
            "real cards probability 0: the copy LBR reads does not play as the bot (or its "
            "policy is sampled), so LBR tracked a wrong range and its figure may understate "
            "how exploitable the bot is."
        )
    return "\n".join(lines)


@click.command("lbr")
@click.argument("bot", required=False)
@click.option("--hands", type=int, default=2000, show_default=True, help="Hands to play.")
@click.option(
    "--bets",
    default=bets_text(DEFAULT_BETS),
    show_default=True,
    help="LBR's bet sizes: pot fractions and 'allin', comma separated; 'none' = fold/call only.",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed of the deals and the bots."
)
@click.option("--workers", type=int, default=None, help="Processes [default: the cores].")
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Output folder.")
@click.option(
    "--resume",
    type=click.Path(path_type=Path),
    default=None,
    help="Finish the run saved in this folder, with its settings; --hands may extend it.",
)
@click.option(
    "--model",
    default=None,
    help="Bot spec LBR reads the policy from [default: BOT], e.g. montecarlo:simulations=500.",
)
@click.option(
    "--policy-samples",
    type=int,
    default=8,
    show_default=True,
    help="For a bot without action_probabilities: declare_action calls per holding that"
    " estimate its policy.",
)
@click.option(
    "--preflop-samples",
    type=int,
    default=1000,
    show_default=True,
    help="Boards drawn for LBR's preflop equity against the range.",
)
@click.option(
    "--value",
    type=click.Choice(VALUES),
    default="continuing",
    show_default=True,
    help="Value a called bet against the hands that call (continuing) or, as Lisý & Bowling"
    " 2017 do, against the whole range.",
)
@click.option(
    "--rounds",
    type=click.Choice(sorted(ROUNDS)),
    default="1-4",
    show_default=True,
    help="Betting rounds where LBR chooses (1-4: preflop to river; 3-4: turn and river); in the"
    " others it checks or calls.",
)
@click.option(
    "--duplicate/--no-duplicate",
    default=True,
    show_default=True,
    help="Play each deal twice with the seats swapped, so the cards' luck cancels.",
)
@click.option(
    "--stack",
    type=int,
    default=1000,
    show_default=True,
    help="Chips each player starts every hand with, at blinds 5/10 (2000: 200 big blinds,"
    " the depth of the paper's bots).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Stop at the first error of LBR or the bot instead of folding its hand.",
)
@click.option(
    "--session-hands",
    type=int,
    default=None,
    help="Play sessions of this many hands, each by a fresh bot and model copy (learning"
    " bots), as `arena run --session-hands` does  [default: one bot for the match].",
)
@click.option(
    "--progress/--no-progress", default=True, show_default=True, help="Show a progress bar."
)
@backend_options
@click.pass_context
def lbr_command(
    context: click.Context,
    bot: str | None,
    hands: int,
    bets: str,
    seed: int,
    workers: int | None,
    out: Path | None,
    resume: Path | None,
    model: str | None,
    policy_samples: int,
    preflop_samples: int,
    value: str,
    rounds: str,
    duplicate: bool,
    stack: int,
    strict: bool,
    session_hands: int | None,
    progress: bool,
    backend: str,
    ray_address: str | None,
) -> None:
    """Local best response (LBR) against BOT: what LBR wins, with a 95% confidence interval.

    LBR (Lisý & Bowling 2017, "Equilibrium Approximation Quality of Current No-Limit Poker
    Bots") reads BOT's policy, keeps BOT's range of hands through each hand, and at each of
    its decisions takes the action that wins most against that range if the hand were
    checked down after it: a lower bound on how exploitable BOT is. mbb/g is milli-big-blinds
    won per game (hand). BOT is a spec as `arena run` takes it (see `arena list`); it may be
    left out with --resume.
    """
    workers = default_workers() if workers is None else workers
    if workers <= 0:
        raise click.UsageError(f"--workers {workers}: expected at least 1")
    runner = chunk_runner(backend, ray_address)
    if resume is not None:
        config, match = resumed_lbr(context, resume, bot, out)
        match = replace(match, strict=match.strict or strict)
        play_lbr(config, match, resume, workers, progress, runner)
        return
    if bot is None:
        raise click.UsageError("give the BOT to play against, or --resume FOLDER")
    try:
        sizes = parse_bets(bets)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    if hands <= 0 or (duplicate and hands % 2):
        raise click.UsageError(f"--hands {hands}: expected a positive (and, duplicate, even) count")
    if stack < 20:
        raise click.UsageError(f"--stack {stack}: expected at least 20 chips (two big blinds)")
    if policy_samples <= 0 or preflop_samples <= 0:
        raise click.UsageError("--policy-samples and --preflop-samples must be positive")
    if session_hands is not None:
        try:
            check_sessions(hands, session_hands, duplicate)
        except ValueError as error:
            raise click.UsageError(str(error)) from error
    config = LBRConfig(
        checked_bot(bot),
        sizes,
        checked_bot(model) if model else None,
        policy_samples,
        preflop_samples,
        value,
        rounds,
    )
    folder = prepare_out_dir(out, "lbr", bot)
    match = match_config(config, hands, seed, duplicate, session_hands, stack, strict)
    play_lbr(config, match, folder, workers, progress, runner)


def play_lbr(
    config: LBRConfig,
    match: MatchConfig,
    folder: Path,
    workers: int,
    progress: bool,
    runner: ChunkRunner,
) -> None:
    """Play (or finish) an LBR run with a progress bar, its tasks played by ``runner`` (the
    backend's); an interruption says how to resume."""
    bar = match_progress_bar(match, folder, progress)

    def on_progress(count: int, stats: Any) -> None:
        bar.update(count)
        ci = stats.ci95_sb_per_hand
        bar.set_postfix_str(
            f"LBR {stats.mbb_per_hand:+.0f} ± {500 * (ci or float('nan')):.0f} mbb/g"
        )

    hint = f"the hands played are in {folder / HANDS_FILE}: finish them with"
    hint += f" `arena lbr --resume {folder}`"
    with resume_hint_on_stop(hint, BotFailure):
        summary = run_lbr(
            config, match.hands, match.seed, folder, workers, match.duplicate, on_progress,
            match.session_hands, match.stack, match.strict, runner,
        )  # fmt: skip
    bar.close()
    click.echo(format_lbr_summary(summary))
    for line in learning_warning((match.bot_b,), match.session_hands):
        click.echo(line)
    click.echo(rule_table(folder, match))
    click.echo(f"files in {folder}")


def rule_table(folder: Path, match: MatchConfig, top: int = 12) -> str:
    """LBR's winnings by the rule of the bot's that made its last decision in each hand
    (:func:`arena.lbr.report.by_rule`): which rule costs the bot the most."""
    hands = pd.read_csv(folder / HANDS_FILE)
    table = by_rule(hands, 2 * match.small_blind)
    body = table.head(top).to_string(index=False, float_format=lambda v: f"{v:.0f}")
    return "\nLBR's winnings by the rule of the bot's last decision in the hand:\n" + body


SAVED_SETTINGS = (
    "bets", "seed", "model", "policy_samples", "preflop_samples", "value", "rounds", "duplicate",
    "session_hands", "stack",
)  # fmt: skip


def resumed_lbr(
    context: click.Context, resume: Path, bot: str | None, out: Path | None
) -> tuple[LBRConfig, MatchConfig]:
    """The run saved in ``resume``, with ``--hands`` as its new total when given; UsageError
    when an option would change its settings, or it would drop hands already played."""
    if out is not None and out != resume:
        raise click.UsageError("give either --out or --resume, not both")
    given = [name for name in SAVED_SETTINGS if _given(context, name)]
    if given:
        option = "--" + given[0].replace("_", "-")
        raise click.UsageError(f"{option} cannot change the run saved in {str(resume)!r}")
    try:
        config, match = read_lbr_run(resume)
    except (ValueError, TypeError, OSError) as error:
        raise click.UsageError(f"cannot resume {str(resume)!r}: {error}") from error
    if bot is not None and checked_bot(bot) != match.bot_b:
        raise click.UsageError(f"{str(resume)!r} holds LBR against {match.bot_b}, not {bot}")
    hands = context.params["hands"]
    if _given(context, "hands") and hands != match.hands:
        refuse_dropping(resume, "hands", hands, match.hands)
        try:
            match = replace(match, hands=hands)
        except ValueError as error:
            raise click.UsageError(str(error)) from error
    ensure_writable(resume)
    return config, match


def _given(context: click.Context, name: str) -> bool:
    return context.get_parameter_source(name) == ParameterSource.COMMANDLINE


@click.command("lbr-table")
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path))
def lbr_table_command(runs: tuple[Path, ...]) -> None:
    """Print `arena lbr` RUNS beside the published rows of Lisý & Bowling 2017's Table 3.

    That table ("Equilibrium Approximation Quality of Current No-Limit Poker Bots") gives what
    local best response won from the 2013-2016 research bots, in milli-big-blinds per game, in
    two settings named by LBR's actions: fc (fold or call) on every round, and fcpa (fold,
    call, pot bet or all-in) on the turn and river only. RUNS are the folders of `arena lbr`
    runs made with `--bets none` (fc, rounds 1-4) and `--bets 1,allin --rounds 3-4` (fcpa,
    rounds 3-4), with `--value whole` for the paper's way of valuing a called bet.
    """
    try:
        summaries = read_summaries(runs)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    click.echo(paper_table(summaries))
