"""Which flow proves each grant of each role, and the grants no code of Memo calls.

`PROVEN_BY[role]["<action> <resource>"]` names the cheapest flow of `tests/integration/iam/flows.py`
that makes the call the grant allows (the resource as the local stack names it: `table/memo-items`,
`schedule/memo-reminders/*`). `tests/integration/iam/test_least_privilege.py` checks that the table is
exactly the synthesized template's grants (a new grant needs a flow here, a removed one its line gone)
and that each flow makes the calls it is named for; `test_removed_grants.py` drops each grant in turn
and expects its flow to be refused.

`OUTSIDE_THE_CODE` are the actions AWS itself calls with a role, which no function's code makes and
no local flow can: they are not in the table.
"""

from __future__ import annotations

from collections.abc import Mapping

OUTSIDE_THE_CODE: Mapping[str, str] = {
    "logs:CreateLogStream": "the Lambda runtime writes the function's logs to its own log group",
    "logs:PutLogEvents": "the Lambda runtime writes the function's logs to its own log group",
    "xray:PutTraceSegments": "active tracing: the X-Ray daemon of Lambda and Step Functions",
    "xray:PutTelemetryRecords": "active tracing: the X-Ray daemon of Lambda and Step Functions",
    "xray:GetSamplingRules": "Step Functions' tracing reads the sampling rules",
    "xray:GetSamplingTargets": "Step Functions' tracing reads the sampling targets",
    "logs:CreateLogDelivery": "Step Functions sets up the state machine's log delivery (on deploy)",
    "logs:DeleteLogDelivery": "Step Functions sets up the state machine's log delivery (on deploy)",
    "logs:GetLogDelivery": "Step Functions sets up the state machine's log delivery (on deploy)",
    "logs:ListLogDeliveries": "Step Functions sets up the state machine's log delivery (on deploy)",
    "logs:UpdateLogDelivery": "Step Functions sets up the state machine's log delivery (on deploy)",
    "logs:DescribeLogGroups": "Step Functions sets up the state machine's log delivery (on deploy)",
    "logs:DescribeResourcePolicies": "Step Functions sets up the state machine's log delivery (on deploy)",
    "logs:PutResourcePolicy": "Step Functions sets up the state machine's log delivery (on deploy)",
}

