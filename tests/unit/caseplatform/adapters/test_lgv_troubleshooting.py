"""The LGV adapter's normalization and summary line: total on any JSON object, idempotent, and a
valid payload stays valid for the adapter's schema."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from caseplatform.adapters.lgv_troubleshooting import normalize, summary_line
from tests.unit.caseplatform.factories import lgv_payload
from tests.unit.caseplatform.test_hooks import case_of

SCHEMA = Draft202012Validator(
    json.loads(resources.files("caseplatform.adapters").joinpath("lgv_troubleshooting.v1.json").read_text())
)
SCALAR = st.none() | st.booleans() | st.integers() | st.text(max_size=12)
JSON = SCALAR | st.lists(SCALAR, max_size=3) | st.dictionaries(st.text(max_size=4), SCALAR, max_size=3)
FIELDS = st.sampled_from(["symptom", "site", "lgv_id", "services_checked", "evidence", "missing_data", "x"])
SPACED = st.text(alphabet=" \t\nab-07", max_size=12)


@given(st.dictionaries(FIELDS, JSON | SPACED | st.lists(SPACED, max_size=4), max_size=5))
def test_any_object_normalizes_once_and_for_all(payload: dict[str, Any]) -> None:
    once = normalize(payload)
    assert normalize(once) == once
    assert once.keys() == payload.keys()


@given(
    st.lists(st.sampled_from(["nav-service", " nav-service ", "fleet  manager", ""]), max_size=6),
    st.sampled_from(["LGV-07", " lgv-07", "lgv-07\n"]),
)
def test_a_valid_payload_stays_valid(services: list[str], lgv_id: str) -> None:
    payload = normalize(lgv_payload(services_checked=services, lgv_id=lgv_id))
    assert list(SCHEMA.iter_errors(payload)) == []
    assert payload["lgv_id"] == "LGV-07"
    assert payload["services_checked"] == [" ".join(s.split()) for s in services if s.strip()]


def test_what_it_tidies() -> None:
    payload = normalize(
        lgv_payload(
            site="  Plant   Haifa ",
            lgv_id="lgv-07",
            evidence=["map  v11 ", "map v11", " "],
            services_checked=["nav", 3],  # not all text: left for validation to refuse
        )
    )
    assert (payload["site"], payload["lgv_id"], payload["evidence"]) == (
        "Plant Haifa",
        "LGV-07",
        ["map v11", "map v11"],
    )
    assert payload["services_checked"] == ["nav", 3]


def test_summary_line() -> None:
    assert (
        summary_line(case_of(lgv_payload()))
        == "LGV-07 at Plant Haifa: LGV stops before dock 3 with a navigation fault"
    )
    assert summary_line(case_of({"site": "Plant Haifa"})) == "Plant Haifa"
    assert summary_line(case_of({})) == "the title"
