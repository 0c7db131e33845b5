"""The OpenAI planner against a local OpenAI-compatible server: the request, and every failure path."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from memo.planner.llm import OpenAIPlanner
from memo.settings import LlmSettings
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.unit.planner.conftest import latest, pin


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def settings(server: FakeOpenAI, **extra: str) -> LlmSettings:
    return LlmSettings.model_validate(
        {
            "OPENAI_API_KEY": "sk-test",
            "OPENAI_BASE_URL": server.base_url,
            "MEMO_PLANNER_MODEL": "planner-model-x",
            "MEMO_LLM_TIMEOUT_SECONDS": "0.5",
            "MEMO_LLM_MAX_RETRIES": "0",
            **extra,
        }
    )


def good_plan(**overrides: Any) -> dict[str, Any]:
    answer = {
        "intentType": "operation",
        "confidence": 0.93,
        "riskLevel": "low",
        "needsApproval": False,
        "missingFields": [],
        "plan": [
            {
                "id": "s1",
                "capability": "reminders",
                "action": "create",
                "constraints": [
                    {"key": "title", "value": "call mom"},
                    {"key": "whenText", "value": "tomorrow at 5pm"},
                ],
                "changes": [],
                "dependsOn": [],
            }
        ],
        "routingSuggestions": [
            {"capability": "reminders", "action": "create", "confidence": 0.9, "reason": "remind"}
        ],
    }
    answer.update(overrides)
    return answer


def _objects(schema: Any) -> Iterator[dict[str, Any]]:
    if isinstance(schema, dict):
        if schema.get("type") == "object":
            yield schema
        for value in schema.values():
            yield from _objects(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _objects(value)


def test_good_answer_and_the_request_sent(server: FakeOpenAI) -> None:
    server.script(Reply.json(good_plan()))
    planner = OpenAIPlanner(settings(server))
    result = planner.plan(
        pin("remind me to call mom tomorrow at 5", actions=(latest("notes", "wifi password"),), language="en")
    )
    assert result.source == "llm" and result.fallback_reason is None
    step = result.output.plan[0]
    assert (step.capability, step.action) == ("reminders", "create")
    # The model copied the time's words; Memo resolved them (2024-05-01 10:00 in Jerusalem is now).
    assert step.constraints == {"title": "call mom", "when": "2024-05-02T17:00:00+03:00"}
    assert result.routing_suggestions[0].capability == "reminders"

    assert server.paths == ["/v1/chat/completions"]
    body = server.requests[0]
    assert body["model"] == "planner-model-x"
    assert body["temperature"] == 0.0 and body["max_tokens"] == 800
    response_format = body["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["strict"] is True
    schema = response_format["json_schema"]["schema"]
    assert set(schema["properties"]) == {
        "intentType",
        "confidence",
        "riskLevel",
        "needsApproval",
        "missingFields",
        "plan",
        "routingSuggestions",
    }
    for obj in _objects(schema):  # strict mode: closed objects, every property required
        assert obj.get("additionalProperties") is False
        assert sorted(obj.get("required", [])) == sorted(obj.get("properties", {}))
    user = body["messages"][1]["content"]
    assert "## Latest Actions" in user and "notes/create: wifi password" in user
    assert "2024-05-01T10:00:00+03:00" in user and "Asia/Jerusalem" in user and "## Language\nen" in user
    assert "## Clarification" not in user


def test_replan_sends_the_clarification(server: FakeOpenAI) -> None:
    server.script(Reply.json(good_plan()))
    OpenAIPlanner(settings(server)).plan(pin("mom thing", clarification="remind me to call her at 5"))
    assert "## Clarification" in server.requests[0]["messages"][1]["content"]
    assert "remind me to call her at 5" in server.requests[0]["messages"][1]["content"]


def test_risk_policy_overrides_an_optimistic_llm(server: FakeOpenAI) -> None:
    answer = good_plan(
        riskLevel="low",
        plan=[
            {
                "id": "s1",
                "capability": "reminders",
                "action": "delete_all",
                "constraints": [],
                "changes": [],
                "dependsOn": [],
            }
        ],
    )
    server.script(Reply.json(answer))
    output = OpenAIPlanner(settings(server)).plan(pin("wipe them")).output
    assert output.risk_level == "high" and output.needs_approval


@pytest.mark.parametrize(
    ("said", "missing"),
    [
        ("tomorrow-ish", ["time_unclear", "reminder_time_required"]),
        ("yesterday at 5pm", ["time_in_past", "reminder_time_required"]),
        ("at 25:00", ["time_invalid", "reminder_time_required"]),
        ("on friday", ["reminder_time_required"]),
    ],
)
def test_a_time_memo_cannot_resolve_is_asked_never_guessed(
    server: FakeOpenAI, said: str, missing: list[str]
) -> None:
    answer = good_plan()
    answer["plan"][0]["constraints"][1]["value"] = said
    server.script(Reply.json(answer))
    output = OpenAIPlanner(settings(server)).plan(pin("remind me to call mom")).output
    assert "when" not in output.plan[0].constraints
    assert output.missing_fields == missing


def test_a_datetime_the_model_computed_is_never_kept(server: FakeOpenAI) -> None:
    """A model is unreliable at date arithmetic: a `when` it writes is dropped, its words are used."""
    answer = _with_constraints(title="call mom", when="2024-05-09T09:00:00+03:00", whenText="tomorrow at 5pm")
    server.script(Reply.json(answer))
    output = OpenAIPlanner(settings(server)).plan(pin("remind me to call mom tomorrow at 5pm")).output
    assert output.plan[0].constraints["when"] == "2024-05-02T17:00:00+03:00"
    alone = _with_constraints(title="call mom", when="2024-05-09T09:00:00+03:00")
    server.script(Reply.json(alone))
    output = OpenAIPlanner(settings(server)).plan(pin("remind me to call mom")).output
    assert "when" not in output.plan[0].constraints and output.missing_fields == ["reminder_time_required"]


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (Reply.text("{not json"), "invalid_output"),
        (Reply.json({"intentType": "dance"}), "invalid_output"),
        (Reply.json(good_plan(plan=[{"id": "s1"}])), "invalid_output"),
        (Reply.status(500), "InternalServerError"),
        (Reply.status(429), "RateLimitError"),
        (Reply.hang(), "timeout"),
    ],
)
def test_failures_fall_back_to_the_rule_planner(server: FakeOpenAI, reply: Reply, reason: str) -> None:
    server.script(reply)
    result = OpenAIPlanner(settings(server)).plan(pin("delete all my reminders"))
    assert result.source == "rules" and result.fallback_reason == reason
    assert result.output.plan[0].action == "delete_all" and result.output.needs_approval
    assert len(server.requests) == 1


def test_retries_are_configured(server: FakeOpenAI) -> None:
    server.script(Reply.status(500), Reply.json(good_plan()))
    result = OpenAIPlanner(settings(server, MEMO_LLM_MAX_RETRIES="1")).plan(pin("remind me to call mom at 5"))
    assert result.source == "llm" and len(server.requests) == 2


def _with_constraints(**constraints: str) -> dict[str, Any]:
    answer = good_plan()
    answer["plan"][0]["constraints"] = [{"key": k, "value": v} for k, v in constraints.items()]
    return answer


def test_a_repeating_reminder_is_resolved_from_the_model_s_words(server: FakeOpenAI) -> None:
    server.script(Reply.json(_with_constraints(title="water the plants", whenText="every other day at 8am")))
    result = OpenAIPlanner(settings(server)).plan(pin("water the plants every second morning at 8"))
    assert result.source == "llm"
    constraints = result.output.plan[0].constraints
    assert constraints["recurrence"] == "FREQ=DAILY;INTERVAL=2" and result.output.missing_fields == []
    assert constraints["when"] == "2024-05-02T08:00:00+03:00"
    assert "whenText" in server.requests[0]["messages"][0]["content"]
    # Words of the time the parser cannot read are asked about, never dropped (a series set once).
    server.script(
        Reply.json(_with_constraints(title="water the plants", whenText="every second morning at 8"))
    )
    unread = OpenAIPlanner(settings(server)).plan(pin("water the plants every second morning at 8")).output
    assert "when" not in unread.plan[0].constraints
    assert unread.missing_fields == ["time_unclear", "reminder_time_required"]


@pytest.mark.parametrize("rule", ["FREQ=SECONDLY", "FREQ=DAILY;COUNT=0", "FREQ=WEEKLY;BYDAY=XX"])
def test_a_recurrence_the_model_computed_is_never_kept(server: FakeOpenAI, rule: str) -> None:
    server.script(Reply.json(_with_constraints(title="stretch", whenText="at 8am", recurrence=rule)))
    result = OpenAIPlanner(settings(server)).plan(pin("stretch at 8am"))
    assert result.source == "llm"
    assert "recurrence" not in result.output.plan[0].constraints
    assert result.output.plan[0].constraints["when"] == "2024-05-02T08:00:00+03:00"


def test_moves_snoozes_and_listed_days_are_resolved_from_their_words(server: FakeOpenAI) -> None:
    def step(action: str, constraints: dict[str, str], changes: dict[str, str]) -> dict[str, Any]:
        return good_plan(
            plan=[
                {
                    "id": "s1",
                    "capability": "reminders",
                    "action": action,
                    "constraints": [{"key": k, "value": v} for k, v in constraints.items()],
                    "changes": [{"key": k, "value": v} for k, v in changes.items()],
                    "dependsOn": [],
                }
            ]
        )

    planner = OpenAIPlanner(settings(server))
    server.script(Reply.json(step("update", {"target": "dentist"}, {"whenText": "friday at 10"})))
    assert planner.plan(pin("move the dentist to friday at 10")).output.plan[0].changes == {
        "when": "2024-05-03T10:00:00+03:00"
    }
    server.script(Reply.json(step("update", {"target": "dentist"}, {"whenText": "6pm"})))
    assert planner.plan(pin("move the dentist to 6pm")).output.plan[0].changes == {"time": "18:00"}
    server.script(Reply.json(step("update", {"target": "dentist"}, {"shiftText": "an hour earlier"})))
    assert planner.plan(pin("bring the dentist an hour earlier")).output.plan[0].changes == {
        "shiftMinutes": -60
    }
    server.script(Reply.json(step("update", {"targetRef": "latest_action"}, {"shiftText": "10 min"})))
    assert planner.plan(pin("snooze it 10 min")).output.plan[0].changes == {"shiftMinutes": 10}
    server.script(Reply.json(step("list", {"dayText": "tomorrow"}, {})))
    assert planner.plan(pin("what do I have tomorrow")).output.plan[0].constraints == {"day": "2024-05-02"}
    server.script(Reply.json(step("update", {"target": "dentist"}, {"shiftText": "a bit"})))
    assert planner.plan(pin("push the dentist a bit")).output.missing_fields == ["time_unclear"]


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("remind me every day at 8am to take my pills", "FREQ=DAILY"),
        ("תזכיר לי כל יום ראשון ב-9 להתקשר לסבתא", "FREQ=WEEKLY;BYDAY=SU"),
    ],
)
def test_a_one_off_made_of_words_that_repeat_is_planned_by_the_rules(
    server: FakeOpenAI, message: str, rule: str
) -> None:
    server.script(Reply.json(_with_constraints(title="take my pills", whenText="at 8am")))
    result = OpenAIPlanner(settings(server)).plan(pin(message))
    assert result.source == "rules" and result.fallback_reason == "recurrence_missing"
    assert result.output.plan[0].constraints["recurrence"] == rule
