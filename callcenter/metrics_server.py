"""A tiny /metrics + /healthz (+ /readyz) HTTP server on a background thread.

prometheus_client's own ``start_http_server`` has no health endpoint and does not tell
which port it bound when asked for port 0; both matter here (Kubernetes probes hit
/healthz, tests ask for a free port). So this wraps prometheus_client's WSGI app in a
threading wsgiref server we control. A process with a readiness of its own (the Temporal
worker: connected and polling) passes `ready`, and /readyz answers 200 or 503 from it.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable, Iterable
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import REGISTRY, CollectorRegistry, make_wsgi_app, multiprocess

__all__ = ["MetricsServer", "serve"]


class _QuietHandler(WSGIRequestHandler):
    # Every scrape would otherwise print an access-log line to stderr.
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
        pass


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    # A slow scraper must not block a probe; daemon threads never hold up exit.
    daemon_threads = True


class _ThreadingServerV6(_ThreadingServer):
    address_family = socket.AF_INET6


def _multiprocess_registry() -> CollectorRegistry:
    # As LiveKit's own metrics server does: with PROMETHEUS_MULTIPROC_DIR set, the values
    # live in per-process files (LiveKit job processes) and are merged at scrape time.
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    return registry


def _app(registry: CollectorRegistry, ready: Callable[[], bool] | None = None) -> Callable[..., Iterable[bytes]]:
    if registry is REGISTRY and os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = _multiprocess_registry()
    metrics_app = make_wsgi_app(registry)

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "/")
        if path == "/healthz":
            start_response("200 OK", [("Content-Type", "text/plain; charset=utf-8")])
            return [b"ok\n"]
        if path == "/readyz" and ready is not None:
            ok = ready()
            start_response("200 OK" if ok else "503 Service Unavailable", [("Content-Type", "text/plain; charset=utf-8")])
            return [b"ready\n" if ok else b"not ready\n"]
        if path in ("/metrics", "/"):
            return metrics_app(environ, start_response)
        start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8")])
        return [b"not found: try /metrics or /healthz\n"]

    return app


class MetricsServer:
    """Handle on a running server: ``.port``, ``.addr``, ``.url`` and ``.close()``."""

    def __init__(self, port: int, *, addr: str = "127.0.0.1",
                 registry: CollectorRegistry = REGISTRY, ready: Callable[[], bool] | None = None) -> None:
        server_cls = _ThreadingServerV6 if ":" in addr else _ThreadingServer
        self._httpd = make_server(addr, port, _app(registry, ready), server_cls, handler_class=_QuietHandler)
        self.addr = addr
        self.port: int = self._httpd.server_address[1]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.2},
            name=f"metrics-http-{self.port}", daemon=True,
        )
        self._thread.start()

    @property
    def url(self) -> str:
        host = f"[{self.addr}]" if ":" in self.addr else self.addr
        return f"http://{host}:{self.port}/metrics"

    def close(self) -> None:
        """Stop serving and release the port (idempotent)."""
        if self._thread.is_alive():
            self._httpd.shutdown()
            self._thread.join(timeout=5)
        self._httpd.server_close()

    def __enter__(self) -> MetricsServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def serve(port: int, *, addr: str = "127.0.0.1", registry: CollectorRegistry = REGISTRY,
          ready: Callable[[], bool] | None = None) -> MetricsServer:
    """Serve /metrics and /healthz on ``addr:port`` in a daemon thread; port 0 picks a free port.

    The default address is loopback on purpose: exposing metrics beyond the host is a
    deployment decision (the Helm chart passes ``0.0.0.0``).
    """
    return MetricsServer(port, addr=addr, registry=registry, ready=ready)
