"""Sensitive fields through the review API on both stores: a viewer of the adapter reads the case
with the fields hidden everywhere (payload, view, history, decision, lists), may not act on it,
and a reviewer reads everything."""

from __future__ import annotations

from typing import Any

import pytest

from caseplatform.governance.access import HIDDEN
from caseplatform.review.approvals import ReviewService
from caseplatform.review.auth import Principal
from caseplatform.service import CaseService
from tests.integration.caseplatform.review.harness import ReviewClient, token
from tests.unit.caseplatform.factories import OPERATOR, lgv_payload, request_id, submit

VIEWER = token("vera", "viewers:lgv_troubleshooting", name="Vera")
REVIEWER = token("rita", "reviewers:lgv_troubleshooting", name="Rita")
STRANGER = token("sam", "viewers:ops_change", name="Sam")
SENSITIVE = ["site", "connection_path"]


@pytest.fixture
def api(service: CaseService) -> ReviewClient:
    return ReviewClient(ReviewService(service))


def _mark_sensitive(service: CaseService) -> None:
    active = service.store.active_schema("lgv_troubleshooting")
    assert active is not None
    schema: dict[str, Any] = {
        **active.schema,
        "x-hitl": {**active.schema["x-hitl"], "sensitive_fields": SENSITIVE},
    }
    service.register_adapter_schema("lgv_troubleshooting", 2, schema)
    service.activate_adapter_schema("lgv_troubleshooting", 2)


def test_a_viewer_reads_the_case_with_its_sensitive_fields_hidden(
    api: ReviewClient, service: CaseService
) -> None:
    _mark_sensitive(service)
    case_id = submit(service)
    edited = lgv_payload(site="Plant Haifa, hall B")
    service.decide(
        case_id=case_id, decision="edit", payload=edited, actor=OPERATOR, request_id=request_id("edit")
    )

    seen = api.call("GET", f"/review/cases/{case_id}", bearer=VIEWER)
    assert seen.status == 200
    body = seen.body
    assert body["case"]["payload"]["site"] == HIDDEN
    assert body["case"]["payload"]["connection_path"] == HIDDEN
    assert body["case"]["payload"]["lgv_id"] == "LGV-07"
    assert body["final_payload"]["site"] == HIDDEN
    assert all(
        e.get("approved_payload") in (None,) or e["approved_payload"]["site"] == HIDDEN
        for e in body["history"]
    )
    assert "Plant Haifa" not in str(body)
    sections = {s["label"]: s["value"] for s in body["view"]["sections"]}
    assert (sections["Site"], sections["Vehicle"]) == (HIDDEN, "LGV-07")

    full = api.call("GET", f"/review/cases/{case_id}", bearer=REVIEWER).body
    assert full["case"]["payload"]["site"] == "Plant Haifa"
    assert full["final_payload"]["site"] == "Plant Haifa, hall B"
    assert service.get_record(case_id).case.payload["site"] == "Plant Haifa"  # stored as submitted


def test_lists_show_a_viewer_the_title_and_acting_is_refused(api: ReviewClient, service: CaseService) -> None:
    _mark_sensitive(service)
    case_id = submit(service, title="LGV-07 navigation fault")
    listed = api.call("GET", "/review/cases", bearer=VIEWER).body["items"]
    assert [(i["case_id"], i["summary_line"]) for i in listed] == [(case_id, "LGV-07 navigation fault")]
    reviewer_line = api.call("GET", "/review/cases", bearer=REVIEWER).body["items"][0]["summary_line"]
    assert "Plant Haifa" in reviewer_line

    refused = api.call(
        "POST", f"/review/cases/{case_id}/reject", bearer=VIEWER, body={"request_id": "r-1", "reason": "no"}
    )
    assert refused.status == 403
    assert api.call("GET", f"/review/cases/{case_id}", bearer=STRANGER).status == 403


def test_a_viewer_reads_the_history_with_the_edit_hidden(api: ReviewClient, service: CaseService) -> None:
    """`get_case_history` (MCP over HTTP) reads through the same service."""
    _mark_sensitive(service)
    case_id = submit(service)
    service.decide(
        case_id=case_id, decision="edit", payload=lgv_payload(site="Hall B"), actor=OPERATOR, request_id="e"
    )
    vera = Principal("vera", "Vera", None, frozenset({"viewers:lgv_troubleshooting"}), "dev_jwt")
    edits = [
        e["approved_payload"] for e in api.review.history(vera, case_id)["items"] if e.get("approved_payload")
    ]
    assert [p["site"] for p in edits] == [HIDDEN]


def test_without_sensitive_fields_a_viewer_reads_everything(api: ReviewClient, service: CaseService) -> None:
    case_id = submit(service)
    body = api.call("GET", f"/review/cases/{case_id}", bearer=VIEWER).body
    assert body["case"]["payload"]["site"] == "Plant Haifa"
