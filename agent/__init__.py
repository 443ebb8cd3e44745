"""The agent and the poker core every package uses: cards, hand evaluation and equity."""
