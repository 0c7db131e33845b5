"""The writer: a turn's formatted lines as the one WhatsApp reply the user reads."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memo.reply.format import FAILED_MARK, OK_MARK, Formatted, Line
from memo.reply.writer import write


def test_a_single_step_is_its_line_alone() -> None:
    reply = write(Formatted(status="complete", header=None, lines=(Line(ok=True, text="⏰ Reminder set"),)))
    assert (reply.kind, reply.text) == ("text", "⏰ Reminder set")


def test_several_steps_are_each_marked_under_the_header() -> None:
    formatted = Formatted(
        status="partial",
        header="Some of this didn't work:",
        lines=(Line(ok=True, text="Added milk"), Line(ok=False, text="No reminder matched")),
    )
    assert write(formatted).text == "Some of this didn't work:\n✅ Added milk\n❌ No reminder matched"


def test_a_single_failure_with_a_header_is_still_marked() -> None:
    formatted = Formatted(
        status="failed", header="That didn't work:", lines=(Line(ok=False, text="No list"),)
    )
    assert write(formatted).text == "That didn't work:\n❌ No list"


lines = st.lists(
    st.builds(Line, ok=st.booleans(), text=st.text(alphabet="abc ✅", min_size=1, max_size=30)),
    min_size=2,
    max_size=8,
)


@given(lines, st.none() | st.text(alphabet="xyz :", min_size=1, max_size=20))
def test_every_line_is_written_once_in_order_with_its_mark(written: list[Line], header: str | None) -> None:
    body = write(Formatted(status="partial", header=header, lines=tuple(written))).text.split("\n")
    if header:
        assert body[0] == header
        body = body[1:]
    marks = [OK_MARK if line.ok else FAILED_MARK for line in written]
    assert body == [
        line.text if line.text.startswith(mark) else f"{mark} {line.text}"
        for line, mark in zip(written, marks, strict=True)
    ]
    assert all(line.startswith(mark) for line, mark in zip(body, marks, strict=True))


def test_a_line_that_has_its_mark_is_not_marked_twice() -> None:
    formatted = Formatted(
        status="complete",
        header=None,
        lines=(Line(ok=True, text="✅ Skipped “gym” on Tue 1 Dec"), Line(ok=True, text="Deleted “dentist”")),
    )
    assert write(formatted).text == "✅ Skipped “gym” on Tue 1 Dec\n✅ Deleted “dentist”"
