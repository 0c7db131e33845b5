"""Operator review in the stack: the review Lambda on the HTTP API, Cognito, and the task-token callback.

    browser / operator / agent ──> HTTP API ──(JWT authorizer: Cognito user pool + app client)──>
        review Lambda (functions/review: review API, reviewer page, MCP over Streamable HTTP)
            ├─ cases table (the case store)
            ├─ ledger table, REVIEW#<case id> items only: the waiting step's task token (get, delete)
            ├─ Step Functions SendTaskSuccess / SendTaskFailure: the decision resumes the waiting step
            ├─ the withdrawals queue (SQS, from the webhook's turn): a request the user withdrew; its
            │  waiting step's task token is failed (memo.operator_review.withdraw.WithdrawnSteps)
            ├─ an operator's question to the WhatsApp user (memo.operator_review.clarify): the user's thread on
            │  the conversation table (pendingHITL, memory) and the WhatsApp secret
            └─ the case platform's notice bus (EventBridge): agents hear of every decision, question and
               request for changes (`CasePlatform.grant_notices`, called by the stack)

Routes: `GET /review` (the page, served at `/review/`: the function redirects `/review` there),
`GET /review/openapi.json` and `GET /review/swagger` are public (no data); `GET /review/me`, `GET /review/cases`,
`GET /review/cases/{case_id}`, `POST /review/cases/{case_id}/approve|reject|clarify` and
`POST /review/mcp` need a Cognito ID token (the JWT authorizer checks issuer = the user pool and
audience = the app client). The function refuses requests without authorizer claims as well: it is
deployed without `REVIEW_DEV_JWT_SECRET`.

Cognito: no self sign-up (an admin creates reviewers), strong passwords, TOTP MFA required, the Plus
feature plan with threat protection enforced; one app client for the hosted UI's implicit grant,
which returns the `id_token` to `<api>/review/` in the URL fragment (what the page reads); groups
`reviewers:<adapter>` and `agents:<adapter>` (see docs/review-api.md).

Least privilege of the review role: the case store's actions on the cases table and Query on its four
indexes (`grant_case_store`);
GetItem/DeleteItem on the ledger table for `REVIEW#` partition keys only; SendTaskSuccess and
SendTaskFailure, which IAM cannot scope below `*` (a task token names no resource); the item actions
of the clarification relay on the conversation table; reading the WhatsApp secret; consuming the
withdrawals queue; PutEvents on the case platform's notice bus (granted by `CasePlatform.grant_notices`).
No other role of the stack may call any `states:SendTask*` action: the webhook,
which faces the internet, may only send a withdrawn case's id to the withdrawals queue
(`grant_withdrawals`), and the review Lambda answers the token only of a case whose history shows the
user's withdrawal.
"""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import Acknowledgment, Duration, RemovalPolicy, Stack, Validations
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_apigatewayv2_authorizers as authorizers
from aws_cdk import aws_apigatewayv2_integrations as integrations
from aws_cdk import aws_cognito as cognito
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_secretsmanager as secretsmanager
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from caseplatform.query_tools import QUERY_TOOLS
from caseplatform.review.approvals import HUMAN_INPUT_ADAPTER
from caseplatform.schemas import default_adapter_schemas
from infra.case_platform import grant_case_store
from infra.lambdas import FunctionDefaults, MemoFunction
from infra.monitoring import Monitoring
from infra.secrets import WHATSAPP_SECRET_ENV_VAR, grant_secret_value
from infra.turn_queue import consume
from memo import tables
from memo.aws.ledger_table import REVIEW_TOKEN_PREFIX as REVIEW_TOKEN_KEY_PREFIX
from memo.operator_review.cases import ADAPTER_ID as MEMO_OPERATION_ADAPTER

