"""Adapters' code hooks, packaged with the platform like their schemas and views: a normalization run
on a payload before it is validated, and the one-line summary a list shows for a case.

An adapter without hooks (any adapter registered at run time) keeps its payload as submitted and is
summarized by its case's title. A normalizer must be deterministic and total (the same payload always
gives the same result, whatever the types of its values): a retry is recognised by comparing what it
would store with what was stored, and a payload of the wrong shape is for validation to refuse.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from caseplatform.adapters import lgv_troubleshooting
from caseplatform.model import Case

Normalizer = Callable[[dict[str, Any]], dict[str, Any]]
SummaryFormatter = Callable[[Case], str]
# A list shows at most this much of a summary line.
MAX_SUMMARY_LINE = 200


@dataclass(frozen=True)
class AdapterHooks:
    normalize: Normalizer | None = None
    summary_line: SummaryFormatter | None = None


ADAPTER_HOOKS: Mapping[str, AdapterHooks] = {
    "lgv_troubleshooting": AdapterHooks(lgv_troubleshooting.normalize, lgv_troubleshooting.summary_line),
}


def normalized(adapter_id: str, payload: Any) -> Any:
    """The payload as the adapter's normalizer leaves it (unchanged without one, or when it is not
    an object: validation refuses that)."""
    hooks = ADAPTER_HOOKS.get(adapter_id) if isinstance(adapter_id, str) else None
    if hooks is None or hooks.normalize is None or not isinstance(payload, dict):
        return payload
    return hooks.normalize(payload)


def summary_line(case: Case) -> str:
    """One line (no line breaks, at most MAX_SUMMARY_LINE characters) for lists: the adapter's
    formatter, else the title."""
    hooks = ADAPTER_HOOKS.get(case.adapter_id)
    line = hooks.summary_line(case) if hooks is not None and hooks.summary_line is not None else case.title
    line = " ".join(line.split())
    return line if len(line) <= MAX_SUMMARY_LINE else line[: MAX_SUMMARY_LINE - 1] + "…"
