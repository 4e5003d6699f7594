"""The call id on every activity's log lines: read from the request the activity carries.

Requests (ApprovalRequest, EscalationRequest) carry the id of the call that made them; this
worker interceptor puts it in `callcenter.tracing.CALL_ID` for the activity's duration. The
SDK copies the context into the thread that runs a sync activity, so log records made there
carry it too. Spans are Temporal's own `TracingInterceptor`'s, when tracing is on.
"""

from __future__ import annotations

from typing import Any

from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
)

from callcenter.tracing import CALL_ID


def call_id_of(arg: Any) -> str | None:
    request = getattr(arg, "request", arg)
    value = getattr(request, "call_id", None)
    return value if isinstance(value, str) and value else None


class _Inbound(ActivityInboundInterceptor):
    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        token = CALL_ID.set(call_id_of(input.args[0]) if input.args else None)
        try:
            return await self.next.execute_activity(input)
        finally:
            CALL_ID.reset(token)


class CallIdInterceptor(Interceptor):
    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _Inbound(next)
