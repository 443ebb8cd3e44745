"""Benchmarks that print their figures. Run each from the repository root as a module,
``python -m bench.NAME`` (``bench.agent``, ``bench.arena``, ...), so that the scripts named
after the packages they measure do not hide those packages from ``import``.
"""
