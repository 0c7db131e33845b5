"""The intent hash with the payload's JSON spliced in is the hash of the whole request's canonical
JSON, byte for byte: a retry hashed either way (or stored before the splice existed) still matches."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caseplatform.decisions import intent_hash
from caseplatform.model import canonical_json
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import lgv_payload, submit_args

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


def _reference(arguments: dict[str, Any], action: str) -> str:
    body = {"action": action, **{k: v for k, v in arguments.items() if k != "request_id"}}
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


@given(
    payload=st.dictionaries(st.text(max_size=5), _JSON, max_size=4),
    others=st.dictionaries(st.text(max_size=9), _JSON, max_size=5),
)
def test_the_spliced_hash_is_the_hash_of_the_whole(payload: dict[str, Any], others: dict[str, Any]) -> None:
    arguments = {**others, "payload": payload, "request_id": "r-1"}
    spliced = intent_hash(arguments, "submit_case", payload_json=canonical_json(payload))
    assert spliced == intent_hash(arguments, "submit_case") == _reference(arguments, "submit_case")


@pytest.mark.parametrize(
    "keys",
    [["payload"], ["payload", "zeta"], ["alpha", "payload"], ["action", "payload", "request_id", "title"]],
)
def test_keys_on_either_side_of_the_payload(keys: list[str]) -> None:
    arguments = {key: {"n": "ש"} if key == "payload" else key for key in keys}
    assert intent_hash(arguments, "x", payload_json=canonical_json(arguments["payload"])) == _reference(
        arguments, "x"
    )


def test_a_submission_records_the_hash_of_its_whole_request(service: CaseService) -> None:
    args = submit_args(request_id="hashed", payload=lgv_payload(symptom="עוצר לפני רציף 3 ✓"))
    event, _ = service.submit_case(**args)
    expected = {**args, "priority": args.get("priority", "normal"), "confidence": args.get("confidence")}
    assert event.request_hash == _reference(expected, "submit_case")
