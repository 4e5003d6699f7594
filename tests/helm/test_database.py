"""One shared database for every component: an existing PostgreSQL (URL from a Secret) or
the in-cluster one; the schema migrated once per release by a hook Job."""

from __future__ import annotations

import helm_python as helm
import pytest
from helmchart import container, env_of, fullname, load_values, pod_spec, render

FULL = fullname()
JOB = f"{FULL}-db-migrate"
PG = f"{FULL}-postgresql"


@pytest.fixture(scope="module")
def variants() -> dict:
    console = {"console": {"enabled": True, "existingSecret": "c"}}
    return {"in-cluster": render(console), "external": render(load_values("external-database"))}


def _workloads(r) -> list[dict]:  # noqa: ANN001
    return r.all("Deployment") + r.all("Job")


def test_every_component_points_at_the_same_database(variants) -> None:  # noqa: ANN001
    for name, r in variants.items():
        workloads = _workloads(r)
        assert {w["metadata"]["name"] for w in workloads} == {
            f"{FULL}-agent-worker", f"{FULL}-temporal-worker", f"{FULL}-console", JOB}, name
        urls = [env_of(w)["CALLCENTER_DATABASE_URL"] for w in workloads]
        assert all(u == urls[0] for u in urls), name
        if name == "external":
            assert urls[0]["valueFrom"]["secretKeyRef"] == {"name": "callcenter-database", "key": "url"}
            assert r.all("StatefulSet") == [] and r.maybe("Secret", PG) is None
        else:
            assert urls[0]["value"] == f"postgresql+psycopg://callcenter@{PG}:5432/callcenter"
            assert "@" in urls[0]["value"] and ":" not in urls[0]["value"].split("//")[1].split("@")[0]
            for w in workloads:  # the password comes from the Secret, never from values or the URL
                assert env_of(w)["PGPASSWORD"]["valueFrom"]["secretKeyRef"] == {"name": PG, "key": "POSTGRES_PASSWORD"}
            sts = r.get("StatefulSet", PG)
            assert env_of(sts)["POSTGRES_PASSWORD"]["valueFrom"]["secretKeyRef"]["name"] == PG
            assert r.get("Service", PG)["spec"]["ports"][0]["port"] == 5432
            assert len(r.get("Secret", PG)["data"]["POSTGRES_PASSWORD"]) >= 40  # 32 random chars, base64


def test_pods_keep_only_caches_and_never_migrate(variants) -> None:  # noqa: ANN001
    for r in variants.values():
        assert r.get("ConfigMap", f"{FULL}-config")["data"]["CALLCENTER_DB_MIGRATE_ON_START"] == "false"
        for d in r.all("Deployment"):
            volumes = pod_spec(d)["volumes"]
            assert all("persistentVolumeClaim" not in v for v in volumes)
            assert {v["name"] for v in volumes if "emptyDir" in v} == {"data", "tmp"}


def test_migrations_run_once_per_release_as_a_hook_job(variants) -> None:  # noqa: ANN001
    hooks = {n: r.get("Job", JOB)["metadata"]["annotations"]["helm.sh/hook"] for n, r in variants.items()}
    # An existing server is migrated before anything new starts; the in-cluster one exists
    # only after the release's resources are created.
    assert hooks == {"external": "pre-install,pre-upgrade", "in-cluster": "post-install,pre-upgrade"}
    job = variants["external"].get("Job", JOB)
    assert container(job)["args"] == ["db", "upgrade", "--no-demo-data"]
    assert container(variants["in-cluster"].get("Job", JOB))["args"] == ["db", "upgrade"]
    assert "envFrom" not in container(job)  # a pre-install hook runs before the ConfigMap exists
    assert pod_spec(job)["restartPolicy"] == "Never"


@pytest.mark.parametrize("values, message", [
    ({"postgresql": {"enabled": False}}, "needs one shared database"),
    ({"database": {"existingSecret": "db"}}, "not both"),
])
def test_database_choice_is_checked(values: dict, message: str) -> None:
    with pytest.raises(helm.HelmError, match=message):
        render(values)


def test_notes_say_where_the_data_is(variants) -> None:  # noqa: ANN001
    assert 'URL from Secret "callcenter-database"' in variants["external"].notes
    assert f'in-cluster PostgreSQL "{PG}"' in variants["in-cluster"].notes


def test_hpa_scales_on_active_calls_and_workers_know_their_capacity() -> None:
    r = render(load_values("autoscaling"))
    metrics = r.get("HorizontalPodAutoscaler", f"{FULL}-agent-worker")["spec"]["metrics"]
    pods = [m["pods"] for m in metrics if m["type"] == "Pods"]
    assert pods == [{"metric": {"name": "callcenter_calls_active"},
                     "target": {"type": "AverageValue", "averageValue": "20"}}]
    assert any(m["type"] == "Resource" and m["resource"]["name"] == "cpu" for m in metrics)
    assert r.get("ConfigMap", f"{FULL}-config")["data"]["CALLCENTER_WORKER_MAX_CALLS"] == "30"
    assert "20 active calls per pod" in r.notes
    default = render({"agentWorker": {"autoscaling": {"enabled": True}}})
    assert [m["type"] for m in default.get("HorizontalPodAutoscaler", f"{FULL}-agent-worker")["spec"]["metrics"]] == ["Resource"]


def test_adapters_reach_both_workers_through_the_config() -> None:
    r = render({"adapters": "billing=acme.line:billing, tickets=acme.line:tickets"})
    assert r.get("ConfigMap", f"{FULL}-config")["data"]["CALLCENTER_ADAPTERS"] == "billing=acme.line:billing, tickets=acme.line:tickets"
    assert "CALLCENTER_ADAPTERS" not in render().get("ConfigMap", f"{FULL}-config")["data"]  # empty: the database


def test_a_domains_own_port_passes_the_schema() -> None:
    # Port names are the application's to check (a domain may declare one: docs/adapters.md).
    r = render({"adapters": "carrier=acme.line:carrier"})
    assert r.get("ConfigMap", f"{FULL}-config")["data"]["CALLCENTER_ADAPTERS"] == "carrier=acme.line:carrier"


@pytest.mark.parametrize("bad", ["Billing Port=acme.line:x", "billing=acme.line", "billing", "billing=acme line:x"])
def test_a_malformed_adapters_value_is_refused_by_the_schema(bad: str) -> None:
    with pytest.raises(helm.HelmError, match="adapters"):
        render({"adapters": bad})
