"""The cross-case queries by name: an unknown name or a bad argument is ENVELOPE_INVALID; the answers
are pages (decision_stats: buckets)."""

from __future__ import annotations

import pytest

from caseplatform.errors import EnvelopeInvalid
from caseplatform.query_tools import MAX_BUCKETS, QUERY_TOOLS, run_query
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import DAY_MS, FakeClock, submit


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("no_such_query", {}),
        ("list_reviewed", {"decision": "maybe"}),
        ("list_by_principal", {"principal": " "}),
        ("decision_stats", {}),
        ("decision_stats", {"from_ms": 0, "to_ms": MAX_BUCKETS * DAY_MS, "bucket_ms": DAY_MS}),
    ],
)
def test_a_bad_query_is_envelope_invalid(service: CaseService, name: str, args: dict[str, object]) -> None:
    with pytest.raises(EnvelopeInvalid):
        run_query(service, name, args)


def test_every_query_answers(service: CaseService, clock: FakeClock) -> None:
    submit(service)
    args = {
        "principal": "op:dana",
        "ref_type": "neo4j_node",
        "ref_key": "lgv_id",
        "ref_value": "LGV-07",
        "adapter_id": "lgv_troubleshooting",
        "field": "site",
        "value": "Plant Haifa",
        "from_ms": clock() - DAY_MS,
        "to_ms": clock() + 1,
    }
    answers = {name: run_query(service, name, args) for name in QUERY_TOOLS}
    assert all(answer["status"] == "success" for answer in answers.values())
    assert answers["cases_by_ref"]["count"] == answers["cases_by_payload_field"]["count"] == 1
    assert sum(b["submitted"] for b in answers["decision_stats"]["buckets"]) == 1
