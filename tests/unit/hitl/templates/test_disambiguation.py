"""The "which one do you mean?" picker."""

from __future__ import annotations

from memo.domain import DisambiguationCandidate
from memo.hitl import templates


def test_options_are_positions_with_labels_cut_to_whatsapps_limits() -> None:
    long = "call the dentist about the appointment"
    candidates = [DisambiguationCandidate(id=f"r{n}", label=long) for n in range(12)]
    options = templates.candidate_options(candidates)
    assert [o.id for o in options] == [str(n) for n in range(1, 11)]
    assert options[0].label == "call the dentist about…"
    assert options[0].description == long  # the whole label, when the title was cut


def test_the_question_lists_the_options_and_counts_the_rest() -> None:
    options = templates.candidate_options(
        [DisambiguationCandidate(id="a", label="gym"), DisambiguationCandidate(id="b", label="mom")]
    )
    assert templates.disambiguation_question("en", options, allow_multiple=False) == (
        "Which one do you mean?\n1. gym\n2. mom\nYou can reply with a number."
    )
    several = templates.disambiguation_question("he", options, allow_multiple=True, total=5)
    assert "…ועוד 3. „כולם” = כל 5 התוצאות." in several
