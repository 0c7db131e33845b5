"""The table definitions: the keys and TTL attribute every store writes, and the tables the local
stack creates from them."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from memo import tables
from memo.aws import idempotency
from memo.aws.conversation_quotes import quote_requests
from memo.aws.conversation_table import message_items, profile_item
from memo.aws.dynamo import from_item
from memo.conversation.model import MemoryMessage, UserProfile
from memo.tables import CONVERSATION, IDEMPOTENCY, GsiSpec, TableSpec
from tests.support.clock import TEST_NOW

THREAD = "972501234567"
TTL = CONVERSATION.ttl_attribute or "no TTL attribute"


def test_every_table_has_its_own_name_logical_id_and_environment_variable() -> None:
    for attribute in ("logical_id", "env_var", "default_name"):
        values = [getattr(spec, attribute) for spec in tables.ALL_TABLES]
        assert len(set(values)) == len(values), attribute


def test_conversation_items_carry_the_tables_keys_and_expire_by_its_ttl_attribute() -> None:
    message = MemoryMessage(role="user", text="hi", at=TEST_NOW, wamid="wamid.1")
    [item] = [from_item(i) for i in message_items(THREAD, [message], ttl_seconds=3600)]
    assert {CONVERSATION.partition_key, CONVERSATION.sort_key, TTL} <= set(item)
    assert item[TTL] == int((TEST_NOW + timedelta(hours=1)).timestamp())
    [quote] = quote_requests(THREAD, ["wamid.OUT"], [{"summary": "x"}], now=TEST_NOW)
    assert int(from_item(quote["PutRequest"]["Item"])[TTL]) > TEST_NOW.timestamp()


def test_a_profile_never_expires() -> None:
    profile = from_item(profile_item(UserProfile(thread_id=THREAD, created_at=TEST_NOW)))
    assert {CONVERSATION.partition_key, CONVERSATION.sort_key} <= set(profile)
    assert TTL not in profile


def test_idempotency_records_are_keyed_and_expire_as_the_table_says() -> None:
    assert (IDEMPOTENCY.partition_key, IDEMPOTENCY.ttl_attribute) == (idempotency.KEY, idempotency.EXPIRY)
    assert IDEMPOTENCY.sort_key is None


def test_the_local_stack_creates_each_table_as_specified() -> None:
    kwargs = tables.CASES.create_table_kwargs("cases-local")
    assert kwargs["TableName"] == "cases-local"
    assert kwargs["KeySchema"] == [
        {"AttributeName": "pk", "KeyType": "HASH"},
        {"AttributeName": "sk", "KeyType": "RANGE"},
    ]
    assert [g["IndexName"] for g in kwargs["GlobalSecondaryIndexes"]] == ["GSI1", "GSI2", "GSI3", "GSI4"]
    assert tables.IDEMPOTENCY.create_table_kwargs()["TableName"] == "memo-idempotency"
    assert "GlobalSecondaryIndexes" not in tables.ITEMS.create_table_kwargs()


names = st.sampled_from(["pk", "sk", "id", "gsi1pk", "gsi1sk", "owner", "due"])
specs = st.builds(
    TableSpec,
    logical_id=st.just("T"),
    env_var=st.just("T_NAME"),
    default_name=st.just("t"),
    partition_key=names,
    sort_key=st.none() | names,
    ttl_attribute=st.none() | st.just("ttl"),
    gsis=st.lists(
        st.builds(GsiSpec, name=st.uuids().map(str), partition_key=names, sort_key=st.none() | names),
        max_size=3,
    ).map(tuple),
).filter(lambda spec: spec.sort_key != spec.partition_key)


@given(specs)
def test_exactly_the_key_attributes_are_defined_as_strings(spec: TableSpec) -> None:
    kwargs = spec.create_table_kwargs()
    keys = {k["AttributeName"] for k in kwargs["KeySchema"]}
    for gsi in kwargs.get("GlobalSecondaryIndexes", []):
        keys |= {k["AttributeName"] for k in gsi["KeySchema"]}
        assert gsi["Projection"] == {"ProjectionType": "ALL"}
    definitions = kwargs["AttributeDefinitions"]
    assert [d["AttributeName"] for d in definitions] == sorted(keys)  # DynamoDB refuses an unused one
    assert {d["AttributeType"] for d in definitions} == {"S"}
    assert kwargs["BillingMode"] == "PAY_PER_REQUEST"
    assert [k["KeyType"] for k in kwargs["KeySchema"]] == (["HASH", "RANGE"] if spec.sort_key else ["HASH"])