REVIEW_PATH = "/review"
# The reviewer page, and the API's description: no data, no authorizer.
PUBLIC_ROUTES: tuple[tuple[str, str], ...] = (
    ("GET", REVIEW_PATH),
    ("GET", f"{REVIEW_PATH}/openapi.json"),
    ("GET", f"{REVIEW_PATH}/swagger"),
)
# Everything else, behind the JWT authorizer. One route per decision: an unknown action never
# reaches the function.
AUTHORIZED_ROUTES: tuple[tuple[str, str], ...] = (
    ("GET", f"{REVIEW_PATH}/me"),
    ("GET", f"{REVIEW_PATH}/cases"),
    ("GET", f"{REVIEW_PATH}/cases/{{case_id}}"),
    ("POST", f"{REVIEW_PATH}/cases/{{case_id}}/approve"),
    ("POST", f"{REVIEW_PATH}/cases/{{case_id}}/reject"),
    ("POST", f"{REVIEW_PATH}/cases/{{case_id}}/clarify"),
    ("POST", f"{REVIEW_PATH}/cases/{{case_id}}/decide"),
    # An agent's answer to a case sent back for changes, and its feedback (`review.revision_routes`).
    ("POST", f"{REVIEW_PATH}/cases/{{case_id}}/resubmit"),
    ("POST", f"{REVIEW_PATH}/cases/{{case_id}}/feedback"),
    ("POST", f"{REVIEW_PATH}/mcp"),
    # The read-only case queries of `caseplatform.query_tools`, one route each.
    *(("GET", f"{REVIEW_PATH}/queries/{name}") for name in QUERY_TOOLS),
)
# What the case view (`memo.operator_review.view`) calls on the items table: get a reminder, list notes.
ITEM_VIEW_ACTIONS = ("dynamodb:GetItem", "dynamodb:Query")
# What `memo.aws.ledger_table.DynamoTokenStore` calls for the decision listener (it never writes).
TOKEN_LEDGER_ACTIONS = ("dynamodb:GetItem", "dynamodb:DeleteItem")
# What `memo.aws.stepfunctions.StepFunctionsTasks` calls; it sends no heartbeats.
TASK_TOKEN_ACTIONS = ("states:SendTaskSuccess", "states:SendTaskFailure")
# What `memo.operator_review.clarify.ClarificationRelay` calls on the user's thread: the pendingHITL's
# conditional create / replace / consume and its consistent read (`DynamoPendingStore`), and the
# question appended to the user's memory (`DynamoConversationStore.append`).
CONVERSATION_ACTIONS = (
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:DeleteItem",
    "dynamodb:BatchWriteItem",
    "dynamodb:Query",  # the case view: the user's request and the turns before it
)
# Every adapter the review Lambda registers on first use.
REVIEW_ADAPTERS: tuple[str, ...] = tuple(sorted({*default_adapter_schemas(), HUMAN_INPUT_ADAPTER}))
REVIEWER_GROUPS: tuple[str, ...] = tuple(f"reviewers:{adapter}" for adapter in REVIEW_ADAPTERS)
# memo_operation cases are submitted by the review submit Lambda only, never by an agent.
AGENT_GROUPS: tuple[str, ...] = tuple(
    f"agents:{adapter}" for adapter in REVIEW_ADAPTERS if adapter != MEMO_OPERATION_ADAPTER
)
OAUTH_SCOPES = (cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE)
TOKEN_VALIDITY = Duration.hours(1)
REVIEW_TIMEOUT = Duration.seconds(30)
# The withdrawals queue: SQS recommends a visibility timeout of six times the consumer's timeout; a
# notice is kept as long as the turn queue keeps a turn.
WITHDRAWAL_VISIBILITY_TIMEOUT = Duration.seconds(REVIEW_TIMEOUT.to_seconds() * 6)
WITHDRAWAL_RETENTION = Duration.days(4)
WITHDRAWAL_BATCH_SIZE = 10
DEFAULT_DOMAIN_PREFIX = "memo-review"


