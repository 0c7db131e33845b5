"""The DynamoDB tables: each deployed as its spec in memo.tables says."""

from __future__ import annotations

import pytest
from aws_cdk import App
from aws_cdk.assertions import Match, Template

from infra.conversation_store import ConversationStore
from memo import tables

from .conftest import Synthesized


@pytest.mark.parametrize("spec", tables.ALL_TABLES, ids=lambda spec: spec.logical_id)
def test_every_table_spec_is_deployed_as_specified(synthesized: Synthesized, spec: tables.TableSpec) -> None:
    table_id = synthesized.logical_id(synthesized.stack.store.table(spec))
    resource = synthesized.template_json["Resources"][table_id]
    assert resource["Type"] == "AWS::DynamoDB::GlobalTable"
    assert resource["DeletionPolicy"] == "Retain"
    assert resource["UpdateReplacePolicy"] == "Retain"
    props = resource["Properties"]
    assert props["BillingMode"] == "PAY_PER_REQUEST"
    assert props["SSESpecification"]["SSEEnabled"] is True
    assert [r["PointInTimeRecoverySpecification"] for r in props["Replicas"]] == [
        {"PointInTimeRecoveryEnabled": True}
    ]
    if spec.ttl_attribute:
        assert props["TimeToLiveSpecification"] == {"AttributeName": spec.ttl_attribute, "Enabled": True}
    else:
        assert "TimeToLiveSpecification" not in props
    # Keys and indexes exactly as the local stack creates them from the same spec.
    local = spec.create_table_kwargs()
    assert props["KeySchema"] == local["KeySchema"]
    assert (
        sorted(props["AttributeDefinitions"], key=lambda a: a["AttributeName"])
        == local["AttributeDefinitions"]
    )
    assert [(g["IndexName"], g["KeySchema"]) for g in props.get("GlobalSecondaryIndexes", [])] == [
        (g["IndexName"], g["KeySchema"]) for g in local.get("GlobalSecondaryIndexes", [])
    ]


def test_conversation_store_builds_a_table_for_a_spec_added_later() -> None:
    from aws_cdk import Stack

    added = tables.TableSpec(
        logical_id="LaterTable",
        env_var="LATER_TABLE_NAME",
        default_name="later",
        partition_key="pk",
        sort_key="sk",
        ttl_attribute="expiresAt",
        gsis=(tables.GsiSpec("ByOwner", "owner"), tables.GsiSpec("ByState", "state", "updatedAt")),
    )
    stack = Stack(App(), "Later")
    store = ConversationStore(stack, "Store", specs=(tables.CONVERSATION, added))
    template = Template.from_stack(stack)
    template.resource_count_is("AWS::DynamoDB::GlobalTable", 2)
    template.has_resource_properties(
        "AWS::DynamoDB::GlobalTable",
        {
            "TimeToLiveSpecification": {"AttributeName": "expiresAt", "Enabled": True},
            "GlobalSecondaryIndexes": [
                Match.object_like(
                    {"IndexName": "ByOwner", "KeySchema": [{"AttributeName": "owner", "KeyType": "HASH"}]}
                ),
                Match.object_like({"IndexName": "ByState"}),
            ],
        },
    )
    assert set(store.environment(added)) == {"LATER_TABLE_NAME"}
