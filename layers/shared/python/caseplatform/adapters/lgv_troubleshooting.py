"""The LGV troubleshooting adapter's code hooks (its schema and view are the JSON files beside this).

`normalize` runs on a submitted payload before it is validated: an agent's spacing and casing do not
make two payloads of the same vehicle differ. It only tidies values that already have the schema's
types (anything else is left for validation to refuse): text is trimmed and its runs of whitespace
joined into one space, the vehicle id is upper-cased ("lgv-07" -> "LGV-07"), and list entries are
trimmed and blank ones dropped. Nothing else is dropped: a repeated entry stays (it may be evidence).

`summary_line` is the one line a list shows for a case: vehicle, site and symptom.
"""

from __future__ import annotations

from typing import Any

from caseplatform.model import Case

LIST_FIELDS = ("services_checked", "connection_path", "evidence", "missing_data")


def _tidy(text: str) -> str:
    return " ".join(text.split())


def normalize(payload: dict[str, Any]) -> dict[str, Any]:
    out = {key: _tidy(value) if isinstance(value, str) else value for key, value in payload.items()}
    if isinstance(out.get("lgv_id"), str):
        out["lgv_id"] = out["lgv_id"].upper()
    for key in LIST_FIELDS:
        values = out.get(key)
        if isinstance(values, list) and all(isinstance(v, str) for v in values):
            tidied = [_tidy(v) for v in values]
            out[key] = [v for v in tidied if v]
    return out


def summary_line(case: Case) -> str:
    payload = case.payload
    parts = [payload.get("lgv_id"), payload.get("site")]
    head = " at ".join(str(p) for p in parts if isinstance(p, str) and p)
    symptom = payload.get("symptom")
    line = f"{head}: {symptom}" if head and isinstance(symptom, str) else head or case.title
    return _tidy(line)
