"""Hiding sensitive payload fields: nested paths, absent fields, a copy (the case as stored is never
touched), and every place of a case answer that carries a payload."""

from __future__ import annotations

from typing import Any

from caseplatform.governance.access import HIDDEN, mask_case_answer, mask_payload, sensitive_fields
from caseplatform.model import SchemaRecord


def test_fields_are_hidden_on_a_copy() -> None:
    payload: dict[str, Any] = {"site": "Haifa", "contact": {"phone": "+972501234567", "name": "Dana"}, "n": 1}
    masked = mask_payload(payload, ("site", "contact.phone", "missing", "n.deeper", "contact.none"))
    assert masked == {"site": HIDDEN, "contact": {"phone": HIDDEN, "name": "Dana"}, "n": 1}
    assert payload["contact"]["phone"] == "+972501234567"
    assert mask_payload(payload, ()) is payload
    assert mask_payload(["not", "an", "object"], ("site",)) == ["not", "an", "object"]


def test_the_fields_come_from_the_active_schema() -> None:
    record = SchemaRecord("lgv", 1, {"x-hitl": {"sensitive_fields": ["site"]}}, True, 0)
    assert sensitive_fields(record) == ("site",)
    assert sensitive_fields(SchemaRecord("lgv", 1, {}, True, 0)) == ()
    assert sensitive_fields(None) == ()


def test_every_payload_of_a_case_answer_is_masked() -> None:
    def payload() -> dict[str, Any]:
        return {"site": "Haifa", "lgv_id": "LGV-07"}

    answer: dict[str, Any] = {
        "case": {
            "payload": payload(),
            "payload_as_read": payload(),
            "payload_problems": [{"path": "$.payload.site", "message": "'Haifa' is too long"}],
        },
        "history": [
            {"event_type": "submitted"},
            {"event_type": "decision_recorded", "approved_payload": payload()},
        ],
        "decision": {"approved_payload": payload()},
        "final_payload": payload(),
    }
    masked = mask_case_answer(answer, ("site",))
    hidden = {"site": HIDDEN, "lgv_id": "LGV-07"}
    assert masked["case"]["payload"] == masked["case"]["payload_as_read"] == hidden
    assert masked["history"][1]["approved_payload"] == masked["decision"]["approved_payload"] == hidden
    assert masked["final_payload"] == hidden
    assert masked["case"]["payload_problems"] == [{"path": "$.payload.site", "message": HIDDEN}]
    history = mask_case_answer({"items": [{"approved_payload": payload()}]}, ("site",))
    assert history["items"][0]["approved_payload"] == hidden
