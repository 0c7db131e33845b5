"""Lone UTF-16 surrogates out of a decoded webhook body, however deep it nests.

A JSON escape of a surrogate (`\\ud800`-`\\udfff`) that is not half of a valid pair decodes to a
string that cannot be encoded again, which would fail the enqueue of the whole batch (and Meta
would retry it forever): such characters become U+FFFD. The document is walked with a stack of its
own, not by recursion: a body nested as deep as JSON parsing allows (close to the interpreter's
recursion limit) is cleaned like a flat one.
"""

from __future__ import annotations

import re
from typing import Any

#: A JSON escape of a UTF-16 surrogate. A valid pair decodes to one character; only a body that
#: holds such an escape can hold a lone surrogate once decoded.
LONE_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def _clean(text: str) -> str:
    return _SURROGATE.sub(REPLACEMENT, text)


def without_lone_surrogates(document: Any) -> Any:
    """`document` (as `json.loads` returns it) with every lone surrogate of its strings, keys
    included, replaced by U+FFFD. Lists are cleaned in place and objects rebuilt (a key may change);
    two keys that become the same keep the later value, as a JSON object read twice would."""
    holder = [document]
    # Each entry names a slot: a container and the index or key whose value is cleaned next.
    slots: list[tuple[list[Any] | dict[str, Any], Any]] = [(holder, 0)]
    while slots:
        container, key = slots.pop()
        value = container[key]
        if isinstance(value, str):
            container[key] = _clean(value)
        elif isinstance(value, list):
            slots.extend((value, index) for index in range(len(value)))
        elif isinstance(value, dict):
            rebuilt = {_clean(name): item for name, item in value.items()}
            container[key] = rebuilt
            slots.extend((rebuilt, name) for name in rebuilt)
    return holder[0]


def clean_body(body: bytes, document: Any) -> Any:
    """The decoded `document` of `body`, cleaned only when the raw body holds a surrogate escape."""
    if LONE_SURROGATE_ESCAPE.search(body) is None:
        return document
    return without_lone_surrogates(document)
