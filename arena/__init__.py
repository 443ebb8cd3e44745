"""The arena: reproducible PyPokerEngine matches between bots, reported in small blinds per hand.

:func:`guard` wraps any PyPokerEngine player so that its illegal answers become folds before
the engine sees them (:mod:`arena.legal`).
"""

from arena.legal import guard

__all__ = ["guard"]
