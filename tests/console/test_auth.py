"""Sign-in, sessions, CSRF, limits and four-eyes through the console's HTTP interface, with a
real `callcenter console` process, a real worker and the real dev server."""

from __future__ import annotations

from callcenter.store import operators as ops
from domains.billing.ledger import Ledger
from tests.conftest import refund_request
from workflows.client import ApprovalRequest, DurableWork

from .conftest import csrf_in, eventually, operator, sign_in, uid


def refund(amount: int, charge: str = "CH-1002-D", customer: str = "C1002") -> ApprovalRequest:
    return refund_request(uid(f"refund-{charge}"), amount_cents=amount, charge=charge, customer=customer,
                          said="i was charged twice, card 4111 1111 1111 1111", finding="duplicate charge")


async def test_wrong_password_lockout_and_audit(console, store, settings) -> None:
    operator(store, "maria")
    _, bad = await sign_in(console.url, "maria", "not the password")
    assert bad.status_code == 401 and "wrong name or password" in bad.text
    for _ in range(settings.console_login_failures - 1):
        await sign_in(console.url, "maria", "still wrong")
    _, locked = await sign_in(console.url, "maria")  # right password, but locked now
    assert locked.status_code == 401 and "locked" in locked.text
    actions = [(e.action, e.actor) for e in ops.search_audit(store, actor="maria")]
    assert actions.count(("sign_in_failed", "maria")) == settings.console_login_failures
    assert ("sign_in_refused", "maria") in actions and ("sign_in", "maria") not in actions
    _, unknown = await sign_in(console.url, "nobody-here", "whatever")
    assert unknown.status_code == 401 and "wrong name or password" in unknown.text  # same answer


async def test_every_path_needs_a_session_and_sessions_expire(console, store) -> None:
    import httpx

    anon = httpx.AsyncClient(base_url=console.url, timeout=10)
    for path in ("/", "/tickets", "/audit", "/requests/refund-x"):
        r = await anon.get(path)
        assert r.status_code == 303 and r.headers["location"].startswith("/login"), path
    assert (await anon.post("/api/requests/refund-x/decide", json={"verdict": "approve", "reason": "x"})).status_code == 401
    assert (await anon.post("/queue/rows")).status_code == 401
    operator(store, "ann")
    c, resp = await sign_in(console.url, "ann")
    assert resp.status_code == 303 and "cc_session" in c.cookies
    page = await c.get("/")
    assert page.status_code == 200 and "Pending approvals" in page.text
    for h in ("content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy"):
        assert h in page.headers, h
    cookie = resp.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    ops.expire_sessions_of(store, "ann")
    gone = await c.get("/")
    assert gone.status_code == 303 and gone.headers["location"] == "/login?expired=1"


