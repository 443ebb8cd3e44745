"""``arena lbr BOT``: how much local best response wins against a bot, in mbb/g.

Local best response (Lisy & Bowling 2017, "Equilibrium Approximation Quality of Current
No-Limit Poker Bots") plays the bot inside PyPokerEngine with the arena's decks, seats and
files; its winnings are a lower bound on the bot's exploitability. See :mod:`arena.lbr.player`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from arena.commands.helpers import checked_bot, prepare_out_dir
from arena.lbr.match import LBRConfig, run_lbr
from arena.lbr.paper_table import paper_table, read_summaries
from arena.lbr.player import DEFAULT_BETS, ROUNDS, VALUES, bets_text, parse_bets
from arena.match import check_sessions, default_workers


def format_lbr_summary(summary: dict[str, Any]) -> str:
    """The end-of-run table in markdown."""
    ci = summary["lbr_ci95_mbb_per_hand"]
    lines = [
        f"| LBR vs {summary['players'][1]} | value |",
        "|---|---|",
        f"| hands | {summary['hands']:,} |",
        f"| hands per session | {summary.get('session_hands') or 'one bot for the match'} |",
        f"| LBR bets | {summary['lbr_bets']} |",
        f"| called bets valued against | {summary['lbr_value']} range |",
        f"| LBR chooses in rounds | {summary['lbr_rounds']} |",
        f"| LBR mbb/g | {summary['lbr_mbb_per_hand']:+.1f} |",
        f"| 95% CI | {'n/a' if ci is None else f'±{ci:.1f}'} |",
        f"| wall time | {summary['wall_seconds']:.1f} s |",
        f"| hands/s | {summary['hands_per_second'] or 'n/a'} |",
    ]
    for street, times in summary["lbr_decision_ms_by_street"].items():
        lines.append(
            f"| LBR decision ms on the {street}, p50 / p99 | {times['p50']} / {times['p99']} |"
        )
    lines.append(f"| illegal actions (LBR, bot) | {tuple(summary['illegal_actions'].values())} |")
    return "\n".join(lines)


@click.command("lbr")
@click.argument("bot")
@click.option("--hands", type=int, default=2000, show_default=True, help="Hands to play.")
@click.option(
    "--bets",
    default=bets_text(DEFAULT_BETS),
    show_default=True,
    help="LBR's bet sizes: pot fractions and 'allin', comma separated; 'none' = fold/call only.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--workers", type=int, default=None, help="Processes [default: the cores].")
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Output folder.")
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
    help="declare_action calls per holding for bots without action_probabilities.",
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
    help="Value a called bet against the hands that call (continuing) or, as the paper does,"
    " against the whole range.",
)
@click.option(
    "--rounds",
    type=click.Choice(sorted(ROUNDS)),
    default="1-4",
    show_default=True,
    help="Rounds where LBR chooses; in the others it checks or calls (3-4: turn and river).",
)
@click.option("--duplicate/--no-duplicate", default=True, show_default=True)
@click.option(
    "--session-hands",
    type=int,
    default=None,
    help="Play sessions of this many hands, each by a fresh bot and model copy (learning"
    " bots), as `arena run --session-hands` does  [default: one bot for the match].",
)
@click.option("--progress/--no-progress", default=True, show_default=True)
def lbr_command(
    bot: str,
    hands: int,
    bets: str,
    seed: int,
    workers: int | None,
    out: Path | None,
    model: str | None,
    policy_samples: int,
    preflop_samples: int,
    value: str,
    rounds: str,
    duplicate: bool,
    session_hands: int | None,
    progress: bool,
) -> None:
    """Local best response against BOT: LBR's winnings in mbb/g with a 95% CI."""
    try:
        sizes = parse_bets(bets)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    if hands <= 0 or (duplicate and hands % 2):
        raise click.UsageError(f"--hands {hands}: expected a positive (and, duplicate, even) count")
    if policy_samples <= 0 or preflop_samples <= 0:
        raise click.UsageError("--policy-samples and --preflop-samples must be positive")
    if session_hands is not None:
        try:
            check_sessions(hands, session_hands, duplicate)
        except ValueError as error:
            raise click.UsageError(str(error)) from error
    workers = default_workers() if workers is None else workers
    if workers <= 0:
        raise click.UsageError(f"--workers {workers}: expected at least 1")
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
    bar = tqdm(total=hands, unit="hand", disable=not progress, dynamic_ncols=True)

    def on_progress(count: int, stats: Any) -> None:
        bar.update(count)
        ci = stats.ci95_sb_per_hand
        bar.set_postfix_str(
            f"LBR {stats.mbb_per_hand:+.0f} ± {500 * (ci or float('nan')):.0f} mbb/g"
        )

    summary = run_lbr(config, hands, seed, folder, workers, duplicate, on_progress, session_hands)
    bar.close()
    click.echo(format_lbr_summary(summary))
    click.echo(f"files in {folder}")


@click.command("lbr-table")
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path))
def lbr_table_command(runs: tuple[Path, ...]) -> None:
    """Print `arena lbr` RUNS in the layout of Table 3 of Lisy & Bowling 2017.

    Give the folders of runs with `--bets none` (fc, rounds 1-4) and `--bets 1,allin
    --rounds 3-4` (fcpa, rounds 3-4), with `--value whole` for the paper's rule.
    """
    try:
        summaries = read_summaries(runs)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    click.echo(paper_table(summaries))
