"""Check a suite file written from the writers' brief, without running the line.

    /work/main/.venv/bin/python check.py FILE.yaml [--per-class N]

It loads the file with the loader `callcenter test` uses (meta.suites.loader.load_suites:
the suite format, specialist ids, request kinds, amounts), then checks what the brief says
about the demo data: class names, customers, charge ids, ticket kinds, refunds that can be
paid, profile changes that can happen. Errors make the call wrong; warnings are worth a look.
The last line printed is `OK <n> calls` or `ERRORS <k>`. Nothing here runs the line.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections import Counter
from decimal import Decimal
from pathlib import Path

# The checkout this file sits in; a copy handed to a writer (in /tmp) names it by CALLCENTER_ROOT
# or finds the usual one.
_HERE = next((p for p in Path(__file__).resolve().parents if (p / "meta" / "suites").is_dir()), Path("/work/main"))
ROOT = Path(os.environ.get("CALLCENTER_ROOT") or _HERE)
sys.path.insert(0, str(ROOT))

CLASSES = ("clear_need", "multi_need", "pending_question", "misroute", "identity_first", "other_language",
           "goodbye_person")

# The demo data (BRIEF.md, "The demo data").
CUSTOMERS = {
    "C1001": {"plan": "starter", "locked": False},
    "C1002": {"plan": "pro", "locked": False},
    "C1003": {"plan": "enterprise", "locked": False},
    "C1004": {"plan": "starter", "locked": True},
    "C1005": {"plan": "pro", "locked": False},
}
PLANS = ("starter", "pro", "enterprise")
CHARGES = {f"CH-{c[1:]}-{m}" for c in CUSTOMERS for m in (1, 2, 3)} | {"CH-1001-D", "CH-1002-D"}
INVOICES = {f"INV-{c[1:]}-{m}" for c in CUSTOMERS for m in (1, 2, 3)}
INCIDENTS = {"INC-41", "INC-42"}
# The only refund the line can pay during a call on the demo data (everything else is refused
# or becomes an approval request): C1001's duplicate, $49.00 at most.
PAYABLE = {"CH-1001-D": Decimal("49.00")}
TICKET_KINDS = ("callback", "engineering", "security", "step_up_callback")

_CHARGE_SAID = re.compile(r"\bch[-\s]?\d{4}-[a-z0-9]+\b", re.I)
_INVOICE_SAID = re.compile(r"\binv[-\s]?\d{4}-\d+\b", re.I)
_INCIDENT_SAID = re.compile(r"\binc-\d+\b", re.I)


def _norm(said: str, prefix: str) -> str:
    return re.sub(rf"^{prefix}[-\s]?", f"{prefix}-", said.upper())


def check(path: Path, per_class: int | None) -> tuple[int, list[str], list[str]]:
    """(calls, errors, warnings) for one suite file."""
    from meta.suites.loader import load_suites

    suites, load_errors = load_suites([path])
    errors = [f"error: {e}" for e in load_errors]
    warnings: list[str] = []
    calls = 0
    for suite in suites:
        classes: Counter[str] = Counter()
        for call in suite.calls:
            calls += 1
            where = f"{suite.path}:{call.line}: call {call.name!r}"

            def err(msg: str, where: str = where) -> None:
                errors.append(f"error: {where}: {msg}")

            def warn(msg: str, where: str = where) -> None:
                warnings.append(f"warning: {where}: {msg}")

            if call.klass is None:
                err(f"no `class:`; use one of {', '.join(CLASSES)}")
            elif call.klass not in CLASSES:
                err(f"unknown class {call.klass!r}; use one of {', '.join(CLASSES)}")
            else:
                classes[call.klass] += 1
            if call.customer is not None and call.customer.upper() not in CUSTOMERS:
                err(f"unknown customer {call.customer!r}; the demo customers are {', '.join(CUSTOMERS)}")
            e = call.expect
            for charge, cents in e.refunds:
                amount = Decimal(cents) / 100
                if charge not in CHARGES:
                    err(f"expect.refunds: no charge {charge} in the demo data")
                elif charge not in PAYABLE:
                    err(f"expect.refunds: {charge} is never paid during a call (the brief: refused, or an approval "
                        "request -> `requests: [refund]`)")
                elif amount > PAYABLE[charge]:
                    err(f"expect.refunds: at most ${PAYABLE[charge]} can be refunded on {charge}, not ${amount}")
            if len(e.refunds) > 1:
                err("expect.refunds: the demo data has only one refund that can be paid (CH-1001-D)")
            for kind in e.tickets or ():
                if kind not in TICKET_KINDS:
                    err(f"expect.tickets: unknown ticket kind {kind!r}; kinds: {', '.join(TICKET_KINDS)}")
            for cid, fields in e.profile.items():
                if cid not in CUSTOMERS:
                    err(f"expect.profile: unknown customer {cid}")
                    continue
                for name, value in fields.items():
                    if name in ("email", "phone"):
                        err(f"expect.profile.{cid}.{name}: an email or phone change is never made during a call "
                            "(a call back confirms it later): leave it out")
                    elif name == "plan":
                        if str(value).lower() not in PLANS:
                            err(f"expect.profile.{cid}.plan: {value!r} is not a plan ({', '.join(PLANS)})")
                        elif str(value).lower() == CUSTOMERS[cid]["plan"]:
                            err(f"expect.profile.{cid}.plan: {cid} is on {value} already, so nothing would change")
                    elif name == "locked":
                        if value is not True:
                            err(f"expect.profile.{cid}.locked: the line never unlocks during a call (only `true`)")
                        elif CUSTOMERS[cid]["locked"]:
                            err(f"expect.profile.{cid}.locked: {cid} is locked already, so nothing would change")
                        elif "security" not in (e.tickets or ()):
                            warn(f"a lock of {cid} also opens a security review: add `tickets: [security]`")
            if e.requests.count("refund") and call.customer in ("C1001",) and not e.refunds:
                warn("C1001's duplicate (CH-1001-D, $49.00) is refunded at once, not filed as `requests: [refund]`")
            if e.refunds and call.customer not in (None, "C1001"):
                err(f"expect.refunds: {call.customer} is not the owner of CH-1001-D")
            for n, turn in enumerate(call.turns, 1):
                texts = [turn.say, *turn.expect.says, *turn.expect.not_says]
                for text in texts:
                    for said in _CHARGE_SAID.findall(text):
                        if _norm(said, "CH") not in CHARGES:
                            warn(f"turn {n}: {said!r} is no charge of the demo data")
                    for said in _INVOICE_SAID.findall(text):
                        if _norm(said, "INV") not in INVOICES:
                            warn(f"turn {n}: {said!r} is no invoice of the demo data")
                    for said in _INCIDENT_SAID.findall(text):
                        if said.upper() not in INCIDENTS:
                            warn(f"turn {n}: {said!r} is no incident of the demo data")
                missing = [a for a in turn.expect.needs if a not in e.reach]
                if missing:
                    warn(f"turn {n}: needs {', '.join(missing)} not in the call's expect.reach")
                if len(turn.expect.needs) == 1:
                    warn(f"turn {n}: `needs` marks a multi-need turn; one need is no multi-need turn")
                for word in turn.expect.says:
                    if word.strip().lower() in ("help", "anything", "account", "you", "the", "i", "a", "is", "can"):
                        warn(f"turn {n}: says {word!r} is in almost every reply; pick a word of the answer itself")
                    elif len(word.strip()) <= 2 and not word.strip().isdigit():
                        warn(f"turn {n}: says {word!r} is so short it is inside many words; use a longer one")
        if per_class is not None:
            for klass in CLASSES:
                if classes[klass] != per_class:
                    errors.append(f"error: {suite.path}: class {klass} has {classes[klass]} calls, not {per_class}")
    return calls, errors, warnings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Check a suite written from the writers' brief (does not run the line).")
    ap.add_argument("file", type=Path, help="the suite YAML file")
    ap.add_argument("--per-class", type=int, metavar="N", help="each of the seven classes must have exactly N calls")
    args = ap.parse_args(argv)
    try:
        calls, errors, warnings = check(args.file, args.per_class)
    except Exception as exc:  # a file that cannot even be found or read: one error line
        calls, errors, warnings = 0, [f"error: {args.file}: {' '.join(str(exc).split())}"], []
    for line in warnings + errors:
        print(line)
    if errors:
        print(f"ERRORS {len(errors)}")
        return 1
    print(f"OK {calls} calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
