"""The opponent model: what an opponent's actions say of its cards, learned from the hands it
plays (:mod:`.model`, :mod:`.ranges`), and the book that keeps a model of each opponent met
(:mod:`.book`). The fixed strategy reads opponents' ranges with it; the exploiter
best-responds to it."""
