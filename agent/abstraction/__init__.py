"""The ground floor's abstraction, shared by the trainer and the players.

Card buckets (hole classes, flop classes, EHS and k-means flop buckets read from the shipped
tables), the action abstraction and the abstract betting game, action translation for
off-tree bets, and the strategy file format (reader, writer, info-set keys, JSON sidecar).
Imports only :mod:`agent.poker`.
"""
