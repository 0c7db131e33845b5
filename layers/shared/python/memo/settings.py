"""Configuration: every Lambda's settings model, read from the environment once per container.

Logic never reads `os.environ`: each Lambda's runtime (`memo.wiring.<lambda>`) reads its
`FunctionSettings` subclass once, on first use, and passes the values down. Settings that are invalid
or missing raise `ConfigurationError`, naming the variables.

The shared groups (`AwsSettings`, `WhatsAppSettings`, `LlmSettings`) are declared as fields of a
function's settings and read from the same environment. The configuration names below are
fixed (tests outside the repo rely on them): WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN,
WHATSAPP_ACCESS_TOKEN, WHATSAPP_API_BASE_URL, OPENAI_API_KEY, OPENAI_BASE_URL, MEMO_PLANNER_MODEL,
MEMO_INTERPRETER_MODEL, HITL_TTL_SECONDS, AWS_ENDPOINT_URL.

Deployed, the secrets are not in the environment: `WHATSAPP_SECRET_ID` / `OPENAI_SECRET_ID` name
Secrets Manager secrets (JSON) that `memo.aws.secrets` fetches on first use and merges in with
`with_secrets`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal, Self, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from memo import tables
from memo.errors import ConfigurationError as ConfigurationError  # re-exported: its home before memo.errors
from memo.text.recurrence_limits import DEFAULT_MAX_COUNT, DEFAULT_MAX_YEARS, RecurrenceLimits

DAY_SECONDS = 24 * 3600
MEMORY_TTL_SECONDS = 30 * DAY_SECONDS
# Step Functions keeps a Standard execution redrivable for 14 days after it started.
DEFAULT_LEDGER_TTL_SECONDS = 14 * DAY_SECONDS

SCHEDULE_GROUP_ENV_VAR = "REMINDER_SCHEDULE_GROUP"
SCHEDULE_TARGET_ENV_VAR = "REMINDER_TARGET_ARN"  # the reminders Lambda
SCHEDULE_ROLE_ENV_VAR = "REMINDER_SCHEDULER_ROLE_ARN"  # the role the Scheduler assumes to invoke it
# Where the Scheduler puts an invocation it could not make.
SCHEDULE_DEAD_LETTER_ENV_VAR = "REMINDER_DEAD_LETTER_ARN"
SCHEDULE_RETRY_ATTEMPTS_ENV_VAR = "REMINDER_RETRY_ATTEMPTS"
SCHEDULE_MAX_EVENT_AGE_ENV_VAR = "REMINDER_MAX_EVENT_AGE_SECONDS"
# EventBridge Scheduler's bounds of a target's retry policy.
SCHEDULE_MAX_RETRY_ATTEMPTS = 185
SCHEDULE_EVENT_AGE_BOUNDS = (60, 86400)

_Model = TypeVar("_Model", bound=BaseModel)

# Meta's media CDN: the URL `GET /{media-id}` answers for a file a user sent.
DEFAULT_MEDIA_HOSTS = ("lookaside.fbsbx.com",)
_DEFAULT_PORTS = {"http": 80, "https": 443}
# A host (a name, an IPv4 address or a bracketed IPv6 one), with an optional scheme and port.
_ORIGIN = re.compile(
    r"(?:(?P<scheme>[a-z]+)://)?(?P<host>[^/:@\[\]\s?#]+|\[[0-9a-f:.]+\])(?::(?P<port>[0-9]{1,5}))?/?"
)


def media_origin(entry: str) -> str:
    """One WHATSAPP_MEDIA_HOSTS entry as the origin `scheme://host:port` (host lowercased, port
    spelled out; as `memo.whatsapp.media.url_origin` reads a URL): a bare host (or `host:port`) is
    https; plain http only when written out (`http://127.0.0.1:8080`, the local stack's sink)."""
    found = _ORIGIN.fullmatch(entry.strip().lower())
    scheme = (found.group("scheme") or "https") if found else ""
    if found is None or scheme not in _DEFAULT_PORTS or not 0 < int(found.group("port") or 443) < 65536:
        raise ValueError(f"{entry!r} is not a host or an http(s) origin")
    host = found.group("host").rstrip(".")
    return f"{scheme}://{host}:{found.group('port') or _DEFAULT_PORTS[scheme]}"


class _EnvModel(BaseModel):
    # A model's validator is built when its Lambda's runtime class is defined (`FunctionSettings.build`,
    # at import: the cold start's init), not for each of the other Lambdas' models this module holds.
    model_config = ConfigDict(populate_by_name=True, extra="ignore", frozen=True, defer_build=True)

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Self:
        # Empty strings count as unset, as in most twelve-factor tooling.
        return _validated(cls, {k: v for k, v in environ.items() if v != ""})


def _validated(model: type[_Model], values: Mapping[str, Any]) -> _Model:
    try:
        return model.model_validate(values)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in issue['loc']) or model.__name__}: {issue['msg']}"
            for issue in error.errors()
        )
        raise ConfigurationError(f"invalid configuration of {model.__name__}: {problems}") from error


