"""Shell parameter defaults (issue 27, item 5): the value after `:-` is a host name, as after `:=`;
and without the colon (`${W-web01}`, `=`, `+`, `?`: a break-it pass found these near-misses only)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = """\
version: 1
renames:
  hosts: {web01.lab.example: web11.lab.example, web01: web11}
  addresses: {10.0.0.70: 10.1.0.70}
allowlist: allow.yaml
"""
ALLOW = "version: 1\ncurrent: ['**']\n"


@pytest.mark.parametrize(("line", "expected"), (
    pytest.param('HOST="${HOST:-web01.lab.example}"', 'HOST="${HOST:-web11.lab.example}"', id="fqdn-default"),
    pytest.param("H=${H:-web01}", "H=${H:-web11}", id="one-letter-variable"),
    pytest.param("H=${LLM_HOST:-web01}:8000", "H=${LLM_HOST:-web11}:8000", id="with-a-port"),
    pytest.param("H=${H:=web01}", "H=${H:=web11}", id="assign-default"),
    pytest.param("H=${H:+web01}", "H=${H:+web11}", id="alternative"),
    pytest.param("H=${H:?web01}", "H=${H:?web11}", id="error-if-unset"),
    pytest.param("ADDR=${ADDR:-10.0.0.70}", "ADDR=${ADDR:-10.1.0.70}", id="address-default"),
    # Without the colon (POSIX: unset only): the `-`, `=`, `+` and `?` are the operator's too.
    pytest.param("H=${W-web01}", "H=${W-web11}", id="no-colon-default"),
    pytest.param('H="${LLM_HOST-web01.lab.example}:8000"', 'H="${LLM_HOST-web11.lab.example}:8000"',
                 id="no-colon-long-variable-fqdn-port"),
    pytest.param("H=${W=web01}", "H=${W=web11}", id="no-colon-assign"),
    pytest.param("H=${W+web01}", "H=${W+web11}", id="no-colon-alternative"),
    pytest.param("H=${W?web01}", "H=${W?web11}", id="no-colon-error"),
    pytest.param("ADDR=${A_1-10.0.0.70}", "ADDR=${A_1-10.1.0.70}", id="no-colon-address"),
    pytest.param("ssh ${1-web01} uptime", "ssh ${1-web11} uptime", id="no-colon-positional"),
    pytest.param("H=${A-${B-web01}}", "H=${A-${B-web11}}", id="no-colon-nested"),
    pytest.param("H=${W-web01-bmc} ${W-web010} ${W-xweb01}", "H=${W-web01-bmc} ${W-web010} ${W-xweb01}",
                 id="noop-no-colon-other-names"),
    pytest.param("H=$W-web01 {W-web01} ${W}-web01", "H=$W-web01 {W-web01} ${W}-web01",
                 id="noop-no-colon-not-an-operator"),
    pytest.param("H=${H:-web01-bmc}", "H=${H:-web01-bmc}", id="noop-a-derived-name"),
    pytest.param("H=my-web01", "H=my-web01", id="noop-part-of-a-name"),
    pytest.param("H=${H:-xweb01}", "H=${H:-xweb01}", id="noop-longer-name"),
))
def test_shell_defaults(line: str, expected: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"scripts/run.sh": f"#!/bin/sh\n{line}\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "scripts" / "run.sh").read_text() == f"#!/bin/sh\n{expected}\n"
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize("path", ["docker-compose.yml", "app.env", "Dockerfile", "Makefile"])
def test_a_no_colon_default_in_any_file(path: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    content = "x: ${W-web01}\n" if path.endswith(".yml") else "RUN ping ${W-web01}\n"
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).read_text() == content.replace("web01", "web11")
    done = run(root, "verify", "--strict")
    assert done.exit_code == 0, done.stdout


JOINED = """\
version: 1
renames:
  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan, db.ana.lan: db2.ana.lan}
allowlist: allow.yaml
"""


def _expanded(script: Path, name: str) -> str:
    """What bash makes of `name` after sourcing `script`, its variables unset."""
    done = subprocess.run(["bash", "-c", f'unset X; . "$0" && printf %s "${name}"', str(script)],
                          capture_output=True, text=True, check=True, env={"PATH": os.environ["PATH"]})
    return done.stdout


@pytest.mark.parametrize(("line", "expected", "expansion"), (
    pytest.param("B=${X:-ana-ml2}.ana.lan", "B=${X:-fv-ml1}.fv.lan", "fv-ml1.fv.lan", id="reported"),
    pytest.param("B=${X-ana-ml2}.ana.lan:22", "B=${X-fv-ml1}.fv.lan:22", "fv-ml1.fv.lan:22", id="no-colon-port"),
    pytest.param("B=${X:=ana-ml2.ana}.lan", "B=${X:=fv-ml1.fv}.lan", "fv-ml1.fv.lan", id="cut-before-the-last-label"),
    pytest.param("B=${X:-db}.ana.lan", "B=${X:-db2}.ana.lan", "db2.ana.lan", id="only-the-head-changes"),
    pytest.param("B=https://${X:-ana-ml2}.ana.lan/x", "B=https://${X:-fv-ml1}.fv.lan/x", "https://fv-ml1.fv.lan/x",
                 id="in-a-url"),
))
def test_a_default_joined_to_a_domain_expands_to_the_new_fqdn(line: str, expected: str, expansion: str,
                                                              repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    """`${X:-ana-ml2}.ana.lan` is the word `ana-ml2.ana.lan` when X is unset (issue 27b item 3):
    each piece takes the new FQDN's labels, so bash expands it to the new name."""
    root = repo({"run.sh": f"{line}\n"}, config=JOINED, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / "run.sh").read_text() == f"{expected}\n"
    assert _expanded(root / "run.sh", "B") == expansion
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("line", [
    pytest.param("B=${X:-ana}-ml2.ana.lan", id="cut-inside-a-label"),
    pytest.param("B=${X:+ana-ml2}.ana.lan", id="alternative-word"),
    pytest.param("B=${X:-ana-m}l2", id="short-name-cut"),
])
def test_a_default_joined_where_no_cut_is_certain_is_a_split(line: str, repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    root = repo({"run.sh": f"{line}\n"}, config=JOINED.replace("fv-ml1.fv.lan", "fv.ml1.fv.lan"), allowlist=ALLOW)
    before = (root / "run.sh").read_text()
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "run.sh").read_text() == before
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [f["reason"] for f in findings] == ["split"]
