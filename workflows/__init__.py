"""Temporal: durable approvals and tickets under an SLA, their worker and client (the operators' side is console/)."""
