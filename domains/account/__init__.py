"""Account: sign-in help, profile updates, security, closure and two-factor resets.

Identity verification (`domains/identity.py`) is required before every one of them.

The spec (specialists, wording, durable actions) is in spec.py; actions.py imports
without LiveKit, so the Temporal worker loads only what it runs.
"""
