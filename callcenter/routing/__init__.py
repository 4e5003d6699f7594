"""The routing engine: the fast-path intent classifier and its labelled-data loaders."""

from __future__ import annotations

from callcenter.routing.classifier import OOS, Intent, IntentRouter, RouterModelError
from callcenter.routing.data import DataError, read_labelled

__all__ = ["OOS", "DataError", "Intent", "IntentRouter", "RouterModelError", "read_labelled"]
