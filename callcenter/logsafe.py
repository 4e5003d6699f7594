"""Log references that let operators correlate lines without writing caller data.

Business ids embed customer and charge ids (`refund-CH-1002-D`); logs carry a stable short
digest instead, which an operator can recompute from an id to find its log lines.
"""

from __future__ import annotations

import hashlib
import logging
import re

from callcenter.redact import mask

# Words before a secret that has no digit in it ("my password is hunter two").
_SECRET_HINT = re.compile(r"pass(word|code)|\bpin\b|cvv|cvc|security code|_live_|_test_", re.I)


def ref(value: str) -> str:
    """A stable, non-reversible 10-character reference for an id that may name a customer."""
    return "ref:" + hashlib.sha256(value.encode()).hexdigest()[:10]


def masked_record(record: logging.LogRecord) -> logging.LogRecord:
    """The record with caller data masked in its message (`callcenter.redact.mask`): what a
    library logs (a transcript at DEBUG, an exception's text) is masked like our own lines.
    The record factory of every entry point calls this (`tracing.install_log_filter`)."""
    try:
        text = record.getMessage()
    except Exception:  # noqa: BLE001 - a malformed record is the handler's to report, not ours
        return record
    if any(ch.isdigit() or ch == "@" for ch in text) or _SECRET_HINT.search(text):
        masked = mask(text)
        if masked != text:
            record.msg, record.args = masked, None
    return record
