"""Random identifiers: the text of a version-4 UUID, built without a `uuid.UUID` object.

`str(uuid.uuid4())` builds an object, checks its fields and formats them through an int; a command
takes up to three ids (case, event), so this is measurable on `make bench`. The result is the same
text: 122 random bits from `os.urandom`, the version nibble 4 and the RFC 4122 variant bits 10.
"""

from __future__ import annotations

import os


def new_uuid4() -> str:
    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x0F) | 0x40  # version 4
    raw[8] = (raw[8] & 0x3F) | 0x80  # variant RFC 4122
    text = raw.hex()
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"
