"""The N-player solver core: public betting trees, deals with showdown ranks, external-sampling
MCCFR and exact best response for games of two or more players (three-player Kuhn poker,
push/fold hold'em with antes)."""
