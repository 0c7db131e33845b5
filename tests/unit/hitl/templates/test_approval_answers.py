"""What is said back to an approval answer that cannot run as said."""

from __future__ import annotations

from memo.hitl import templates
from tests.unit.hitl.conftest import step


def test_edit_asks_what_to_change_and_for_a_delete_what_to_keep() -> None:
    assert templates.edit_prompt("en").startswith("What should I change? For example")
    assert "keep 2" in templates.edit_prompt("en", removal=True)


def test_a_new_time_for_a_delete_is_explained_not_run() -> None:
    text = templates.edit_not_applicable(step(action="delete"), ["when"], "en")
    assert text.startswith("There's no time to change on a delete. Nothing was changed or deleted.")
    he = templates.edit_not_applicable(step(capability="lists", action="clear"), ["title"], "he")
    assert he.startswith("את זה אי אפשר לשנות בניקוי.")
    skip = templates.edit_not_applicable(step(action="delete"), ["time"], "en", skip=True)
    assert skip.startswith("There's no time to change on a skip. Nothing was changed or skipped.")


def test_items_that_changed_meanwhile_are_named() -> None:
    text = templates.items_changed(["gym"], [("mom", "call mom")], "en")
    assert text == (
        "Something changed since I asked (“gym” was deleted meanwhile; “mom” is now called “call mom”), "
        "so I haven't done anything and looked again."
    )


def test_a_keep_only_some_answer_that_cannot_be_read() -> None:
    assert templates.narrowing_empty("en") == "That leaves nothing, so I haven't done anything."
    assert templates.limit_unclear("the blue one", "en").startswith(
        "I couldn't tell which of them “the blue one”"
    )
    assert "לא עשיתי כלום" in templates.narrowing_unclear("he")
    assert "rest of the request" in templates.narrowing_with_the_rest("en")


def test_series_left_out_of_a_day_cleared() -> None:
    assert templates.series_left_out(["take pills"], "tomorrow", "en") == (
        "I've left out “take pills”: it repeats, and a delete would stop it for good."
        " To skip only tomorrow, say e.g. “skip take pills tomorrow”."
    )
    assert templates.series_left_out(["pills", "stretch"], "friday", "en", alone=True).endswith(
        "they repeat, and a delete would stop them for good. To skip only friday, say e.g. “skip pills friday”."
        " Nothing was deleted."
    )
    assert templates.series_left_out(["כדורים"], "מחר", "he") == (
        "את „כדורים” לא מחקתי: היא חוזרת, ומחיקה הייתה עוצרת אותה לגמרי. כדי לדלג רק על מחר, כתבו למשל „תדלג על כדורים מחר”."
    )
