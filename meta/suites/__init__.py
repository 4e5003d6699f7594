"""A company's own conversation test suites (`callcenter test`): load, run, check, report.

The format is docs/suites.md (schema: `suite.schema.json`). Also imported by the
benchmarks, so a scripted call is judged the same way everywhere:

    from meta.suites.loader import load_suites     # files -> Suite values, one-line errors
    from meta.suites.runner import run_suites      # every call on a fresh store, -j N processes
    from meta.suites.checks import snapshot, check_call, check_reply   # the checker alone
"""
