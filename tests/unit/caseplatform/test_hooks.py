"""Adapters' hooks: normalization only for an adapter that has one and only on an object; the summary
line is one line of bounded length, else the title."""

from __future__ import annotations

from typing import Any

import pytest

from caseplatform.hooks import MAX_SUMMARY_LINE, normalized, summary_line
from caseplatform.model import Case, Principal
from tests.unit.caseplatform.factories import T0, lgv_payload


def case_of(
    payload: dict[str, Any], adapter_id: str = "lgv_troubleshooting", title: str = "the title"
) -> Case:
    return Case(
        case_id="HITL-1",
        schema_version=1,
        adapter_id=adapter_id,
        case_type="incident",
        title=title,
        summary="",
        payload=payload,
        payload_hash_sha256="0" * 64,
        submitter=Principal(name="agent", role="agent"),
        priority="normal",
        confidence=None,
        created_at_ms=T0,
        updated_at_ms=T0,
    )


def test_only_an_adapter_with_a_normalizer_changes_a_payload() -> None:
    messy = lgv_payload(lgv_id=" lgv-07 ")
    assert normalized("lgv_troubleshooting", messy)["lgv_id"] == "LGV-07"
    assert normalized("it_ops", messy) is messy
    assert normalized("lgv_troubleshooting", ["not", "an", "object"]) == ["not", "an", "object"]
    assert normalized(None, messy) is messy  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("case", "line"),
    [
        (case_of({}, adapter_id="it_ops", title="Disk  full\non db1"), "Disk full on db1"),
        (case_of(lgv_payload(symptom="x" * 500)), None),
    ],
)
def test_a_summary_is_one_bounded_line(case: Case, line: str | None) -> None:
    found = summary_line(case)
    assert "\n" not in found and len(found) <= MAX_SUMMARY_LINE
    if line is not None:
        assert found == line
    else:
        assert len(found) == MAX_SUMMARY_LINE and found.endswith("…")


def test_a_line_at_the_limit_is_kept_whole() -> None:
    title = "t" * MAX_SUMMARY_LINE
    assert summary_line(case_of({}, adapter_id="it_ops", title=title)) == title
