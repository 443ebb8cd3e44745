"""The adaptive agent: cfrv2 with an online model of each opponent and a safe best response."""
