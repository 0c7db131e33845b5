from __future__ import annotations

from datetime import date, timedelta

from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import TurnInput
from memo.resolution.resolvers import ListResolver, NoteResolver, ReminderResolver
from tests.unit.resolution.helpers import step

EN = TurnInput(message="m", language="en", timezone="Asia/Jerusalem")
HE = TurnInput(message="m", language="he", timezone="Asia/Jerusalem")


def test_reminder_create_needs_no_entity_resolution() -> None:
    result = ReminderResolver().resolve(
        step(
            "s1",
            "reminders",
            "create",
            constraints={"title": " call  mom ", "when": "2026-03-10T18:00:00+02:00"},
        ),
        EN,
    )
    assert result.ok and result.target is None
    assert result.args == {"title": "call mom", "when": "2026-03-10T18:00:00+02:00"}


def test_reminder_create_without_a_time_fails_in_the_users_language() -> None:
    result = ReminderResolver().resolve(
        step("s1", "reminders", "create", constraints={"title": "x", "day": "2026-03-11"}), HE
    )
    assert result.error_code == "MISSING_TIME"
    assert result.error == "מתי להזכיר לך?"


def test_reminder_update_has_a_target_and_the_changes() -> None:
    result = ReminderResolver().resolve(
        step(
            "s1",
            "reminders",
            "update",
            constraints={"target": "dentist"},
            changes={"when": "2026-03-12T10:00:00+02:00"},
        ),
        EN,
    )
    assert result.args == {"when": "2026-03-12T10:00:00+02:00"}
    assert result.target is not None and result.target.text == "dentist" and not result.target.plural


def test_delete_with_plural_words_and_latest_action_reference() -> None:
    plural = ReminderResolver().resolve(
        step("s1", "reminders", "delete", constraints={"target": "all the reminders about mom"}), EN
    )
    assert plural.target is not None and plural.target.plural
    ref = NoteResolver().resolve(
        step("s2", "notes", "delete", constraints={"targetRef": "latest_action"}), EN
    )
    assert ref.target is not None and ref.target.ref == "latest_action" and ref.target.text is None


def test_list_remove_matches_each_item_on_its_own() -> None:
    result = ListResolver().resolve(
        step(
            "s1", "lists", "remove", constraints={"listName": "Shopping"}, changes={"items": ["milk", "eggs"]}
        ),
        EN,
    )
    assert result.target is not None
    assert result.target.texts == ["milk", "eggs"] and result.target.list_name == "Shopping"
    assert result.target.plural


def test_a_list_not_named_by_a_planner_is_found_when_resolved() -> None:
    # An LLM plan for "what's on my list?" / "take milk off the list" leaves the name out or says "my".
    shown = ListResolver().resolve(step("s1", "lists", "show"), EN)
    assert shown.ok and shown.args == {"listName": UNNAMED_LIST}
    cleared = ListResolver().resolve(step("s1", "lists", "clear", constraints={"listName": "the list"}), EN)
    assert cleared.args == {"listName": UNNAMED_LIST}
    removed = ListResolver().resolve(
        step("s1", "lists", "remove", constraints={"listName": "my"}, changes={"items": ["milk"]}), HE
    )
    assert removed.target is not None and removed.target.list_name == UNNAMED_LIST
    # Adding too: the one list there is, else the person is asked (`memo.resolution.list_names`).
    added = ListResolver().resolve(step("s1", "lists", "add", changes={"items": ["milk"]}), EN)
    assert added.args == {"listName": UNNAMED_LIST, "items": ["milk"]}


def test_unknown_action_is_unsupported() -> None:
    result = NoteResolver().resolve(step("s1", "notes", "archive"), EN)
    assert result.error_code == "UNSUPPORTED_ACTION"


def _skip(days: int) -> dict[str, object]:
    until = (date(2026, 12, 1) + timedelta(days=days)).isoformat()
    return {"target": "gym", "scope": "occurrence", "within": {"from": "2026-12-01", "until": until}}


def test_a_skip_names_at_most_a_year_of_days() -> None:
    at_the_limit = ReminderResolver().resolve(step("s1", "reminders", "delete", constraints=_skip(366)), EN)
    assert at_the_limit.ok and at_the_limit.args["within"]["until"] == "2027-12-02"
    past = ReminderResolver().resolve(step("s1", "reminders", "delete", constraints=_skip(367)), EN)
    assert not past.ok and past.error_code == "INVALID_ARGS"
    assert past.error == "I can skip at most a year of days at once, so I haven't skipped anything."
    hebrew = ReminderResolver().resolve(step("s1", "reminders", "delete", constraints=_skip(700)), HE)
    assert hebrew.error == "אפשר לדלג על שנה לכל היותר בבת אחת, אז לא דילגתי על כלום."


def test_a_change_asked_of_several_reminders_names_none_of_them() -> None:
    # "move all my reminders from tomorrow to wednesday" moved “call mom” alone ("all" is in "call").
    for target in (
        "tomorrow all",
        "all 's to wednesday",
        "everything tomorrow",
        "every reminder on friday",
        "כל התזכורות של מחר",
    ):
        for language, said in ((EN, "one reminder at a time"), (HE, "תזכורת אחת בכל פעם")):
            result = ReminderResolver().resolve(
                step(
                    "s1", "reminders", "update", constraints={"target": target}, changes={"shiftMinutes": 60}
                ),
                language,
            )
            assert result.target is None and result.error_code == "MISSING_DETAILS", target
            assert result.error is not None and said in result.error


def test_a_title_with_the_letters_of_all_is_still_one_reminder() -> None:
    for target in ("call mom", "the ball game", "mall", "every-day vitamins"):
        result = ReminderResolver().resolve(
            step("s1", "reminders", "update", constraints={"target": target}, changes={"shiftMinutes": 60}),
            EN,
        )
        assert result.ok and result.target is not None and result.target.text == target, target
