"""An operator's question relayed to the user, and what they hear about their answer."""

from __future__ import annotations

from memo.hitl import templates


def test_the_operators_question_is_relayed() -> None:
    assert templates.operator_question("en", "Which day?") == (
        "🕵️ The operator reviewing your request asks:\nWhich day?\nJust reply here and I'll pass it on."
    )


def test_what_becomes_of_the_answer() -> None:
    assert templates.operator_answer_passed_on("he") == "העברתי את זה למפעיל. אעדכן אותך ברגע שתתקבל החלטה."
    assert "still waiting for their decision" in templates.operator_question_declined("en")
    assert templates.operator_answer_too_late("en") == (
        "The operator is no longer waiting for that answer, so I didn't pass it on."
    )
