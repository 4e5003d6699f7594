"""Every setting: a wrong value in its CALLCENTER_* variable stops the start with a message
that names the variable and what it accepts, and never echoes the value. Temporal's TLS
and API-key settings reach the connection."""

from __future__ import annotations

import typing
from decimal import Decimal
from pathlib import Path

import pytest
from annotated_types import Ge, Le
from pydantic import SecretStr

from callcenter.settings import ENV_PREFIX, Settings, SettingsError, load_section, load_settings
from domains import registry
from workflows.client import TemporalUnavailable, connect, tls_config
from workflows.devserver import free_port

# Free-form settings: any string is a valid value (a name, a URL, a path, a secret).
FREE_FORM = (str, SecretStr, Path)
# The product's settings and each domain's own section (billing's refund limits): a section's
# variables are checked and reported exactly as the product's are.
CLASSES = {name: cls for cls in (Settings, *registry.settings_sections()) for name in cls.model_fields}


def _bounds(name: str) -> tuple[float | None, float | None]:
    lo = hi = None
    for m in CLASSES[name].model_fields[name].metadata:
        if isinstance(m, Ge):
            lo = m.ge
        if isinstance(m, Le):
            hi = m.le
    return lo, hi


def _bad_values(name: str) -> list[tuple[str, str]]:
    """(value, what the message must say) for each way the setting can be wrong."""
    tp = CLASSES[name].model_fields[name].annotation
    if typing.get_origin(tp) is typing.Literal:
        accepted = " or ".join(repr(a) for a in typing.get_args(tp))
        if len(typing.get_args(tp)) > 2:
            *head, last = (repr(a) for a in typing.get_args(tp))
            accepted = ", ".join(head) + " or " + last
        return [("bogus-value", f"accepted values: {accepted}")]
    if tp is bool:
        return [("bogus-value", "valid boolean")]
    if typing.get_origin(tp) is dict:  # JSON: {"refund": "boss"}, a role nobody has
        return [('{"refund": "boss"}', "accepted values"), ("not json", "JSON")]
    if typing.get_origin(tp) is list:  # JSON: a list of addresses
        return [('["not-an-address"]', "IP address or network"), ("not json", "JSON")]
    if tp in (int, float, Decimal):
        kind = {int: "valid integer", float: "valid number", Decimal: "valid decimal"}[tp]
        out = [("bogus-value", kind)]
        lo, hi = _bounds(name)
        if lo is not None:
            out.append((str(lo - 1), f"greater than or equal to {lo}"))
        if hi is not None:
            out.append((str(hi + 1), f"less than or equal to {hi}"))
        return out
    return []


def _free_form(name: str) -> bool:
    tp = CLASSES[name].model_fields[name].annotation
    args = [a for a in typing.get_args(tp) if a is not type(None)] or [tp]
    return all(a in FREE_FORM for a in args)


CASES = [(name, value, says) for name in CLASSES for value, says in _bad_values(name)]


def test_every_setting_is_either_checked_or_free_form() -> None:
    checked = {name for name, _, _ in CASES}
    assert "auto_refund_limit" in checked and "auto_refund_limit" not in Settings.model_fields  # billing's own
    for name in CLASSES:
        assert name in checked or _free_form(name), f"{name}: no invalid value tried"
    assert len(checked) >= 20


@pytest.mark.parametrize(("name", "value", "says"), CASES, ids=[f"{n}={v}" for n, v, _ in CASES])
def test_a_bad_value_names_the_variable(name: str, value: str, says: str, monkeypatch, tmp_path: Path) -> None:
    variable = ENV_PREFIX + name.upper()
    monkeypatch.setenv(variable, value)
    monkeypatch.chdir(tmp_path)  # no stray .env
    with pytest.raises(SettingsError) as err:
        if CLASSES[name] is not Settings:
            load_section(CLASSES[name])
        else:
            load_settings(data_dir=tmp_path) if name != "data_dir" else load_settings()
    [line] = [ln.strip() for ln in str(err.value).splitlines()[1:]]
    description = CLASSES[name].model_fields[name].description
    assert line.startswith(f"{variable}: ") and says in line, line
    assert line.endswith(f"({description})")
    assert value not in line.removeprefix(f"{variable}: ").replace(says, "")


