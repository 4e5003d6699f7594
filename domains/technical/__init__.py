"""Technical support: API errors, service status, integration help, escalations, tickets.

The spec (specialists, wording, durable actions) is in spec.py; actions.py imports
without LiveKit, so the Temporal worker loads only what it runs.
"""
