"""The route a reader follows through the code for one text message, measured from a real turn.

The message is "delete all my reminders" (two reminders set before), through the webhook handler's
turn path on the local stack, up to the Graph API call that sends the approval question. Every
function of the project that the turn calls is read once, the first time it is called, in call
order: the route is the sequence of files those functions live in (one stop per run of consecutive
functions of one file). "Files" counts the distinct files; "returns" counts the stops at a file
already left once. The local stack's own modules (memo/local) are the harness, not the route.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

from benchmarks.harness import REPO, Row

MESSAGE = "delete all my reminders"
SOURCES = (REPO / "functions", REPO / "layers" / "shared" / "python")
HARNESS = REPO / "layers" / "shared" / "python" / "memo" / "local"


def route() -> list[str]:
    """The files of one text message's turn, in the order a reader meets them."""
    from memo.local.stack import LocalStack
    from memo.local.whatsapp_user import WhatsAppUser
    from tests.support.conversation import Conversation
    from tests.support.webhook import post

    with LocalStack(start_poller=False) as stack:
        chat = Conversation(stack=stack, user=WhatsAppUser(wa_id="972500000097"))
        chat.say("remind me to call mom tomorrow at 5pm")
        chat.say("remind me to water the plants tomorrow at 8pm")
        assert post(chat.user.payload(chat.user.text(MESSAGE)))["statusCode"] == 200
        assert stack.poller is not None
        stops = _traced(stack.poller.drain)
        assert "delete" in chat.replies()[-1].lower()
    return stops


def _traced(run: Any) -> list[str]:
    seen: set[CodeType] = set()
    stops: list[str] = []
    files: dict[str, str | None] = {}

    def ours(filename: str) -> str | None:
        if filename not in files:
            path = Path(filename)
            inside = any(path.is_relative_to(root) for root in SOURCES) and not path.is_relative_to(HARNESS)
            files[filename] = str(path.relative_to(REPO)) if inside else None
        return files[filename]

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event != "call" or frame.f_code in seen:
            return
        seen.add(frame.f_code)
        name = ours(frame.f_code.co_filename)
        if name is not None and (not stops or stops[-1] != name):
            stops.append(name)

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return stops


def run() -> list[Row]:
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    stops = route()
    files = len(set(stops))
    return [
        ("one text message, handler to Graph API: files read", str(files), "files"),
        (
            "one text message, handler to Graph API: returns to a file left",
            str(len(stops) - files),
            "returns",
        ),
    ]


if __name__ == "__main__":
    for stop in route():
        print(stop)
