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
    body = "\n".join(_marked(line.text, OK_MARK if line.ok else FAILED_MARK) for line in lines)
    return Reply.plain(f"{formatted.header}\n{body}" if formatted.header else body)


def _marked(text: str, mark: str) -> str:
    """A step's line with its mark, once: a skip's own line already starts with ✅."""
    return text if text.startswith(mark) else f"{mark} {text}"
