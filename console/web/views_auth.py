"""Sign-in and sign-out pages (local accounts), and OIDC when configured."""

from __future__ import annotations

import hmac
import secrets

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from callcenter.store import operators as ops
from console.signin import SignInError, sign_in
from console.web.guard import COOKIE, LOGIN_CSRF_COOKIE, client_ip, operator_only


def _start_session(request: Request, name: str) -> Response:
    app = request.app.state.console
    s = app.settings
    sid, _csrf = ops.create_session(app.store, name, idle_s=s.console_session_idle_s, max_s=s.console_session_max_s)
    resp = RedirectResponse("/", status_code=303)
    resp.set_cookie(COOKIE, sid, max_age=s.console_session_max_s, httponly=True, samesite="strict",
                    secure=s.console_cookie_secure, path="/")
    resp.delete_cookie(LOGIN_CSRF_COOKIE, path="/login")
    return resp


async def login_page(request: Request) -> Response:
    app = request.app.state.console
    token = secrets.token_urlsafe(24)
    note = "Your session expired; sign in again." if request.query_params.get("expired") else None
    resp = app.templates.TemplateResponse(request, "login.html", {
        "op": None, "csrf": "", "login_csrf": token, "error": None, "note": note,
        "oidc": bool(app.settings.oidc_metadata_url)})
    # Double-submit token: a cross-site form cannot read this cookie to copy it.
    resp.set_cookie(LOGIN_CSRF_COOKIE, token, httponly=True, samesite="strict",
                    secure=app.settings.console_cookie_secure, path="/login")
    return resp


async def login_submit(request: Request) -> Response:
    app = request.app.state.console
    form = await request.form()
    sent, cookie = str(form.get("csrf", "")), request.cookies.get(LOGIN_CSRF_COOKIE, "")
    error = None
    if not sent or not cookie or not hmac.compare_digest(sent, cookie):
        app.store.add_audit(subject="/login", action="csrf_refused", actor="-", reason="sign-in without a valid CSRF token")
        error, status = "The sign-in form expired; try again.", 403
    elif not app.logins.allow(client_ip(request)):
        app.store.add_audit(subject="/login", action="sign_in_refused", actor=str(form.get("name", ""))[:64],
                            reason="too many sign-in attempts from one address")
        error, status = "Too many sign-in attempts; wait a few minutes.", 429
    else:
        try:
            op = sign_in(app.store, app.settings, str(form.get("name", "")), str(form.get("password", "")),
                         source="console")
            return _start_session(request, op.name)
        except SignInError as err:
            error, status = str(err), 401
    token = secrets.token_urlsafe(24)
    resp = app.templates.TemplateResponse(request, "login.html", {
        "op": None, "csrf": "", "login_csrf": token, "error": error, "note": None,
        "oidc": bool(app.settings.oidc_metadata_url)}, status_code=status)
    resp.set_cookie(LOGIN_CSRF_COOKIE, token, httponly=True, samesite="strict",
                    secure=app.settings.console_cookie_secure, path="/login")
    return resp


@operator_only
async def logout(request: Request) -> Response:
    app = request.app.state.console
    ops.end_session(app.store, request.cookies.get(COOKIE, ""))
    op = request.state.session.operator
    app.store.add_audit(subject=f"operator:{op.name}", action="sign_out", actor=op.name, role=op.role, reason="console")
    resp = RedirectResponse("/login", status_code=303)
    resp.delete_cookie(COOKIE, path="/")
    return resp


async def healthz(request: Request) -> Response:
    return Response("ok\n", media_type="text/plain")
