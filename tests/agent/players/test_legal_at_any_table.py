"""The agent never sends PyPokerEngine an illegal action, at any table the engine deals.

PyPokerEngine silently turns an illegal action into a fold, so such a bug would look like bad
play. Here the agent sits at tables of 2 to 10 players, every seat with a random stack from
1 to 300 big blinds, with antes, beside baselines that call and raise; every action the agent
declared must be the one the engine recorded, and the agent must never fall back to its
safe action after an internal error.
"""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pytest
from pypokerengine.engine.dealer import Dealer
from pypokerengine.engine.deck import Deck
from pypokerengine.engine.player import Player
from pypokerengine.engine.table import Table

from agent.players.adaptive.player import AdaptivePlayer
from agent.players.cfrv2 import CFRv2Player
from agent.players.config import CFRv2Config
from agent.players.player import CFRPlayer
from arena.engine import hand_result, seat_proxies, seed_global_generators
from arena.registry import make_bot, parse_bot_spec

ROOT = Path(__file__).resolve().parents[3]
BIG_BLIND = 20
OPPONENTS = ("fish", "rule-based", "random", "fish", "rule-based", "random", "fish", "random")


def random_stacks(players: int, ante: int, rng: random.Random) -> list[int]:
    """Stacks from 1 to 300 big blinds, one at the edge of what the engine seats.

    PyPokerEngine leaves out a player who cannot pay the ante and the big blind.
    """
    least = BIG_BLIND + ante
    stacks = [rng.randint(least, 300 * BIG_BLIND) for _ in range(players)]
    stacks[rng.randrange(players)] = rng.choice([least, least + 1, 2 * BIG_BLIND + ante])
    return stacks


# the product with a 500-deal win-rate estimate: the same rules, faster
FAST_CFRV2 = partial(
    CFRv2Player, config=CFRv2Config(strategy=CFRv2Config().strategy.with_options(simulations=500))
)


