"""Shell parameter defaults (issue 27, item 5): the value after `:-` is a host name, as after `:=`;
and without the colon (`${W-web01}`, `=`, `+`, `?`: a break-it pass found these near-misses only)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import jinja2
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


# The same renames, the domain kept: the default's word is the old name's own, the rest is X's too.
KEPT_DOMAIN = JOINED.replace("fv-ml1.fv.lan", "fv-ml1.ana.lan")


def _expanded_with(script: Path, name: str, value: str) -> str:
    """What bash makes of `name` after sourcing `script` with X set to `value`."""
    done = subprocess.run(["bash", "-c", f'X="$1"; . "$0" && printf %s "${name}"', str(script), value],
                          capture_output=True, text=True, check=True, env={"PATH": os.environ["PATH"]})
    return done.stdout


@pytest.mark.parametrize(("config", "line", "expected", "expansion"), (
    pytest.param(KEPT_DOMAIN, "B=${X:-ana-ml2}.ana.lan", "B=${X:-fv-ml1}.ana.lan", "fv-ml1.ana.lan",
                 id="domain-kept"),
    pytest.param(KEPT_DOMAIN, "B=${X-ana-ml2}.ana.lan:22", "B=${X-fv-ml1}.ana.lan:22", "fv-ml1.ana.lan:22",
                 id="no-colon-port"),
    pytest.param(KEPT_DOMAIN, "B=https://${X:=ana-ml2}.ana.lan/x", "B=https://${X:=fv-ml1}.ana.lan/x",
                 "https://fv-ml1.ana.lan/x", id="in-a-url"),
    # The cut before the last label: `.lan` stays, so X=db01.ana still means db01.ana.lan.
    pytest.param(JOINED, "B=${X:=ana-ml2.ana}.lan", "B=${X:=fv-ml1.fv}.lan", "fv-ml1.fv.lan",
                 id="cut-before-the-last-label"),
    pytest.param(JOINED, "B=${X:-db}.ana.lan", "B=${X:-db2}.ana.lan", "db2.ana.lan", id="only-the-head-changes"),
    # Break-it round 4, finding 5: the word quoted or nested is the same word, its bytes kept.
    pytest.param(KEPT_DOMAIN, 'B=${X:-"ana-ml2"}.ana.lan', 'B=${X:-"fv-ml1"}.ana.lan', "fv-ml1.ana.lan",
                 id="double-quoted-word"),
    pytest.param(KEPT_DOMAIN, "B=${X:-'ana-ml2'}.ana.lan:22", "B=${X:-'fv-ml1'}.ana.lan:22", "fv-ml1.ana.lan:22",
                 id="single-quoted-word"),
    pytest.param(KEPT_DOMAIN, "B=${X:-${Y:-ana-ml2}}.ana.lan", "B=${X:-${Y:-fv-ml1}}.ana.lan", "fv-ml1.ana.lan",
                 id="nested"),
    pytest.param(KEPT_DOMAIN, 'B="${X-${Y:="ana-ml2"}}.ana.lan"', 'B="${X-${Y:="fv-ml1"}}.ana.lan"',
                 "fv-ml1.ana.lan", id="nested-quoted-in-quotes"),
))
def test_a_default_joined_to_a_domain_rewrites_only_its_word(config: str, line: str, expected: str, expansion: str,
                                                            repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    """`${X:-ana-ml2}.ana.lan` is the word `ana-ml2.ana.lan` when X is unset (issue 27b item 3), and
    `db01.ana.lan` when X=db01 (break-it round 3, finding 12): the word is rewritten, what follows
    the brace only where it stays, so X's name keeps its meaning."""
    root = repo({"run.sh": f"{line}\n"}, config=config, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / "run.sh").read_text() == f"{expected}\n"
    assert _expanded(root / "run.sh", "B") == expansion
    tail = line.rsplit("}", 1)[1].split("\n")[0].rstrip('"')  # after the last brace: a nest's outermost
    assert _expanded_with(root / "run.sh", "B", "db01").endswith("db01" + tail)
    assert run(root, "verify", "--strict").exit_code == 0


SPLIT_NOTE = "`.ana.lan` after the brace follows the variable too"


