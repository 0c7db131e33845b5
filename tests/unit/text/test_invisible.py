"""Format characters nobody sees leave a message before it is planned; the ones that build an emoji
stay."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memo.text.invisible import without_invisible

INVISIBLE = ["\u200b", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2060",
             "\u2066", "\u2067", "\u2068", "\u2069", "\ufeff", "\u00ad"]  # fmt: skip
VISIBLE = st.text(st.characters(exclude_categories=("Cf", "Cs")), max_size=40)


@given(
    words=st.lists(VISIBLE, min_size=1, max_size=6),
    marks=st.lists(st.sampled_from(INVISIBLE), min_size=0, max_size=6),
)
def test_invisible_marks_anywhere_are_removed_and_nothing_else(words: list[str], marks: list[str]) -> None:
    mixed = "".join(w + (marks[i] if i < len(marks) else "") for i, w in enumerate(words))
    assert without_invisible(mixed) == "".join(words)


def test_emoji_sequences_keep_their_joiners() -> None:
    for emoji in (
        "👩\u200d💻",
        "👨\u200d👩\u200d👧",
        "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
    ):
        assert without_invisible(f"\u200fcall mom {emoji}\u200e") == f"call mom {emoji}"


def test_a_hebrew_time_with_direction_marks() -> None:
    assert without_invisible("תזכיר לי ב-\u200f17:00 \u202bלהתקשר\u202c") == "תזכיר לי ב-17:00 להתקשר"