async def test_csrf_forged_role_direct_api_and_four_eyes(console, store, settings, client, work: DurableWork) -> None:
    operator(store, "kim", "agent")
    operator(store, "sam", "supervisor")
    operator(store, "lee", "manager")
    small, large = refund(60000), refund(250000, "CH-1003-D", "C1003")
    store._conn().execute("INSERT INTO charges VALUES ('CH-1002-BIG', 'C1002', 90000, 'upgrade', '2026-01-01', NULL)")
    small.record_id = "CH-1002-BIG"
    store._conn().execute("INSERT INTO charges VALUES ('CH-1003-BIG', 'C1003', 400000, 'upgrade', '2026-01-01', NULL)")
    large.record_id = "CH-1003-BIG"
    for r in (small, large):
        assert (await work.submit_approval(r)).status == "pending"
    kim, _ = await sign_in(console.url, "kim")
    page = await kim.get(f"/requests/{small.request_id}")
    assert page.status_code == 200 and "4111" not in page.text and "•" in page.text  # caller digits masked
    # Billing's own tables, handed to the console by the domain (domains/billing/console.py).
    assert "<h3>Charges (180 days)</h3>" in page.text and "CH-1002-D" in page.text and "$249.00" in page.text
    assert "<h3>Refunds</h3>" in page.text
    token = csrf_in(page.text)
    # No CSRF token: refused before anything happens.
    r = await kim.post(f"/requests/{small.request_id}/decide", data={"verdict": "approve", "reason": "ok"})
    assert r.status_code == 403
    # A forged form field claiming a bigger role changes nothing: the role is the account's.
    r = await kim.post(f"/requests/{small.request_id}/decide",
                 data={"verdict": "approve", "reason": "ok", "role": "manager", "operator": "lee", "csrf": token})
    assert r.status_code == 409 and "kim (agent) may approve up to $500.00; this request is $600.00" in r.text
    # The JSON API says the same.
    r = await kim.post(f"/api/requests/{small.request_id}/decide", json={"verdict": "approve", "reason": "ok"},
                 headers={"x-csrf-token": token})
    assert r.status_code == 409 and "may approve up to $500.00" in r.json()["refused"]
    await eventually(lambda: len([e for e in store.audit_for(small.request_id) if e.action == "approve_refused"]) == 2)
    assert {(e.actor, e.role) for e in store.audit_for(small.request_id) if e.action == "approve_refused"} == {("kim", "agent")}
    assert any(e.action == "csrf_refused" and e.actor == "kim" for e in ops.search_audit(store, actor="kim"))

    # Four-eyes: $2,500 needs two different operators, the second a supervisor or above.
    sam, _ = await sign_in(console.url, "sam")
    lee, _ = await sign_in(console.url, "lee")
    st = csrf_in((await sam.get(f"/requests/{large.request_id}")).text)
    first = await sam.post(f"/api/requests/{large.request_id}/decide", json={"verdict": "approve", "reason": "checked"},
                     headers={"x-csrf-token": st})
    assert first.status_code == 200 and "second operator" in first.json()["result"]
    again = await sam.post(f"/api/requests/{large.request_id}/decide", json={"verdict": "approve", "reason": "really"},
                     headers={"x-csrf-token": st})
    assert again.status_code == 409 and "a second, different operator must approve" in again.json()["refused"]
    assert (await work.status(large.request_id)).state == "pending"  # one approval is not enough
    lt = csrf_in((await lee.get(f"/requests/{large.request_id}")).text)
    second = await lee.post(f"/api/requests/{large.request_id}/decide", json={"verdict": "approve", "reason": "agree"},
                      headers={"x-csrf-token": lt})
    assert second.status_code == 200, second.text
    done = await work.wait_for_decision(large.request_id, 10)
    assert (done.state, done.decided_by) == ("completed", "sam+lee")
    refunds = [r for r in Ledger(store).list_refunds("C1003") if r.idempotency_key.startswith(large.request_id)]
    assert len(refunds) == 1 and refunds[0].approved_by == "sam+lee"
    trail = [(e.action, e.actor, e.role) for e in store.audit_for(large.request_id)
             if e.action in ("approved_first", "approved")]
    assert trail == [("approved_first", "sam", "supervisor"), ("approved", "sam+lee", "manager")]
    views = [e for e in store.audit_for(large.request_id) if e.action == "request_viewed"]
    assert {e.actor for e in views} == {"sam", "lee"}


async def test_own_customer_account_is_refused(console, store, work: DurableWork) -> None:
    ops.add_operator(store, name="cara", role="manager", limit_cents=10_000_000, password_hash=None, customer_id="C1004")
    from console.accounts import hash_password

    ops.set_password_hash(store, "cara", hash_password("correct horse battery staple"))
    req = ApprovalRequest("close_account", "C1004", None, "closing", "human needed", "account/close", uid("close-C1004"))
    await work.submit_approval(req)
    cara, _ = await sign_in(console.url, "cara")
    page = await cara.get(f"/requests/{req.request_id}")
    assert "your own customer account" in page.text
    r = await cara.post(f"/api/requests/{req.request_id}/decide", json={"verdict": "deny", "reason": "mine"},
                  headers={"x-csrf-token": csrf_in(page.text)})
    assert r.status_code == 409 and "own customer account" in r.json()["refused"]


