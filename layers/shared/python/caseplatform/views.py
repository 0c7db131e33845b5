"""How a case reads to an operator: each adapter may declare a view next to its JSON schema
(`adapters/<adapter_id>.view.json`), and a client of the platform may add a provider that resolves
more at read time (Memo resolves the affected items from its own tables).

A view spec:

    {
      "sections": [{"label": "Symptom", "field": "symptom"}, ...],   # labelled payload fields
      "confirm": {"priorities": ["high", "critical"], "actions": ["delete"], "action_field": "action",
                  "text": "{action} on {lgv_id}"}                    # when approving needs a confirmation
    }

The answer (`view` in the review API's case): `{sections: [{label, value}], items, context,
confirm}`; `confirm` is the sentence a confirmation names ("Delete 12 reminders of +972…567"), or
null when one click is enough. The raw payload stays in the case answer.
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from caseplatform.model import CaseRecord

# A client's read-time addition to a view: from the case (and its payload as read) to extra fields
# (`items`, `context`, `confirm`, `sections`), or None when it has nothing to add.
ViewProvider = Callable[[CaseRecord, dict[str, Any]], dict[str, Any] | None]


@cache
def view_spec(adapter_id: str) -> dict[str, Any]:
    """The adapter's packaged view spec, or an empty one."""
    entry = resources.files("caseplatform.adapters").joinpath(f"{adapter_id}.view.json")
    if not entry.is_file():
        return {}
    spec: dict[str, Any] = json.loads(entry.read_text(encoding="utf-8"))
    return spec


def _render(value: Any) -> Any:
    """A payload value as a section shows it: text, or a list of texts."""
    if isinstance(value, list):
        return [v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in value]
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


class _Blank(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def _fill(template: str, payload: Mapping[str, Any]) -> str:
    values = _Blank({k: v for k, v in payload.items() if isinstance(v, str | int | float)})
    return string.Formatter().vformat(template, (), values)


def build_view(
    record: CaseRecord, payload: dict[str, Any], providers: Mapping[str, ViewProvider] | None = None
) -> dict[str, Any]:
    """The case's view: the spec's labelled sections and confirmation, then the provider's additions."""
    case = record.case
    spec = view_spec(case.adapter_id)
    sections = [
        {"label": s["label"], "value": _render(payload[s["field"]])}
        for s in spec.get("sections", [])
        if s.get("field") in payload
    ]
    view: dict[str, Any] = {"sections": sections, "items": [], "context": None, "confirm": None}
    rule = spec.get("confirm")
    if rule:
        action = str(payload.get(rule.get("action_field", "action"), ""))
        risky = case.priority in rule.get("priorities", []) or any(
            action.startswith(a) for a in rule.get("actions", [])
        )
        if risky:
            view["confirm"] = _fill(rule.get("text", "Approve: {title}"), {"title": case.title, **payload})
    provider = (providers or {}).get(case.adapter_id)
    extra = provider(record, payload) if provider is not None else None
    if extra:
        view["sections"] = [*view["sections"], *extra.get("sections", [])]
        for key in ("items", "context"):
            if key in extra:
                view[key] = extra[key]
        if extra.get("confirm"):
            view["confirm"] = extra["confirm"]
    return view
