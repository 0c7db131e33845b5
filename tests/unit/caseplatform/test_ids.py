"""`new_uuid4`: the text of a random version-4 UUID, as `str(uuid.uuid4())` gives it."""

from __future__ import annotations

import re
import uuid

from caseplatform.ids import new_uuid4
from caseplatform.validation import ACTION_SCHEMA


def test_new_uuid4_is_the_text_of_a_version_4_uuid() -> None:
    made = [new_uuid4() for _ in range(500)]
    for text in made:
        parsed = uuid.UUID(text)
        assert str(parsed) == text  # lower-case hex, 8-4-4-4-12
        assert (parsed.version, parsed.variant) == (4, uuid.RFC_4122)
        assert re.fullmatch(ACTION_SCHEMA["properties"]["case_id"]["pattern"], f"HITL-{text}")
    assert len(set(made)) == len(made)
