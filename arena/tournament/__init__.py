"""Sit-and-go tournaments of 2 to 10 bots, played by PyPokerEngine's own game loop."""
