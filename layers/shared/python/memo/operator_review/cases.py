"""Memo on the case platform: the `memo_operation` adapter kept in line with the review policy, and
the case a waiting step submits (PII-minimised)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from caseplatform.service import CaseService
from memo.executor.contracts import StepTask
from memo.operator_review.policy import AdapterConfig, item_count

ADAPTER_ID = "memo_operation"
SUBMITTER = {"name": "Memo", "role": "agent", "id": "memo:executor"}


def adapter_schema(config: AdapterConfig) -> dict[str, Any]:
    """The packaged `memo_operation` schema with the policy's `x-hitl` (SLA, approvers)."""
    text = (
        resources.files("caseplatform.adapters").joinpath(f"{ADAPTER_ID}.v1.json").read_text(encoding="utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    schema["x-hitl"] = config.x_hitl()
    return schema


def ensure_memo_adapter(cases: CaseService, config: AdapterConfig) -> int:
    """Make the active `memo_operation` schema carry the policy's adapter configuration: registered
    (version 1) when absent, a new version when the configuration changed; returns the active version.
    Idempotent; two Lambdas doing it at once register the identical document."""
    cases.ensure_default_adapters()
    wanted = adapter_schema(config)
    active = cases.store.active_schema(ADAPTER_ID)
    if active is not None and active.schema == wanted:
        return active.schema_version
    versions = [record for record in cases.store.list_schemas(ADAPTER_ID)]
    same = next((r for r in versions if r.schema == wanted), None)
    version = same.schema_version if same else max((r.schema_version for r in versions), default=0) + 1
    if same is None:
        cases.register_adapter_schema(ADAPTER_ID, version, wanted)
    cases.activate_adapter_schema(ADAPTER_ID, version)
    return version


def summary_of(task: StepTask) -> str:
    """What the operator reads first: capability, action, how many items. No item texts, no phone."""
    count = item_count(task.args)
    verb = task.action.replace("_", " ")  # delete_all -> "delete all"
    kind = task.capability.removesuffix("s") if count == 1 else task.capability
    return f"Memo will {verb} {count} {kind} of a user once approved."


def payload_of(task: StepTask) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "capability": task.capability,
        "action": task.action,
        "summary": summary_of(task),
        "argsHash": task.args_hash,
        "traceId": task.trace_id,
        "stepId": task.step_id,
        "args": dict(task.args),
    }
    if task.review is not None:
        payload["rule"] = task.review.rule
        if task.review.reason is not None:
            payload["reason"] = task.review.reason
        if task.review.policy_source is not None:
            payload["policySource"] = task.review.policy_source
    return payload


def submit_request_id(task: StepTask) -> str:
    """One case per waiting step, whatever the retries: the ledger's operation id, namespaced."""
    return f"memo:{task.trace_id}:{task.step_id}"


#: The ref every Memo case carries: the waiting step's operation id (traceId:stepId, PII-free).
STEP_REF_TYPE = "memo_step"
STEP_REF_KEY = "operationId"


def step_ref(trace_id: str, step_id: str) -> dict[str, str]:
    return {"ref_type": STEP_REF_TYPE, "ref_key": STEP_REF_KEY, "ref_value": f"{trace_id}:{step_id}"}


def submit_case(cases: CaseService, task: StepTask) -> str:
    """Submit (idempotently) the case for a waiting step; returns its case id."""
    priority = task.review.priority if task.review is not None else "normal"
    _, case = cases.submit_case(
        adapter_id=ADAPTER_ID,
        case_type=f"{task.capability}_{task.action}",
        title=f"{task.capability}: {task.action} ({item_count(task.args)})",
        summary=summary_of(task),
        payload=payload_of(task),
        submitter=SUBMITTER,
        request_id=submit_request_id(task),
        # How the user's withdrawal finds the case (memo.operator_review.withdraw): no user data.
        refs=[step_ref(task.trace_id, task.step_id)],
        priority=priority,
    )
    return case.case_id
