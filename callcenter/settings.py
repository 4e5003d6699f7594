"""Settings for every process, read from `CALLCENTER_*` environment variables and `.env`.

A wrong value fails at start with a message that names the variable and what it accepts;
secret values are never echoed back.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TypeVar

from pydantic import ValidationError
from pydantic_settings import BaseSettings
from pydantic_settings.exceptions import SettingsError as PydanticSettingsError

from callcenter.config.base import CONFIG, ENV_PREFIX
from callcenter.config.console import ConsoleSettings
from callcenter.config.livekit import LiveKitSettings
from callcenter.config.llm import LlmSettings
from callcenter.config.observability import ObservabilitySettings
from callcenter.config.policy import PolicySettings
from callcenter.config.routing import RoutingSettings
from callcenter.config.speech import SpeechSettings
from callcenter.config.store import StoreSettings
from callcenter.config.temporal import TemporalSettings

__all__ = ["ENV_PREFIX", "Settings", "SettingsError", "SettingsSection", "get_settings", "load_section", "load_settings"]


class SettingsError(ValueError):
    """A setting has a value the product cannot run with."""


class SettingsSection(BaseSettings):
    """Settings a part of the product owns (a domain's money limits), read as `Settings` is:
    the same `CALLCENTER_*` names, the same `.env`, the same one-line errors. The foundation
    never lists a domain's settings; the composition root loads each domain's section at
    start, so a bad value stops the start like any other."""

    model_config = CONFIG


S = TypeVar("S", bound=BaseSettings)


# Listed last to first: pydantic lays out the fields of the later bases first, and a list of
# bad values is reported in this order (storage first, observability last).
class Settings(
    ObservabilitySettings, RoutingSettings, ConsoleSettings, PolicySettings, TemporalSettings,
    LiveKitSettings, SpeechSettings, LlmSettings, StoreSettings,
):
    """Every setting of the product's own, one flat set of `CALLCENTER_*` names (a domain's are
    in its section). The fields are declared in callcenter/config/, one group per reader."""

    model_config = CONFIG


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
