"""Settings for every process, read from `CALLCENTER_*` environment variables and `.env`.

A wrong value fails at start with a message that names the variable and what it accepts;
secret values are never echoed back.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar

import platformdirs
from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from pydantic_settings.exceptions import SettingsError as PydanticSettingsError

ENV_PREFIX = "CALLCENTER_"


if TYPE_CHECKING:
    from collections.abc import Mapping

    from callcenter.faults import Fault
    from callcenter.store.engine import DatabaseTarget


class SettingsError(ValueError):
    """A setting has a value the product cannot run with."""


def _default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("callcenter", appauthor=False))


# One reading rule for every settings class: `CALLCENTER_*` variables, then `.env`; names a
# class does not know are someone else's (another section's), not an error.
_CONFIG = SettingsConfigDict(
    env_prefix=ENV_PREFIX,
    env_file=".env",
    env_file_encoding="utf-8",
    extra="ignore",
    validate_default=True,
)


class SettingsSection(BaseSettings):
    """Settings a part of the product owns (a domain's money limits), read as `Settings` is:
    the same `CALLCENTER_*` names, the same `.env`, the same one-line errors. The foundation
    never lists a domain's settings; the composition root loads each domain's section at
    start, so a bad value stops the start like any other."""

    model_config = _CONFIG


S = TypeVar("S", bound=BaseSettings)


class Settings(BaseSettings):
    model_config = _CONFIG

    # --- storage -------------------------------------------------------------------------
    data_dir: Path = Field(default_factory=_default_data_dir, description="Folder for the database and local servers.")
    database_url: SecretStr | None = Field(
        None,
        description="A shared database server for every process, e.g. postgresql+psycopg://user:pw@host:5432/callcenter"
        " (needs the postgres extra); unset = the SQLite file in the data folder.",
    )
    db_pool_size: int = Field(5, ge=1, le=200, description="Database connections each process keeps open (server databases).")
    db_max_overflow: int = Field(5, ge=0, le=200, description="Extra connections a process may open at a peak, closed after use.")
    db_pool_timeout_s: float = Field(
        5.0, gt=0, le=120, description="Seconds a request waits for a free database connection before the caller is told."
    )
    db_connect_timeout_s: float = Field(5.0, gt=0, le=120, description="Seconds to wait for the database server to answer a connect.")
    db_migrate_on_start: bool = Field(
        True,
        description="Upgrade the database schema when a process starts; the chart turns this off and runs"
        " `callcenter db upgrade` once per release instead.",
    )

    adapters: str = Field(
        "",
        description="Company systems that replace the embedded stand-in of a port, as port=module:factory pairs separated"
        " by commas (ports: customers, tickets, and each domain's own: billing, status); see docs/adapters.md.",
    )

    # --- language model --------------------------------------------------------------
    llm_provider: Literal["embedded", "openai"] = Field(
        "embedded", description="'embedded' runs offline; 'openai' uses any OpenAI-compatible endpoint."
    )
    llm_base_url: str | None = Field(None, description="Base URL of the OpenAI-compatible endpoint.")
    llm_model: str = Field("gpt-4.1-mini", description="Model name sent to the endpoint.")
    llm_api_key: SecretStr | None = Field(None, description="API key for the endpoint.")
    llm_context_tokens: int = Field(
        1500, ge=100, le=100000, description="Most call history, in tokens (about 4 characters each), sent with each LLM request."
    )
    llm_timeout_s: float = Field(
        5.0, gt=0, le=120, description="Seconds a hosted LLM request may take before the embedded LLM answers instead."
    )

    # --- speech (the LiveKit worker and `callcenter call --voice`) ----------------------
    # local = engines whose models ship inside the `voice` extra's packages: nothing downloads.
    stt_provider: Literal["none", "local", "openai", "deepgram"] = Field(
        "local", description="Speech-to-text: local (offline), openai, deepgram; none = text-only rooms."
    )
    stt_model: str = Field("gpt-4o-mini-transcribe", description="Speech-to-text model of a cloud provider.")
    stt_api_key: SecretStr | None = Field(None, description="API key of the cloud STT (openai falls back to the LLM key).")
    tts_provider: Literal["none", "local", "openai", "cartesia"] = Field(
        "local", description="Text-to-speech: local (offline), openai, cartesia; none = text-only rooms."
    )
    tts_model: str = Field("gpt-4o-mini-tts", description="Text-to-speech model of a cloud provider.")
    tts_voice: str = Field("alloy", description="Text-to-speech voice of a cloud provider.")
    tts_api_key: SecretStr | None = Field(None, description="API key of the cloud TTS (openai falls back to the LLM key).")
    vad_activation: float = Field(0.5, ge=0.05, le=0.95, description="VAD speech probability that starts a caller turn.")
    vad_min_silence_s: float = Field(
        0.6, ge=0.1, le=3, description="Silence that ends a caller utterance (0.25 cut sentences at commas)."
    )
    turn_detection: Literal["vad", "model", "stt"] = Field(
        "vad", description="End of turn: vad (silence), model (LiveKit's on-device turn model), stt (the recogniser)."
    )
    endpointing_min_delay_s: float = Field(0.3, ge=0, le=5, description="Least wait after speech before the turn ends.")
    endpointing_max_delay_s: float = Field(3.0, ge=0.1, le=10, description="Most wait after speech before the turn ends.")
    stt_early_decode_s: float = Field(
        0.2, ge=0, le=3,
        description="Silence after which a batch recogniser starts decoding before the turn ends (0 = off).",
    )
    stt_window_s: float = Field(
        15.0, ge=0, le=30,
        description="Audio window the local recogniser encodes per utterance (0 or 30 = Whisper's full 30 s).",
    )
    speech_threads: int = Field(2, ge=1, le=32, description="CPU threads of the local recogniser per process.")
    filler_after_s: float = Field(
        1.0, ge=0, le=30, description="Silence before a short spoken filler during long work (0 = never)."
    )
    transfer_number: str | None = Field(
        None, pattern=r"^(\+[1-9]\d{6,14}|sip:[^\s]+)$",
        description="E.164 number or sip: URI a caller asking for a person is transferred to (unset = callback ticket).",
    )

    # --- LiveKit ---------------------------------------------------------------------
    # LiveKit's own variable names work too, so an existing LiveKit deployment needs no renaming.
    livekit_url: str | None = Field(
        None, validation_alias=AliasChoices("CALLCENTER_LIVEKIT_URL", "LIVEKIT_URL", "livekit_url"),
        description="LiveKit server URL (wss://...).",
    )
    livekit_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("CALLCENTER_LIVEKIT_API_KEY", "LIVEKIT_API_KEY", "livekit_api_key"),
        description="LiveKit API key.",
    )
    livekit_api_secret: SecretStr | None = Field(
        None, validation_alias=AliasChoices("CALLCENTER_LIVEKIT_API_SECRET", "LIVEKIT_API_SECRET", "livekit_api_secret"),
        description="LiveKit API secret.",
    )
    agent_name: str = Field("callcenter", description="Agent name for explicit LiveKit dispatch.")
    drain_timeout_s: int = Field(300, ge=0, le=3600, description="Seconds a worker drains calls on shutdown.")
    worker_max_calls: int = Field(
        25, ge=1, le=1000,
        description="Calls one agent-worker process takes at once; at that many it reports itself full to LiveKit.",
    )
    worker_http_port: int = Field(
        8081, ge=1, le=65535, description="Port of the LiveKit worker's health server (the chart's probes)."
    )
    worker_selfcheck: bool = Field(
        True, description="Run one scripted call in a job process before the worker registers with LiveKit."
    )

    # --- Temporal --------------------------------------------------------------------
    temporal_address: str | None = Field(
        None, description="host:port of Temporal; unset = start a local dev server in the data dir."
    )
    temporal_namespace: str = Field("default", description="Temporal namespace.")
    temporal_task_queue: str = Field("callcenter", description="Temporal task queue.")
    temporal_tls: bool = Field(False, description="Use TLS to reach Temporal.")
    temporal_tls_cert: Path | None = Field(None, description="Client certificate (PEM) for mTLS.")
    temporal_tls_key: Path | None = Field(None, description="Client key (PEM) for mTLS.")
    temporal_api_key: SecretStr | None = Field(None, description="Temporal Cloud API key.")

    # --- policy (a domain's own limits live in its folder: domains/billing/settings.py) ---
    verification_lockout_failures: int = Field(
        5, ge=1, le=50, description="Failed verifications per customer or calling line before a lockout."
    )
    verification_lockout_s: int = Field(
        900, ge=60, le=86400 * 7, description="Seconds failures are counted and a lockout lasts."
    )
    # What one caller may file: per call, and per customer (an unverified caller: per calling line) per day.
    max_tickets_per_call: int = Field(3, ge=1, le=100, description="Tickets a caller may open on one call.")
    max_tickets_per_day: int = Field(6, ge=1, le=1000, description="Tickets one customer may open by phone in 24 hours.")
    max_pending_changes_per_call: int = Field(
        2, ge=1, le=100, description="Account changes waiting for a call back (unlock, email, phone) a caller may ask for on one call."
    )
    max_pending_changes_per_day: int = Field(
        3, ge=1, le=1000, description="Account changes waiting for a call back one customer may ask for in 24 hours."
    )
    max_callbacks_per_call: int = Field(1, ge=1, le=100, description="Call-backs from a colleague a caller may book on one call.")
    max_callbacks_per_day: int = Field(
        3, ge=1, le=1000, description="Call-backs one customer (or calling line, unverified) may book in 24 hours."
    )
    approval_limit_agent: Decimal = Field(Decimal("500"), ge=0, description="Largest amount an 'agent' operator may approve.")
    approval_limit_supervisor: Decimal = Field(Decimal("5000"), ge=0, description="Largest amount a 'supervisor' may approve.")
    approval_limit_manager: Decimal = Field(Decimal("100000"), ge=0, description="Largest amount a 'manager' may approve.")
    approval_timeout_s: int = Field(3600, ge=1, description="Seconds an approval waits before escalating.")
    approval_escalations: int = Field(1, ge=0, le=5, description="Escalations before an approval is auto-denied.")
    hold_on_line_s: float = Field(10.0, ge=0, le=300, description="Seconds a caller may wait on the line for a decision.")
    ticket_sla_s: int = Field(86400, ge=1, description="Seconds before an engineering ticket breaches its SLA.")
    fcr_window_days: int = Field(
        7, ge=1, le=90,
        description="First-contact resolution: a need the same caller raised in a call within this many days is a repeat contact.",
    )

    four_eyes_above: Decimal = Field(
        Decimal("1000"), ge=0, description="Approvals above this amount (USD) need two operators, the second a supervisor or manager."
    )
    approval_min_role: dict[str, Literal["agent", "supervisor", "manager"]] = Field(
        default_factory=dict,
        description='The lowest role that may decide a request kind, as JSON, e.g. {"refund": "supervisor"};'
        " overrides the domain's own (a two-factor reset or closure: supervisor). The workflow enforces it.",
    )
    ticket_resolve_min_role: Literal["agent", "supervisor", "manager"] = Field(
        "agent", description="The lowest operator role that may resolve a ticket."
    )
    reconcile_every_s: float = Field(
        15.0, ge=1, le=3600,
        description="Seconds between the worker's checks for requests ended in Temporal outside the line and the console.",
    )

    # --- operators' console ----------------------------------------------------------
    console_secret: SecretStr | None = Field(
        None, min_length=32,
        description="Signs operator decision credentials (the worker verifies them); unset = a key file in the data dir.",
    )
    console_host: str = Field("127.0.0.1", description="Address `callcenter console` listens on.")
    console_port: int = Field(8080, ge=0, le=65535, description="Port `callcenter console` listens on.")
    console_session_idle_s: int = Field(900, ge=30, le=86400, description="A console session ends after this many idle seconds.")
    console_session_max_s: int = Field(28800, ge=60, le=604800, description="A console session ends this many seconds after sign-in.")
    console_login_failures: int = Field(5, ge=1, le=100, description="Failed sign-ins in a row before an account is locked.")
    console_lockout_s: int = Field(900, ge=1, le=86400, description="Seconds an account stays locked after too many failed sign-ins.")
    console_cookie_secure: bool = Field(False, description="Send cookies only over HTTPS (set true behind TLS).")
    console_grant_ttl_s: int = Field(60, ge=5, le=600, description="Lifetime of a sealed decision credential, in seconds.")
    console_trusted_proxies: list[str] = Field(
        default_factory=list,
        description='Addresses or networks of the reverse proxies in front of the console, as JSON, e.g. ["10.0.0.0/8"];'
        " only they may name the client's address (X-Forwarded-For). Empty: nobody may.",
    )
    console_login_per_address: int = Field(20, ge=1, le=10000, description="Sign-in attempts per client address per window.")
    console_login_per_account: int = Field(10, ge=1, le=10000, description="Sign-in attempts per account name per window.")
    console_login_window_s: int = Field(300, ge=10, le=86400, description="The window of the sign-in throttles, in seconds.")
    console_audit_refusals_per_address: int = Field(
        10, ge=1, le=10000,
        description="Audit rows written per client address per window for refused unauthenticated requests; then one summary.",
    )
    operator_password_min_score: int = Field(
        4, ge=0, le=4,
        description="Lowest zxcvbn strength score (0-4) of an operator's password: 4 (10^10 guesses or more) also refuses"
        " the breached pattern word + year + word ('Summer2026Summer', about 10^8 guesses), which zxcvbn scores 3.",
    )
    operator_token_ttl_h: int = Field(12, ge=1, le=720, description="Lifetime of an operator token for the CLI, in hours.")
    oidc_metadata_url: str | None = Field(None, description="OIDC discovery URL (.well-known/openid-configuration); set to enable SSO.")
    oidc_client_id: str | None = Field(None, description="OIDC client id of the console.")
    oidc_client_secret: SecretStr | None = Field(None, description="OIDC client secret of the console.")
    oidc_username_claim: str = Field("preferred_username", description="ID-token claim naming the operator account.")

    # --- routing ---------------------------------------------------------------------
    router_model: Path | None = Field(None, description="Trained router model file; unset = train from shipped utterances.")
    router_confidence: float = Field(
        0.0, ge=0, le=1, description="Fast-path threshold; 0 = use the threshold stored with the model."
    )
    router_ask_margin: float = Field(
        0.2,
        ge=0,
        le=1,
        description="Below the fast-path threshold, a reading at least this far ahead of the next is routed "
        "without a clarifying question (1 = always ask below the threshold).",
    )
    fast_path: bool = Field(
        True,
        description="Decide confident turns without the LLM (routing, slot filling, speaking typed results); "
        "false sends every decision to the LLM, for comparison.",
    )
    faults: str = Field(
        "", description="Fault injection, e.g. 'billing.balance=error;store=slow:0.5;temporal=down' (see callcenter/faults.py)."
    )
    breaker_threshold: int = Field(3, ge=1, le=100, description="Failures in a row that open a specialist's circuit breaker.")
    breaker_cooldown_s: float = Field(60.0, gt=0, le=3600, description="Seconds an open circuit sends callers to the fallback.")
    parallel_lookups: bool = Field(
        True, description="Answer the read-only needs of a multi-need turn concurrently (false: one task after another)."
    )
    fanout_timeout_s: float = Field(
        3.0, gt=0, le=60, description="Seconds each read-only lookup of a multi-need turn may take before it is reported as missed."
    )
    max_delegations_per_turn: int = Field(6, ge=1, le=20, description="Loop guard: delegations allowed in one turn.")
    max_turn_chars: int = Field(2000, ge=50, le=100000, description="Longer caller turns are cut to this many characters.")
    turn_timeout_s: float = Field(30.0, ge=1, le=600, description="Longest a caller turn may take before it ends with what was said; a lookup gets a third of it per attempt, a change half of it before the caller hears it isn't confirmed yet.")
    verification_attempts: int = Field(3, ge=1, le=10, description="Identity verification attempts per call.")

    # --- observability ---------------------------------------------------------------
    metrics_port: int = Field(9100, ge=0, le=65535, description="Port of the agent's /metrics (0 = off).")
    worker_metrics_port: int = Field(9101, ge=0, le=65535, description="Port of the Temporal worker's /metrics and /healthz.")
    temporal_sdk_metrics_port: int = Field(
        9102, ge=0, le=65535, description="Port of the Temporal SDK's own Prometheus metrics in the worker (0 = off)."
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field("INFO", description="Log level.")
    tracing: Literal["off", "otlp", "console"] = Field(
        "off", description="OpenTelemetry traces, one per call: off, otlp (to CALLCENTER_OTLP_ENDPOINT) or console."
    )
    otlp_endpoint: str | None = Field(
        None, description="OTLP/HTTP traces endpoint, e.g. http://otel-collector:4318/v1/traces (else OTEL_EXPORTER_OTLP_* applies)."
    )
    service_name: str = Field("callcenter", description="service.name on exported traces (e.g. callcenter-agent, callcenter-worker).")

    @field_validator("console_trusted_proxies")
    @classmethod
    def _networks(cls, v: list[str]) -> list[str]:
        import ipaddress

        for item in v:
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError("each entry must be an IP address or network, e.g. 10.0.0.0/8") from None
        return v

    @field_validator("data_dir", mode="before")
    @classmethod
    def _not_empty(cls, v: object) -> object:
        # An empty value would silently mean the current directory.
        if isinstance(v, str | Path) and not str(v).strip():
            raise ValueError("must name a folder, not be empty")
        return v

    @field_validator("database_url", mode="before")
    @classmethod
    def _unset_if_empty(cls, v: object) -> object:
        # The chart renders an empty value when no server is configured: the SQLite default.
        return None if isinstance(v, str) and not v.strip() else v

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, v: object) -> object:
        return v.upper() if isinstance(v, str) else v

    @field_validator("faults")
    @classmethod
    def _faults(cls, v: str) -> str:
        if not v.strip():
            return v  # nothing to read: no need to load the fault machinery (and LiveKit)
        from callcenter.faults import parse

        parse(v)  # raises ValueError naming the item it cannot read
        return v

    @property
    def fault_plan(self) -> Mapping[str, Fault]:
        from callcenter.faults import parse

        return parse(self.faults)

    @property
    def db_path(self) -> Path | DatabaseTarget:
        """Where the store lives: the SQLite file, or the server named by CALLCENTER_DATABASE_URL."""
        if self.database_url is None:
            return self.data_dir / "callcenter.sqlite3"
        from callcenter.store.engine import DatabaseTarget

        return DatabaseTarget(
            url=self.database_url.get_secret_value(), data_dir=self.data_dir, pool_size=self.db_pool_size,
            max_overflow=self.db_max_overflow, pool_timeout_s=self.db_pool_timeout_s,
            connect_timeout_s=self.db_connect_timeout_s, migrate_on_start=self.db_migrate_on_start,
        )

    def approval_limit(self, role: str) -> Decimal:
        limits = {
            "agent": self.approval_limit_agent,
            "supervisor": self.approval_limit_supervisor,
            "manager": self.approval_limit_manager,
        }
        return limits.get(role, Decimal("0"))


def _describe(cls: type[BaseSettings], error: dict) -> str:
    loc = [str(p) for p in error.get("loc", ())] or ["?"]
    field = loc[0]
    env = ENV_PREFIX + field.upper()
    ctx = error.get("ctx") or {}
    if "expected" in ctx:
        accepted = f"accepted values: {ctx['expected']}"
    else:
        accepted = error.get("msg", "invalid value")
    if len(loc) > 1:  # an entry of a JSON setting: name its key, never its value
        accepted = f"entry {'.'.join(loc[1:])}: {accepted}"
    info = cls.model_fields.get(field)
    hint = f" ({info.description})" if info and info.description else ""
    return f"{env}: {accepted}{hint}"


def load_section(cls: type[S], **overrides: object) -> S:
    """Read one settings class; raise SettingsError naming each bad variable (never its value)."""
    try:
        return cls(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        lines = [_describe(cls, e) for e in exc.errors(include_input=False)]
        raise SettingsError("invalid settings:\n  " + "\n  ".join(lines)) from None
    except PydanticSettingsError as exc:
        # A JSON setting (a list or a mapping) whose value is not JSON at all.
        m = re.search(r'field "(\w+)"', str(exc))
        name = m.group(1) if m else "?"
        info = cls.model_fields.get(name)
        hint = f" ({info.description})" if info and info.description else ""
        raise SettingsError(f"invalid settings:\n  {ENV_PREFIX}{name.upper()}: must be JSON{hint}") from None


def load_settings(**overrides: object) -> Settings:
    """Read the product's own settings (a domain's section: `load_section`)."""
    return load_section(Settings, **overrides)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return load_settings()
