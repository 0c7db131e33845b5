"""Builders shared by the case platform tests (unit and integration)."""

from __future__ import annotations

import itertools
from typing import Any

from caseplatform.service import CaseService

DAY_MS = 24 * 3600 * 1000
T0 = 1_700_000_000_000  # 2023-11-14T22:13:20Z, a Tuesday

AGENT = {"name": "lgv-chatbot", "role": "agent", "id": "agent:lgv"}
OPERATOR = {
    "name": "Dana Levi",
    "role": "site engineer",
    "id": "op:dana",
    "team": "lgv-ops",
    "kind": "operator",
}
OTHER_OPERATOR = {"name": "Omer Cohen", "role": "site engineer", "id": "op:omer", "kind": "operator"}


class FakeClock:
    def __init__(self, now: int = T0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


_counter = itertools.count()


def request_id(prefix: str = "req") -> str:
    return f"{prefix}-{next(_counter)}"


def lgv_payload(**overrides: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "symptom": "LGV stops before dock 3 with a navigation fault",
        "site": "Plant Haifa",
        "lgv_id": "LGV-07",
        "services_checked": ["nav-service", "fleet-manager"],
        "connection_path": ["LGV-07", "AP-12", "fleet-manager"],
        "evidence": ["nav-service restarted 3 times in 10 minutes"],
        "missing_data": ["reflector map version"],
        "proposed_next_action": "Reload the reflector map on LGV-07",
    }
    payload.update(overrides)
    return payload


def submit_args(**overrides: Any) -> dict[str, Any]:
    args: dict[str, Any] = {
        "adapter_id": "lgv_troubleshooting",
        "case_type": "incident",
        "title": "LGV-07 navigation fault at dock 3",
        "summary": "Recommend reloading the reflector map",
        "payload": lgv_payload(),
        "submitter": {k: v for k, v in AGENT.items()},
        "request_id": request_id("submit"),
        "priority": "normal",
        "confidence": "medium",
        "refs": [{"ref_type": "neo4j_node", "ref_key": "lgv_id", "ref_value": "LGV-07"}],
    }
    args.update(overrides)
    return args


def submit(service: CaseService, **overrides: Any) -> str:
    event, _ = service.submit_case(**submit_args(**overrides))
    return event.case_id