@pytest.mark.parametrize(("line", "reason", "note"), [
    # X defined in the repo as a name the move keeps: the residual names that definition
    # (sweep/composed.py), as a person deciding needs it.
    pytest.param("X=db01\nH=${X:-ana-ml2}.ana.lan", "composed-name", "`X` is db01 at run.sh:1", id="reported"),
    pytest.param("H=${X-ana-ml2}.ana.lan:22", "split", SPLIT_NOTE, id="no-colon-port"),
    pytest.param("H=https://${X:=ana-ml2}.ana.lan/x", "split", SPLIT_NOTE, id="in-a-url"),
    pytest.param('H="${X:-ana-ml2}".ana.lan', "split", SPLIT_NOTE, id="quoted-expansion"),
    # Break-it round 4, finding 5: quoted and nested defaults, which the plain rules rewrote to
    # fv-ml1.ana.lan, a name that does not exist.
    pytest.param('H=${X:-"ana-ml2"}.ana.lan', "split", SPLIT_NOTE, id="double-quoted-word"),
    pytest.param("H=${X:-'ana-ml2'}.ana.lan", "split", SPLIT_NOTE, id="single-quoted-word"),
    pytest.param("H=${X:-${Y:-ana-ml2}}.ana.lan", "split", SPLIT_NOTE, id="nested"),
    pytest.param("H=${X-${Y:='ana-ml2'}}.ana.lan:8443", "split", SPLIT_NOTE, id="nested-no-colon-quoted"),
    pytest.param('H="https://${X:-"ana-ml2"}.ana.lan/"', "split", SPLIT_NOTE, id="quoted-word-in-a-quoted-url"),
])
def test_a_default_joined_to_a_domain_that_changes_is_a_residual(line: str, reason: str, note: str,
                                                                 repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    """The rename changes the domain after the brace: rewriting it would move X's own name
    (`X=db01`: db01.ana.lan to db01.fv.lan), so nothing is written and a person decides."""
    root = repo({"run.sh": f"{line}\n"}, config=JOINED, allowlist=ALLOW)
    before = (root / "run.sh").read_text()
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / "run.sh").read_text() == before
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [(f["reason"], f["old"]) for f in findings] == [(reason, "ana-ml2.ana.lan")]
    assert note in findings[0]["note"], findings[0]["note"]


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


def _rendered(text: str, **variables: str) -> str:
    """What Jinja (Ansible's templating) makes of `text`."""
    return jinja2.Environment(undefined=jinja2.Undefined).from_string(text).render(**variables)


@pytest.mark.parametrize(("config", "value", "expected", "outcome"), [
    pytest.param(KEPT_DOMAIN, "{{ host | default('ana-ml2') }}.ana.lan", "{{ host | default('fv-ml1') }}.ana.lan", 0,
                 id="domain-kept"),
    pytest.param(KEPT_DOMAIN, '{{ host|d("ana-ml2") }}.ana.lan:8443', '{{ host|d("fv-ml1") }}.ana.lan:8443', 0,
                 id="short-filter-port"),
    pytest.param(JOINED, "{{ host | default('ana-ml2') }}.ana.lan", None, 1, id="domain-changes"),
    pytest.param(JOINED, "https://{{ inventory_host | default('ana-ml2') }}.ana.lan/", None, 1, id="in-a-url"),
    # Break-it round 4, finding 5: the filter's other arguments, and filters after it.
    pytest.param(KEPT_DOMAIN, "{{ host | default('ana-ml2', true) }}.ana.lan",
                 "{{ host | default('fv-ml1', true) }}.ana.lan", 0, id="default-if-empty"),
    pytest.param(KEPT_DOMAIN, "{{- host | d('ana-ml2') | lower -}}.ana.lan", "{{- host | d('fv-ml1') | lower -}}.ana.lan",
                 0, id="a-filter-after"),
    pytest.param(JOINED, "{{ host | default('ana-ml2', true) }}.ana.lan", None, 1, id="default-if-empty-domain-changes"),
    pytest.param(JOINED, "{{ host|d('ana-ml2')|trim }}.ana.lan:8443", None, 1, id="a-filter-after-domain-changes"),
])
def test_a_jinja_default_joined_to_a_domain(config: str, value: str, expected: str | None, outcome: int,
                                            repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Jinja's `default` filter joined to a domain is the same join (finding 12's class): only the
    default is the old name's own; a domain the rename changes is X's too, a residual `split`."""
    content = f"url: \"{value}\"\n"
    root = repo({"roles/web/vars/main.yml": content}, config=config, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == outcome, result.stdout + result.stderr
    written = (root / "roles/web/vars/main.yml").read_text()
    if expected is None:
        assert written == content
        findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
        assert [(f["reason"], f["old"]) for f in findings] == [("split", "ana-ml2.ana.lan")]
        return
    assert written == f"url: \"{expected}\"\n"
    assert "fv-ml1.ana.lan" in _rendered(expected)
    assert "db01.ana.lan" in _rendered(expected, host="db01")
    assert run(root, "verify", "--strict").exit_code == 0
