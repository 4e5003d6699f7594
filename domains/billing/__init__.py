"""Billing: refunds, refund status, invoices, plan changes and balance.

The spec (specialists, wording, durable actions) is in spec.py; actions.py imports
without LiveKit, so the Temporal worker loads only what it runs.
"""
