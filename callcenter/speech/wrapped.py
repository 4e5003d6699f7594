"""`WrappedSTT`: the part every STT adapter here shares with the recogniser it wraps.

An adapter (`EarlySTT`, `NormalisedSTT`) is what the session holds, so it must report the
inner recogniser's model and provider (metrics and traces name them), pass on its metrics
and errors, and close it.
"""

from __future__ import annotations

from livekit.agents import stt


class WrappedSTT(stt.STT):
    def __init__(self, inner: stt.STT, *, capabilities: stt.STTCapabilities) -> None:
        super().__init__(capabilities=capabilities)
        self.inner = inner
        inner.on("metrics_collected", lambda m: self.emit("metrics_collected", m))
        inner.on("error", lambda e: self.emit("error", e))

    @property
    def model(self) -> str:
        return self.inner.model

    @property
    def provider(self) -> str:
        return self.inner.provider

    @property
    def busy(self) -> bool:
        """The recogniser is still at work on the caller's audio (`EarlySTT`: in speech or
        decoding); a wrapper that does no work of its own asks the recogniser it wraps."""
        return bool(getattr(self.inner, "busy", False))

    async def aclose(self) -> None:
        await self.inner.aclose()