class AwsSettings(_EnvModel):
    aws_endpoint_url: str | None = Field(default=None, alias="AWS_ENDPOINT_URL")
    aws_region: str = Field(default="us-east-1", alias="AWS_REGION")


class WhatsAppSettings(_EnvModel):
    app_secret: SecretStr = Field(default=SecretStr(""), alias="WHATSAPP_APP_SECRET")
    verify_token: SecretStr = Field(default=SecretStr(""), alias="WHATSAPP_VERIFY_TOKEN")
    access_token: SecretStr = Field(default=SecretStr(""), alias="WHATSAPP_ACCESS_TOKEN")
    api_base_url: str = Field(default="https://graph.facebook.com/v21.0", alias="WHATSAPP_API_BASE_URL")
    secret_id: str | None = Field(default=None, alias="WHATSAPP_SECRET_ID")
    send_max_attempts: int = Field(default=4, alias="WHATSAPP_SEND_MAX_ATTEMPTS", ge=1, le=10)
    send_timeout_seconds: float = Field(default=10.0, alias="WHATSAPP_SEND_TIMEOUT_SECONDS", gt=0)

    @model_validator(mode="after")
    def _strip_trailing_slash(self) -> Self:
        object.__setattr__(self, "api_base_url", self.api_base_url.rstrip("/"))
        return self

    def with_secrets(self, values: Mapping[str, str]) -> WhatsAppSettings:
        """These settings with the secrets of the WHATSAPP_SECRET_ID secret (its JSON object) filled in."""
        return self.model_copy(
            update={
                "app_secret": SecretStr(values.get("app_secret", self.app_secret.get_secret_value())),
                "verify_token": SecretStr(values.get("verify_token", self.verify_token.get_secret_value())),
                "access_token": SecretStr(values.get("access_token", self.access_token.get_secret_value())),
            }
        )


class LlmSettings(_EnvModel):
    openai_api_key: SecretStr | None = Field(default=None, alias="OPENAI_API_KEY")
    openai_base_url: str | None = Field(default=None, alias="OPENAI_BASE_URL")
    planner_model: str = Field(default="gpt-4o-mini", alias="MEMO_PLANNER_MODEL")
    interpreter_model: str = Field(default="gpt-4o-mini", alias="MEMO_INTERPRETER_MODEL")
    timeout_seconds: float = Field(default=8.0, alias="MEMO_LLM_TIMEOUT_SECONDS", gt=0)
    # A retry re-sends a request the model did not answer (an error, a timeout): 0 keeps Memo's rule
    # that one message asks the model at most once (a failed request falls back to the rules).
    max_retries: int = Field(default=0, alias="MEMO_LLM_MAX_RETRIES", ge=0, le=5)
    secret_id: str | None = Field(default=None, alias="OPENAI_SECRET_ID")

    @property
    def enabled(self) -> bool:
        return self.openai_api_key is not None and bool(self.openai_api_key.get_secret_value())

    def with_secrets(self, values: Mapping[str, str]) -> LlmSettings:
        """These settings with the `api_key` of the OPENAI_SECRET_ID secret, when it has one."""
        key = values.get("api_key")
        return self.model_copy(update={"openai_api_key": SecretStr(key)}) if key else self


