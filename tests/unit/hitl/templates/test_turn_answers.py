"""The turn's own answers."""

from __future__ import annotations

from memo.hitl import templates


def test_an_account_to_connect_is_named() -> None:
    assert templates.connect_account({"email", "calendar"}, "en").startswith(
        "To use your calendar and email I need access to your account"
    )
    assert templates.sent_to_review("en").startswith("🕵️ This needs a quick check by one of our operators")
