"""The ground floor's poker core: cards, the 7-card evaluator, equity and seeded random streams.

Imports nothing else of ours. Every other package (the players, the trainer, the baselines
and the arena) builds on it.
"""
