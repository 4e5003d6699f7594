"""Issue 27's sign-in, input and audit failures, through the real console over HTTP: a
forwarded address nobody trusted, an answer that told locked accounts from unknown ones,
numbers that crashed or froze the queue, and audit rows written for every anonymous post."""

from __future__ import annotations

import time

import httpx

from callcenter.store import operators as ops

from .conftest import Console, csrf_in, operator, sign_in


def _error(page: str) -> str:
    start = page.index('role="alert">') + len('role="alert">')
    return page[start:page.index("</p>", start)]


async def test_only_trusted_proxies_may_name_the_client_address(console, store, settings) -> None:  # noqa: ANN001
    # From one address, each post claiming another one: the per-address throttle still counts them.
    codes = []
    for i in range(settings.console_login_per_address + 3):
        c = httpx.AsyncClient(base_url=console.url, timeout=15, headers={"x-forwarded-for": f"203.0.113.{i}"})
        page = await c.get("/login")
        r = await c.post("/login", data={"name": f"guess{i}", "password": "whatever", "csrf": csrf_in(page.text)})
        codes.append(r.status_code)
    assert codes[0] == 401 and codes[-1] == 429 and codes.count(429) == 3, codes
    failed = [e.reason for e in ops.search_audit(store, action="sign_in_failed")]
    assert failed and all("from 127.0.0.1" in r for r in failed) and not any("203.0.113" in r for r in failed)


async def test_a_trusted_proxy_names_the_client_and_sign_in_is_audited_with_it(settings, worker, store) -> None:  # noqa: ANN001
    c = Console(settings, CALLCENTER_CONSOLE_TRUSTED_PROXIES='["127.0.0.1"]')
    try:
        operator(store, "ann")
        http = httpx.AsyncClient(base_url=c.url, timeout=15, headers={"x-forwarded-for": "198.51.100.7"})
        page = await http.get("/login")
        r = await http.post("/login", data={"name": "ann", "password": "correct horse battery staple",
                                            "csrf": csrf_in(page.text)})
        assert r.status_code == 303
        [row] = ops.search_audit(store, actor="ann", action="sign_in")
        assert row.reason == "console from 198.51.100.7"
    finally:
        c.stop()


async def test_locked_and_unknown_accounts_get_one_answer(worker, store, settings) -> None:  # noqa: ANN001
    # Many tries from one address here: the per-address throttle is raised so each answer is the account's.
    console = Console(settings, CALLCENTER_CONSOLE_LOGIN_PER_ADDRESS="200")
    try:
        await _one_answer(console, store, settings)
    finally:
        console.stop()


async def _one_answer(console, store, settings) -> None:  # noqa: ANN001
    operator(store, "maria")
    for _ in range(settings.console_login_failures):
        await sign_in(console.url, "maria", "not the password")
    _, locked = await sign_in(console.url, "maria")  # the right password, but locked now
    _, unknown = await sign_in(console.url, "nobody-here", "whatever")
    assert locked.status_code == unknown.status_code == 401
    assert _error(locked.text) == _error(unknown.text)
    # and a name tried too often is throttled alike, whether or not it exists
    answers = set()
    for name in ("maria", "nobody-at-all"):
        for _ in range(settings.console_login_per_account + 1):
            _, r = await sign_in(console.url, name, "guess")
        answers.add((r.status_code, _error(r.text)))
    assert len(answers) == 1


async def test_queue_filters_are_parsed_strictly(console, store) -> None:  # noqa: ANN001
    operator(store, "ann")
    c, _ = await sign_in(console.url, "ann")
    token = csrf_in((await c.get("/")).text)
    for bad in ("NaN", "Infinity", "-Infinity", "1e999999999", "1e400000", "12.345", "-5", "0x10"):
        for field in ("min_amount", "max_amount", "min_age_min"):
            started = time.monotonic()
            r = await c.post("/queue/rows", data={field: bad}, headers={"x-csrf-token": token})
            assert r.status_code == 400 and "must be" in r.text, (field, bad, r.status_code, r.text[:200])
            assert time.monotonic() - started < 5, (field, bad)
    assert (await c.get("/healthz")).status_code == 200
    ok = await c.post("/queue/rows", data={"min_amount": "200", "max_amount": "$1,200.50", "min_age_min": "5"},
                      headers={"x-csrf-token": token})
    assert ok.status_code == 200


async def test_anonymous_refusals_do_not_flood_the_audit(console, store, settings) -> None:  # noqa: ANN001
    anon = httpx.AsyncClient(base_url=console.url, timeout=15)
    for _ in range(30):
        r = await anon.post("/login", data={"name": "x", "password": "y"})
        assert r.status_code == 403
    rows = ops.search_audit(store, subject="/login")
    assert len([e for e in rows if e.action == "csrf_refused"]) == settings.console_audit_refusals_per_address
    assert len([e for e in rows if e.action == "audit_throttled"]) == 1
