"""The terminal chat: you are a WhatsApp user talking to Memo on the local stack.

Each line you type is sent as a signed webhook POST; Memo's replies come back through the local
Graph API sink. Reply buttons and list messages are shown as numbered choices: answer by number.
A number presses a choice of the one message with choices that arrived since your last line. When
two or more did (a question, then a reminder with its Done / Snooze buttons), a bare number is not
sent: the chat asks which message you mean, and "a2" presses choice 2 of the first of them, "b1"
choice 1 of the second. (In WhatsApp you tap the button of the message you mean; a typed number
here must not press an older or newer message's button than you expect.)
"""

from __future__ import annotations

import re
import string
import sys
import threading
from dataclasses import dataclass
from typing import Any, TextIO

from memo.local.sink import GraphSink, SentRecord
from memo.local.whatsapp_user import WhatsAppUser, post_webhook
from memo.text.language import detect_language

REPLY_TIMEOUT = 30.0
_LETTERED = re.compile(r"^([a-z])\s*(\d+)$")


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
        # In the question's own language, as the WhatsApp app would show its buttons.
        hebrew = detect_language(text, "en") == "he"
        lines.append("   (ענו במספר)" if hebrew else "   (answer with a number)")
    return "\n".join(lines), choices


class Chat:
    """Sends what you type; prints everything Memo sends you, including messages that arrive on
    their own (a reminder at its time), from a background printer."""

    def __init__(
        self,
        *,
        base_url: str,
        app_secret: str,
        sink: GraphSink,
        user: WhatsAppUser,
        out: TextIO | None = None,
    ) -> None:
        self._base_url = base_url
        self._secret = app_secret
        self._sink = sink
        self._user = user
        self._out = out if out is not None else sys.stdout  # the stdout of the time it starts
        # The messages with choices that arrived since your last line (their first line, choices)
        self._live: list[tuple[str, list[ShownChoice]]] = []
        self._seen = sink.last_index
        self._printed = threading.Condition()
        self._stop = threading.Event()
        self._printer: threading.Thread | None = None
        self._last_printed: list[str] = []
        self._awaiting = False

    def say(self, line: str) -> list[str]:
        """Send one line as the user; return the replies as printed (waits for the first one)."""
        line = line.strip()
        if not line:
            return []
        message = self._message_for(line)
        if message is None:
            return self._print([self._which_message()])
        with self._printed:
            before = self._seen
            self._awaiting = True
        status, body = post_webhook(self._base_url, self._user.payload(message), app_secret=self._secret)
        if status != 200:
            return self._print([f"[webhook answered {status}: {body}]"])
        if self._printer is not None:
            return self._wait_printed(before)
        return self.collect()

    def collect(self, timeout: float = REPLY_TIMEOUT) -> list[str]:
        """Print what arrived after the last printed message (waiting up to `timeout` for it)."""
        records = self._sink.wait_for(to=self._user.wa_id, after=self._seen, timeout=timeout)
        if not records:
            return self._print(["[no reply yet]"])
        return self._show(records)

    def start_printer(self) -> None:
        """Print Memo's messages as they arrive, also when you are not typing (reminders); a chat
        whose printer was stopped (another person's turn at the keyboard) prints what it missed."""
        self._stop.clear()

        def loop() -> None:
            while not self._stop.is_set():
                records = self._sink.wait_for(to=self._user.wa_id, after=self._seen, timeout=0.5)
                if records:
                    # Unprompted messages (a reminder) interrupt the prompt; replies to a line do not.
                    self._show(records, prompt=not self._awaiting)

        self._printer = threading.Thread(target=loop, name="memo-chat-printer", daemon=True)
        self._printer.start()

    def stop_printer(self) -> None:
        self._stop.set()
        if self._printer is not None:
            self._printer.join(timeout=2)

    def _wait_printed(self, before: int) -> list[str]:
        with self._printed:
            try:
                if not self._printed.wait_for(lambda: self._seen > before, timeout=REPLY_TIMEOUT):
                    return self._print(["[no reply yet]"])
                return self._last_printed
            finally:
                self._awaiting = False

    def _show(self, records: list[SentRecord], *, prompt: bool = False) -> list[str]:
        printed: list[str] = []
        for record in records:
            text, choices = render(record.body)
            if choices:
                self._live.append((text.splitlines()[0], choices))
            printed.append(text)
        with self._printed:
            self._print(printed, prompt=prompt)
            self._seen = records[-1].index
            self._last_printed = printed
            self._printed.notify_all()
        return printed

    def _message_for(self, line: str) -> dict[str, Any] | None:
        """The message a line sends: a choice's tap, or text; None when a bare number could press
        the choices of more than one message."""
        live, self._live = self._live, []
        lettered = _LETTERED.match(line.lower()) if len(live) > 1 else None
        if lettered:
            which = string.ascii_lowercase.index(lettered.group(1))
            if which < len(live):
                return self._tap(live[which][1], int(lettered.group(2))) or self._user.text(line)
        if line.isdigit() and live:
            if len(live) > 1 and 1 <= int(line) <= max(len(choices) for _, choices in live):
                self._live = live  # nothing sent: asked which message
                return None
            tapped = self._tap(live[-1][1], int(line))
            if tapped is not None:
                return tapped
        return self._user.text(line)

    def _tap(self, choices: list[ShownChoice], number: int) -> dict[str, Any] | None:
        if not 1 <= number <= len(choices):
            return None
        choice = choices[number - 1]
        if choice.kind == "button":
            return self._user.button_reply(choice.id, choice.title)
        return self._user.list_reply(choice.id, choice.title.split(" — ")[0])

    def _which_message(self) -> str:
        named = "; ".join(
            f"{letter}) “{first[:60]}”"
            for letter, (first, _) in zip(string.ascii_lowercase, self._live, strict=False)
        )
        return f"[{len(self._live)} messages have choices: {named}. Answer with its letter and the number, e.g. a1]"

    def _print(self, texts: list[str], *, prompt: bool = False) -> list[str]:
        for text in texts:
            # A message that arrives while you are at the prompt starts on its own line.
            lead = "\n" if prompt else ""
            self._out.write(lead + "memo> " + text.replace("\n", "\n      ") + "\n")
        if prompt and texts:
            self._out.write("you> ")
        self._out.flush()
        return texts
