"""The insider against the console's front door: sign-in, numbers in forms, anonymous posts."""

from __future__ import annotations

import asyncio
import re
import time

import httpx

from benchmarks.operators.tools import BAD_NUMBERS, PASSWORD, WEAK, Tools, operator, refused
from callcenter.store import operators as ops
from tests.console.conftest import Console, csrf_in


def _alert(page: str) -> str:
    m = re.search(r'role="alert">(.*?)</p>', page, re.S)
    return m.group(1).strip() if m else ""


async def _guess(url: str, name: str, password: str, **headers: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=url, timeout=15, headers=headers) as c:
        page = await c.get("/login")
        return await c.post("/login", data={"name": name, "password": password, "csrf": csrf_in(page.text)})


class SignInProbes(Tools):
    async def probe_signin(self) -> None:
        b = "signin"
        n = self.settings.console_login_per_address
        codes = [(await _guess(self.url, f"guess{i}", "whatever", **{"x-forwarded-for": f"203.0.113.{i}"})).status_code
                 for i in range(n + 3)]
        self.held(b, "guesses with a new X-Forwarded-For each, from one untrusted peer, are throttled",
                  429 in codes and codes.index(429) <= n, f"first 429 at guess {codes.index(429) + 1 if 429 in codes else '-'} of {len(codes)}")
        more = [(await _guess(self.url, "kim", "whatever", **{"x-real-ip": f"198.51.100.{i}", "forwarded": f"for=198.51.100.{i}"})
                 ).status_code for i in range(3)]
        self.held(b, "X-Real-IP / Forwarded do not reset the throttle either", set(more) == {429}, str(more))
        rows = [e.reason for e in ops.search_audit(self.store, action="sign_in_failed")]
        self.held(b, "failed sign-ins are audited with the peer's address, not the claimed one",
                  bool(rows) and all("127.0.0.1" in r for r in rows) and not any("203.0.113" in r or "198.51.100" in r for r in rows),
                  (rows[-1] if rows else "no rows")[:100])
        # Behind a proxy the console trusts, each client is its own address (as in production).
        proxied = Console(self.settings, CALLCENTER_CONSOLE_TRUSTED_PROXIES='["127.0.0.1"]')
        try:
            await self._behind_proxy(proxied.url)
        finally:
            proxied.stop()
        for name, pw in WEAK:
            ok, said = refused(await self.cc("operators", "add", name, "--role", "manager", "--password-stdin", stdin=pw + "\n"))
            self.held(b, f"a manager {name!r} with the password {pw!r}", ok, said)
        ok, said = refused(await self.cc("operators", "add", "boss-ok", "--role", "manager", "--password-stdin",
                                         stdin="velvet-harbor-lantern-93\n"))
        self.held(b, "control: a strong password is accepted", not ok, said)

    async def _behind_proxy(self, url: str) -> None:
        b = "signin"
        r = await _guess(url, "sue", PASSWORD, **{"x-forwarded-for": "198.51.100.7"})
        rows = ops.search_audit(self.store, actor="sue", action="sign_in")
        self.held(b, "sign-in audit names the client address a trusted proxy gave", r.status_code == 303 and bool(rows)
                  and rows[0].reason.endswith("198.51.100.7"), rows[0].reason if rows else f"HTTP {r.status_code}")
        operator(self.store, "maria", "manager")
        for i in range(self.settings.console_login_failures):
            await _guess(url, "maria", "not the password", **{"x-forwarded-for": f"192.0.2.{i}"})
        locked = await _guess(url, "maria", PASSWORD, **{"x-forwarded-for": "192.0.2.50"})
        unknown = await _guess(url, "nobody-here", "whatever", **{"x-forwarded-for": "192.0.2.51"})
        self.held(b, "a locked account and an unknown one get the same answer",
                  locked.status_code == unknown.status_code == 401 and _alert(locked.text) == _alert(unknown.text),
                  f"{locked.status_code} {_alert(locked.text)[:50]!r} / {unknown.status_code} {_alert(unknown.text)[:50]!r}")
        # Guesses at one name from many addresses: the name's throttle stops them (audited), and
        # the answer is the one every refusal gets, for a real account and a made-up one alike.
        operator(self.store, "pat", "supervisor")
        answers, stopped = set(), []
        for name in ("pat", "nobody-at-all"):
            for i in range(self.settings.console_login_per_account + 1):
                r = await _guess(url, name, "guess", **{"x-forwarded-for": f"192.0.{10 + len(answers)}.{i}"})
            answers.add((r.status_code, _alert(r.text)))
            stopped += [e for e in ops.search_audit(self.store, subject=f"operator:{name}", action="sign_in_refused")
                        if "for this name" in e.reason]
        self.held(b, "guesses at one name from many addresses are throttled, alike for unknown names",
                  len(answers) == 1 and len({e.subject for e in stopped}) == 2, f"{answers}, throttled names {len({e.subject for e in stopped})}")

    async def probe_input(self) -> None:
        b = "input"
        c = await self.session("kim")
        token = csrf_in((await c.get("/")).text)
        for bad in BAD_NUMBERS:
            started = time.monotonic()
            r = await c.post("/queue/rows", data={"min_amount": bad}, headers={"x-csrf-token": token})
            took = time.monotonic() - started
            self.held(b, f"queue filter min_amount={bad}", r.status_code == 400 and took < 5, f"HTTP {r.status_code} in {took:.2f} s")
        for field in ("max_amount", "min_age_min"):
            r = await c.post("/queue/rows", data={field: "1e400000"}, headers={"x-csrf-token": token})
            self.held(b, f"queue filter {field}=1e400000", r.status_code == 400, f"HTTP {r.status_code}")
        floods = [c.post("/queue/rows", data={"min_amount": "1e400000"}, headers={"x-csrf-token": token}) for _ in range(20)]
        started = time.monotonic()
        health, *_ = await asyncio.gather(httpx.AsyncClient(base_url=self.url, timeout=15).get("/healthz"), *floods)
        took = time.monotonic() - started
        self.held(b, "health answers while 20 posts of 1e400000 arrive", health.status_code == 200 and took < 5, f"{took:.2f} s")
        for bad in ("NaN", "1e400000"):
            p = await self.cc("approvals", "list", "--min-amount", bad)
            self.held(b, f"`approvals list --min-amount {bad}`", p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1,
                      f"exit {p.returncode}: {p.stderr.strip()[:100]}")

    async def probe_audit(self) -> None:
        b = "audit"
        limit = self.settings.console_audit_refusals_per_address
        before = len(self.store.audit_for("/login"))
        async with httpx.AsyncClient(base_url=self.url, timeout=15) as anon:
            codes = {(await anon.post("/login", data={"name": "x", "password": "y"})).status_code for _ in range(30)}
            after_login = len(self.store.audit_for("/login"))
            self.held(b, "30 anonymous sign-in posts with no CSRF token", codes == {403} and after_login - before <= limit + 1,
                      f"HTTP {sorted(codes)}, {after_login - before} audit rows (limit {limit} + 1)")
            total = len(ops.search_audit(self.store, limit=100000))
            codes = {(await anon.post("/api/requests/refund-x/decide", json={"verdict": "approve", "reason": "x"})).status_code
                     for _ in range(30)}
            grown = len(ops.search_audit(self.store, limit=100000)) - total
            self.held(b, "30 anonymous decision posts", not codes & {200} and grown <= limit + 1,
                      f"HTTP {sorted(codes)}, {grown} audit rows")
        rows = [e for e in ops.search_audit(self.store, actor="kim") if e.action == "sign_in"]
        self.held(b, "sign-in audit rows carry the source address", bool(rows) and all("127.0.0.1" in r.reason for r in rows),
                  rows[0].reason if rows else "no rows")
