"""A step's result as it leaves the executor: small enough for every place it goes.

The executor Lambda's `StepOutcome` is a Step Functions state's output, one of the outcomes the
responder's input carries (the ledger keeps its replay); so every outcome is held under
`MAX_STEP_OUTCOME_BYTES` (`memo.executor.contracts`). Capabilities return small results by design (a
listing carries ids and the first characters of each item, and how many more there are:
`memo.capabilities.notes`); `bounded` is the guard behind them. A result over the bound is logged
(STEP_RESULT_TOO_LARGE, with its size and what was kept) and cut, step by step, until it fits: the
long texts of its data to their first characters, then its lists to their first items (`truncated`
tells the reply that part of it is left out), then its data as a whole (the reply falls back to the
summary), and last the ids it names beyond the first ones. Nothing is cut silently.
"""

from __future__ import annotations

import json
from typing import Any

from memo.capabilities.base import ExecutionResult
from memo.executor.contracts import MAX_STEP_OUTCOME_BYTES
from memo.observability import logger
from memo.text.wording import preview

#: `ExecutionResult.data` key set when the guard cut the data: the reply says part of it is left out.
TRUNCATED = "truncated"
#: What a StepOutcome adds around its result (the step id aside): its keys and `replayed`.
_OUTCOME_WRAPPER_BYTES = 64
#: The cuts tried in order: (characters kept of each text, items kept of each list).
_CUTS = ((2_000, 50), (500, 20), (100, 10))
_SUMMARY_CHARS = 300
_ERROR_CHARS = 1_000
_IDS_KEPT = 50


def result_bytes(result: ExecutionResult) -> int:
    """The result's size as the executor Lambda returns it (the Python runtime's `json.dumps`:
    every character past ASCII escaped, six or twelve bytes): the largest way it is ever counted."""
    return len(json.dumps(result.model_dump(mode="json")))


def bounded(
    result: ExecutionResult, *, step_id: str = "", limit: int = MAX_STEP_OUTCOME_BYTES
) -> ExecutionResult:
    """`result` as it is when its outcome fits `limit` bytes; else cut until it does (logged)."""
    budget = limit - _OUTCOME_WRAPPER_BYTES - len(step_id.encode())
    size = result_bytes(result)
    if size <= budget:
        return result
    candidates = _candidates(result)
    # The first cut that fits; the last one keeps only short texts and no data or ids.
    kept = next((c for c in candidates if result_bytes(c) <= budget), candidates[-1])
    logger.warning(
        "STEP_RESULT_TOO_LARGE",
        extra={
            "stepId": step_id,
            "capability": result.capability,
            "action": result.action,
            "bytes": size,
            "keptBytes": result_bytes(kept),
            "limit": budget,
            "dataKept": set(kept.data) != {TRUNCATED},
            "idsKept": kept.external_ids == result.external_ids,
        },
    )
    return kept


def _candidates(result: ExecutionResult) -> list[ExecutionResult]:
    short = {
        "summary": preview(result.summary, _SUMMARY_CHARS),
        "error": preview(result.error, _ERROR_CHARS) if result.error else None,
    }
    cut = [
        result.model_copy(update={**short, "data": {**_cut(result.data, chars, items), TRUNCATED: True}})
        for chars, items in _CUTS
    ]
    no_data = result.model_copy(update={**short, "data": {TRUNCATED: True}})
    few_ids = no_data.model_copy(
        update={
            "external_ids": {
                key: ids[:_IDS_KEPT] if isinstance(ids, list) else ids
                for key, ids in result.external_ids.items()
            }
        }
    )
    return [*cut, no_data, few_ids, few_ids.model_copy(update={"external_ids": {}})]


def _cut(value: Any, chars: int, items: int) -> Any:
    if isinstance(value, str):
        return preview(value, chars)
    if isinstance(value, list):
        return [_cut(v, chars, items) for v in value[:items]]
    if isinstance(value, dict):
        return {k: _cut(v, chars, items) for k, v in value.items()}
    return value
