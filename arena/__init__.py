"""The arena: reproducible PyPokerEngine matches between bots, reported in small blinds per hand."""
