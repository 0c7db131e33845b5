"""Writer: the formatted lines of a turn as one WhatsApp reply.

One step: its line alone. Several steps: each line marked ✅ or ❌, after the header of a partial or
total failure. The sender splits text above WhatsApp's 4096 characters, so nothing is cut here.
"""

from __future__ import annotations

from memo.replies import Reply
from memo.reply.format import FAILED_MARK, OK_MARK, Formatted


def write(formatted: Formatted) -> Reply:
    lines = formatted.lines
    if len(lines) == 1 and formatted.header is None:
        return Reply.plain(lines[0].text)
    body = "\n".join(f"{OK_MARK if line.ok else FAILED_MARK} {line.text}" for line in lines)
    return Reply.plain(f"{formatted.header}\n{body}" if formatted.header else body)
