"""The thread's recent messages read back: a question set aside by a new request, a plan still
running."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from memo.conversation.model import MemoryMessage, question_set_aside

T0 = datetime(2030, 1, 7, 8, 0, tzinfo=UTC)


def _msg(
    n: int, role: str, kind: str = "message", *, wamid: str | None = None, started: str | None = None
) -> MemoryMessage:
    return MemoryMessage.model_validate(
        {
            "role": role,
            "text": f"m{n}",
            "at": T0 + timedelta(minutes=n),
            "kind": kind,
            "wamid": wamid,
            "started": started,
        }
    )


QUESTION = _msg(1, "assistant", "hitl_question")


def test_a_new_request_that_started_its_own_plan_set_the_question_aside() -> None:
    switched = _msg(2, "user", "hitl_reply", wamid="w2", started="w2")
    assert question_set_aside([QUESTION, switched, _msg(3, "assistant", wamid=None)])


def test_an_approval_starts_the_questions_plan_and_sets_nothing_aside() -> None:
    approved = _msg(2, "user", "hitl_reply", wamid="w2", started="w1")
    assert not question_set_aside([QUESTION, approved, _msg(3, "assistant")])


def test_a_no_or_a_plain_message_sets_nothing_aside() -> None:
    assert not question_set_aside([QUESTION, _msg(2, "user", "hitl_reply", wamid="w2")])
    assert not question_set_aside([QUESTION, _msg(2, "user", wamid="w2", started="w2")])
    assert not question_set_aside([])


_KINDS = st.sampled_from(["message", "hitl_question", "hitl_reply", "reminder"])


@given(st.lists(st.tuples(st.sampled_from(["user", "assistant"]), _KINDS, st.booleans()), max_size=8))
def test_only_the_last_message_of_the_person_decides(shape: list[tuple[str, str, bool]]) -> None:
    recent = [
        _msg(n, role, kind, wamid=f"w{n}", started=f"w{n}" if own and role == "user" else None)
        for n, (role, kind, own) in enumerate(shape)
    ]
    users = [m for m in recent if m.role == "user"]
    expected = bool(users) and users[-1].kind == "hitl_reply" and users[-1].started == users[-1].wamid
    assert question_set_aside(recent) == expected
