"""The local stack: moto (or AWS_ENDPOINT_URL), tables and queue, the HTTP server, sink and poller.

Every configuration name (docs/architecture.md#configuration) is honoured: values already in the environment win; the local
defaults below only fill what is unset. When WHATSAPP_API_BASE_URL is unset, replies go to the
built-in Graph API sink served by the same HTTP server.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from memo.aws.clients import reset_clients
from memo.clock import Clock, utc_now
from memo.local import persist
from memo.local.aws import (
    LOCAL_REGION,
    LocalResources,
    client,
    create_resources,
    sqs_client,
    start_moto,
    use_fake_credentials,
)
from memo.local.functions import load_handler
from memo.local.poller import FifoPoller, QueueSource
from memo.local.server import LocalServer
from memo.local.sink import GraphSink
from memo.local.stepfunctions import LocalStepFunctions, install
from memo.local.ticker import ReminderTicker
from memo.tables import WITHDRAWAL_QUEUE_ENV_VAR
from memo.wiring import LambdaRuntime, reset_runtime, use_runtime
from memo.wiring.escalation import EscalationRuntime
from memo.wiring.executor import ExecutorRuntime
from memo.wiring.ingress import IngressRuntime
from memo.wiring.reminders import RemindersRuntime
from memo.wiring.reply import ReplyRuntime
from memo.wiring.review import ReviewRuntime
from memo.wiring.review_submit import ReviewSubmitRuntime
from memo.wiring.webhook import WebhookRuntime

# Signs the local reviewer tokens (`python -m caseplatform.review.devtokens`); never set when deployed.
LOCAL_REVIEW_DEV_SECRET = "local-review-dev-secret-0123456789abcdef"  # noqa: S105 - local only

LOCAL_DEFAULTS = {
    "REVIEW_STORE": "dynamodb",
    "REVIEW_DEV_JWT_SECRET": LOCAL_REVIEW_DEV_SECRET,
    "WHATSAPP_APP_SECRET": "local-app-secret",
    "WHATSAPP_VERIFY_TOKEN": "local-verify-token",
    "WHATSAPP_ACCESS_TOKEN": "local-access-token",
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_SERVICE_NAME": "memo",
    "POWERTOOLS_METRICS_NAMESPACE": "Memo",
}
GRAPH_VERSION = "v21.0"

RUNTIMES: tuple[type[LambdaRuntime[Any]], ...] = (
    IngressRuntime,
    WebhookRuntime,
    ExecutorRuntime,
    ReplyRuntime,
    RemindersRuntime,
    ReviewSubmitRuntime,
    ReviewRuntime,
    EscalationRuntime,
)


class LocalStack:
    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        environ: MutableMapping[str, str] | None = None,
        start_poller: bool = True,
        clock: Clock = utc_now,
        state_file: Path | None = None,
    ) -> None:
        self._clock = clock
        self._state_file = state_file
        self._host = host
        self._port = port
        self._env = os.environ if environ is None else environ
        self._start_poller = start_poller
        self._mock: Any = None
        self._saved_env: dict[str, str] | None = None
        self.sink = GraphSink()
        self.server: LocalServer | None = None
        self.poller: FifoPoller | None = None
        self.stepfunctions: LocalStepFunctions | None = None
        self.ticker: ReminderTicker | None = None
        self.resources: LocalResources | None = None

    def start(self) -> LocalStack:
        env = self._env
        self._saved_env = dict(env)
        use_fake_credentials(env)
        for key, value in LOCAL_DEFAULTS.items():
            env.setdefault(key, value)
        self._mock = start_moto()
        reset_clients()
        self.resources = create_resources()
        env["TURN_QUEUE_URL"] = self.resources.queue_url
        env[WITHDRAWAL_QUEUE_ENV_VAR] = self.resources.withdrawal_queue_url
        for var, name in self.resources.table_names.items():
            env.setdefault(var, name)
        # Agents' notices go to the local bus; the retention job archives to the local bucket.
        env.setdefault("HITL_EVENT_BUS_NAME", self.resources.event_bus_name)
        env.setdefault("HITL_ARCHIVE_BUCKET", self.resources.archive_bucket)
        for key, value in self._reminder_env().items():
            env.setdefault(key, value)
        self.stepfunctions = install(
            env,
            handlers={
                "executor": load_handler("executor"),
                "responder": load_handler("responder"),
                "review_submit": load_handler("review_submit"),
            },
        )
        self.ticker = ReminderTicker(
            scheduler=client("scheduler"),
            group_name=env["REMINDER_SCHEDULE_GROUP"],
            handler=load_handler("reminders"),
            clock=self._clock,
        )
        self.ticker.ensure_group()
        if self._state_file is not None:
            persist.load(self._state_file, self.resources.table_names)
        webhook, review = load_handler("webhook"), load_handler("review")
        self.server = LocalServer(
            host=self._host,
            port=self._port,
            webhook=webhook,
            sink=self.sink,
            access_token=env["WHATSAPP_ACCESS_TOKEN"],
            review=review,
        )
        if "WHATSAPP_API_BASE_URL" not in env:
            # The sink serves the media files too, over plain http: allowed here, by name, only.
            env["WHATSAPP_API_BASE_URL"] = f"{self.server.base_url}/graph/{GRAPH_VERSION}"
            env.setdefault("WHATSAPP_MEDIA_HOSTS", self.server.base_url)
        self._install_runtimes()
        self.poller = FifoPoller(sqs_client(), self.resources.queue_url, self.resources.queue_arn, webhook)
        self.poller.add_source(
            QueueSource(
                sqs_client(), self.resources.withdrawal_queue_url, self.resources.withdrawal_queue_arn, review
            )
        )
        self.server.start()
        if self._start_poller:
            self.poller.start()
            self.ticker.start()
        return self

    @staticmethod
    def _reminder_env() -> dict[str, str]:
        """Where reminders are scheduled. Locally the ticker fires due schedules itself, so the
        target and role only have to be well-formed ARNs."""
        return {
            "REMINDER_SCHEDULE_GROUP": "memo-reminders",
            "REMINDER_TARGET_ARN": f"arn:aws:lambda:{LOCAL_REGION}:123456789012:function:memo-reminders",
            "REMINDER_SCHEDULER_ROLE_ARN": "arn:aws:iam::123456789012:role/memo-reminders-scheduler",
        }

    @property
    def base_url(self) -> str:
        assert self.server is not None, "start() first"
        return self.server.base_url

    def save_state(self) -> None:
        """Write the tables and schedules to the state file, when this stack keeps one."""
        if self._state_file is None or self.resources is None:
            return
        persist.save(self._state_file, self.resources.table_names, self._env.get("REMINDER_SCHEDULE_GROUP"))

    def stop(self, *, save: bool = True) -> None:
        """Stop everything, saving the state file first unless `save` is False (a reader of a state
        that a running chat keeps writing)."""
        if self.ticker is not None:
            self.ticker.stop()
        if self.poller is not None:
            self.poller.stop()
        if self.server is not None:
            self.server.stop()
        if self.stepfunctions is not None:
            self.stepfunctions.close()
        if save:
            self.save_state()
        if self._mock is not None:
            self._mock.stop()
        # Put the environment back as it was: what this stack set pointed at what it just stopped.
        if self._saved_env is not None:
            for key in set(self._env) - set(self._saved_env):
                del self._env[key]
            self._env.update(self._saved_env)
            self._saved_env = None
        reset_clients()
        # Forget every Lambda's settings and adapters: they point at the stack that is gone.
        reset_runtime()

    def _install_runtimes(self) -> None:
        """Every Lambda's runtime is built from this stack's environment and shares its clock."""
        reset_runtime()
        for runtime in RUNTIMES:
            use_runtime(runtime(runtime.settings_model.from_env(self._env), clock=self._clock))

    def __enter__(self) -> LocalStack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