def play_hand(
    players: int,
    agents: int,
    seed: int,
    opponents=OPPONENTS,
    agent=FAST_CFRV2,
    stacks: list[int] | None = None,
    ante: int | None = None,
    **options,
):
    """One hand with ``agents`` players of class ``agent`` (``options`` to each) and
    ``opponents`` in the other seats; ``stacks`` by seat, or random ones; ``ante``, or a
    random one."""
    rng = random.Random(seed)
    bots = {f"S{i}": agent(seed=seed + i, **options) for i in range(agents)}
    for i in range(agents, players):
        spec = parse_bot_spec(opponents[(i - agents) % len(opponents)])
        bots[f"S{i}"] = make_bot(spec, seed=seed + i)
    seat_slots = tuple(rng.sample(sorted(bots), players))
    drawn = rng.choice([0, 1, 2, 5])
    ante = drawn if ante is None else ante
    dealer = Dealer(BIG_BLIND // 2, 300 * BIG_BLIND, ante)
    dealer.set_verbose(0)
    proxies = seat_proxies(bots, None)
    for proxy in proxies.values():
        dealer.message_handler.register_algorithm(proxy.uuid, proxy)
    deck = rng.sample(range(1, 53), 52)
    table = Table(cheat_deck=Deck(cheat=True, cheat_card_ids=deck))
    chips = random_stacks(players, ante, rng) if stacks is None else stacks
    start = dict(zip(seat_slots, chips, strict=True))
    for slot in seat_slots:
        table.seats.sitdown(Player(proxies[slot].uuid, start[slot], slot))
    dealer.table = table
    seed_global_generators(seed)
    outcome = dealer.start_game(1)
    slot_of = {proxy.uuid: slot for slot, proxy in proxies.items()}
    stacks = {
        slot_of[seat["uuid"]]: seat["stack"]
        for seat in outcome["message"]["game_information"]["seats"]
    }
    return hand_result(proxies, seat_slots, deck, stacks, start), bots, start


@pytest.mark.parametrize(
    "agent",
    [
        pytest.param(FAST_CFRV2, id="cfrv2"),
        pytest.param(partial(AdaptivePlayer, simulations=500), id="adaptive"),  # multiway:
        # random hands (one hand a game)
        pytest.param(
            partial(AdaptivePlayer, simulations=500, multiway="ranges"), id="adaptive-ranges"
        ),
    ],
)
@pytest.mark.parametrize("players", range(2, 11))
def test_the_agent_is_legal_at_every_table_size_and_depth(players, agent):
    declared = 0
    for hand in range(8):
        agents = 1 + hand % min(players, 3)
        result, bots, start = play_hand(players, agents, 1000 * players + hand, agent=agent)
        assert sum(result.won.values()) <= 0  # chips conserved, odd chips of splits aside
        assert sum(result.won.values()) > -players
        for slot, bot in bots.items():
            if isinstance(bot, CFRPlayer):
                assert result.illegal[slot] == 0, (slot, start, result.actions)
                assert result.errors[slot] == [], (slot, result.errors[slot])
                assert bot.errors == 0, (slot, result.actions)
                declared += len(result.decision_ms[slot])
    assert declared > 0  # the agent really acted


@pytest.mark.parametrize(
    ("solve", "gadget"), [("river", False), ("turn", False), ("flop", False), ("turn", True)]
)
def test_the_solving_agent_is_legal_heads_up(solve, gadget):
    solves = 0
    for hand in range(16):
        opponent = ("fish", "random")[hand % 2]  # one never bets, the other bets at random
        result, bots, start = play_hand(2, 1, 500 + hand, (opponent,), solve=solve, gadget=gadget)
        assert result.illegal["S0"] == 0, (start, result.actions)
        assert result.errors["S0"] == [] and bots["S0"].errors == 0, result.actions
        solves += bots["S0"].fixed.solving.solver.solves
    assert solves > 0  # the solver really played its streets


def test_the_shipped_pot_relative_blueprint_is_legal_heads_up_at_any_depth():
    """``blueprint=sizes`` prices half-pot, pot and all-in raises on the real stacks, from 1 to
    300 big blinds; against a bot that raises any amount, and against itself."""
    decisions = 0
    for hand in range(24):
        agents = 1 + hand % 2
        opponents = (("random", "rule-based")[hand % 4 // 2],)
        result, bots, start = play_hand(2, agents, 900 + hand, opponents, blueprint="sizes")
        for slot, bot in bots.items():
            if isinstance(bot, CFRPlayer):
                assert result.illegal[slot] == 0, (slot, start, result.actions)
                assert result.errors[slot] == [] and bot.errors == 0, result.actions
                assert "raise_pot" in bot.blueprint.actions.names
                decisions += len(result.decision_ms[slot])
    assert decisions > 0


class RecordingCFRv2(CFRv2Player):
    """The product (with a 500-deal win-rate estimate) keeping the street and the rule of
    each decision it sends."""

    def __init__(self, **options) -> None:
        strategy = CFRv2Config().strategy.with_options(simulations=500)
        super().__init__(config=CFRv2Config(strategy=strategy), **options)
        self.made: list[tuple[str, str]] = []

    def declare_action(self, valid_actions, hole_card, round_state):
        action = super().declare_action(valid_actions, hole_card, round_state)
        self.made.append((round_state["street"], self.last_decision.rule))
        return action


def test_a_four_street_blueprint_is_legal_heads_up_and_plays_the_turn_and_river(
    four_street_blueprint,
):
    """A blueprint trained to the river at 20 big blinds, played from 15 to 300 big blinds
    against a bot that calls, one that raises any amount, and itself; a third of the hands
    with antes (PyPokerEngine then gives the big blind no option after a limp: the line
    leaves the tree, and the rules after the blueprint answer)."""
    late = 0
    for hand in range(30):
        agents = 1 + hand % 2
        opponents = (("fish", "random")[hand % 2],)
        stacks = [(15 + 10 * hand) * BIG_BLIND, (20 + 9 * hand) * BIG_BLIND]
        result, bots, start = play_hand(
            2, agents, 1300 + hand, opponents, agent=RecordingCFRv2, stacks=stacks,
            ante=(0, 0, 2)[hand % 3], blueprint=str(four_street_blueprint), solve="off",
        )  # fmt: skip
        for slot, bot in bots.items():
            if isinstance(bot, CFRPlayer):
                assert result.illegal[slot] == 0, (slot, start, result.actions)
                assert result.errors[slot] == [] and bot.errors == 0, result.actions
                assert bot.blueprint.game.rounds == 4
                late += sum(
                    street in ("turn", "river") and rule == "blueprint" for street, rule in bot.made
                )
    assert late > 0  # the blueprint played after the flop


PROBER = "tests/agent/players/adaptive/unseen_bots.py:ThirdPotProber"


def test_the_gadget_agent_is_legal_where_it_re_solves_below_new_bet_sizes():
    """Bets and raises of a third of the pot are off the solved tree: each is re-solved below
    it."""
    nested = 0
    for hand in range(8):
        stacks = [100 * BIG_BLIND, (40 + 20 * hand) * BIG_BLIND]
        result, bots, start = play_hand(
            2, 1, 700 + hand, (PROBER,), stacks=stacks, solve="turn", gadget=True
        )
        assert result.illegal["S0"] == 0, (start, result.actions)
        assert result.errors["S0"] == [] and bots["S0"].errors == 0, result.actions
        nested += bots["S0"].fixed.solving.solver.nested_solves
    assert nested > 0


def test_the_off_tree_solver_is_legal_at_any_depth_and_solves_after_random_raises():
    """The random bot raises to random amounts, off the blueprint's tree: the streets after
    are solved, at 5 to 250 big blinds, with antes."""
    solves = 0
    for hand in range(10):
        stacks = [(5 + 27 * hand) * BIG_BLIND, 100 * BIG_BLIND]
        result, bots, start = play_hand(
            2, 1, 900 + hand, ("random",), stacks=stacks, solve="off-tree", gadget=True,
            solve_iterations=20,
        )  # fmt: skip
        assert result.illegal["S0"] == 0, (start, result.actions)
        assert result.errors["S0"] == [] and bots["S0"].errors == 0, result.actions
        solves += bots["S0"].fixed.solving.solver.solves
    assert solves > 0