class RecurrenceSettings(_EnvModel):
    """How far a repeating reminder may reach (`memo.text.recurrence_limits`): an end date at most
    this many years from today, at most this many occurrences. At the bound a series is accepted;
    past it, Memo asks again and sets nothing."""

    max_years: int = Field(default=DEFAULT_MAX_YEARS, alias="MEMO_RECURRENCE_MAX_YEARS", ge=1, le=100)
    max_count: int = Field(default=DEFAULT_MAX_COUNT, alias="MEMO_RECURRENCE_MAX_COUNT", ge=1, le=1_000_000)

    @property
    def limits(self) -> RecurrenceLimits:
        return RecurrenceLimits(max_years=self.max_years, max_count=self.max_count)


class ScheduleDeliverySettings(_EnvModel):
    """How EventBridge Scheduler delivers a reminder's schedule to the reminders Lambda: an invocation
    it could not make is retried up to `retry_attempts` times while the event is younger than
    `max_event_age_seconds` (a reminder later than that is no use), then put on the dead-letter queue
    `dead_letter_arn` (alarmed) instead of being dropped. Every schedule a Lambda creates or moves
    carries them, since a moved schedule is written whole."""

    dead_letter_arn: str | None = Field(default=None, alias=SCHEDULE_DEAD_LETTER_ENV_VAR)
    retry_attempts: int = Field(
        default=20, alias=SCHEDULE_RETRY_ATTEMPTS_ENV_VAR, ge=0, le=SCHEDULE_MAX_RETRY_ATTEMPTS
    )
    max_event_age_seconds: int = Field(
        default=3600,
        alias=SCHEDULE_MAX_EVENT_AGE_ENV_VAR,
        ge=SCHEDULE_EVENT_AGE_BOUNDS[0],
        le=SCHEDULE_EVENT_AGE_BOUNDS[1],
    )


#: A note is at most this many characters unless configured otherwise: one WhatsApp message (4,096)
#: can show it back whole.
DEFAULT_NOTE_MAX_CHARS = 4_000
#: The most a note may be configured to hold. At twelve bytes a character (the most JSON takes to
#: escape one) a note of this length still travels to the executor under Step Functions' 256 KB, and
#: at four (UTF-8) it is stored far under DynamoDB's 400 KB item limit (see docs/item-sizes.md).
NOTE_MAX_CHARS_CEILING = 20_000
#: The longest message Memo reads unless configured otherwise: a note at its limit and the words
#: that ask to save it. A longer one is answered at once and not planned (reading a request costs
#: time with its length).
DEFAULT_MESSAGE_MAX_CHARS = 5_000
#: The longest reminder title or list item unless configured otherwise, and the most it may be
#: configured to (a delivered reminder shows its title in one template parameter, 1,024 at most).
DEFAULT_TITLE_MAX_CHARS, TITLE_MAX_CHARS_CEILING = 500, 1_024


class TextSettings(_EnvModel):
    """How long a message, a note, and a reminder's title or a list item may be. A longer message is
    answered at once, before it is read as a request (`memo.turn.control`); a longer note, title or
    item is refused before anything is saved (`memo.turn.execute`; the notes capability checks again). Both answers are in the user's language."""

    note_max_chars: int = Field(
        default=DEFAULT_NOTE_MAX_CHARS, alias="MEMO_NOTE_MAX_CHARS", ge=1, le=NOTE_MAX_CHARS_CEILING
    )
    message_max_chars: int = Field(
        default=DEFAULT_MESSAGE_MAX_CHARS, alias="MEMO_MESSAGE_MAX_CHARS", ge=1, le=2 * NOTE_MAX_CHARS_CEILING
    )
    title_max_chars: int = Field(
        default=DEFAULT_TITLE_MAX_CHARS, alias="MEMO_TITLE_MAX_CHARS", ge=1, le=TITLE_MAX_CHARS_CEILING
    )

    @model_validator(mode="after")
    def _a_note_fits_in_a_message(self) -> Self:
        if self.message_max_chars < self.note_max_chars:
            raise ValueError("MEMO_MESSAGE_MAX_CHARS must be at least MEMO_NOTE_MAX_CHARS")
        return self


