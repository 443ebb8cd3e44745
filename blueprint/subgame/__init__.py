"""Real-time subgame solving: vectorised CFR over public trees, river subgames, re-solving gadget.

See ``blueprint.subgame.vector_cfr`` (the solver core), ``river`` (heads-up no-limit hold'em
river subgames), ``gadget`` (safe re-solving, Burch, Johanson & Bowling 2014) and ``leduc``
(Leduc second-round subgames, the test bed of the gadget).
"""
