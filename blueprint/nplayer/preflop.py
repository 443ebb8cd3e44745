"""N-player preflop hold'em with pot-relative raises, solved by external-sampling MCCFR.

P players (2..6) start with the same stack of S big blinds before posting; each antes A,
the small blind posts 0.5 and the big blind 1. One betting round, in preflop order (position 0
first; heads-up 0 is the small blind; with 3+ players P-2 is the small blind and P-1 the big
blind). Each player folds (only when facing a bet), calls (checks), raises by a fraction of
the pot after its call, or moves all-in. ``PreflopConfig.raise_fractions[k]`` are the
fractions of the raise after k earlier raises (the open, the 3-bet, ...); beyond them only
all-in remains. A raise re-opens the action to every other player still able to act.
When the betting ends with two or more players in, the hand is checked down on a five-card
board: the leaves value a called pot by its showdown equity, the usual simplification of
preflop-only solvers (there is no play after the flop, so it favours calls a little).

Equal stacks make every all-in the same size, so there are no side pots. The information
set is (public history, hole class): the N-player tree's rows are (node, 169 classes). It is
solved by ``blueprint.nplayer.mccfr`` with linear weighting over deals from
``blueprint.nplayer.pushfold``'s sampler, as Pluribus's blueprint was (Brown & Sandholm 2019,
"Superhuman AI for multiplayer poker": linear MCCFR on an abstraction of the bets).

>>> tree = preflop_tree(PreflopConfig(players=3, stack_bb=20.0))
>>> tree.num_players, tree.action_names
(3, ('fold', 'call', 'raise 0', 'raise 1', 'all-in'))
>>> tree.contribution[0].tolist()
[0.0, 0.5, 1.0]
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from agent.poker.rng import mix_seed
from blueprint.nplayer.mccfr import external_sampling
from blueprint.nplayer.pushfold import NUM_CLASSES, posted, sample_deals
from blueprint.regret import average_strategy
from blueprint.tree import DECISION, FOLD, SHOWDOWN, BettingTree, NodeSpec, tree_from_expander

FOLD_ACTION, CALL_ACTION = 0, 1
MAX_PLAYERS = 6
CHUNK_DEALS = 65_536  # deals sampled per kernel call


@dataclass(frozen=True)
class PreflopConfig:
    """One preflop game: table size, depth and ante in big blinds, and the raise sizes."""

    players: int
    stack_bb: float
    ante_bb: float = 0.0
    raise_fractions: tuple[tuple[float, ...], ...] = ((0.5, 1.0), (1.0,))

    def __post_init__(self) -> None:
        if not 2 <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must lie in 2..{MAX_PLAYERS}, got {self.players}")
        if self.ante_bb < 0:
            raise ValueError(f"ante_bb must be non-negative, got {self.ante_bb}")
        if self.stack_bb <= 1.0 + self.ante_bb:
            raise ValueError(f"stack_bb {self.stack_bb} must exceed the big blind plus the ante")
        if any(f <= 0 for level in self.raise_fractions for f in level):
            raise ValueError(f"raise fractions must be positive, got {self.raise_fractions}")

    @property
    def sizes(self) -> int:
        """The most raise sizes (all-in aside) offered at any decision."""
        return max((len(level) for level in self.raise_fractions), default=0)

    @property
    def action_names(self) -> tuple[str, ...]:
        """fold, call, ``raise k`` (the k-th fraction of the current level), all-in."""
        return ("fold", "call", *(f"raise {k}" for k in range(self.sizes)), "all-in")

    @property
    def all_in_action(self) -> int:
        """The action index of all-in."""
        return 2 + self.sizes


@dataclass(frozen=True)
class BettingState:
    """The betting so far: chips in (antes included), who folded, who is all-in, who still
    has to act (in order), the bet to match (blinds and raises, antes aside), the last raise
    increment and the number of raises."""

    paid: tuple[float, ...]
    folded: int
    all_in: int
    to_act: tuple[int, ...]
    bet: float
    increment: float
    raises: int


def initial_state(config: PreflopConfig) -> BettingState:
    """The blinds and antes posted, position 0 to act."""
    base = posted(config.players, config.stack_bb, config.ante_bb)
    order = tuple(range(config.players))
    return BettingState(base, 0, 0, order, 1.0, 1.0, 0)


def raise_targets(
    config: PreflopConfig, state: BettingState, actor: int
) -> list[tuple[int, float]]:
    """(action index, street total to raise to, antes aside) of the raises open to ``actor``."""
    cap = config.stack_bb - config.ante_bb
    if cap <= state.bet:
        return []
    in_front = state.paid[actor] - config.ante_bb
    pot_after_call = sum(state.paid) + state.bet - in_front
    fractions = (
        config.raise_fractions[state.raises] if state.raises < len(config.raise_fractions) else ()
    )
    targets = []
    for k, fraction in enumerate(fractions):
        target = state.bet + fraction * pot_after_call
        if state.bet + state.increment <= target < cap:
            targets.append((2 + k, target))
    targets.append((config.all_in_action, cap))
    return targets


def _after(
    config: PreflopConfig, state: BettingState, actor: int, action: int, to: float
) -> BettingState:
    """The state after ``actor`` folds (0), calls (1) or raises to ``to`` (street total)."""
    ante, cap = config.ante_bb, config.stack_bb - config.ante_bb
    to_act = state.to_act[1:]
    paid = list(state.paid)
    folded, all_in = state.folded, state.all_in
    bet, increment, raises = state.bet, state.increment, state.raises
    if action == FOLD_ACTION:
        folded |= 1 << actor
    elif action == CALL_ACTION:
        paid[actor] = ante + min(bet, cap)
        if bet >= cap:
            all_in |= 1 << actor
    else:
        paid[actor] = ante + to
        increment = max(increment, to - bet)
        bet, raises = to, raises + 1
        if to >= cap:
            all_in |= 1 << actor
        players = config.players
        others = [(actor + k) % players for k in range(1, players)]
        to_act = tuple(p for p in others if not (folded | all_in) >> p & 1)
    return BettingState(tuple(paid), folded, all_in, to_act, bet, increment, raises)


def _next_actor(config: PreflopConfig, state: BettingState) -> BettingState:
    """Drop from ``to_act`` a player with nothing to decide: nobody else can still bet and it
    has nothing to call."""
    open_players = ((1 << config.players) - 1) & ~(state.folded | state.all_in)
    dropped = 0
    for actor in state.to_act:
        owes = state.paid[actor] - config.ante_bb < state.bet
        if open_players & ~(1 << actor) or owes:
            break
        dropped += 1
    return replace(state, to_act=state.to_act[dropped:]) if dropped else state


def _expand(state: BettingState, config: PreflopConfig) -> NodeSpec:
    """The node of ``state``: a fold terminal, a showdown or a decision."""
    full = (1 << config.players) - 1
    alive = full & ~state.folded
    if alive & (alive - 1) == 0:
        return NodeSpec(FOLD, 0, 0, state.paid, alive=alive)
    state = _next_actor(config, state)
    if not state.to_act:
        return NodeSpec(SHOWDOWN, 0, 0, state.paid, alive=alive)
    actor = state.to_act[0]
    in_front = state.paid[actor] - config.ante_bb
    children = []
    if in_front < state.bet:
        children.append((FOLD_ACTION, _after(config, state, actor, FOLD_ACTION, 0.0)))
    children.append((CALL_ACTION, _after(config, state, actor, CALL_ACTION, 0.0)))
    for action, target in raise_targets(config, state, actor):
        children.append((action, _after(config, state, actor, action, target)))
    return NodeSpec(DECISION, actor, 0, state.paid, children, alive)


def preflop_tree(config: PreflopConfig) -> BettingTree:
    """The public preflop tree of ``config``."""
    return tree_from_expander(
        initial_state(config),
        lambda state: _expand(state, config),
        (NUM_CLASSES,),
        config.action_names,
    )


@dataclass(frozen=True, eq=False)
class PreflopSolution:
    """A solved preflop game: its tree, the average strategy ``float64[num_infosets,
    max_actions]`` (rows in the tree's order, columns the node's children in order), and
    ``visits[num_infosets]``: how often each row was sampled after the warm-up (its strategy
    mass over the mean linear weight)."""

    tree: BettingTree
    policy: np.ndarray
    visits: np.ndarray


def solve_preflop(
    config: PreflopConfig, iterations: int, seed: int, *, warmup: float = 0.5
) -> PreflopSolution:
    """Solve ``config`` with external-sampling MCCFR (linear weighting), one deal an iteration.

    The strategy sums are cleared once the first ``warmup`` share of the iterations is done.
    The same arguments give the same result.
    """
    if iterations < 1 or not 0.0 <= warmup < 1.0:
        raise ValueError("iterations must be positive and warmup in [0, 1)")
    tree = preflop_tree(config)
    regret, strategy_sum = tree.new_table(), tree.new_table()
    deal_seed, action_seed = mix_seed(seed, 1) >> 1, mix_seed(seed, 2) >> 1
    reset = int(iterations * warmup)
    done = 0
    while done < iterations:
        end = reset if done < reset else iterations
        count = min(CHUNK_DEALS, end - done)
        deals = sample_deals(config.players, deal_seed, done, count)
        external_sampling(
            tree, deals, regret, strategy_sum, seed=action_seed, first_iteration=done + 1,
            iterations=count, deals_per_iteration=1, linear=True,
        )  # fmt: skip
        done += count
        if done == reset:
            strategy_sum[:] = 0.0
    mean_weight = (reset + 1 + iterations) / 2.0
    visits = strategy_sum.sum(axis=1) / mean_weight
    return PreflopSolution(tree, average_strategy(strategy_sum, tree.infoset_actions()), visits)
