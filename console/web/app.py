"""`create_app`: the console as an ASGI app (served by uvicorn in `callcenter console`).

Public paths: /login, /healthz, /static. Every other path needs a session (guard.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from temporalio.client import Client

from callcenter.settings import Settings
from callcenter.store import Store
from callcenter.store.adapters import PortSpec, load_ports
from console.records import CustomerRecords
from console.web import (
    oidc,
    views_audit,
    views_auth,
    views_outcomes,
    views_queue,
    views_request,
    views_tickets,
)
from console.web.context import HERE, Console
from console.web.guard import SecurityHeaders
from workflows.keys import signing_keys


def create_app(settings: Settings, *, store: Store | None = None, client: Client | None = None,
               address: str | None = None, port_specs: Sequence[PortSpec] = (),
               records: Sequence[CustomerRecords] = (), kind_domains: Mapping[str, str] | None = None) -> Starlette:
    """The console. `port_specs`, `records` and `kind_domains` come from the domains
    (meta/): the systems their records live in, the tables an operator sees beside a
    request, and each durable request kind's domain (the outcomes page's time to approval)."""
    own_store = store is None
    store = store or Store(settings.db_path)
    key = signing_keys(settings.data_dir, settings.console_secret)[0]
    console = Console(settings=settings, store=store, key=key, client=client, address=address,
                      ports=load_ports(store, settings, port_specs), records=tuple(records),
                      kind_domains=dict(kind_domains or {}))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        yield
        await console.queue.close()
        if own_store:
            store.close()

    routes = [
        Route("/", views_queue.queue_page),
        Route("/queue/rows", views_queue.queue_rows, methods=["POST"]),
        Route("/requests/{rid}", views_request.request_page),
        Route("/requests/{rid}/decide", views_request.decide_form, methods=["POST"]),
        Route("/api/requests/{rid}/decide", views_request.decide_api, methods=["POST"]),
        Route("/tickets", views_tickets.tickets_page),
        Route("/tickets/{tid}/resolve", views_tickets.resolve, methods=["POST"]),
        Route("/audit", views_audit.audit_page, methods=["GET", "POST"]),
        Route("/audit/export", views_audit.audit_export, methods=["POST"]),
        Route("/outcomes", views_outcomes.outcomes_page),
        Route("/login", views_auth.login_page, methods=["GET"]),
        Route("/login", views_auth.login_submit, methods=["POST"]),
        Route("/logout", views_auth.logout, methods=["POST"]),
        Route("/healthz", views_auth.healthz),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
        *oidc.routes(settings),
    ]
    middleware = [Middleware(SecurityHeaders, hsts=settings.console_cookie_secure)]
    if settings.oidc_metadata_url:
        # Only the OIDC state and nonce live in this signed cookie; operator sessions are in the store.
        middleware.append(Middleware(SessionMiddleware, secret_key=key.decode(), session_cookie="cc_oidc",
                                     same_site="lax", https_only=settings.console_cookie_secure, max_age=600))
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.console = console
    return app
