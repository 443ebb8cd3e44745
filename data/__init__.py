"""Shipped data files (installed as ``agent.data``): the trained blueprint and equity tables."""