async def test_sign_out_ends_the_session_and_sign_in_is_rate_limited_per_address(console, store) -> None:
    operator(store, "rita")
    c, _ = await sign_in(console.url, "rita")
    home = await c.get("/")
    out = await c.post("/logout", data={"csrf": csrf_in(home.text)})
    assert out.status_code == 303
    cookie = out.headers.get("set-cookie", "")
    assert "cc_session=" in cookie  # cleared
    import httpx

    stale = httpx.AsyncClient(base_url=console.url, cookies={"cc_session": c.cookies.get("cc_session") or "x"})
    assert (await stale.get("/")).status_code == 303
    # Many names from one address: the per-address limit answers before any account locks.
    codes = [(await sign_in(console.url, f"guess{i}", "whatever"))[1].status_code for i in range(22)]
    assert 429 in codes and codes[0] == 401
    assert any(e.action == "sign_in_refused" and "too many" in e.reason for e in ops.search_audit(store, action="sign_in"))


async def test_forged_updates_through_the_temporal_client_are_refused_and_audited(client, store, worker,
                                                                                work: DurableWork) -> None:
    from temporalio.client import WorkflowUpdateFailedError

    from console.accounts import grant_for
    from workflows import authz

    req = refund(30000)
    await work.submit_approval(req)
    handle = client.get_workflow_handle(req.request_id)
    kim = operator(store, "kim2", "agent")
    boss = operator(store, "boss2", "manager")
    other_key = b"z" * 48
    mine, _ = grant_for(kim, req.request_id, "approve", (await _key(store)), 60)
    cases = {
        "no credential": {"operator": "boss2", "role": "manager", "reason": "trust me"},
        "foreign key": {"operator": "boss2", "role": "manager", "reason": "x",
                        "grant": grant_for(boss, req.request_id, "approve", other_key, 60)[0]},
        "role swapped": {"operator": "kim2", "role": "manager", "reason": "x", "grant": mine},
        "other request": {"operator": "kim2", "role": "agent", "reason": "x",
                          "grant": grant_for(kim, "refund-other", "approve", (await _key(store)), 60)[0]},
        "deny grant used to approve": {"operator": "kim2", "role": "agent", "reason": "x",
                                       "grant": grant_for(kim, req.request_id, "deny", (await _key(store)), 60)[0]},
        "reserved name": {"operator": "auto", "role": "system", "reason": "x"},
    }
    for name, payload in cases.items():
        try:
            await handle.execute_update("approve", payload)
        except WorkflowUpdateFailedError as err:
            assert "credential" in str(err.cause) or "role does not match" in str(err.cause), (name, err.cause)
        else:
            raise AssertionError(f"{name}: accepted")
    await eventually(lambda: len([e for e in store.audit_for(req.request_id) if e.action == "approve_refused"]) == len(cases))
    actors = {e.actor for e in store.audit_for(req.request_id)}
    assert {"unverified:boss2", "unverified:auto", "kim2"} <= actors
    assert (await work.status(req.request_id)).state == "pending"
    assert authz.clean("ok") == "ok"


async def _key(store) -> bytes:  # noqa: ANN001
    from workflows.keys import signing_keys

    return signing_keys(store.path.parent)[0]


async def test_a_request_page_renders_when_billing_is_down(settings, store, worker, work: DurableWork) -> None:  # noqa: ANN001
    """The company's billing API is unreachable: the operator still sees the request, the
    decision form and the rest of the history; billing's tables say they could not be read."""
    from tests.console.conftest import Console

    console = Console(settings, CALLCENTER_ADAPTERS="billing=tests.console.broken_systems:billing")
    try:
        operator(store, "kim", "agent")
        req = refund(20000)
        assert (await work.submit_approval(req)).status == "pending"
        kim, _ = await sign_in(console.url, "kim")
        page = await kim.get(f"/requests/{req.request_id}")
        assert page.status_code == 200, page.text
        assert "<h3>Billing</h3>" in page.text and "could not be read just now" in page.text
        assert "Charges (180 days)" not in page.text and 'value="approve"' in page.text
        assert "<h3>Previous requests</h3>" in page.text and "unreachable" not in page.text
    finally:
        console.stop()
