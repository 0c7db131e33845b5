"""The terminal chat: you are a WhatsApp user talking to Memo on the local stack.

Each line you type is sent as a signed webhook POST; Memo's replies come back through the local
Graph API sink. Reply buttons and list messages are shown as numbered choices: answer by number.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, TextIO

from memo.local.sink import GraphSink
from memo.local.whatsapp_user import WhatsAppUser, post_webhook

REPLY_TIMEOUT = 30.0


@dataclass(frozen=True)
class ShownChoice:
    id: str
    title: str
    kind: str  # "button" or "list"


def render(body: dict[str, Any]) -> tuple[str, list[ShownChoice]]:
    """Text to print for one outbound message, and the choices it offers (numbered from 1)."""
    if body.get("type") == "text":
        return str(body["text"]["body"]), []
    if body.get("type") == "template":
        template = body.get("template", {})
        params = [
            p.get("text", "")
            for c in template.get("components", [])
            for p in c.get("parameters", [])
            if isinstance(p, dict)
        ]
        return f"[template {template.get('name')}] " + " | ".join(params), []
    interactive = body.get("interactive", {})
    text = str(interactive.get("body", {}).get("text", ""))
    choices: list[ShownChoice] = []
    if interactive.get("type") == "button":
        for button in interactive.get("action", {}).get("buttons", []):
            choices.append(ShownChoice(button["reply"]["id"], button["reply"]["title"], "button"))
    elif interactive.get("type") == "list":
        for section in interactive.get("action", {}).get("sections", []):
            for row in section.get("rows", []):
                title = row["title"] + (f" — {row['description']}" if row.get("description") else "")
                choices.append(ShownChoice(row["id"], title, "list"))
    lines = [text] + [f"   {i}) {c.title}" for i, c in enumerate(choices, start=1)]
    if choices:
        lines.append("   (answer with a number)")
    return "\n".join(lines), choices


class Chat:
    def __init__(
        self, *, base_url: str, app_secret: str, sink: GraphSink, user: WhatsAppUser, out: TextIO = sys.stdout
    ) -> None:
        self._base_url = base_url
        self._secret = app_secret
        self._sink = sink
        self._user = user
        self._out = out
        self._choices: list[ShownChoice] = []
        self._seen = sink.last_index

    def say(self, line: str) -> list[str]:
        """Send one line as the user; return the replies as printed."""
        line = line.strip()
        if not line:
            return []
        message = self._message_for(line)
        status, body = post_webhook(self._base_url, self._user.payload(message), app_secret=self._secret)
        if status != 200:
            return self._print([f"[webhook answered {status}: {body}]"])
        return self.collect()

    def collect(self, timeout: float = REPLY_TIMEOUT) -> list[str]:
        records = self._sink.wait_for(to=self._user.wa_id, after=self._seen, timeout=timeout)
        if not records:
            return self._print(["[no reply yet]"])
        self._seen = records[-1].index
        printed: list[str] = []
        for record in records:
            text, choices = render(record.body)
            if choices:
                self._choices = choices
            printed.append(text)
        return self._print(printed)

    def _message_for(self, line: str) -> dict[str, Any]:
        if line.isdigit() and 1 <= int(line) <= len(self._choices):
            choice = self._choices[int(line) - 1]
            self._choices = []
            if choice.kind == "button":
                return self._user.button_reply(choice.id, choice.title)
            return self._user.list_reply(choice.id, choice.title.split(" — ")[0])
        self._choices = []
        return self._user.text(line)

    def _print(self, texts: list[str]) -> list[str]:
        for text in texts:
            self._out.write("memo> " + text.replace("\n", "\n      ") + "\n")
        self._out.flush()
        return texts
