"""One reading rule for every settings class: `CALLCENTER_*` variables, then `.env`; names a
class does not know are someone else's (another group's or a domain's section), not an error."""

from __future__ import annotations

from pydantic_settings import SettingsConfigDict

ENV_PREFIX = "CALLCENTER_"

CONFIG = SettingsConfigDict(
    env_prefix=ENV_PREFIX,
    env_file=".env",
    env_file_encoding="utf-8",
    extra="ignore",
    validate_default=True,
)
