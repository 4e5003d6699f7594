"""A fourth domain is one folder (spec, supervisor, specialist, utterances) and one registry line."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from livekit.agents import function_tool

from callcenter.settings import load_settings
from callcenter.store import Store
from domains import registry
from domains.base import DomainSpec, SpecialistSpec
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded
from domains.supervisor import DomainSupervisorTask
from meta.session import build_line, start_call


@dataclass(kw_only=True)
class TrackParcelResult(SpecialistResult):
    parcel: str | None = None


class TrackParcelTask(SpecialistTask[TrackParcelResult]):
    result_type = TrackParcelResult

    @function_tool
    @guarded
    async def track_parcel(self) -> None:
        """Say where the caller's latest parcel is."""
        self.finish(TrackParcelResult(status="info", summary="Your parcel PX-1 is out for delivery today.", parcel="PX-1"))


class ShippingSupervisorTask(DomainSupervisorTask):
    pass


def _utterances(folder: Path) -> Path:
    folder.mkdir(parents=True)
    things = ["parcel", "package", "order", "delivery", "shipment", "box"]
    asks = ["where is my {}", "track my {}", "my {} has not arrived", "when will my {} arrive",
            "has my {} shipped yet", "can you trace my {}", "{} tracking please", "status of my {} delivery"]
    rows = [{"text": a.format(t), "label": "shipping/track"} for a in asks for t in things]
    (folder / "train.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return folder


@pytest.fixture
def fourth_domain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> DomainSpec:
    spec = DomainSpec(
        name="shipping",
        description="Transfer the caller to shipping: where a parcel is.\n\nArgs:\n    request: The caller's words about shipping.",
        topic="a delivery",
        supervisor=ShippingSupervisorTask,
        specialists=(SpecialistSpec("track", TrackParcelTask, "Route to parcel tracking.", "tracking a parcel", requires_identity=False),),
        utterances=_utterances(tmp_path / "utterances"),
    )
    ShippingSupervisorTask.spec = spec
    monkeypatch.setattr(registry, "DOMAINS", (*registry.DOMAINS, spec))  # the one registry line
    return spec


async def test_fourth_domain_routes_with_no_other_change(fourth_domain: DomainSpec, tmp_path: Path) -> None:
    line = build_line(load_settings(data_dir=tmp_path / "data"), store=Store(tmp_path / "db.sqlite3"))
    call = await start_call(line, customer_id="C1001")
    turn = await call.send("where is my parcel")
    assert [(h.from_agent, h.to_agent) for h in turn.hops] == [("meta", "shipping"), ("shipping", "shipping.track")]
    assert turn.results[0].status == "info"
    assert "out for delivery" in " ".join(turn.replies)
    # The other domains still route as before.
    other = await call.send("what's my balance")
    assert other.results[0].domain == "billing"
    await call.close()
