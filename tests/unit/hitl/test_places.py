"""Places in a shown list: ordinals and a run at one end."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memo.hitl import places


@given(count=st.integers(1, 10), n=st.integers(1, 12))
def test_a_run_is_n_places_at_its_end_or_nothing(count: int, n: int) -> None:
    first, last = places.run(f"the first {n}", count), places.run(f"last {n}", count)
    if n > count:
        assert first is None and last is None
    else:
        assert first == list(range(1, n + 1)) and last == list(range(count - n + 1, count + 1))


def test_ordinals_name_their_places_once_in_the_order_said() -> None:
    assert places.ordinals("third first third", 3) == [3, 1]
    assert places.ordinals("השנייה והאחרונה", 4) == [2, 4]
    assert places.ordinals("fourth", 3) is None  # past the items shown
    assert places.ordinals("first aid", 3) is None  # a word that is no place
