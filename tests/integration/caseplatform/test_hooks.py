"""The adapter hooks through the service on both stores: a payload is stored as normalized, a retry
that differs only in what normalization removes is the same request, and a listing shows the
adapter's summary line."""

from __future__ import annotations

from caseplatform import answers
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import lgv_payload, submit_args


def test_a_messy_payload_is_stored_normalized_and_its_retry_replays(service: CaseService) -> None:
    args = submit_args(payload=lgv_payload(lgv_id="lgv-07 ", site="Plant  Haifa"), request_id="messy")
    event, case = service.submit_case(**args)
    assert (case.payload["lgv_id"], case.payload["site"]) == ("LGV-07", "Plant Haifa")
    assert service.get_record(case.case_id).case.payload == case.payload

    again = submit_args(payload=lgv_payload(lgv_id=" LGV-07", site="Plant Haifa "), request_id="messy")
    replayed, _ = service.submit_case(**again)
    assert replayed.event_id == event.event_id

    queue = answers.items_answer(service.list_review_queue(), answers.case_summary)
    assert [i["summary_line"] for i in queue["items"]] == [
        "LGV-07 at Plant Haifa: LGV stops before dock 3 with a navigation fault"
    ]
