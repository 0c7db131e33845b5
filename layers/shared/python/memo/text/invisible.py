"""Characters a message carries that nobody sees: direction marks a Hebrew keyboard puts around digits
and words (U+200E/U+200F, U+202A-U+202E, U+2066-U+2069), zero-width spaces and joiners pasted from
other apps (U+200B, U+2060, U+FEFF), soft hyphens. They are Unicode's format characters (category
Cf); a planner reads the text without them, so they never end up inside a reminder's title or split a
word a matcher looks for. The zero-width joiner (U+200D) and the tag characters (U+E0020-U+E007F)
stay: they build emoji ("👩‍💻", a subdivision flag) and mean something only inside one.
"""

from __future__ import annotations

import unicodedata

_KEPT = frozenset({"\u200d", *map(chr, range(0xE0020, 0xE0080))})


def without_invisible(text: str) -> str:
    """`text` without the format characters nobody sees (see the module's doc)."""
    if text.isascii():
        return text
    return "".join(ch for ch in text if ch in _KEPT or unicodedata.category(ch) != "Cf")
