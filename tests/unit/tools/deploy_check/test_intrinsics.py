"""The template's values resolved as CloudFormation would resolve them, names as it would generate them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tools.deploy_check.intrinsics import (
    GENERATED_SUFFIX,
    Account,
    UnresolvedIntrinsic,
    generated_name,
    physical_attributes,
    resolve,
)

ACCOUNT = Account(account="123456789012", region="eu-west-1", stack="MemoStack")
TEMPLATE = {
    "Resources": {
        "TurnQueueBDBC57EC": {"Type": "AWS::SQS::Queue", "Properties": {"FifoQueue": True}},
        "ItemsTable12AB": {"Type": "AWS::DynamoDB::GlobalTable", "Properties": {}},
        "WebhookFunction6FF7199F": {"Type": "AWS::Lambda::Function", "Properties": {}},
        "GroupA8": {"Type": "AWS::Scheduler::ScheduleGroup", "Properties": {"Name": "memo-reminders"}},
        "Api": {"Type": "AWS::ApiGatewayV2::Api", "Properties": {}},
        "Machine": {"Type": "AWS::StepFunctions::StateMachine", "Properties": {}},
    }
}


def _resolve(value: object) -> object:
    return resolve(value, physical_attributes(TEMPLATE, ACCOUNT), ACCOUNT.pseudo_parameters)


@given(
    stack=st.from_regex(r"[A-Za-z][A-Za-z0-9-]{0,40}", fullmatch=True),
    logical_id=st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,250}", fullmatch=True),
    limit=st.sampled_from([64, 80, 255]),
    suffix=st.sampled_from(["", ".fifo"]),
)
def test_a_generated_name_fits_its_service_limit_and_keeps_stack_and_suffix(
    stack: str, logical_id: str, limit: int, suffix: str
) -> None:
    name = generated_name(stack, logical_id, limit, suffix)
    assert len(name) <= limit
    assert name.startswith(f"{stack}-{logical_id[0]}")
    assert name.endswith(f"-{GENERATED_SUFFIX}{suffix}")


def test_a_fifo_queue_is_named_and_addressed_as_sqs_does() -> None:
    assert _resolve({"Ref": "TurnQueueBDBC57EC"}) == (
        f"https://sqs.eu-west-1.amazonaws.com/123456789012/MemoStack-TurnQueueBDBC57EC-{GENERATED_SUFFIX}.fifo"
    )
    assert _resolve({"Fn::GetAtt": ["TurnQueueBDBC57EC", "Arn"]}).endswith(
        ":123456789012:MemoStack-TurnQueueBDBC57EC-1A2B3C4D5E6F7.fifo"
    )


def test_a_name_given_in_the_template_is_kept() -> None:
    assert _resolve({"Ref": "GroupA8"}) == "memo-reminders"


def test_joins_subs_and_pseudo_parameters_resolve_together() -> None:
    value = {
        "Fn::Join": [
            "",
            [{"Fn::GetAtt": ["Api", "ApiEndpoint"]}, "/review/?region=", {"Ref": "AWS::Region"}],
        ]
    }
    assert (
        _resolve(value) == "https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/review/?region=eu-west-1"
    )
    sub = {"Fn::Sub": ["${Fn}:${AWS::AccountId}:${Machine.Name}", {"Fn": {"Ref": "WebhookFunction6FF7199F"}}]}
    assert _resolve(sub) == (
        f"MemoStack-WebhookFunction6FF7199F-{GENERATED_SUFFIX}:123456789012:Machine-{GENERATED_SUFFIX}"
    )


def test_plain_values_and_nested_maps_pass_through() -> None:
    assert _resolve({"A": "x", "B": [1, {"Ref": "ItemsTable12AB"}]}) == {
        "A": "x",
        "B": [1, f"MemoStack-ItemsTable12AB-{GENERATED_SUFFIX}"],
    }


@pytest.mark.parametrize(
    "value",
    [
        {"Ref": "NoSuchResource"},
        {"Fn::GetAtt": ["WebhookFunction6FF7199F", "NoSuchAttribute"]},
        {"Fn::ImportValue": "shared-thing"},
        {"Fn::If": ["Cond", "a", "b"]},
    ],
)
def test_what_cannot_be_resolved_is_an_error_not_a_guess(value: object) -> None:
    with pytest.raises(UnresolvedIntrinsic):
        _resolve(value)
