"""Hypothesis strategies for the ids a tapped button may carry: Memo's own (Undo, a reminder's Done /
Snooze, an approval's option) and everything a crafted payload can put there instead: epochs past
year 9999, digits of other scripts, signs, separators, ids thousands of characters long."""

from __future__ import annotations

from hypothesis import strategies as st

#: Digits that are not ASCII but that `str.isdigit` (and some of them `int`) accept.
_ODD_DIGITS = "²³¹٠١٢٣٤٥٦٧٨٩०१२३४५੦੧௧๑"

_NUMBERS = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.just("253402300800"),  # 10000-01-01T00:00:00Z: one second past what a datetime holds
    st.just("253402300799"),
    st.just("9" * 400),
    st.text(alphabet="0123456789" + _ODD_DIGITS + "+-_. ", min_size=0, max_size=24),
)
_KEYS = st.one_of(
    st.just("wamid.HBgLOTcyNTAxMjM0NTY3FQIAEhgUM0EwQjM5OEU4QjE4RkU4QjRBQTgA"),
    st.text(max_size=40),
    st.text(min_size=150, max_size=3000),
)
_REMINDER_IDS = st.one_of(
    st.text(alphabet="abcdef0123456789", min_size=1, max_size=26),
    st.text(max_size=80),
)


def undo_ids() -> st.SearchStrategy[str]:
    return st.builds(
        lambda epoch, sep, key: f"undo:{epoch}{sep}{key}", _NUMBERS, st.sampled_from([":", "", "::"]), _KEYS
    )


def reminder_ids() -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(lambda rid: f"reminder:done:{rid}", _REMINDER_IDS),
        st.builds(lambda minutes, rid: f"reminder:snooze:{minutes}:{rid}", _NUMBERS, _REMINDER_IDS),
        st.builds(lambda rest: f"reminder:{rest}", st.text(max_size=60)),
    )


def approval_ids() -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(lambda hitl, option: f"{hitl}:{option}", st.text(max_size=60), st.text(max_size=20)),
        st.sampled_from(["approve", "reject", "edit", "yes", "no", "retry", "1", ":", "::approve"]),
    )


def button_ids() -> st.SearchStrategy[str]:
    """Any id a button or list reply may carry, well formed or not."""
    return st.one_of(undo_ids(), reminder_ids(), approval_ids(), st.text(max_size=300))
