"""Envelope validation: every problem of a submit or action envelope at once, as jsonschema words it,
sorted by path; size bounds on text and payload; `system` is not an actor a caller may claim."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from caseplatform.model import canonical_json
from caseplatform.validation import (
    ACTION_SCHEMA,
    MAX_PAYLOAD_BYTES,
    MAX_TEXT,
    check_action,
    check_submit,
)
from tests.unit.caseplatform.factories import submit_args

CASE_ID = "HITL-0f8fad5b-d9cb-469f-a165-70867728950e"


def _action(**overrides: Any) -> dict[str, Any]:
    return {
        "case_id": CASE_ID,
        "notes": "",
        "actor": {"name": "Dana", "role": "engineer", "kind": "operator"},
        "request_id": "r-1",
        **overrides,
    }


def test_valid_envelopes_have_no_problems() -> None:
    assert check_submit(submit_args()) == []
    assert check_action(_action(decision="approved", structured_decision="edit", answers=[])) == []


def test_envelope_errors_are_jsonschemas_own_all_of_them_sorted() -> None:
    details = check_action({"case_id": "nope", "notes": 3, "actor": {"name": ""}, "request_id": " "})
    paths = [d["path"] for d in details]
    assert paths == sorted(paths)
    assert {"$.case_id", "$.notes", "$.actor", "$.actor.name", "$.request_id"} <= set(paths)
    expected = sorted(
        (e.json_path, e.message)
        for e in Draft202012Validator(ACTION_SCHEMA).iter_errors(
            {"case_id": "nope", "notes": 3, "actor": {"name": ""}, "request_id": " "}
        )
    )
    assert [(d["path"], d["message"]) for d in details] == expected
    assert check_submit({"adapter_id": "X"})  # an invalid submit envelope still explains itself


@pytest.mark.parametrize(
    ("overrides", "path"),
    [
        ({"actor": {"name": "hitl", "role": "platform", "kind": "system"}}, "$.actor.kind"),
        ({"notes": "x" * (MAX_TEXT + 1)}, "$.notes"),
        ({"decision": "maybe"}, "$.decision"),
        ({"structured_decision": "approved"}, "$.structured_decision"),
        ({"request_id": "r" * 129}, "$.request_id"),
        ({"case_id": "HITL-1"}, "$.case_id"),
        ({"surprise": 1}, "$"),
    ],
)
def test_an_action_out_of_bounds_is_refused_at_its_path(overrides: dict[str, Any], path: str) -> None:
    assert [d["path"] for d in check_action(_action(**overrides))] == [path]


def test_the_payload_size_bound_is_on_its_canonical_json() -> None:
    fits = {"text": "x" * (MAX_PAYLOAD_BYTES - len('{"text":""}'))}
    assert len(canonical_json(fits)) == MAX_PAYLOAD_BYTES
    assert check_submit(submit_args(payload=fits)) == []
    too_big = {"text": fits["text"] + "x"}
    assert check_submit(submit_args(payload=too_big)) == [
        {
            "path": "$.payload",
            "message": f"payload is {MAX_PAYLOAD_BYTES + 1} bytes; the limit is {MAX_PAYLOAD_BYTES}",
        }
    ]
    multibyte = {"text": "ש" * (MAX_PAYLOAD_BYTES // 2)}  # two bytes each in UTF-8
    assert check_submit(submit_args(payload=multibyte))[0]["path"] == "$.payload"


def test_a_given_payload_json_is_what_is_measured() -> None:
    small = submit_args(payload={"a": 1})
    assert check_submit(small, payload_json="x" * (MAX_PAYLOAD_BYTES + 1))[0]["path"] == "$.payload"
    assert check_submit(small, payload_json='{"a":1}') == []


def test_long_messages_are_cut() -> None:
    details = check_submit(submit_args(case_type="x" * 1000))
    assert [d["path"] for d in details] == ["$.case_type"]
    assert len(details[0]["message"]) == 300
