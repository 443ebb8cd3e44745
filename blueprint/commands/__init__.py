"""The ``blueprint`` command line: ``solve`` (Kuhn, Leduc) and ``train`` / ``clean`` / ``info``."""
