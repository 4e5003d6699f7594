"""`callcenter temporal-worker | temporal-server | approvals ... | tickets ...` and the
embedded durable stack for `callcenter call`.

Handlers return exit codes. Expected problems print one line on stderr (exit 1; 2 for bad
usage) and never a traceback. Commands that used the SDK leave through os._exit: the SDK can
crash at interpreter exit in short-lived processes (see shared notes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import asdict
from typing import Any

from callcenter import tracing
from callcenter.money import dollars
from callcenter.settings import Settings, SettingsError, get_settings
from callcenter.store import Store, StoreError

log = logging.getLogger("callcenter.temporal")

# Tests call handlers in-process and set this to False to get the code back instead.
HARD_EXIT = True


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("temporal-worker", help="run the Temporal worker (approvals, tickets)")
    p.set_defaults(func=cmd_worker)

    p = subparsers.add_parser("temporal-server", help="run the local Temporal dev server in the data dir")
    p.add_argument("--ui", action="store_true", help="also serve the Temporal web UI (127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="frontend port (default: a free one)")
    p.add_argument("--worker", action="store_true", help="also run a worker in this process (one command for operators)")
    p.set_defaults(func=cmd_server)

    ap = subparsers.add_parser("approvals", help="the human-approval queue")
    sub = ap.add_subparsers(dest="approvals_cmd", required=True)
    p = sub.add_parser("list", help="pending approvals, oldest first")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--all", action="store_true", help="include running requests already decided")
    p.add_argument("--kind", help="a request kind, as `approvals list` shows it")
    p.add_argument("--customer", help="a customer id, e.g. C1002")
    p.add_argument("--min-amount", type=float, default=None, help="only amounts at or above this many dollars")
    p.set_defaults(func=cmd_list)
    p = sub.add_parser("show", help="one request with its audit trail")
    p.add_argument("id")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_show)
    for verb in ("approve", "deny"):
        p = sub.add_parser(verb, help=f"{verb} a request (audited; needs an operator token)")
        p.add_argument("id")
        p.add_argument("--reason", required=True, help="why (kept in the audit log)")
        p.add_argument("--token", default=None,
                       help="your operator token (default: $CALLCENTER_OPERATOR_TOKEN); your role and limit come from it")
        p.set_defaults(func=cmd_decide, verdict=verb)

    tp = subparsers.add_parser("tickets", help="engineering escalations")
    sub = tp.add_subparsers(dest="tickets_cmd", required=True)
    p = sub.add_parser("list", help="open tickets")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_tickets)
    p = sub.add_parser("resolve", help="resolve a ticket; the customer is notified (needs an operator token)")
    p.add_argument("id")
    p.add_argument("--resolution", required=True)
    p.add_argument("--token", default=None, help="your operator token (default: $CALLCENTER_OPERATOR_TOKEN)")
    p.set_defaults(func=cmd_resolve)


# --- plumbing -------------------------------------------------------------------------------
def _fail(msg: str, code: int = 1) -> int:
    print(f"error: {msg}", file=sys.stderr)
    return code


def _exit(code: int) -> int:
    sys.stdout.flush()
    sys.stderr.flush()
    if HARD_EXIT:
        os._exit(code)
    return code


def _run(body: Callable[[Settings, Any], Coroutine[Any, Any, int]], args: argparse.Namespace) -> int:
    """Settings + store + client; map every expected failure to one line."""
    from console.operations import ConsoleError
    from workflows.client import TemporalUnavailable, connect

    try:
        settings = get_settings()
    except SettingsError as err:
        return _fail(str(err))

    async def go() -> int:
        client = await connect(settings)
        store = Store(settings.db_path)
        try:
            return await body(settings, (client, store, args))
        finally:
            store.close()

    try:
        code = asyncio.run(go())
    except (TemporalUnavailable, ConsoleError, StoreError) as err:
        code = _fail(str(err))
    except KeyboardInterrupt:
        code = 130
    return _exit(code)


def _money(cents: int | None) -> str:
    return "-" if cents is None else dollars(cents)


def _age(s: int) -> str:
    if s < 120:
        return f"{s}s"
    if s < 7200:
        return f"{s // 60}m"
    if s < 172800:
        return f"{s // 3600}h"
    return f"{s // 86400}d"


# --- approvals ------------------------------------------------------------------------------
def cmd_list(args: argparse.Namespace) -> int:
    async def body(settings: Settings, ctx: Any) -> int:
        from console.operations import list_queue

        client, _store, a = ctx
        states: tuple[str, ...] = () if a.all else ("pending", "escalated")
        cents = None if a.min_amount is None else int(round(a.min_amount * 100))
        items = await list_queue(client, states=states, kind=a.kind, customer_id=a.customer, min_amount_cents=cents)
        if a.json:
            print(json.dumps([asdict(i) for i in items], indent=2))
            return 0
        if not items:
            print("no pending approvals" if not a.all else "no running approvals")
            return 0
        print(f"{'ID':<28} {'KIND':<16} {'AMOUNT':>11} {'CUSTOMER':<9} {'AGE':>5} {'STATE':<9} CALLER SAID / POLICY")
        for i in items:
            print(f"{i.request_id:<28} {i.kind:<16} {_money(i.amount_cents):>11} {i.customer_id or '-':<9}"
                  f" {_age(i.age_s):>5} {i.state:<9} {i.caller_reason[:60]} / {i.policy_finding[:80]}")
        return 0

    return _run(body, args)


def cmd_show(args: argparse.Namespace) -> int:
    async def body(settings: Settings, ctx: Any) -> int:
        from console.operations import show

        client, store, a = ctx
        item = await show(client, store, a.id)
        if a.json:
            print(json.dumps(asdict(item), indent=2))
            return 0
        print(f"{item.request_id}: {item.kind} for {item.customer_id}, {_money(item.amount_cents)} — {item.state}")
        print(f"  requested by {item.requested_by} at {item.submitted_at} ({_age(item.age_s)} ago)")
        print(f"  caller said:    {item.caller_reason}")
        print(f"  policy finding: {item.policy_finding}")
        if item.escalations:
            print(f"  escalations:    {item.escalations}")
        if item.decided_by:
            print(f"  decided by {item.decided_by}: {item.decision_reason}")
        if item.detail:
            print(f"  result:         {item.detail}")
        if item.first_approval:
            print(f"  first approval: {item.first_approval} (a second operator, supervisor or above, must approve)")
        for e in item.audit:
            print(f"  audit {e['at']} {e['action']:<16} {e['actor']:<12} {e['role'] or '-':<10} {e['reason']}")
        return 0

    return _run(body, args)


def _operator(store: Any, token: str | None, subject: str, action: str) -> Any:
    """The account behind an operator token; a missing or bad token is refused and audited."""
    from callcenter.store import operators as ops
    from console.operations import ConsoleError

    token = token or os.environ.get("CALLCENTER_OPERATOR_TOKEN") or ""
    op = ops.operator_for_token(store, token.strip()) if token.strip() else None
    if op is None:
        why = "an operator token is required" if not token.strip() else "the operator token is unknown, expired or revoked"
        store.add_audit(subject=subject, action=f"{action}_refused", actor="unauthenticated:cli", reason=why)
        raise ConsoleError(f"{why}: get one with `callcenter operators login NAME` (or from an admin:"
                           " `callcenter operators token NAME`) and pass --token or CALLCENTER_OPERATOR_TOKEN")
    return op


def cmd_decide(args: argparse.Namespace) -> int:
    async def body(settings: Settings, ctx: Any) -> int:
        from console.operations import decide
        from workflows.authz import clean
        from workflows.keys import signing_keys

        client, store, a = ctx
        op = _operator(store, a.token, clean(a.id, 128), a.verdict)
        key = signing_keys(settings.data_dir, settings.console_secret)[0]
        res = await decide(client, store, a.id, verdict=a.verdict, operator=op, reason=a.reason, key=key,
                           grant_ttl_s=settings.console_grant_ttl_s)
        if res.state == "awaiting_second_approval":
            print(f"{res.request_id}: approved by {res.decided_by} ({op.role}); a second operator,"
                  " supervisor or above, must approve too")
        else:
            print(f"{res.request_id}: {res.state} by {res.decided_by} ({op.role})")
        return 0

    return _run(body, args)


def cmd_tickets(args: argparse.Namespace) -> int:
    async def body(settings: Settings, ctx: Any) -> int:
        from console.operations import list_tickets

        client, _store, a = ctx
        items = await list_tickets(client)
        if a.json:
            print(json.dumps([asdict(i) for i in items], indent=2))
        elif not items:
            print("no open tickets")
        for i in [] if a.json else items:
            tid = i.request_id.removeprefix("ticket-")
            print(f"{tid:<12} {i.state:<10} {i.customer_id or '-':<9} {_age(i.age_s):>5} {i.caller_reason[:90]}")
        return 0

    return _run(body, args)


def cmd_resolve(args: argparse.Namespace) -> int:
    async def body(settings: Settings, ctx: Any) -> int:
        from console.operations import resolve_ticket
        from workflows.authz import clean

        client, store, a = ctx
        op = _operator(store, a.token, clean(a.id, 128), "resolve")
        await resolve_ticket(client, a.id, engineer=op.name, resolution=clean(a.resolution))
        print(f"{a.id}: resolved by {op.name}")
        return 0

    return _run(body, args)


# --- processes ------------------------------------------------------------------------------
def cmd_worker(args: argparse.Namespace) -> int:
    from meta.actions import domain_ports, durable_actions
    from workflows.worker import run_worker

    try:
        settings = get_settings()
    except SettingsError as err:
        return _fail(str(err))
    logging.basicConfig(level=settings.log_level, format=tracing.LOG_FORMAT)
    tracing.install_log_filter()
    try:
        code = asyncio.run(run_worker(settings, actions=durable_actions(), port_specs=domain_ports()))
    except (OSError, StoreError) as err:  # e.g. metrics port in use
        code = _fail(str(err))
    except KeyboardInterrupt:
        code = 0
    return _exit(code)


def cmd_server(args: argparse.Namespace) -> int:
    from workflows.devserver import DevServerError, LocalTemporal, discover

    try:
        settings = get_settings()
    except SettingsError as err:
        return _fail(str(err))
    if settings.temporal_address:
        return _fail(f"CALLCENTER_TEMPORAL_ADDRESS is set ({settings.temporal_address}): nothing to start")
    running = discover(settings.data_dir)
    if running:
        return _fail(f"a local Temporal server is already running at {running}")

    async def serve() -> int:
        import signal

        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        async with LocalTemporal(settings.data_dir, namespace=settings.temporal_namespace,
                                 port=args.port, ui=args.ui) as server:
            ui = f", web UI http://127.0.0.1:{server.ui_port}" if server.ui_port else ""
            print(f"Temporal dev server on {server.address}{ui} (db {server.db_filename}); Ctrl-C stops it",
                  flush=True)
            async with contextlib.AsyncExitStack() as stack:
                if args.worker:
                    from meta.actions import domain_ports, durable_actions
                    from workflows.client import connect
                    from workflows.worker import ensure_worker

                    store = Store(settings.db_path)
                    stack.callback(store.close)
                    client = await connect(settings, address=server.address)
                    await stack.enter_async_context(ensure_worker(
                        client, store, settings.temporal_task_queue, actions=durable_actions(), port_specs=domain_ports()))
                    print(f"worker on task queue {settings.temporal_task_queue!r}", flush=True)
                waiter = asyncio.create_task(stop.wait())
                while not stop.is_set():
                    await asyncio.wait([waiter], timeout=1)
                    if server.proc is None or server.proc.poll() is not None:
                        print("error: the Temporal dev server exited; see " + str(server.log_path), file=sys.stderr)
                        return 1
        return 0

    try:
        code = asyncio.run(serve())
    except DevServerError as err:
        code = _fail(str(err))
    return _exit(code)


@contextlib.asynccontextmanager
async def embedded_durable(settings: Settings, store: Store | None = None) -> AsyncIterator[Any]:
    """Yield a DurableWork for `callcenter call`.

    With `temporal_address` set, connect to it (lazily) and start nothing: workers run as
    their own deployment. Unset: reuse a local server this data dir already runs, else start
    one, and run an in-process worker; both stop when the block exits.
    """
    from meta.actions import domain_ports, durable_actions
    from workflows.client import DurableWork, TemporalUnavailable, connect, tls_config
    from workflows.devserver import DevServerError, LocalTemporal, discover
    from workflows.worker import ensure_worker, housekeeping

    actions = durable_actions()
    tls_config(settings)  # a missing cert/key file stops the start, it is not an outage
    own_store = store is None
    store = store or Store(settings.db_path)
    try:
        if settings.temporal_address:
            work = DurableWork(settings, store, actions=actions)
            yield work
            await work.close()
            return
        async with contextlib.AsyncExitStack() as stack:
            address = discover(settings.data_dir)
            if address is None:
                try:
                    server = await stack.enter_async_context(
                        LocalTemporal(settings.data_dir, namespace=settings.temporal_namespace))
                    address = server.address
                except DevServerError as err:
                    # The line still works: requests wait in the outbox for a later run.
                    log.warning("no local Temporal (%s); durable requests will be queued", err)
            if address is not None:
                try:
                    client = await connect(settings, address=address)
                    await stack.enter_async_context(ensure_worker(
                        client, store, settings.temporal_task_queue, actions=actions, port_specs=domain_ports()))
                    # Pending-approvals gauge and outbox flush, as the standalone worker does.
                    chores = asyncio.create_task(housekeeping(client, settings, store, actions))
                    stack.callback(chores.cancel)
                except TemporalUnavailable as err:
                    log.warning("%s; durable requests will be queued", err)
            work = DurableWork(settings, store, actions=actions, address=address or "127.0.0.1:1")
            if address is not None:
                # Connecting now also submits, in the background, what earlier runs queued.
                with contextlib.suppress(TemporalUnavailable):
                    await work.client()
            yield work
            await work.close()
    finally:
        if own_store:
            store.close()


__all__ = ["HARD_EXIT", "embedded_durable", "register"]
