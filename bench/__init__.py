"""Benchmarks that print their figures. Run each from the repository root as a module,
``python -m bench.NAME`` (``bench.decisions``, ``bench.match_speed``, ...), so that the scripts
named after the packages they measure do not hide those packages from ``import``.
"""
