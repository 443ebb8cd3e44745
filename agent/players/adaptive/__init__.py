"""The adaptive agent: cfrv2's fixed strategy composed with the opponent book and the exploiter
(:mod:`agent.players.opponents`, :mod:`agent.players.exploitation`)."""
