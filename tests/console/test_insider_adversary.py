"""The floor of issue 27: the insider adversary (benchmarks/operators/insider.py) finds no
failure. Here its probes for grants replayed, expired and reused, hand-started workflows,
updates without a credential and requests ended outside the line, against this session's dev server, with the real
`callcenter temporal-worker` and `callcenter console` processes it starts itself. The whole
set (sign-in, input, audit too) runs as the benchmark; see benchmarks/README.md."""

from __future__ import annotations

from benchmarks.operators.insider import run_against, table


async def test_the_insider_finds_no_way_to_decide_or_pay_what_it_may_not(settings, store, client, work) -> None:  # noqa: ANN001
    rows = await run_against(settings, store, client, work, ["grant", "forged", "ticket", "ended"], lambda _: None)
    assert len(rows) >= 30 and all(r["held"] for r in rows), table(rows)