class LimitsSettings(_EnvModel):
    """What one person (or one group) may ask of Memo; every row is in docs/limits.md.

    The pace of a sender (`memo.conversation.pace`): `rate_burst` messages at once, then
    `rate_per_minute`; a message past it is not turned (one short notice per run of messages). The
    caps of what one person keeps (`memo.capabilities.limits`): a request that would pass one is refused
    whole, before anything runs; so is one that breaks a rule (`rule_*`). A group hears at most `group_replies` answers per window."""

    rate_burst: int = Field(default=20, alias="MEMO_RATE_BURST", ge=1, le=1_000_000)
    rate_per_minute: float = Field(default=30.0, alias="MEMO_RATE_PER_MINUTE", gt=0, le=60_000)
    max_reminders: int = Field(default=500, alias="MEMO_MAX_REMINDERS", ge=1, le=1_000_000)
    max_repeating_reminders: int = Field(default=50, alias="MEMO_MAX_REPEATING_REMINDERS", ge=0, le=1_000_000)
    max_list_add_items: int = Field(default=50, alias="MEMO_MAX_LIST_ADD_ITEMS", ge=1, le=100_000)
    max_list_items: int = Field(default=500, alias="MEMO_MAX_LIST_ITEMS", ge=1, le=1_000_000)
    group_replies: int = Field(default=3, alias="MEMO_GROUP_MAX_REPLIES", ge=0, le=10_000)
    group_reply_window_seconds: int = Field(
        default=3600, alias="MEMO_GROUP_REPLY_WINDOW_SECONDS", ge=1, le=7 * DAY_SECONDS
    )
    #: how many one-time reminders a change of timezone offers to move (each is one step of the
    #: move's execution, which runs at most 10); the others are counted, not moved
    zone_move_listed: int = Field(default=5, alias="MEMO_ZONE_MOVE_MAX_LISTED", ge=1, le=10)
    # The rules a request must keep (`memo.hitl.request_rules`): one that breaks one is not carried out.
    rule_same_minute_reminders: int = Field(
        default=10, alias="MEMO_RULE_SAME_MINUTE_REMINDERS", ge=1, le=1000
    )
    rule_max_days_ahead: int = Field(default=365, alias="MEMO_RULE_MAX_DAYS_AHEAD", ge=1, le=36_500)
    # Comma-separated words or phrases no reminder, note or list item may hold (none by default).
    rule_blocked_words: str = Field(default="", alias="MEMO_RULE_BLOCKED_WORDS", max_length=10_000)

    @property
    def blocked_words(self) -> tuple[str, ...]:
        return tuple(w for w in (part.strip() for part in self.rule_blocked_words.split(",")) if w)


