"""The PyPokerEngine boundary: typed decision snapshots, policy players, the study's thresholds.

Every bot of ours (the agent's players and the baselines) converts PyPokerEngine's dict
``round_state`` once, here, into a :class:`~agent.boundary.snapshot.Snapshot`, and answers
with a policy over legal actions. Sits on the ground floor (:mod:`agent.poker`,
:mod:`agent.abstraction`).
"""
