"""`callcenter console` (the operators' web console) and `callcenter operators ...` (accounts).

Accounts are created here, by someone with access to the store; people then sign in to the
console, or get a token for the CLI. Passwords are read from the terminal (twice) or, with
--password-stdin, from one line of standard input; never from the command line.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from decimal import Decimal

from callcenter.settings import SettingsError, get_settings
from callcenter.store import Store, StoreError
from callcenter.store.adapters import AdapterError


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("console", help="serve the operators' web console (sign-in required)")
    p.add_argument("--host", default=None, help="listen address (default: CALLCENTER_CONSOLE_HOST, 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="port (default: CALLCENTER_CONSOLE_PORT, 8080)")
    p.set_defaults(func=cmd_console)

    op = subparsers.add_parser("operators", help="operator accounts for the console and the CLI")
    sub = op.add_subparsers(dest="operators_cmd", required=True)
    p = sub.add_parser("add", help="create an account (role and approval limit belong to it)")
    p.add_argument("name", help="lower-case login name, e.g. maria")
    p.add_argument("--role", required=True, choices=("agent", "supervisor", "manager"))
    p.add_argument("--limit", default=None, help="approval limit in USD (default and maximum: the role's limit)")
    p.add_argument("--customer", default=None, help="the operator's own customer id, if they are a customer too")
    p.add_argument("--oidc-subject", default=None, help="the identity provider's subject for single sign-on")
    p.add_argument("--no-password", action="store_true", help="single sign-on only (needs --oidc-subject)")
    p.add_argument("--password-stdin", action="store_true", help="read the password from one line of stdin")
    p.set_defaults(func=cmd_add)
    p = sub.add_parser("list", help="accounts with role, limit and state")
    p.set_defaults(func=cmd_list)
    for verb in ("disable", "enable"):
        p = sub.add_parser(verb, help=f"{verb} an account ({'ends its sessions and tokens' if verb == 'disable' else 'again'})")
        p.add_argument("name")
        p.set_defaults(func=cmd_disable, disabled=verb == "disable")
    p = sub.add_parser("token", help="issue a CLI token for an account (an admin's command; prints it once)")
    p.add_argument("name")
    p.add_argument("--hours", type=int, default=None, help="lifetime (default: CALLCENTER_OPERATOR_TOKEN_TTL_H)")
    p.set_defaults(func=cmd_token)
    p = sub.add_parser("login", help="sign in with your password and print a CLI token")
    p.add_argument("name")
    p.add_argument("--password-stdin", action="store_true", help="read the password from one line of stdin")
    p.set_defaults(func=cmd_login)


def _fail(msg: str, code: int = 1) -> int:
    print(f"error: {msg}", file=sys.stderr)
    return code


def _password(from_stdin: bool, confirm: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    first = getpass.getpass("password: ")
    if confirm and getpass.getpass("again: ") != first:
        raise ValueError("the passwords differ")
    return first


def cmd_add(args: argparse.Namespace) -> int:
    from console.accounts import AccountError, add_account
    from console.fields import BadNumber, amount_cents

    settings = get_settings()
    try:
        cents = amount_cents(args.limit, "--limit")
    except BadNumber as err:
        return _fail(str(err), 2)
    limit = None if cents is None else Decimal(cents) / 100
    try:
        password = None if args.no_password else _password(args.password_stdin, confirm=True)
        with _store(settings) as store:
            op = add_account(store, settings, name=args.name, role=args.role, password=password, limit=limit,
                             customer_id=args.customer, oidc_subject=args.oidc_subject)
    except (AccountError, ValueError, StoreError) as err:
        return _fail(str(err))
    print(f"operator {op.name}: {op.role}, may approve up to ${op.limit_cents / 100:,.2f}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from callcenter.store import operators as ops

    with _store(get_settings()) as store:
        rows = ops.list_operators(store)
    if not rows:
        print("no operator accounts; create one with `callcenter operators add NAME --role agent`")
    for o in rows:
        state = "disabled" if o.disabled else ("locked" if ops.is_locked(o) else "active")
        print(f"{o.name:<20} {o.role:<10} {'$' + format(o.limit_cents / 100, ',.2f'):>12} {state:<8}"
              f" {'sso' if o.oidc_subject else ''}")
    return 0


def cmd_disable(args: argparse.Namespace) -> int:
    from callcenter.store import operators as ops

    with _store(get_settings()) as store:
        if not ops.set_disabled(store, args.name, args.disabled):
            return _fail(f"no operator {args.name!r}")
    print(f"operator {args.name}: {'disabled' if args.disabled else 'enabled'}")
    return 0


def cmd_token(args: argparse.Namespace) -> int:
    from callcenter.store import operators as ops

    settings = get_settings()
    if args.hours is not None and not 1 <= args.hours <= 720:
        return _fail("--hours must be a whole number from 1 to 720", 2)
    with _store(settings) as store:
        op = ops.get_operator(store, args.name)
        if op is None or op.disabled:
            return _fail(f"no active operator {args.name!r}")
        token = ops.create_token(store, op.name, ttl_h=args.hours or settings.operator_token_ttl_h)
        store.add_audit(subject=f"operator:{op.name}", action="token_issued", actor="admin-cli", role=op.role,
                        reason=f"valid {args.hours or settings.operator_token_ttl_h} h")
    print(token)
    return 0


def cmd_login(args: argparse.Namespace) -> int:
    from console.signin import SignInError, sign_in

    settings = get_settings()
    try:
        password = _password(args.password_stdin, confirm=False)
        with _store(settings) as store:
            op = sign_in(store, settings, args.name, password, source="cli", address="this host")
            from callcenter.store import operators as ops

            token = ops.create_token(store, op.name, ttl_h=settings.operator_token_ttl_h)
    except SignInError as err:
        return _fail(str(err))
    print(token)
    return 0


def cmd_console(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from console.web.app import create_app
    except ImportError:
        return _fail("the console needs its extra: pip install 'callcenter[console]'")
    try:
        settings = get_settings()
    except SettingsError as err:
        return _fail(str(err), 2)
    host, port = args.host or settings.console_host, args.port if args.port is not None else settings.console_port
    try:
        # the domains, loaded only to serve
        from meta.actions import domain_ports, durable_actions, operator_records

        # The domains' systems and the tables they show an operator beside a request.
        # ... and the domain of each request kind (the outcomes page's time to approval).
        actions = durable_actions()
        app = create_app(settings, port_specs=domain_ports(), records=operator_records(),
                         kind_domains={kind: actions[kind].domain for kind in actions})
        from callcenter.store import operators as ops

        print(f"operators' console on http://{host}:{port}/ (Ctrl-C stops it)", flush=True)
        if not ops.list_operators(app.state.console.store):
            print("no operator accounts yet: create the first with"
                  " `callcenter operators add NAME --role manager` (it asks for a password), then sign in",
                  flush=True)
        # Only the proxies named in settings may set the client's address (X-Forwarded-For):
        # uvicorn would otherwise trust any local peer, and a throttle keyed on it is moot.
        trusted = settings.console_trusted_proxies
        uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, server_header=False,
                    proxy_headers=bool(trusted), forwarded_allow_ips=list(trusted) if trusted else None)
    except (OSError, StoreError, AdapterError) as err:
        return _fail(str(err))
    return 0


class _store:  # noqa: N801 - a context manager named for what it yields
    def __init__(self, settings) -> None:  # noqa: ANN001
        self.store = Store(settings.db_path)

    def __enter__(self) -> Store:
        return self.store

    def __exit__(self, *exc: object) -> None:
        self.store.close()
