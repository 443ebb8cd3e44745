"""The equity answer: heads-up, facing a preflop raise and after the flop, play by equity
against the modelled range.

The adaptive agent's valued response (:mod:`.response`) leaves cfrv2's play only once its
evidence clears a margin, which a short heads-up tournament may never give it. The equity
answer acts at once on the range the model reads from the opponent's actions in the hand
(:mod:`.ranges`), as a bot told its opponent's range would (``bench.informed``):

- **facing a bet**: raise the pot with a pot share of ``VALUE_SHARE`` or more against the
  range; else call when the share covers the price (pot odds); else fold;
- **checking free, against a bettor** (an opponent the model has seen bet or raise after the
  flop): bet the pot with ``VALUE_SHARE`` or more; else bet the minimum, a probe, while
  :func:`probe_pays`. A player that folds by its hand's strength folds as often to the
  smallest bet as to any, so the minimum takes those pots at the least risk;
- **facing a raise preflop** (the call is more than the big blind): as facing a bet, by the
  all-in share against the range the raise leaves, instead of a raise war that puts the
  stack in as a modest favourite where a call and the answer after the flop risk less;
- **checking free against a player never seen betting after the flop**: no answer, and the
  valued response plays. Such a player gives up its weak hands to a check or calls every
  bet, so a probe gains nothing from it.

It is the adaptive agent's answer in tournaments (``answer="auto"``); in cash games the valued
response keeps its place. It plays while the agent's budget is 0 or more, but its actions are
not held one by one to the allowance as the valued response's are.
"""

from __future__ import annotations

import numpy as np

from agent.boundary.equity_share import pot_odds
from agent.boundary.snapshot import Action, Snapshot, Street, legal_call, legal_fold, legal_raise
from agent.players.adaptive.model import OpponentModel

VALUE_SHARE = 0.7  # the pot share against the range from which the answer bets the pot


def range_shares(weights: np.ndarray, shares: np.ndarray) -> np.ndarray:
    """Each hole's pot share against its row of the range (NaN where the row is empty).

    ``weights`` and ``shares`` have one row of 1,326 holdings for each of our holes: the
    opponent's range read among the holdings that hole leaves, and our pot share against
    each holding (:mod:`.shares`).

    >>> weights = np.array([[1.0, 3.0], [0.0, 0.0]])
    >>> range_shares(weights, np.array([[1.0, 0.0], [0.5, 0.5]])).tolist()
    [0.25, nan]
    """
    mass = weights.sum(axis=1)
    won = (weights * shares).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(mass > 0, won / np.where(mass > 0, mass, 1.0), np.nan)


def pot_bet(snapshot: Snapshot) -> Action:
    """A raise of the pot after our call (at least the minimum), kept legal."""
    size = max(snapshot.big_blind, snapshot.pot + snapshot.to_call)
    return legal_raise(snapshot, snapshot.call_amount + size)


def probe_pays(model: OpponentModel) -> bool:
    """True while ``model`` says its player folds to a small bet after the flop at least as
    often as it raises one (:meth:`OpponentModel.small_bet_answers`): a probe it raises
    pushes hands with a share of the pot out of it (``bench.exploiters.ProbeRaiser`` raises
    every small bet).

    >>> from agent.players.adaptive.decisions import Facing, Kind, Situation
    >>> model = OpponentModel()
    >>> before = probe_pays(model)  # the prior folds to a small bet more often
    >>> model.count(Situation(Street.RIVER, Facing.SMALL), Kind.AGGRESSIVE)
    >>> before, probe_pays(model)
    (True, False)
    """
    fold, _, raise_ = model.small_bet_answers()
    return bool(fold >= raise_)


def facing_preflop_raise(snapshot: Snapshot) -> bool:
    """True preflop when the call is more than the big blind (someone has raised) and costs
    this player chips.

    >>> from agent.boundary.situations import make_decision
    >>> def preflop(to_call, paid):
    ...     decision = make_decision(["As", "Ad"], to_call=to_call, paid=paid, pot=30 + to_call)
    ...     return facing_preflop_raise(Snapshot.from_ppe(*decision, "p0"))
    >>> preflop(5, 5), preflop(30, 10)  # the small blind's call, a raise to 40
    (False, True)
    """
    raised = snapshot.call_amount > snapshot.big_blind
    return snapshot.street == Street.PREFLOP and raised and snapshot.to_call > 0


def equity_answer(
    snapshot: Snapshot, share: float, probe: bool, value: float = VALUE_SHARE
) -> Action | None:
    """The answer of a pot share ``share`` against the opponent's range (module docstring);
    ``probe``: the opponent is a bettor, so checking free is answered too; ``value``: the
    share from which it bets the pot. None leaves the decision to the valued response
    (preflop when no one has raised, and checking free against a non-bettor).

    >>> from agent.boundary.situations import make_decision
    >>> def spot(to_call):
    ...     decision = make_decision(["Ks", "Qd"], ["Kh", "7c", "2d"], to_call=to_call, pot=120)
    ...     return Snapshot.from_ppe(*decision, "p0")
    >>> [equity_answer(spot(40), share, probe=False) for share in (0.75, 0.3, 0.2)]
    [('raise', 200), ('call', 40), ('fold', 0)]
    >>> [equity_answer(spot(0), share, probe=True) for share in (0.75, 0.3)]
    [('raise', 120), ('raise', 10)]
    >>> print(equity_answer(spot(0), 0.75, probe=False))
    None
    """
    if snapshot.street == Street.PREFLOP and not facing_preflop_raise(snapshot):
        return None
    if snapshot.to_call == 0 and not probe:
        return None
    if snapshot.can_raise and share >= value:
        return pot_bet(snapshot)
    if snapshot.to_call > 0:
        covered = share >= pot_odds(snapshot.to_call, snapshot.contested_pot)
        return legal_call(snapshot) if covered else legal_fold()
    if snapshot.can_raise and snapshot.min_raise is not None:
        return legal_raise(snapshot, snapshot.min_raise)
    return None
