"""Temporal: durable approvals and tickets under an SLA, their worker, client and console."""
