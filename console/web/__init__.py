"""The operators' web console: `callcenter console` (Starlette, server-rendered Jinja2)."""
