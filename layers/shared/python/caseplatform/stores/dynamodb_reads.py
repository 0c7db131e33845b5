"""The DynamoDB store's queries: one case, its events and refs, and the lists over the GSIs (cases by
state / adapter / all, events by type and by principal, cases by ref, escalations due). Reads of one
case are strongly consistent; reads through GSIs are eventually consistent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from caseplatform.model import CaseRecord, CaseState, Decision, Event, EventType, Page, Ref
from caseplatform.stores.dynamodb_items import (
    INDEX_KEYS,
    case_pk,
    event_from_item,
    record_from_item,
    ref_from_item,
    ref_key,
    ts,
)
from caseplatform.stores.dynamodb_table import DynamoTable


class DynamoCaseReads(DynamoTable):
    def get_case(self, case_id: str) -> CaseRecord | None:
        item = self._get(case_pk(case_id), "CASE")
        return None if item is None else record_from_item(item, revision=item)

    def list_events(self, case_id: str) -> list[Event]:
        items = self._query_all("pk = :p AND begins_with(sk, :e)", {":p": case_pk(case_id), ":e": "EV#"})
        return [event_from_item(item) for item in items]

    def list_refs(self, case_id: str) -> list[Ref]:
        items = self._query_all("pk = :p AND begins_with(sk, :r)", {":p": case_pk(case_id), ":r": "REF#"})
        refs = [ref_from_item(item) for item in items]
        return sorted(refs, key=lambda r: (r.ref_type, r.ref_key, r.ref_value))

    def list_cases(
        self,
        *,
        state: str | None = None,
        adapter_id: str | None = None,
        priority: str | None = None,
        limit: int,
        cursor: str | None = None,
    ) -> Page[CaseRecord]:
        if state is not None:
            index, condition, values = "GSI1", "gsi1pk = :p", {":p": f"STATE#{state}"}
        elif adapter_id is not None:
            index, condition, values = "GSI2", "gsi2pk = :p", {":p": f"ADAPTER#{adapter_id}"}
        else:
            index, condition, values = "GSI3", "gsi3pk = :p", {":p": "CASES"}

        def keep(item: dict[str, Any]) -> bool:
            return (adapter_id is None or item["adapter_id"] == adapter_id) and (
                priority is None or item["priority"] == priority
            )

        page = self._query(
            condition, values, index=index, limit=limit, cursor=cursor, forward=False, keep=keep
        )
        return Page([record_from_item(item) for item in page.items], page.next_cursor)

    def _events_between(
        self,
        index: str,
        partition: str,
        from_ms: int,
        to_ms: int,
        limit: int,
        cursor: str | None,
        keep: Callable[[dict[str, Any]], bool] = lambda item: True,
    ) -> Page[Event]:
        pk_name, sk_name = INDEX_KEYS[index]
        if to_ms <= from_ms:
            return Page([], None)
        page = self._query(
            f"{pk_name} = :p AND {sk_name} BETWEEN :a AND :b",
            {":p": partition, ":a": ts(from_ms), ":b": ts(to_ms - 1) + "~"},
            index=index,
            limit=limit,
            cursor=cursor,
            forward=False,
            keep=keep,
        )
        return Page([event_from_item(item) for item in page.items], page.next_cursor)

    def list_events_by_type(
        self,
        event_type: EventType,
        *,
        from_ms: int,
        to_ms: int,
        decision: Decision | None = None,
        limit: int,
        cursor: str | None = None,
    ) -> Page[Event]:
        def keep(item: dict[str, Any]) -> bool:
            return decision is None or item.get("decision_outcome") == decision

        return self._events_between("GSI1", f"EVTYPE#{event_type}", from_ms, to_ms, limit, cursor, keep)

    def list_events_by_principal(
        self, principal: str, *, from_ms: int, to_ms: int, limit: int, cursor: str | None = None
    ) -> Page[Event]:
        return self._events_between("GSI2", f"ACTOR#{principal}", from_ms, to_ms, limit, cursor)

    def cases_by_ref(self, ref: Ref, *, limit: int, cursor: str | None = None) -> Page[str]:
        page = self._query(
            "gsi1pk = :p", {":p": ref_key(ref)}, index="GSI1", limit=limit, cursor=cursor, forward=True
        )
        return Page([item["gsi1sk"] for item in page.items], page.next_cursor)

    def escalation_due(self, before_ms: int, *, limit: int, cursor: str | None = None) -> Page[CaseState]:
        page = self._query(
            "gsi4pk = :p AND gsi4sk <= :b",
            {":p": "ESCALATION", ":b": ts(before_ms) + "~"},
            index="GSI4",
            limit=limit,
            cursor=cursor,
            forward=True,
        )
        return Page([record_from_item(item).state for item in page.items], page.next_cursor)
