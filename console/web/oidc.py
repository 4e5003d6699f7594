"""Single sign-on with an OpenID Connect provider (authlib), when CALLCENTER_OIDC_* are set.

The provider proves who the person is; the account (role, approval limit, linked customer)
is still the local one whose `oidc_subject` matches the ID token's `sub`, created with
`callcenter operators add NAME --role R --oidc-subject SUB --no-password`. A person the
provider knows but the call center does not is refused and audited.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from callcenter.settings import Settings
from callcenter.store import operators as ops
from workflows import authz


def routes(settings: Settings) -> list[Route]:
    if not settings.oidc_metadata_url:
        return []
    from authlib.integrations.starlette_client import OAuth

    oauth = OAuth()
    oauth.register(
        name="idp", server_metadata_url=settings.oidc_metadata_url, client_id=settings.oidc_client_id,
        client_secret=settings.oidc_client_secret.get_secret_value() if settings.oidc_client_secret else None,
        client_kwargs={"scope": "openid profile email"},
    )

    async def start(request: Request) -> Response:
        return await oauth.idp.authorize_redirect(request, str(request.url_for("oidc_callback")))

    async def callback(request: Request) -> Response:
        from console.web.views_auth import _start_session

        app = request.app.state.console
        try:
            token = await oauth.idp.authorize_access_token(request)
        except Exception as err:  # noqa: BLE001 - any provider error is a failed sign-in
            app.store.add_audit(subject="oidc", action="sign_in_failed", actor="-",
                                reason=f"provider refused: {type(err).__name__}")
            return RedirectResponse("/login", status_code=303)
        info = token.get("userinfo") or {}
        sub = str(info.get("sub") or "")
        op = ops.find_by_oidc(app.store, sub) if sub else None
        who = authz.clean(info.get(settings.oidc_username_claim) or sub, 64)
        if op is None or op.disabled:
            app.store.add_audit(subject=f"operator:{who}", action="sign_in_failed", actor=who,
                                reason="no active operator account for this identity (oidc)")
            return RedirectResponse("/login", status_code=303)
        app.store.add_audit(subject=f"operator:{op.name}", action="sign_in", actor=op.name, role=op.role, reason="oidc")
        return _start_session(request, op.name)

    return [Route("/oidc/login", start, name="oidc_login"), Route("/oidc/callback", callback, name="oidc_callback")]
