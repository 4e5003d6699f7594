"""Sessions, CSRF and security headers: every page but sign-in, health and static files
needs a live session, and every state-changing request its session's CSRF token."""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from functools import wraps

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from callcenter.store import operators as ops

COOKIE = "cc_session"
LOGIN_CSRF_COOKIE = "cc_login_csrf"
CSRF_HEADER = "x-csrf-token"

Handler = Callable[[Request], Awaitable[Response]]

HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data:; object-src 'none';"
                               " frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
    "cross-origin-opener-policy": "same-origin",
}


class SecurityHeaders:
    """Pure ASGI middleware (no buffering, so the queue's responses stream as usual)."""

    def __init__(self, app: ASGIApp, *, hsts: bool) -> None:
        self.app, self.hsts = app, hsts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.decode().lower() for k, _ in headers}
                for k, v in HEADERS.items():
                    if k not in names:
                        headers.append((k.encode(), v.encode()))
                if "cache-control" not in names:
                    headers.append((b"cache-control", b"no-store"))
                if self.hsts:
                    headers.append((b"strict-transport-security", b"max-age=31536000"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def client_ip(request: Request) -> str:
    return request.client.host if request.client else "-"


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get("accept", "")


def operator_only(fn: Handler) -> Handler:
    """A live session for every method; the CSRF token for every state-changing one."""

    @wraps(fn)
    async def wrapped(request: Request) -> Response:
        app = request.app.state.console
        sid = request.cookies.get(COOKIE, "")
        sess = ops.get_session(app.store, sid, idle_s=app.settings.console_session_idle_s) if sid else None
        if sess is None:
            if request.method == "GET" and not _wants_json(request):
                resp: Response = RedirectResponse("/login?expired=1" if sid else "/login", status_code=303)
            else:
                resp = JSONResponse({"error": "sign in first (no session, or it expired)"}, status_code=401)
            if sid:
                resp.delete_cookie(COOKIE, path="/")
            return resp
        if request.method not in ("GET", "HEAD"):
            sent = request.headers.get(CSRF_HEADER, "")
            if not sent and "form" in request.headers.get("content-type", ""):
                sent = str((await request.form()).get("csrf", ""))
            if not sent or not hmac.compare_digest(sent, sess.csrf):
                app.store.add_audit(subject=request.url.path[:128], action="csrf_refused", actor=sess.operator.name,
                                    role=sess.operator.role, reason=f"{request.method} without a valid CSRF token")
                return PlainTextResponse("refused: missing or wrong CSRF token; reload the page", status_code=403)
        request.state.session = sess
        return await fn(request)

    return wrapped
