"""The Dockerfile, read (there is no Docker engine here, so the image is not built in
tests): slim Python 3.11 base, package installed with pip from the repository root into a
venv without pip, a final stage that takes only that venv, non-root final user matching the
chart's securityContext, data dir, entrypoint. The venv the final stage copies was built
the same way on this machine and measured: benchmarks/README.md, "Lean install"."""

from __future__ import annotations

import json
import re
import shlex
import tomllib

import yaml
from helmchart import CHART_DIR, REPO

DOCKERFILE = (REPO / "Dockerfile").read_text()


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE)
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        op, _, args = line.partition(" ")
        out.append((op.upper(), args.strip()))
    return out


def stages() -> list[list[tuple[str, str]]]:
    result: list[list[tuple[str, str]]] = []
    for op, args in instructions():
        if op == "FROM":
            result.append([])
        if result:
            result[-1].append((op, args))
    return result


def build_args() -> dict[str, str]:
    return dict(args.split("=", 1) for op, args in instructions() if op == "ARG" and "=" in args)


def test_every_stage_is_python_3_11_slim():
    base = build_args().get("PYTHON_IMAGE", "")
    assert re.fullmatch(r"python:3\.11-slim(-\w+)?", base), base
    for stage in stages():
        image = stage[0][1].split()[0].replace("${PYTHON_IMAGE}", base)
        assert re.fullmatch(r"python:3\.11-slim(-\w+)?", image), image


def test_package_is_installed_with_pip_from_the_repository_root():
    build = stages()[0]
    runs = " ".join(args for op, args in build if op == "RUN")
    install = re.search(r'pip --python /opt/venv/bin/python install "\.(\[([\w,]+)\])?"(\s|$)', runs)
    assert install, runs
    assert "python -m venv --without-pip /opt/venv" in runs
    copied = " ".join(args for op, args in build if op == "COPY")
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "pyproject.toml" in copied
    assert pyproject["project"]["readme"] in copied
    for pattern in pyproject["tool"]["setuptools"]["packages"]["find"]["include"]:
        package = pattern.rstrip("*")
        assert re.search(rf"\b{package}\b", copied), f"package {package} is not copied"
    assert "callcenter" in pyproject["project"]["scripts"]
    extras = set(filter(None, (install.group(2) or "").split(",")))
    assert extras <= set(pyproject["project"]["optional-dependencies"]) - {"test"}, extras
    # the chart offers llm.provider=openai, so the image must carry its plugin
    assert "openai" in extras


def test_final_stage_takes_only_the_venv_and_installs_nothing():
    build, final = stages()[0], stages()[-1]
    assert dict(build)["ENV"].count("PIP_NO_CACHE_DIR=1") == 1  # no pip cache in the build layer either
    copies = [args for op, args in final if op in ("COPY", "ADD")]
    assert copies == ["--from=build /opt/venv /opt/venv"], copies
    runs = " ".join(args for op, args in final if op == "RUN")
    for tool in ("pip", "apt-get", "gcc", "make", "curl", "wget"):
        assert not re.search(rf"\b{tool}\b", runs), f"the final stage runs {tool}"


def test_final_stage_runs_as_the_chart_uid_not_root():
    final = stages()[-1]
    users = [args for op, args in final if op == "USER"]
    assert users, "no USER in the final stage"
    uid = users[-1].split(":")[0]
    assert uid not in ("0", "root")
    values = yaml.safe_load((CHART_DIR / "values.yaml").read_text())
    assert int(uid) == values["podSecurityContext"]["runAsUser"] == values["securityContext"]["runAsUser"]
    workdir = [args for op, args in final if op == "WORKDIR"]
    assert workdir[-1] == "/app"
    env = " ".join(args for op, args in final if op == "ENV")
    assert "CALLCENTER_DATA_DIR=/data" in env
    assert "PYTHONDONTWRITEBYTECODE=1" in env  # read-only root filesystem


def test_entrypoint_is_the_console_script_and_defaults_to_the_agent_worker():
    final = dict(stages()[-1])
    assert json.loads(final["ENTRYPOINT"]) == ["callcenter"]
    assert json.loads(final["CMD"]) == ["worker", "start"]
    exposed = {int(p) for p in shlex.split(final["EXPOSE"])}
    assert exposed == {8080, 8081, 9100, 9101, 9102}  # 8080: the operators' console


def test_dockerignore_lets_in_only_what_the_build_copies():
    lines = [ln.strip() for ln in (REPO / ".dockerignore").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert lines[0] == "*", "allow-list: everything is excluded first"
    allowed = {ln[1:].rstrip("/") for ln in lines if ln.startswith("!")}
    copied = set()
    for op, args in stages()[0]:
        if op == "COPY" and "--from" not in args:
            copied |= set(shlex.split(args)[:-1])
    assert copied <= allowed, copied - allowed
