"""Real-time subgame solving: vectorised CFR over public trees, river subgames, re-solving gadget.

See ``blueprint.subgame.vector_cfr`` (the solver core), ``river`` (heads-up no-limit hold'em
river subgames) and ``gadget`` (safe re-solving, Burch, Johanson & Bowling 2014; the tests
try it on Leduc's second-round subgames, ``tests/blueprint/leduc_subgame.py``).
"""