def test_several_bad_values_are_all_reported_secrets_never(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CALLCENTER_LLM_API_KEY", "sk-very-secret")
    monkeypatch.setenv("CALLCENTER_MAX_TURN_CHARS", "10")
    monkeypatch.setenv("CALLCENTER_METRICS_PORT", "70000")
    with pytest.raises(SettingsError) as err:
        load_settings(data_dir=tmp_path)
    lines = str(err.value).splitlines()
    assert [ln.strip().split(":")[0] for ln in lines[1:]] == ["CALLCENTER_MAX_TURN_CHARS", "CALLCENTER_METRICS_PORT"]
    assert "sk-very-secret" not in str(err.value)


def test_livekit_variables_are_read_under_both_names(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LIVEKIT_URL", "wss://lk.example")
    monkeypatch.setenv("CALLCENTER_LIVEKIT_API_KEY", "key")
    s = load_settings(data_dir=tmp_path)
    assert s.livekit_url == "wss://lk.example" and s.livekit_api_key.get_secret_value() == "key"


# --- Temporal TLS and API key ----------------------------------------------------------------
def test_tls_settings_build_the_client_tls_config(tmp_path: Path) -> None:
    cert, key = tmp_path / "client.pem", tmp_path / "client.key"
    cert.write_bytes(b"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    key.write_bytes(b"-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n")
    tls = tls_config(load_settings(data_dir=tmp_path, temporal_tls_cert=cert, temporal_tls_key=key))
    assert tls.client_cert == cert.read_bytes() and tls.client_private_key == key.read_bytes()
    assert tls_config(load_settings(data_dir=tmp_path)) is False
    assert tls_config(load_settings(data_dir=tmp_path, temporal_tls=True)) is True
    # Temporal Cloud API keys go over TLS
    assert tls_config(load_settings(data_dir=tmp_path, temporal_api_key="tc-key")) is True


@pytest.mark.parametrize("missing", ["cert", "key"])
def test_a_missing_tls_file_is_a_settings_error(tmp_path: Path, missing: str) -> None:
    present = tmp_path / "present.pem"
    present.write_text("x")
    paths = {"cert": present, "key": present, missing: tmp_path / f"no-{missing}.pem"}
    s = load_settings(data_dir=tmp_path, temporal_tls_cert=paths["cert"], temporal_tls_key=paths["key"])
    with pytest.raises(SettingsError) as err:
        tls_config(s)
    assert str(err.value) == (
        f"CALLCENTER_TEMPORAL_TLS_{missing.upper()}: cannot read {paths[missing]}: No such file or directory"
    )


def test_cert_without_key_is_a_settings_error(tmp_path: Path) -> None:
    cert = tmp_path / "client.pem"
    cert.write_text("x")
    with pytest.raises(SettingsError, match="CALLCENTER_TEMPORAL_TLS_KEY is not set"):
        tls_config(load_settings(data_dir=tmp_path, temporal_tls_cert=cert))


async def test_connect_reports_a_bad_tls_file_not_an_outage(tmp_path: Path) -> None:
    s = load_settings(data_dir=tmp_path, temporal_address=f"127.0.0.1:{free_port()}",
                      temporal_tls_cert=tmp_path / "gone.pem", temporal_tls_key=tmp_path / "gone.key")
    with pytest.raises(SettingsError, match="CALLCENTER_TEMPORAL_TLS_CERT: cannot read"):
        await connect(s, timeout_s=2)
    # without the TLS files, the same unreachable address is an outage: the outbox takes over
    with pytest.raises(TemporalUnavailable):
        await connect(load_settings(data_dir=tmp_path, temporal_address=s.temporal_address), timeout_s=2)


def test_settings_are_grouped_by_reader_and_a_group_reads_alone(monkeypatch, tmp_path: Path) -> None:
    """Settings is the join of callcenter/config's groups: every field in exactly one group, and
    a process that needs one group (the console, say) loads it alone from the same names."""
    from callcenter.config.console import ConsoleSettings

    groups = [b for b in Settings.__mro__[1:] if b.__module__.startswith("callcenter.config.")]
    assert len(groups) == 9
    owned = [name for g in groups for name in g.__annotations__]
    assert sorted(owned) == sorted(Settings.model_fields), "a field outside every group, or in two"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CALLCENTER_CONSOLE_PORT", "9999")
    monkeypatch.setenv("CALLCENTER_METRICS_PORT", "notaport")  # another group's: not this one's error
    assert load_section(ConsoleSettings).console_port == 9999
    with pytest.raises(SettingsError, match="CALLCENTER_CONSOLE_PORT"):
        monkeypatch.setenv("CALLCENTER_CONSOLE_PORT", "-1")
        load_section(ConsoleSettings)
