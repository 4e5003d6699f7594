"""Temporal: durable approvals and engineering escalations, their worker, client and console."""
