"""The operators' console: sessions, sign-in throttles, passwords, decision credentials, SSO."""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings

from callcenter.config.base import CONFIG


class ConsoleSettings(BaseSettings):
    """Read by `callcenter console` and the operators' CLI (console/); the worker reads the credential key."""

    model_config = CONFIG

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