class FunctionSettings(_EnvModel):
    """The settings of one Lambda: its own fields, read from the environment, and the shared groups
    it declares as fields (`aws: AwsSettings`, `whatsapp: WhatsAppSettings`, `llm: LlmSettings`), each
    read from the same environment."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Self:
        env = {k: v for k, v in environ.items() if v != ""}
        nested: dict[str, Any] = {}
        for name, group in cls._groups().items():
            nested[name] = group.from_env(env)
        return _validated(cls, {**env, **nested})

    @classmethod
    def _groups(cls) -> dict[str, type[_EnvModel]]:
        return {
            name: group
            for name, field in cls.model_fields.items()
            if isinstance(group := field.annotation, type) and issubclass(group, _EnvModel)
        }

    @classmethod
    def build(cls) -> None:
        """Build the validators of these settings and of their groups now (each is validated alone)."""
        for group in cls._groups().values():
            group.model_rebuild()
        cls.model_rebuild()


class WebhookSettings(FunctionSettings):
    """The webhook Lambda (ingress path and turn path)."""

    aws: AwsSettings
    whatsapp: WhatsAppSettings
    llm: LlmSettings
    recurrence: RecurrenceSettings
    texts: TextSettings
    limits: LimitsSettings
    hitl_ttl_seconds: int = Field(default=300, alias="HITL_TTL_SECONDS", ge=10, le=7 * DAY_SECONDS)
    default_timezone: str = Field(default="UTC", alias="MEMO_DEFAULT_TIMEZONE")
    conversation_table: str = Field(default=tables.CONVERSATION.default_name, alias="CONVERSATION_TABLE_NAME")
    idempotency_table: str = Field(default=tables.IDEMPOTENCY.default_name, alias="IDEMPOTENCY_TABLE_NAME")
    turn_queue_url: str | None = Field(default=None, alias="TURN_QUEUE_URL")
    items_table: str = Field(default=tables.ITEMS.default_name, alias="ITEMS_TABLE_NAME")
    executor_state_machine_arn: str | None = Field(default=None, alias="EXECUTOR_STATE_MACHINE_ARN")
    max_body_bytes: int = Field(default=256 * 1024, alias="MEMO_MAX_BODY_BYTES", ge=1024)
    # The longest id of a webhook body (UTF-8 bytes) before it becomes a key (memo.ingress.ids: the
    # ingress path reads the same variable with the same bounds).
    max_id_bytes: int = Field(default=256, alias="MEMO_MAX_ID_BYTES", ge=64, le=512)
    # Longer than Meta's 7-day retry window, so a very late redelivery is still a duplicate.
    idempotency_expiry_seconds: int = Field(default=8 * DAY_SECONDS, alias="MEMO_IDEMPOTENCY_EXPIRY_SECONDS")
    memory_ttl_seconds: int = Field(default=MEMORY_TTL_SECONDS, alias="MEMO_MEMORY_TTL_SECONDS", ge=60)
    # The turn queue's receives before a failing turn moves to its dead-letter queue: on the last one
    # the person is told the message could not be handled (`memo.turn.consumer`).
    turn_max_receives: int = Field(
        default=tables.TURN_QUEUE_MAX_RECEIVE_COUNT, alias=tables.TURN_MAX_RECEIVES_ENV_VAR, ge=1
    )
    # The planners look at the last 10 messages (the LLM prompt's window): a turn loads no more.
    recent_messages_limit: int = Field(default=10, alias="MEMO_RECENT_MESSAGES", ge=1, le=100)
    # Operator review (memo.operator_review.policy): the policy document or file, and the wait's timeout.
    review_policy_source: str | None = Field(default=None, alias="MEMO_REVIEW_POLICY")
    review_timeout_seconds: int | None = Field(default=None, alias="MEMO_REVIEW_TIMEOUT_SECONDS", ge=1)
    # The user's answer to an operator's question goes to the case (memo.operator_review.clarify).
    cases_table: str = Field(default=tables.CASES.default_name, alias="CASES_TABLE_NAME", min_length=3)
    cases_redact: str = Field(default="none", alias="HITL_REDACT")
    # A user's withdrawal ("cancel that") rejects the waiting step's case and hands it to the review
    # Lambda on this queue, which fails the step's task token (memo.operator_review.withdraw).
    withdrawal_queue_url: str | None = Field(default=None, alias=tables.WITHDRAWAL_QUEUE_ENV_VAR)
    # Voice notes (memo.whatsapp.media): the OpenAI transcription model, and the largest audio file
    # fetched (bigger ones are refused politely before their bytes are read).
    transcription_model: str = Field(default="gpt-4o-mini-transcribe", alias="MEMO_TRANSCRIPTION_MODEL")
    media_max_bytes: int = Field(default=5 * 1024 * 1024, alias="MEMO_MEDIA_MAX_BYTES", ge=1024)
    # Where a voice note's file may be downloaded from (with the access token), as origins
    # (`media_origin`): a URL the Graph API answers off this list, or a redirect off it, is refused
    # before anything is sent. And the whole fetch (lookup and download, however slowly the bytes
    # come) ends after this many seconds.
    media_hosts: tuple[str, ...] = Field(
        default=DEFAULT_MEDIA_HOSTS, alias="WHATSAPP_MEDIA_HOSTS", min_length=1, validate_default=True
    )
    media_timeout_seconds: float = Field(default=15.0, alias="MEMO_MEDIA_TIMEOUT_SECONDS", gt=0, le=120)
    # A changed number (memo.aws.number_move) re-points the user's reminder schedules; a reminder whose
    # delivery failed outside the 24-hour window is sent again as this template.
    schedule_group: str = Field(default="memo-reminders", alias=SCHEDULE_GROUP_ENV_VAR, min_length=1)
    schedule_target_arn: str | None = Field(default=None, alias=SCHEDULE_TARGET_ENV_VAR)
    schedule_role_arn: str | None = Field(default=None, alias=SCHEDULE_ROLE_ENV_VAR)
    schedule_delivery: ScheduleDeliverySettings
    reminder_template_name: str = Field(
        default="memo_reminder", alias="WHATSAPP_REMINDER_TEMPLATE", min_length=1
    )
    reminder_template_languages: dict[str, str] = Field(
        default_factory=lambda: {"en": "en", "he": "he"}, alias="WHATSAPP_REMINDER_TEMPLATE_LANGUAGES"
    )

    @field_validator("reminder_template_languages", mode="before")
    @classmethod
    def _template_pairs(cls, value: Any) -> Any:
        return RemindersSettings._pairs(value)  # the reminders Lambda's parsing of the same variable

    @field_validator("media_hosts", mode="before")
    @classmethod
    def _media_origins(cls, value: Any) -> Any:
        entries = value.split(",") if isinstance(value, str) else value
        return tuple(media_origin(entry) for entry in entries if entry.strip())


class ExecutorSettings(FunctionSettings):
    """The executor Lambda (one Step Functions step task): the ledger's table and retention, and what
    the capabilities need: the items table and the EventBridge Scheduler group, target and role."""

    aws: AwsSettings
    recurrence: RecurrenceSettings
    texts: TextSettings
    ledger_table: str = Field(default=tables.LEDGER.default_name, alias="LEDGER_TABLE_NAME", min_length=3)
    items_table: str = Field(default=tables.ITEMS.default_name, alias="ITEMS_TABLE_NAME", min_length=3)
    schedule_group: str = Field(default="memo-reminders", alias=SCHEDULE_GROUP_ENV_VAR, min_length=1)
    schedule_target_arn: str | None = Field(default=None, alias=SCHEDULE_TARGET_ENV_VAR)
    schedule_role_arn: str | None = Field(default=None, alias=SCHEDULE_ROLE_ENV_VAR)
    schedule_delivery: ScheduleDeliverySettings
    # The ledger entry: how long a re-run (retry, redrive, redelivery) is still recognised and
    # answered with the step's replay.
    ledger_ttl_seconds: int = Field(
        default=DEFAULT_LEDGER_TTL_SECONDS, alias="MEMO_LEDGER_TTL_SECONDS", ge=3600, le=365 * DAY_SECONDS
    )
    # A claim younger than this may belong to an attempt that is still running: a re-run waits for
    # it (StepInProgress, retried by Step Functions) instead of answering; older means it crashed.
    step_lease_seconds: int = Field(default=90, alias="MEMO_STEP_LEASE_SECONDS", ge=1, le=900)


class ReplySettings(FunctionSettings):
    """The responder Lambda (the executor's last task: the reply to the user)."""

    aws: AwsSettings
    whatsapp: WhatsAppSettings
    conversation_table: str = Field(default=tables.CONVERSATION.default_name, alias="CONVERSATION_TABLE_NAME")
    memory_ttl_seconds: int = Field(default=MEMORY_TTL_SECONDS, alias="MEMO_MEMORY_TTL_SECONDS", ge=60)
    # Turns whose latest actions RECENT_ACTIONS keeps in its slots, each reply shifting them on
    # without a read (the oldest falls off); each turn adds at least one action, so 10 keeps the 10
    # latest actions, the most any reader uses.
    latest_actions_appends: int = Field(default=10, alias="MEMO_LATEST_ACTIONS_APPENDS", ge=1, le=10)
    # The largest turn's latest actions (packed bytes) appended so; a larger turn is merged at once.
    # Merges leave this much room per slot under DynamoDB's item limit (10 x 16 KiB of 400 KB).
    latest_actions_append_max_bytes: int = Field(
        default=16_384, alias="MEMO_LATEST_ACTIONS_APPEND_MAX_BYTES", ge=1, le=32_768
    )


class RemindersSettings(FunctionSettings):
    """The reminders Lambda (the EventBridge Scheduler target: a reminder's WhatsApp template)."""

    aws: AwsSettings
    whatsapp: WhatsAppSettings
    items_table: str = Field(default=tables.ITEMS.default_name, alias="ITEMS_TABLE_NAME")
    conversation_table: str = Field(default=tables.CONVERSATION.default_name, alias="CONVERSATION_TABLE_NAME")
    memory_ttl_seconds: int = Field(default=MEMORY_TTL_SECONDS, alias="MEMO_MEMORY_TTL_SECONDS", ge=60)
    template_name: str = Field(default="memo_reminder", alias="WHATSAPP_REMINDER_TEMPLATE", min_length=1)
    # "en=en_US,he=he": the profile's language -> the template's language code.
    template_languages: dict[str, str] = Field(
        default_factory=lambda: {"en": "en", "he": "he"}, alias="WHATSAPP_REMINDER_TEMPLATE_LANGUAGES"
    )
    default_phone_number_id: str | None = Field(default=None, alias="WHATSAPP_PHONE_NUMBER_ID")
    # Where the reminders' schedules are: the schedule of a reminder found deleted is deleted.
    schedule_group: str = Field(default="memo-reminders", alias=SCHEDULE_GROUP_ENV_VAR, min_length=1)

    @field_validator("template_languages", mode="before")
    @classmethod
    def _pairs(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        pairs = [part.split("=", 1) for part in value.split(",") if part.strip()]
        if any(len(pair) != 2 or not pair[0].strip() or not pair[1].strip() for pair in pairs):
            raise ValueError("expected language=code pairs, e.g. en=en_US,he=he")
        return {k.strip(): v.strip() for k, v in pairs}


class ReviewSubmitSettings(FunctionSettings):
    """The review submit Lambda: the case on the cases table, the task token on the ledger table."""

    aws: AwsSettings
    cases_table: str = Field(default=tables.CASES.default_name, alias="CASES_TABLE_NAME", min_length=3)
    ledger_table: str = Field(default=tables.LEDGER.default_name, alias="LEDGER_TABLE_NAME", min_length=3)
    policy_source: str | None = Field(default=None, alias="MEMO_REVIEW_POLICY")
    timeout_seconds: int | None = Field(default=None, alias="MEMO_REVIEW_TIMEOUT_SECONDS")
    # The ingestion redaction of the cases it opens (`caseplatform.redaction.REDACTORS`).
    redact: Literal["none", "contacts"] = Field(default="none", alias="HITL_REDACT")


class ReviewSettings(FunctionSettings):
    """The review Lambda: the case store the API serves, and Memo's decision listeners (task tokens on
    the ledger table; an operator's question relayed to the user's thread over WhatsApp)."""

    aws: AwsSettings
    whatsapp: WhatsAppSettings
    store: Literal["dynamodb", "sqlite"] = Field(default="dynamodb", alias="REVIEW_STORE")
    cases_table_name: str | None = Field(default=None, alias="CASES_TABLE_NAME", min_length=3)
    sqlite_path: str = Field(default="data/hitl/hitl.db", alias="HITL_DB_PATH")
    redact: str = Field(default="none", alias="HITL_REDACT")
    # Local only: verify HS256 dev tokens when a request has no API Gateway authorizer context.
    dev_jwt_secret: str | None = Field(default=None, alias="REVIEW_DEV_JWT_SECRET", min_length=32)
    login_url: str | None = Field(default=None, alias="REVIEW_LOGIN_URL")
    ledger_table: str = Field(default=tables.LEDGER.default_name, alias="LEDGER_TABLE_NAME", min_length=3)
    policy_source: str | None = Field(default=None, alias="MEMO_REVIEW_POLICY")
    timeout_seconds: int | None = Field(default=None, alias="MEMO_REVIEW_TIMEOUT_SECONDS")
    conversation_table: str = Field(
        default=tables.CONVERSATION.default_name, alias="CONVERSATION_TABLE_NAME", min_length=3
    )
    memory_ttl_seconds: int = Field(default=MEMORY_TTL_SECONDS, alias="MEMO_MEMORY_TTL_SECONDS", ge=60)
    # The case view resolves a waiting step's items (titles, times) at read time.
    items_table: str = Field(default=tables.ITEMS.default_name, alias="ITEMS_TABLE_NAME", min_length=3)
    # Agents are told of every decision, question and request for changes on this EventBridge bus
    # (`caseplatform.notifications`); unset: no events are put.
    event_bus: str | None = Field(default=None, alias="HITL_EVENT_BUS_NAME", min_length=1, max_length=256)

    @model_validator(mode="after")
    def _complete(self) -> Self:
        from caseplatform.redaction import REDACTORS

        if self.store == "dynamodb" and not self.cases_table_name:
            raise ValueError("CASES_TABLE_NAME is required with REVIEW_STORE=dynamodb")
        if self.redact not in REDACTORS:
            raise ValueError(f"HITL_REDACT must be one of {sorted(REDACTORS)}")
        return self


class EscalationSettings(FunctionSettings):
    """The escalation Lambda (an EventBridge schedule): the cases table it sweeps, and how far."""

    aws: AwsSettings
    cases_table_name: str = Field(alias="CASES_TABLE_NAME", min_length=3)
    max_cases: int = Field(default=1000, alias="HITL_ESCALATION_MAX_CASES", ge=1, le=100_000)
    # The drift and rebuild jobs: cases one run checks at most, and the time left (of the function's
    # timeout) under which it starts no new page and answers where to resume.
    projection_max_cases: int = Field(default=5000, alias="HITL_PROJECTION_MAX_CASES", ge=1, le=100_000)
    projection_time_margin_ms: int = Field(
        default=30_000, alias="HITL_PROJECTION_TIME_MARGIN_MS", ge=0, le=900_000
    )
    # The retention job (`{"job": "retention"}`, caseplatform.governance.retention): decided cases one
    # run checks at most (it also stops at the time margin above), and the S3 bucket archived cases
    # go to (unset: a case whose adapter archives is left as it is and named in the answer).
    retention_max_cases: int = Field(default=10_000, alias="HITL_RETENTION_MAX_CASES", ge=1, le=100_000)
    archive_bucket: str | None = Field(default=None, alias="HITL_ARCHIVE_BUCKET", min_length=3, max_length=63)
    # Where escalation notices go: the SNS topic (deployed; ops subscribe e-mail or chat to it), or a
    # JSON-lines file a person can read (local). Neither: the escalated event and log line only.
    topic_arn: str | None = Field(default=None, alias="ESCALATION_TOPIC_ARN", min_length=20)
    sink_path: str | None = Field(default=None, alias="HITL_ESCALATION_SINK", min_length=1)
    # The reviewer page; a notice links to `<REVIEW_URL>#case=<case id>`.
    review_url: str | None = Field(default=None, alias="REVIEW_URL", min_length=8)
