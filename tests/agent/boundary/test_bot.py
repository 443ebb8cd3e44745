"""Whether a bot learns from hand to hand in games of one hand, asked of its class and options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from agent.boundary.bot import learns_in_cash_games


class TaughtByDefault:
    """A bot that learns in tournaments, and in cash games unless built with ``taught=False``."""

    learns = True
    learns_in_cash_games: ClassVar[bool] = False

    @classmethod
    def learns_in_cash_games_with(cls, options: Mapping[str, Any]) -> bool:
        return options.get("taught", True) is True


def test_a_bot_built_on_its_defaults_is_asked_about_them() -> None:
    assert learns_in_cash_games(TaughtByDefault) is True
    assert learns_in_cash_games(TaughtByDefault, {}) is True


def test_an_option_that_turns_the_learning_off_leaves_the_class_answer() -> None:
    assert learns_in_cash_games(TaughtByDefault, {"taught": False}) is False
