"""The decision rules of the CFR players' fixed strategy, each testable alone.

:mod:`.rule` says what a rule offers and what the rules of one strategy share;
:class:`agent.players.strategy.FixedStrategy` orders them.
"""
