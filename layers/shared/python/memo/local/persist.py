"""Local state that survives a restart of `make run`: the tables' items and the reminder schedules.

In-process moto forgets everything when the process ends. The chat saves a snapshot to
`data/local/state.json` after every message and when it stops, and loads it when it starts, so
reminders, notes, lists, pending questions and cases are still there tomorrow. The turn queue and
running executions are not kept: they are seconds long. `memo-local reset` (`make reset`) deletes
the snapshot. The snapshot is written to a temporary file and renamed, so a crash mid-write keeps
the previous one.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memo.local.aws import client
from memo.local.ticker import restorable

STATE_FILE = Path("data") / "local" / "state.json"
FORMAT = 1
# What create_schedule accepts, out of what get_schedule returns.
SCHEDULE_FIELDS = (
    "Name",
    "GroupName",
    "ScheduleExpression",
    "ScheduleExpressionTimezone",
    "StartDate",
    "EndDate",
    "Description",
    "State",
    "Target",
    "FlexibleTimeWindow",
    "ActionAfterCompletion",
)


def _encode(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"__bytes__": base64.b64encode(value).decode()}
    if isinstance(value, dict):
        return {key: _encode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_encode(item) for item in value]
    if hasattr(value, "isoformat"):
        return {"__datetime__": value.isoformat()}
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"__bytes__"}:
            return base64.b64decode(value["__bytes__"])
        if set(value) == {"__datetime__"}:
            from datetime import datetime

            return datetime.fromisoformat(value["__datetime__"])
        return {key: _decode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decode(item) for item in value]
    return value


def snapshot(table_names: Mapping[str, str], schedule_group: str | None) -> dict[str, Any]:
    dynamodb = client("dynamodb")
    tables: dict[str, list[dict[str, Any]]] = {}
    for name in table_names.values():
        items: list[dict[str, Any]] = []
        for page in dynamodb.get_paginator("scan").paginate(TableName=name):
            items.extend(page["Items"])
        tables[name] = items
    schedules: list[dict[str, Any]] = []
    if schedule_group:
        scheduler = client("scheduler")
        for page in scheduler.get_paginator("list_schedules").paginate(GroupName=schedule_group):
            for summary in page["Schedules"]:
                schedule = scheduler.get_schedule(Name=summary["Name"], GroupName=schedule_group)
                schedules.append({key: schedule[key] for key in SCHEDULE_FIELDS if key in schedule})
    return {"format": FORMAT, "tables": tables, "schedules": schedules}


def save(path: Path, table_names: Mapping[str, str], schedule_group: str | None) -> None:
    state = _encode(snapshot(table_names, schedule_group))
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".tmp")
    partial.write_text(json.dumps(state), encoding="utf-8")
    os.replace(partial, path)


def load(path: Path, table_names: Mapping[str, str]) -> int:
    """Put a saved snapshot back into fresh local tables and schedules; returns how many items.

    Only tables that still exist under the same name are restored; a snapshot of another format is
    ignored (say so, keep it on disk) rather than half-loaded.
    """
    if not path.exists():
        return 0
    state = _decode(json.loads(path.read_text(encoding="utf-8")))
    if state.get("format") != FORMAT:
        raise ValueError(f"{path} has format {state.get('format')!r}, expected {FORMAT}: run `make reset`")
    dynamodb = client("dynamodb")
    known = set(table_names.values())
    restored = 0
    for name, items in state["tables"].items():
        if name not in known:
            continue
        for start in range(0, len(items), 25):
            requests = [{"PutRequest": {"Item": item}} for item in items[start : start + 25]]
            dynamodb.batch_write_item(RequestItems={name: requests})
            restored += len(requests)
    scheduler = client("scheduler")
    now = datetime.now(UTC)
    for schedule in state["schedules"]:
        with contextlib.suppress(scheduler.exceptions.ConflictException):
            # A repeating reminder's schedule started in the past: from its next time (memo.local.ticker).
            scheduler.create_schedule(**restorable(schedule, now))
    return restored


def reset(path: Path | None = None) -> bool:
    path = path or STATE_FILE
    if path.exists():
        path.unlink()
        return True
    return False
