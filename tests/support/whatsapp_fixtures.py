"""Webhook payloads as Meta documents them and as client libraries record them (`tests/fixtures/whatsapp/`,
sources in its `SOURCES.json`), with the numbers, ids and timestamp a test needs put in their places; the
shape is kept as it is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

from memo.ingress.events import GROUP_ROW, STATUS_EVENTS, message_event
from memo.ingress.wire import parse_payload
from memo.local.whatsapp_user import DEFAULT_DISPLAY_NUMBER, DEFAULT_PHONE_NUMBER_ID, new_wamid

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "whatsapp"


def documented(name: str) -> dict[str, Any]:
    """The payload of `tests/fixtures/whatsapp/<name>.json`, as Meta documents it."""
    payload: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return payload


def changed_number(
    old: str, new: str, *, timestamp: int, wamid: str | None = None, field: str = "wa_id"
) -> dict[str, Any]:
    """Meta's documented `user_changed_number` webhook body: sent from `old`, naming `new` in
    `system.wa_id` (`field="new_wa_id"`: the shape of webhook versions before v12), on this stack's
    business number."""
    name = "user_changed_number" if field == "wa_id" else "user_changed_number_new_wa_id"
    payload = documented(name)
    value = payload["entry"][0]["changes"][0]["value"]
    value["metadata"] = {
        "display_phone_number": DEFAULT_DISPLAY_NUMBER,
        "phone_number_id": DEFAULT_PHONE_NUMBER_ID,
    }
    [message] = value["messages"]
    message.update({"from": old, "id": wamid or new_wamid(), "timestamp": str(timestamp)})
    system = message["system"]
    assert set(system) == {"body", field, "type"}, system  # the documented shape, nothing added
    system[field] = new
    system["body"] = f"User Dana changed from {old} to {new}"
    return payload


# --- every recorded payload: Meta's documented examples and two client libraries' samples ----------

SOURCES = FIXTURES / "SOURCES.json"


class Recorded(NamedTuple):
    """One webhook body of `tests/fixtures/whatsapp/`, as its source wrote it, and the rows of the event
    table it stands for (`SOURCES.json`)."""

    id: str  # its file, and `#key` when the file holds several (pywa's)
    source: str  # meta, pywa, netflie
    rows: tuple[str, ...]
    body: dict[str, Any]


def sources() -> dict[str, Any]:
    manifest: dict[str, Any] = json.loads(SOURCES.read_text(encoding="utf-8"))
    return manifest


def recorded() -> list[Recorded]:
    """Every fixture `SOURCES.json` lists, in its order."""
    loaded: list[Recorded] = []
    for entry in sources()["fixtures"]:
        document = json.loads((FIXTURES / entry["file"]).read_text(encoding="utf-8"))
        key = entry.get("key")
        name = f"{entry['file']}#{key}" if key else entry["file"]
        loaded.append(
            Recorded(name, entry["source"], tuple(entry["rows"]), document[key] if key else document)
        )
    return loaded


def recorded_body(name: str) -> dict[str, Any]:
    """A copy of the body of the fixture named `name` (`meta/edit.json`, `pywa/message.json#text`)."""
    [body] = [fixture.body for fixture in recorded() if fixture.id == name]
    copy: dict[str, Any] = json.loads(json.dumps(body))
    return copy


def rows_read(body: dict[str, Any]) -> list[str]:
    """The rows of the event table Memo gives a webhook body, in its order: each message's (a message in a
    group: the group row), each status's, the account's errors; a change of another field is that row."""
    statuses = {row.key for row in STATUS_EVENTS}
    rows: list[str] = []
    for entry in parse_payload(body).entry:
        for change in entry.changes:
            if change.field != "messages":
                rows.append("account.other_field")
                continue
            value = change.value
            rows += [GROUP_ROW.key if m.group_id else message_event(m).key for m in value.messages]
            rows += [
                k if (k := f"status.{s.status}") in statuses else "status.unlisted" for s in value.statuses
            ]
            rows += ["account.errors"] if value.errors else []
    return rows


def rebased(body: dict[str, Any], wa_id: str) -> dict[str, Any]:
    """`body` sent by (or, for a status, to) `wa_id` on this stack's business number: only those numbers
    change, the rest is kept as recorded."""
    copy: dict[str, Any] = json.loads(json.dumps(body))
    for entry in copy["entry"]:
        for change in entry["changes"]:
            value = change["value"]
            value["metadata"] = {
                "display_phone_number": DEFAULT_DISPLAY_NUMBER,
                "phone_number_id": DEFAULT_PHONE_NUMBER_ID,
            }
            for contact in value.get("contacts", []):
                contact["wa_id"] = wa_id
            for message in value.get("messages", []):
                message["from"] = wa_id
            for status in value.get("statuses", []):
                status["recipient_id"] = wa_id
    return copy
