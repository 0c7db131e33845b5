"""Small talk and conversation: no plan steps."""

from __future__ import annotations

from memo.planner.intents import conversation


def test_small_talk_is_recognised() -> None:
    found = conversation.small_talk("thanks!")
    assert found is not None and found.pattern.startswith("smalltalk:")
    assert conversation.small_talk("remind me to call mom") is None
