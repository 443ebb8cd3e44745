"""The sampling walks' stack and random streams: children in order, values handed up, replays."""

from __future__ import annotations

import numpy as np

from blueprint.stack_walk import DONE, PASSED, hand_up, new_stack, next_child, push
from blueprint.streams import iteration_state, sample, uniform
from blueprint.tree import MAX_DEPTH

# node 0 has children 1 and 2; node 1 has children 3, 4 and 5; the rest are terminals
NUM_CHILDREN = np.array([2, 3, 0, 0, 0, 0])


def test_a_full_width_walk_visits_every_child_and_hands_values_up() -> None:
    frame, values = new_stack(NUM_CHILDREN)
    assert frame.shape == (MAX_DEPTH, 4) and values.shape == (MAX_DEPTH, 3)
    push(frame, 0, 0, 0, -1)
    assert next_child(frame, values, NUM_CHILDREN, 0) == 0
    push(frame, 1, 1, 2, -1)
    assert [next_child(frame, values, NUM_CHILDREN, 1) for _ in range(4)] == [0, 1, 2, DONE]
    assert hand_up(frame, values, 1, 2.5) == 0
    assert values[0, 0] == 2.5
    assert next_child(frame, values, NUM_CHILDREN, 0) == 1
    assert next_child(frame, values, NUM_CHILDREN, 0) == DONE


def test_a_sampled_node_walks_only_its_sampled_child_and_zeroes_the_rest() -> None:
    frame, values = new_stack(NUM_CHILDREN)
    values[:] = 7.0
    push(frame, 0, 1, 4, 1)
    steps = [next_child(frame, values, NUM_CHILDREN, 0) for _ in range(4)]
    assert steps == [PASSED, 1, PASSED, DONE]
    assert values[0].tolist() == [0.0, 0.0, 0.0]


def test_a_stream_replays_from_its_seed_and_iteration() -> None:
    def draws(seed: int, iteration: int) -> list[float]:
        state = iteration_state(seed, iteration)
        return [uniform(state) for _ in range(4)]

    assert draws(3, 10) == draws(3, 10)
    assert draws(3, 10) != draws(3, 11) and draws(3, 10) != draws(4, 10)
    state = iteration_state(5, 1)
    assert [sample(np.array([0.0, 1.0, 0.0]), 3, state) for _ in range(5)] == [1] * 5
    counts = np.bincount(
        [sample(np.array([0.2, 0.5, 0.3]), 3, state) for _ in range(20_000)], minlength=3
    )
    assert np.allclose(counts / 20_000, [0.2, 0.5, 0.3], atol=0.015)
