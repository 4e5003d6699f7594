"""Decision credentials (no server needed): forged, expired, tampered or foreign grants are
refused; text neutralisation; and OIDC sign-in redirects to a (local) provider."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import jwt
import pytest

from callcenter.settings import load_settings
from workflows import authz

KEY, OTHER = b"k" * 40, b"o" * 40


def grant(**kw: object) -> authz.Grant:
    base = dict(request_id="refund-CH-1", action="approve", operator="maria", role="agent", limit_cents=50000,
                customer_id=None, expires=int((datetime.now(UTC) + timedelta(minutes=2)).timestamp()), grant_id="g1")
    return authz.Grant(**(base | kw))  # type: ignore[arg-type]


def test_valid_grant_round_trips() -> None:
    g = grant()
    assert authz.verify(authz.mint(KEY, g), datetime.now(UTC), [KEY]) == g


@pytest.mark.parametrize("token,words", [
    ("", "credential is required"),
    (authz.mint(OTHER, grant()), "not valid"),
    (authz.mint(KEY, grant(expires=int(datetime.now(UTC).timestamp()) - 5)), "expired"),
    (jwt.encode({"sub": "maria", "role": "manager"}, KEY, algorithm="HS256"), "not valid"),
    (jwt.encode({"iss": "callcenter-console", "sub": "x"}, "none", algorithm="HS256"), "not valid"),
])
def test_bad_grants_are_refused(token: str, words: str) -> None:
    with pytest.raises(authz.GrantError, match=words):
        authz.verify(token, datetime.now(UTC), [KEY])


def test_tampered_claims_break_the_signature() -> None:
    head, body, sig = authz.mint(KEY, grant()).split(".")
    claims = json.loads(jwt.utils.base64url_decode(body))
    claims["role"], claims["lim"] = "manager", 10_000_000
    forged = ".".join([head, jwt.utils.base64url_encode(json.dumps(claims).encode()).decode(), sig])
    with pytest.raises(authz.GrantError, match="not valid"):
        authz.verify(forged, datetime.now(UTC), [KEY])


def test_clean_neutralises_control_characters() -> None:
    s = authz.clean("ok\nfake line\x1b[2J\x07\u202eevil\u200b", 200)
    assert "\n" not in s and "\x1b" not in s and "\u202e" not in s and "\x07" not in s
    assert s.startswith("ok fake line") and s.count("\ufffd") == 4
    assert authz.is_reserved(" Auto ") and authz.is_reserved("system") and not authz.is_reserved("maria")


class _Provider(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802
        base = f"http://127.0.0.1:{self.server.server_port}"
        body = json.dumps({"issuer": base, "authorization_endpoint": base + "/authorize",
                           "token_endpoint": base + "/token", "jwks_uri": base + "/jwks"}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a: object) -> None:
        pass


def test_oidc_sign_in_redirects_to_the_provider(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from console.web.app import create_app

    idp = ThreadingHTTPServer(("127.0.0.1", 0), _Provider)
    threading.Thread(target=idp.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{idp.server_port}"
        settings = load_settings(data_dir=tmp_path, oidc_metadata_url=base + "/.well-known/openid-configuration",
                                 oidc_client_id="console-test", temporal_address="127.0.0.1:1")
        with TestClient(create_app(settings), base_url="http://console.test") as c:
            assert "/oidc/login" in c.get("/login").text
            r = c.get("/oidc/login", follow_redirects=False)
            assert r.status_code == 302
            url = urlparse(r.headers["location"])
            q = parse_qs(url.query)
            assert f"{url.scheme}://{url.netloc}{url.path}" == base + "/authorize"
            assert q["client_id"] == ["console-test"] and q["response_type"] == ["code"]
            assert q["redirect_uri"] == ["http://console.test/oidc/callback"]
            assert q["state"][0] and q["nonce"][0] and "openid" in q["scope"][0]
            # A callback without the provider's code and state is a failed sign-in, audited.
            back = c.get("/oidc/callback?code=x&state=wrong", follow_redirects=False)
            assert back.status_code == 303 and back.headers["location"] == "/login"
            from callcenter.store import Store
            from callcenter.store import operators as ops

            store = Store(settings.db_path)
            assert [e.action for e in ops.search_audit(store, action="sign_in_failed")] == ["sign_in_failed"]
            store.close()
    finally:
        idp.shutdown()
