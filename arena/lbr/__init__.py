"""Local best response (Lisy & Bowling 2017): the exploiting player, its range, match and report."""
