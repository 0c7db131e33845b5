"""Layer 2 without an LLM: the rule interpreter, the modification allowlist and normalisation."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memo.domain import PendingHITL, PlanStep
from memo.hitl import gate
from memo.hitl.interpreter import (
    ALLOWED_MODIFICATION_FIELDS,
    InterpreterInput,
    OpenAIInterpreter,
    RuleInterpreter,
    build_interpreter,
    normalize_modifications,
    parse_modifications,
    sanitize_modifications,
)
from memo.settings import LlmSettings
from tests.unit.hitl.conftest import NOW, TZ, make_state, plan, step

STEP = step(
    action="update",
    constraints={"target": "call mom"},
    changes={"when": "2024-05-02T17:00:00+03:00"},
)


def approval_pending(language: str = "en") -> PendingHITL:
    state = make_state(plan(STEP, risk="high"), language=language)
    pending = gate.check_planner(state, now=NOW).pending
    assert pending is not None
    return pending


def interpret(
    text: str, language: str = "en", pending: PendingHITL | None = None, origin: PlanStep | None = STEP
):
    return RuleInterpreter().interpret(
        InterpreterInput(
            pending=pending or approval_pending(language),
            reply=text,
            language=language,  # type: ignore[arg-type]
            timezone=TZ,
            now=NOW,
            origin_step=origin,
        )
    )


@pytest.mark.parametrize(
    "text",
    ["cancel", "never mind", "Forget it", "cancel that please", "ביטול", "עזוב", "לא משנה", "תשכח מזה"],
)
def test_cancel_words(text: str) -> None:
    assert interpret(text, "he" if text[0] > "z" else "en").decision == "cancel"


@pytest.mark.parametrize(
    ("text", "language", "mods"),
    [
        ("yes, and change the time to 6pm", "en", {"when": "2024-05-02T18:00:00+03:00"}),
        ("ok but make it 7:30pm", "en", {"when": "2024-05-02T19:30:00+03:00"}),
        ("move it to friday", "en", {"when": "2024-05-03T17:00:00+03:00"}),
        ("yes, change the title to Wedding", "en", {"title": "Wedding"}),
        ("sure, rename it to Dentist", "en", {"title": "Dentist"}),
        ("כן, ותשנה את השם ל-חתונה", "he", {"title": "חתונה"}),
        ("כן, ותשנה את השעה ל-18:00", "he", {"when": "2024-05-02T18:00:00+03:00"}),
        ("תזיז את זה ל-19:00", "he", {"when": "2024-05-02T19:00:00+03:00"}),
        ("at 8pm instead", "en", {"when": "2024-05-02T20:00:00+03:00"}),
    ],
)
def test_edits_are_continue_with_modifications(text: str, language: str, mods: dict) -> None:
    out = interpret(text, language)
    assert out.decision == "continue_with_modifications"
    assert out.parsed is not None and out.parsed.modifications == mods and out.parsed.approved is True


@pytest.mark.parametrize("text", ["yes please do it now", "sure thing, thanks", "כן בבקשה תעשה את זה עכשיו"])
def test_a_leading_yes_continues(text: str) -> None:
    out = interpret(text, "he" if "כן" in text else "en")
    assert out.decision == "continue" and out.parsed is not None and out.parsed.approved is True


def test_a_leading_no_is_a_refusal() -> None:
    out = interpret("no don't do that")
    assert out.decision == "continue" and out.parsed is not None and out.parsed.approved is False


@pytest.mark.parametrize(
    ("text", "language"),
    [("what are my reminders?", "en"), ("add milk to my shopping list", "en"), ("מה ברשימת הקניות", "he")],
)
def test_a_complete_other_request_switches_intent(text: str, language: str) -> None:
    assert interpret(text, language).decision == "switch_intent"


@pytest.mark.parametrize("text", ["hmm", "what?", "maybe", "change the vibe to happy", "", "אולי"])
def test_unclear_replies_re_ask(text: str) -> None:
    assert interpret(text, "he" if text == "אולי" else "en").decision == "re_ask"


def test_sanitize_keeps_only_allowed_non_id_fields() -> None:
    raw = {
        "title": " Gym ",
        "reminderId": "r-1",
        "id": "x",
        "candidateIndex": 2,
        "externalIds": {"a": "b"},
        "unknown": "?",
        "items": ["milk", " "],
        "when": None,
        "location": "",
        "query": {"nested": True},
    }
    assert sanitize_modifications(raw) == {"title": "Gym", "items": ["milk"]}
    assert not any(key.lower().endswith("id") for key in ALLOWED_MODIFICATION_FIELDS)


def test_normalize_puts_a_bare_time_on_the_step_day_and_a_bare_day_at_the_step_time() -> None:
    def norm(mods: dict) -> dict:
        return normalize_modifications(mods, step=STEP, now=NOW, timezone=TZ, language="en")

    assert norm({"time": "6pm"}) == {"when": "2024-05-02T18:00:00+03:00"}
    assert norm({"date": "friday"}) == {"when": "2024-05-03T17:00:00+03:00"}
    assert norm({"date": "friday", "time": "9am"}) == {"when": "2024-05-03T09:00:00+03:00"}
    assert norm({"when": "2024-05-04T08:00:00+03:00"}) == {"when": "2024-05-04T08:00:00+03:00"}
    assert norm({"time": "whenever", "title": "x"}) == {"title": "x"}
    create = step(constraints={"title": "x", "day": "2024-05-06"})
    assert normalize_modifications({"time": "9:15"}, step=create, now=NOW, timezone=TZ, language="en") == {
        "when": "2024-05-06T09:15:00+03:00"
    }


def test_parse_modifications_needs_a_change_phrase() -> None:
    assert parse_modifications("yes") == {}
    assert parse_modifications("sounds good") == {}
    assert parse_modifications("change the name to Bob") == {"title": "Bob"}


def test_build_interpreter_picks_rules_without_a_key() -> None:
    assert isinstance(build_interpreter(LlmSettings()), RuleInterpreter)
    keyed = LlmSettings.model_validate({"OPENAI_API_KEY": "sk-test"})
    assert isinstance(build_interpreter(keyed), OpenAIInterpreter)


def test_edit_details_answer_without_a_change_re_asks() -> None:
    pending = approval_pending()
    editing = pending.model_copy(
        update={
            "expected_input": "free_text",
            "options": None,
            "context": pending.context.model_copy(update={"awaiting": "edit_details"}),  # type: ignore[union-attr]
            "expires_at": NOW + timedelta(minutes=5),
        }
    )
    assert interpret("no", pending=editing).decision == "re_ask"
    assert interpret("go ahead", pending=editing).decision == "continue"


@pytest.mark.parametrize("hour", range(24))
def test_a_bare_hour_correcting_a_time_is_the_half_of_the_day_nearer_it(hour: int) -> None:
    # "no, at 8" to "Just to check — … 19:45?" set 08:00.
    current = step(constraints={"title": "x", "when": f"2024-05-03T{hour:02d}:45:00+03:00"})
    for bare in range(1, 12):
        morning, evening = bare * 60, (bare + 12) * 60
        said_at = hour * 60 + 45
        # 1 to 6 without am/pm are afternoon hours, as in any time said (no waking hours).
        nearer = abs(evening - said_at) < abs(morning - said_at)
        expected = evening if bare <= 6 or nearer else morning
        for words, language in ((f"at {bare}", "en"), (str(bare), "en"), (f"ב-{bare}", "he")):
            mods = normalize_modifications(
                {"time": words}, step=current, now=NOW, timezone=TZ, language=language
            )
            assert mods == {"when": f"2024-05-03T{expected // 60:02d}:00:00+03:00"}, (hour, words)
    # Said with am/pm, as 24-hour time, or with a day: as said.
    for words, when in (
        ("8am", "2024-05-03T08:00"),
        ("08:00", "2024-05-03T08:00"),
        ("20:00", "2024-05-03T20:00"),
        ("saturday at 8", "2024-05-04T08:00"),
    ):
        mods = normalize_modifications({"time": words}, step=current, now=NOW, timezone=TZ, language="en")
        assert mods == {"when": f"{when}:00+03:00"}, (hour, words)
