"""The product: the CFRv1 and CFRv2 PyPokerEngine players and what only they use.

The blueprint store (strategy tables in memory), the engine history read as abstract
history, and defence by minimum defence frequency. Nothing else of ours imports this
package: the arena loads the players by name (``agent.players.cfrv2:CFRv2Player``).
"""