class Review(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        defaults: FunctionDefaults,
        http_api: apigwv2.HttpApi,
        cases_table: dynamodb.ITableV2,
        ledger_table: dynamodb.ITableV2,
        conversation_table: dynamodb.ITableV2,
        items_table: dynamodb.ITableV2 | None = None,
        whatsapp_secret: secretsmanager.ISecret,
        whatsapp_api_base_url: str,
        monitoring: Monitoring,
        domain_prefix: str | None = None,
        environment: Mapping[str, str] | None = None,
    ) -> None:
        """`domain_prefix`: the Cognito hosted UI's domain prefix (unique per region); None ->
        `memo-review-<account id>`. `environment`: more variables for the function (the review policy)."""
        super().__init__(scope, construct_id)
        # The $default stage serves the API at its endpoint's root.
        self.review_url = f"{http_api.api_endpoint}{REVIEW_PATH}/"
        self.user_pool = self._user_pool()
        self.client = self._page_client()
        self.domain_prefix = domain_prefix or f"{DEFAULT_DOMAIN_PREFIX}-{Stack.of(self).account}"
        self.domain = self.user_pool.add_domain(
            "Domain", cognito_domain=cognito.CognitoDomainOptions(domain_prefix=self.domain_prefix)
        )
        self.login_url = (
            f"{self.domain.base_url()}/login?client_id={self.client.user_pool_client_id}"
            f"&response_type=token&scope={'+'.join(s.scope_name for s in OAUTH_SCOPES)}"
            f"&redirect_uri={self.review_url}"
        )
        self.groups = self._groups()

        self.function = MemoFunction(
            self,
            "Function",
            name="review",
            defaults=defaults,
            description="Memo review API: operator decisions on cases, the reviewer page, MCP over HTTP",
            timeout=REVIEW_TIMEOUT,
            environment={
                "REVIEW_STORE": "dynamodb",
                tables.CASES.env_var: cases_table.table_name,
                tables.LEDGER.env_var: ledger_table.table_name,
                tables.CONVERSATION.env_var: conversation_table.table_name,
                WHATSAPP_SECRET_ENV_VAR: whatsapp_secret.secret_arn,
                "WHATSAPP_API_BASE_URL": whatsapp_api_base_url,
                "REVIEW_LOGIN_URL": self.login_url,
                **({tables.ITEMS.env_var: items_table.table_name} if items_table is not None else {}),
                **(environment or {}),
            },
        )
        self._grant_function(cases_table, ledger_table, conversation_table, items_table, whatsapp_secret)
        self._add_routes(http_api)
        monitoring.watch_function("Review", self.function.function)
        self.withdrawals = self._withdrawals_queue(monitoring)

    def _withdrawals_queue(self, monitoring: Monitoring) -> sqs.Queue:
        """The turn's withdrawals, consumed by the review function (partial batch failures); a notice
        that fails `tables.WITHDRAWAL_QUEUE_MAX_RECEIVE_COUNT` times goes to its dead-letter queue."""
        dead_letters = sqs.Queue(
            self,
            "WithdrawalDeadLetterQueue",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=Duration.days(14),
        )
        queue = sqs.Queue(
            self,
            "WithdrawalQueue",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            visibility_timeout=WITHDRAWAL_VISIBILITY_TIMEOUT,
            retention_period=WITHDRAWAL_RETENTION,
            dead_letter_queue=sqs.DeadLetterQueue(
                queue=dead_letters, max_receive_count=tables.WITHDRAWAL_QUEUE_MAX_RECEIVE_COUNT
            ),
        )
        consume(queue, self.function.function, batch_size=WITHDRAWAL_BATCH_SIZE)
        monitoring.watch_dead_letter_queue("WithdrawalDeadLetterQueue", dead_letters)
        self.withdrawal_dead_letters = dead_letters
        return queue

    def grant_withdrawals(self, function: lambda_.Function) -> None:
        """Let `function` (the webhook's turn) hand a withdrawn case to this function: SendMessage on the
        withdrawals queue only, and where the queue is."""
        function.add_environment(tables.WITHDRAWAL_QUEUE_ENV_VAR, self.withdrawals.queue_url)
        function.add_to_role_policy(
            iam.PolicyStatement(actions=["sqs:SendMessage"], resources=[self.withdrawals.queue_arn])
        )

    def _user_pool(self) -> cognito.UserPool:
        """Reviewers, created by an admin only: strong passwords, TOTP MFA, threat protection."""
        return cognito.UserPool(
            self,
            "UserPool",
            self_sign_up_enabled=False,
            sign_in_aliases=cognito.SignInAliases(email=True),
            sign_in_case_sensitive=False,
            auto_verify=cognito.AutoVerifiedAttrs(email=True),
            standard_attributes=cognito.StandardAttributes(
                email=cognito.StandardAttribute(required=True, mutable=True),
                fullname=cognito.StandardAttribute(required=False, mutable=True),
            ),
            password_policy=cognito.PasswordPolicy(
                min_length=14,
                require_lowercase=True,
                require_uppercase=True,
                require_digits=True,
                require_symbols=True,
                temp_password_validity=Duration.days(3),
            ),
            mfa=cognito.Mfa.REQUIRED,
            mfa_second_factor=cognito.MfaSecondFactor(otp=True, sms=False),
            account_recovery=cognito.AccountRecovery.EMAIL_ONLY,
            feature_plan=cognito.FeaturePlan.PLUS,
            standard_threat_protection_mode=cognito.StandardThreatProtectionMode.FULL_FUNCTION,
            deletion_protection=True,
            removal_policy=RemovalPolicy.RETAIN,
        )

    def _page_client(self) -> cognito.UserPoolClient:
        """The reviewer page's app client: the hosted UI's implicit grant back to the page."""
        return self.user_pool.add_client(
            "ReviewPage",
            generate_secret=False,
            auth_flows=cognito.AuthFlow(user_srp=True),
            o_auth=cognito.OAuthSettings(
                # The page is static HTML reading `#id_token=...`: the implicit grant's redirect.
                flows=cognito.OAuthFlows(implicit_code_grant=True),
                scopes=list(OAUTH_SCOPES),
                callback_urls=[self.review_url],
                logout_urls=[self.review_url],
            ),
            supported_identity_providers=[cognito.UserPoolClientIdentityProvider.COGNITO],
            id_token_validity=TOKEN_VALIDITY,
            access_token_validity=TOKEN_VALIDITY,
            prevent_user_existence_errors=True,
            enable_token_revocation=True,
        )

    def _groups(self) -> list[cognito.CfnUserPoolGroup]:
        """One user-pool group per right: `reviewers:<adapter>` and `agents:<adapter>`."""
        return [
            cognito.CfnUserPoolGroup(
                self,
                f"Group{index}",
                user_pool_id=self.user_pool.user_pool_id,
                group_name=name,
                description=_group_description(name),
            )
            for index, name in enumerate((*REVIEWER_GROUPS, *AGENT_GROUPS))
        ]

    def _grant_function(
        self,
        cases_table: dynamodb.ITableV2,
        ledger_table: dynamodb.ITableV2,
        conversation_table: dynamodb.ITableV2,
        items_table: dynamodb.ITableV2 | None,
        whatsapp_secret: secretsmanager.ISecret,
    ) -> None:
        """The review role's least privilege (see the module's docstring)."""
        role = self.function.role
        if items_table is not None:
            # The case view reads a waiting step's items (titles, times): reads only.
            role.add_to_principal_policy(
                iam.PolicyStatement(actions=list(ITEM_VIEW_ACTIONS), resources=[items_table.table_arn])
            )
        # Every case query of the API reads one of the four indexes; reviewers' decisions register the
        # review adapters' schemas on first use.
        grant_case_store(role, cases_table, indexes=[gsi.name for gsi in tables.CASES.gsis], schemas=True)
        role.add_to_principal_policy(
            iam.PolicyStatement(
                actions=list(TOKEN_LEDGER_ACTIONS),
                resources=[ledger_table.table_arn],
                conditions={
                    "ForAllValues:StringLike": {"dynamodb:LeadingKeys": [f"{REVIEW_TOKEN_KEY_PREFIX}*"]}
                },
            )
        )
        role.add_to_principal_policy(iam.PolicyStatement(actions=list(TASK_TOKEN_ACTIONS), resources=["*"]))
        conversation_table.grant(role, *CONVERSATION_ACTIONS)
        grant_secret_value(whatsapp_secret, role)
        Validations.of(role).acknowledge(
            Acknowledgment(
                id="AwsSolutions-IAM5[Resource::*]",
                reason="states:SendTaskSuccess/SendTaskFailure have no resource types in the Service "
                "Authorization Reference (a task token names no resource), so IAM allows only '*'; the "
                "token itself is the capability, kept server-side on REVIEW# ledger items only this role "
                "reads. X-Ray PutTraceSegments/PutTelemetryRecords (active tracing) are the other '*' "
                "statements.",
            )
        )

    def _add_routes(self, http_api: apigwv2.HttpApi) -> None:
        """The public routes, and the others behind the user pool's JWT authorizer, to the function."""
        stack = Stack.of(self)
        # The `iss` claim of the pool's tokens. (The pool's ProviderURL attribute lacks the scheme.)
        self.issuer = f"https://cognito-idp.{stack.region}.{stack.url_suffix}/{self.user_pool.user_pool_id}"
        self.authorizer = authorizers.HttpJwtAuthorizer(
            "ReviewAuthorizer",
            self.issuer,
            jwt_audience=[self.client.user_pool_client_id],
            authorizer_name="review-cognito",
        )
        integration = integrations.HttpLambdaIntegration(
            "Review",
            self.function.function,
            payload_format_version=apigwv2.PayloadFormatVersion.VERSION_2_0,
        )
        self.public_routes: list[apigwv2.HttpRoute] = []
        for method, path in PUBLIC_ROUTES:
            self.public_routes.extend(
                http_api.add_routes(path=path, methods=[apigwv2.HttpMethod(method)], integration=integration)
            )
        for route in self.public_routes:
            Validations.of(route).acknowledge(
                Acknowledgment(
                    id="AwsSolutions-APIG4",
                    reason="The reviewer page and the API description hold no data; the page signs in with "
                    "the Cognito hosted UI and calls the authorized routes with the ID token.",
                )
            )
        self.authorized_routes: list[apigwv2.HttpRoute] = []
        for method, path in AUTHORIZED_ROUTES:
            self.authorized_routes.extend(
                http_api.add_routes(
                    path=path,
                    methods=[apigwv2.HttpMethod(method)],
                    integration=integration,
                    authorizer=self.authorizer,
                )
            )


def _group_description(name: str) -> str:
    role, _, adapter = name.partition(":")
    if role == "reviewers":
        return f"Reads and decides {adapter} cases (review API, page, MCP)"
    return f"Submits and reads {adapter} cases and answers their clarifications (MCP)"
