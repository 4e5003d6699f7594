"""A company's billing system that is down: every call raises, as an unreachable API would.

Named in CALLCENTER_ADAPTERS by the console test that checks a request page still renders."""

from __future__ import annotations

from typing import Any

from domains.billing.ports import Billing


class DownBilling:
    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)

        def unreachable(*args: Any, **kwargs: Any) -> Any:
            raise ConnectionError("billing API unreachable")

        return unreachable


def billing(store: object, settings: object) -> DownBilling:
    return DownBilling()


# The adapter check finds every method of the port (each name resolves to a callable).
assert all(callable(getattr(DownBilling(), n)) for n in vars(Billing) if not n.startswith("_"))
