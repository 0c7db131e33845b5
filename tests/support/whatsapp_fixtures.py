"""Webhook payloads as Meta documents them (`tests/fixtures/whatsapp/`, sources in its README), with
the numbers, ids and timestamp a test needs put in their places; the shape is kept as it is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
