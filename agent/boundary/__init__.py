"""The PyPokerEngine boundary: typed decision snapshots, policy players, da Luz's thresholds.

Every bot of ours (the agent's players and the baselines) converts PyPokerEngine's dict
``round_state`` once, here, into a :class:`~agent.boundary.snapshot.Snapshot`, and answers with a
policy over legal actions. The thresholds are the win-rate rule of the bots this project reproduces
(da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo Simulations", Cardiff University, CM3203;
:mod:`agent.boundary.thresholds`). Sits on the ground floor (:mod:`agent.poker`,
:mod:`agent.abstraction`).
"""