PROVEN_BY: Mapping[str, Mapping[str, str]] = {
    "escalation": {
        "dynamodb:ConditionCheckItem table/hitl-cases": "a_question_escalates",
        "dynamodb:GetItem table/hitl-cases": "a_question_escalates",
        "dynamodb:PutItem table/hitl-cases": "a_question_escalates",
        "dynamodb:Query table/hitl-cases": "a_question_escalates",
        "dynamodb:Query table/hitl-cases/index/GSI1": "a_question_escalates",
        "dynamodb:Query table/hitl-cases/index/GSI4": "a_question_escalates",
        "s3:PutObject memo-hitl-archive/*": "a_decided_case_is_archived",
        "sns:Publish memo-escalations": "a_question_escalates",
    },
    "executor": {
        "dynamodb:DeleteItem table/memo-ledger": "a_step_runs_again",
        "dynamodb:GetItem table/memo-items": "move_a_reminder",
        "dynamodb:GetItem table/memo-ledger": "a_step_runs_again",
        "dynamodb:PutItem table/memo-items": "set_a_reminder",
        "dynamodb:PutItem table/memo-ledger": "set_a_reminder",
        "dynamodb:Query table/memo-items": "the_number_changes",
        "dynamodb:UpdateItem table/memo-items": "move_a_reminder",
        "dynamodb:UpdateItem table/memo-ledger": "a_step_runs_again",
        "iam:PassRole role/memo-reminders-scheduler": "set_a_reminder",
        "scheduler:CreateSchedule schedule/memo-reminders/*": "set_a_reminder",
        "scheduler:DeleteSchedule schedule/memo-reminders/*": "operator_asks",
        "scheduler:UpdateSchedule schedule/memo-reminders/*": "move_a_reminder",
    },
    "reminders": {
        "dynamodb:BatchWriteItem table/memo-conversation": "a_reminder_is_delivered",
        "dynamodb:GetItem table/memo-items": "a_reminder_is_delivered",
        "dynamodb:Query table/memo-conversation": "a_reminder_is_delivered",
        "dynamodb:UpdateItem table/memo-items": "a_reminder_is_delivered",
        "scheduler:DeleteSchedule schedule/memo-reminders/*": "a_leftover_schedule_fires",
        "secretsmanager:GetSecretValue secret:memo-whatsapp": "a_reminder_is_delivered",
        "sqs:SendMessage memo-reminders-dlq": "undeliverable_reminders",
    },
    "responder": {
        "dynamodb:BatchWriteItem table/memo-conversation": "refer_back",
        "dynamodb:DeleteItem table/memo-conversation": "a_reply_meta_refuses",
        "dynamodb:GetItem table/memo-conversation": "move_a_reminder",
        "dynamodb:PutItem table/memo-conversation": "set_a_reminder",
        "dynamodb:UpdateItem table/memo-conversation": "refer_back",
        "secretsmanager:GetSecretValue secret:memo-whatsapp": "set_a_reminder",
    },
    "review": {
        "dynamodb:BatchWriteItem table/memo-conversation": "operator_asks",
        "dynamodb:ConditionCheckItem table/hitl-cases": "operator_asks",
        "dynamodb:DeleteItem table/memo-conversation": "operator_asks",
        "dynamodb:DeleteItem table/memo-ledger": "operator_asks",
        "dynamodb:GetItem table/hitl-cases": "operator_asks",
        "dynamodb:GetItem table/memo-conversation": "operator_asks",
        "dynamodb:GetItem table/memo-items": "operator_asks",
        "dynamodb:GetItem table/memo-ledger": "operator_asks",
        "dynamodb:PutItem table/hitl-cases": "operator_asks",
        "dynamodb:PutItem table/memo-conversation": "operator_asks",
        "dynamodb:Query table/hitl-cases": "operator_asks",
        "dynamodb:Query table/hitl-cases/index/GSI1": "operator_asks",
        "dynamodb:Query table/hitl-cases/index/GSI2": "operator_rejects",
        "dynamodb:Query table/hitl-cases/index/GSI3": "operator_rejects",
        "dynamodb:Query table/hitl-cases/index/GSI4": "operator_rejects",
        "dynamodb:Query table/memo-conversation": "operator_asks",
        "dynamodb:Query table/memo-items": "operator_rejects",
        "dynamodb:UpdateItem table/hitl-cases": "operator_asks",
        "events:PutEvents event-bus/memo-hitl-notices": "operator_approves",
        "secretsmanager:GetSecretValue secret:memo-whatsapp": "operator_asks",
        "sqs:DeleteMessage memo-review-withdrawals": "user_withdraws",
        "sqs:GetQueueAttributes memo-review-withdrawals": "user_withdraws",
        "sqs:ReceiveMessage memo-review-withdrawals": "user_withdraws",
        "states:SendTaskFailure *": "user_withdraws",
        "states:SendTaskSuccess *": "operator_asks",
    },
    "review_submit": {
        "dynamodb:ConditionCheckItem table/hitl-cases": "operator_asks",
        "dynamodb:GetItem table/hitl-cases": "operator_asks",
        "dynamodb:PutItem table/hitl-cases": "operator_asks",
        "dynamodb:PutItem table/memo-ledger": "operator_asks",
        "dynamodb:Query table/hitl-cases": "operator_asks",
        "dynamodb:UpdateItem table/hitl-cases": "a_question_escalates",
    },
    "scheduler": {
        "lambda:InvokeFunction function:memo-reminders": "a_reminder_is_delivered",
        "sqs:SendMessage memo-reminder-schedules-dlq": "undeliverable_reminders",
    },
    "state_machine": {
        "lambda:InvokeFunction function:memo-executor": "set_a_reminder",
        "lambda:InvokeFunction function:memo-responder": "set_a_reminder",
        "lambda:InvokeFunction function:memo-review-submit": "operator_asks",
    },
    "webhook": {
        "dynamodb:ConditionCheckItem table/hitl-cases": "user_withdraws",
        "dynamodb:DeleteItem table/memo-conversation": "the_number_changes",
        "dynamodb:DeleteItem table/memo-items": "the_number_changes",
        "dynamodb:GetItem table/hitl-cases": "user_withdraws",
        "dynamodb:GetItem table/memo-conversation": "the_number_changes",
        "dynamodb:GetItem table/memo-idempotency": "the_number_changes",
        "dynamodb:GetItem table/memo-items": "a_reminder_delivery_fails",
        "dynamodb:PutItem table/hitl-cases": "operator_asks",
        "dynamodb:PutItem table/memo-conversation": "set_a_reminder",
        "dynamodb:PutItem table/memo-idempotency": "set_a_reminder",
        "dynamodb:PutItem table/memo-items": "the_number_changes",
        "dynamodb:Query table/hitl-cases": "operator_asks",
        "dynamodb:Query table/hitl-cases/index/GSI1": "user_withdraws",
        "dynamodb:Query table/memo-conversation": "set_a_reminder",
        "dynamodb:Query table/memo-items": "the_number_changes",
        "dynamodb:UpdateItem table/memo-conversation": "operator_asks",
        "dynamodb:UpdateItem table/memo-items": "a_reminder_delivery_fails",
        "iam:PassRole role/memo-reminders-scheduler": "the_number_changes",
        "scheduler:CreateSchedule schedule/memo-reminders/*": "the_number_changes",
        "scheduler:UpdateSchedule schedule/memo-reminders/*": "the_number_changes",
        "secretsmanager:GetSecretValue secret:memo-openai": "set_a_reminder",
        "secretsmanager:GetSecretValue secret:memo-whatsapp": "set_a_reminder",
        "sqs:DeleteMessage memo-turns.fifo": "set_a_reminder",
        "sqs:GetQueueAttributes memo-turns.fifo": "set_a_reminder",
        "sqs:ReceiveMessage memo-turns.fifo": "set_a_reminder",
        "sqs:SendMessage memo-review-withdrawals": "user_withdraws",
        "sqs:SendMessage memo-turns.fifo": "set_a_reminder",
        "states:StartExecution stateMachine:memo-executor": "set_a_reminder",
    },
}
