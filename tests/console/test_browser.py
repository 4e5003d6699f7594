"""Approve and deny in a real browser (Debian's chromium driven by Playwright): the live queue
picks up a new request without a reload, a refusal is shown as a sentence, and screenshots
of the queue and a request page are taken (into docs/ for the README only when
CALLCENTER_UPDATE_SCREENSHOTS=1, so a test run leaves the checkout unchanged)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import refund_request, require
from workflows.client import ApprovalRequest, DurableWork

from .conftest import PASSWORD, operator, uid

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DOCS = Path(__file__).resolve().parents[2] / "docs"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(autouse=True)
def _chromium() -> None:
    require("Debian's chromium", Path(CHROMIUM).exists(), "bash .ci/setup --test installs it")


def refund(amount: int, charge: str, customer: str, said: str) -> ApprovalRequest:
    return refund_request(uid(f"refund-{charge}"), amount_cents=amount, charge=charge, customer=customer,
                          said=said, finding=f"duplicate charge of ${amount / 100:,.2f}")


async def test_approve_deny_live_queue_and_refusal_in_chromium(console, store, work: DurableWork, tmp_path: Path) -> None:
    from playwright.async_api import async_playwright, expect

    shots = DOCS if os.environ.get("CALLCENTER_UPDATE_SCREENSHOTS") == "1" else tmp_path

    operator(store, "maria", "agent")
    first = refund(24900, "CH-1002-D", "C1002", "uh i was like charged twice for the same thing")
    over = refund(4900, "CH-1001-D", "C1001", "um the forty nine dollar charge, card ending 4242 4242")
    over.amount_cents = 60000  # over an agent's $500
    for r in (first, over):
        await work.submit_approval(r)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page(viewport={"width": 1280, "height": 720})
            await page.goto(console.url + "/")
            await expect(page).to_have_url(console.url + "/login")
            await page.fill("input[name=name]", "maria")
            await page.fill("input[name=password]", "wrong password here")
            await page.click("button:has-text('Sign in')")
            await expect(page.get_by_role("alert")).to_contain_text("wrong name or password")
            await page.fill("input[name=name]", "maria")
            await page.fill("input[name=password]", PASSWORD)
            await page.click("button:has-text('Sign in')")
            await expect(page.locator(f"tr[data-id='{first.request_id}']")).to_be_visible()

            # A request filed while the page is open appears without a reload.
            late = ApprovalRequest("close_account", "C1005", None, "moving away", "closure needs a human",
                                   "account/close_account", uid("close-C1005"))
            await work.submit_approval(late)
            await expect(page.locator(f"tr[data-id='{late.request_id}']")).to_be_visible(timeout=10_000)
            await expect(page.locator(f"tr[data-id='{first.request_id}']")).to_contain_text("escalates in")
            shots.mkdir(exist_ok=True)
            await page.screenshot(path=str(shots / "console-queue.png"), full_page=True)

            # Approve within the limit: the answer is the workflow's.
            await page.click(f"a:has-text('{first.request_id}')")
            await expect(page.locator("dd.said")).to_contain_text("charged twice")
            await page.screenshot(path=str(shots / "console-request.png"), full_page=True)
            assert all((shots / f"console-{n}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for n in ("queue", "request"))
            await page.fill("textarea[name=reason]", "duplicate confirmed on the statement")
            await page.click("button.approve")
            await expect(page.get_by_role("status")).to_contain_text(f"{first.request_id} approved by maria")
            assert (await work.wait_for_decision(first.request_id, 10)).state == "completed"

            # Over the limit: refused, said plainly; the card digits were masked.
            await page.goto(console.url + f"/requests/{over.request_id}")
            assert "4242 4242" not in await page.content()
            await page.fill("textarea[name=reason]", "looks fine")
            await page.click("button.approve")
            await expect(page.get_by_role("alert")).to_contain_text(
                "maria (agent) may approve up to $500.00; this request is $600.00")

            # Deny, then the queue no longer lists the decided requests.
            await page.goto(console.url + f"/requests/{late.request_id}")
            await page.fill("textarea[name=reason]", "open invoice first")
            await page.click("button.deny")
            await expect(page.get_by_role("status")).to_contain_text("denied by maria")
            await page.goto(console.url + "/")
            await expect(page.locator(f"tr[data-id='{over.request_id}']")).to_be_visible()
            await expect(page.locator(f"tr[data-id='{first.request_id}']")).to_have_count(0, timeout=10_000)
            await expect(page.locator(f"tr[data-id='{late.request_id}']")).to_have_count(0, timeout=10_000)
        finally:
            await browser.close()
