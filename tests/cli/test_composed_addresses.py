"""An address composed of a variable and literal octets: `--listen-address=${LAB_PREFIX}.5` beside
`LAB_PREFIX=10.0.0` is 10.0.0.5, a live reference to the renamed address that no byte spells; the
sweep left it and verify said OK. Now a `composed-address` residual naming the variable and where
it is defined; nothing is rewritten (no prefix or octet is renumbered by guess), so verify keeps
failing until a person decides. The shell and Jinja expand each case to the old address, so the
test checks what a consumer reads, not only what renamer says."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest
from ruamel.yaml import YAML

from tests.conftest import Result

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}
  addresses: {10.0.0.5: 10.1.0.5, 192.168.0.53: 192.168.1.53}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\ncurrent: ["**"]\n'
COMPOSE = 'services:\n  dns:\n    command: ["--listen-address=${LAB_PREFIX}.5"]\n'


def _residuals(root: Path, run: Callable[..., Result], path: str) -> list[dict[str, object]]:
    found: list[dict[str, object]] = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return [f for f in found if f["path"] == path and f["reason"] == "composed-address"]


def _shell(folder: Path, env_file: str | None, word: str) -> str:
    """What a POSIX shell (as compose interpolates) makes of `word`, `env_file` sourced."""
    source = f'set -a; . "./{env_file}"; ' if env_file else ""
    done = subprocess.run(["sh", "-c", f'{source}printf %s "{word}"'], cwd=folder, capture_output=True,
                          text=True, check=True, env={"PATH": os.environ["PATH"]})
    return done.stdout


# (files, the composing file, its line:column, the variable's definition named, what it reads as).
COMPOSED = [
    pytest.param({".env": "LAB_PREFIX=10.0.0\n", "compose.yml": COMPOSE}, "compose.yml", "3:33",
                 "`LAB_PREFIX` is 10.0.0 at .env:1", ("sh", ".env", "${LAB_PREFIX}.5"), id="the-report"),
    pytest.param({"stack/.env": "P=10.0.0\r\n", "stack/run.sh": "ping -c1 ${P}.5\r\n"}, "stack/run.sh", "1:10",
                 "`P` is 10.0.0 at stack/.env:1", None, id="braced-crlf"),
    pytest.param({"run.sh": "P=10.0.0\nping -c1 $P.5\n"}, "run.sh", "2:10", "`P` is 10.0.0 at run.sh:1",
                 None, id="bare-variable"),
    pytest.param({"run.sh": "ping -c1 ${X:-10.0.0}.5\n"}, "run.sh", "1:10",
                 "`X` is defined nowhere in the repo; the default is 10.0.0", ("sh", None, "${X:-10.0.0}.5"),
                 id="a-default"),
    pytest.param({"a.env": "HOST=5\n", "c.yml": "url: http://10.0.0.${HOST}:8080/\n"}, "c.yml", "1:13",
                 "`HOST` is 5 at a.env:1", ("sh", "a.env", "10.0.0.${HOST}"), id="a-literal-prefix"),
    pytest.param({"group_vars/all.yml": 'prefix: "10.0.0"\n', "t.j2": "server {{ prefix }}.5;\n"}, "t.j2", "1:8",
                 "`prefix` is 10.0.0 at group_vars/all.yml:1", ("jinja", "group_vars/all.yml", "{{ prefix }}.5"),
                 id="jinja"),
    pytest.param({"main.tf": 'variable "prefix" {\n  default = "10.0.0"\n}\n\nlocals {\n  dns = "${var.prefix}.5"\n}\n'},
                 "main.tf", "6:10", "`prefix` is 10.0.0 at main.tf:2", None, id="terraform"),
    pytest.param({".env": "NET=10.0.0\nHOST=5\n", "c.yml": "dns: ${NET}.${HOST}\n"}, "c.yml", "1:6",
                 "`HOST` is 5 at .env:2", ("sh", ".env", "${NET}.${HOST}"), id="two-variables"),
    pytest.param({"run.sh": "for o in 4 5; do ping -c1 10.0.0.$o; done\n"}, "run.sh", "1:27",
                 "`o` is 5 in the loop at run.sh:1", None, id="a-loop"),
    # A reverse name: the PTR label and the reverse zone both variables (QikfixAI/dnsmasq-lab's shape).
    pytest.param({"entrypoint.sh": 'export PTR="${PTR:-53}"\nexport REV="${REV:-0.168.192.in-addr.arpa}"\n',
                  "dnsmasq.conf": "ptr-record=${PTR}.${REV},ns1.lab\n"}, "dnsmasq.conf", "1:12",
                 "`PTR` is ${PTR:-53} at entrypoint.sh:1", ("sh", "entrypoint.sh", "${PTR}.${REV}"),
                 id="a-reverse-name"),
]


@pytest.mark.parametrize(("files", "path", "where", "said", "expands"), COMPOSED)
def test_a_composed_old_address_is_a_residual_verify_fails_on(
        files: dict[str, str], path: str, where: str, said: str, expands: tuple[str, str | None, str] | None,
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    [found] = _residuals(root, run, path)
    assert f"{found['line']}:{found['column']}" == where
    assert said in str(found["note"]), found["note"]
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / path).read_bytes().decode() == files[path]  # nothing guessed, nothing rewritten
    checked = run(root, "verify")
    assert checked.exit_code == 1, checked.stdout
    assert f"{path}:{where}: residual (composed-address)" in checked.stdout, checked.stdout
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    assert [r["reason"] for r in audit["references"] if r["path"] == path] == ["composed-address"]
    if expands is not None:  # what the consumer reads after the sweep: still the old address
        kind, defined, word = expands
        folder = (root / path).parent
        if kind == "sh":
            read = _shell(folder, os.path.relpath(root / defined, folder) if defined else None, word)
        else:
            variables = YAML(typ="safe").load((root / str(defined)).read_text())
            read = jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(word).render(**variables)
        assert read in (found["old"], "53.0.168.192.in-addr.arpa"), read


@pytest.mark.parametrize("files", [
    pytest.param({".env": "P=10.0.0\nQ=10.9.9\n", "run.sh": "ping ${P}.6 ${Q}.5 ${P}.50 ${P}.5.1 v1.${P}.5\n"},
                 id="other-addresses-and-words"),
    pytest.param({"run.sh": "ping ${UNSET}.5 $(prefix).5\n"}, id="values-that-cannot-be-told"),
    pytest.param({".env": "P=10.1.0\n", "run.sh": "ping ${P}.5\n"}, id="the-new-prefix"),
    pytest.param({".env": "P=10.0.0.5\n", "run.sh": "ping ${P}/32\n"}, id="a-whole-address-is-rewritten-plainly"),
])
def test_compositions_that_make_no_old_address_are_left_alone(files: dict[str, str], repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run, "run.sh") == []
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / "run.sh").read_text() == files["run.sh"]
    done = run(root, "verify", "--strict")
    assert done.exit_code == 0, done.stdout


def test_an_address_inside_a_renamed_network_is_a_residual_too(repo: Callable[..., Path],
                                                                run: Callable[..., Result]) -> None:
    config = ("version: 1\nrenames:\n  hosts: {pug: wolf}\n  networks: {10.0.0.0/24: 10.1.0.0/24}\n"
              "allowlist: allow.yaml\n")
    root = repo({".env": "P=10.0.0\n", "run.sh": "ping ${P}.77 ${P}.5\n"}, config=config, allowlist=ALLOW)
    found = _residuals(root, run, "run.sh")
    assert [(f["column"], f["old"], f["new"]) for f in found] == [(6, "10.0.0.77", "10.1.0.77"), (14, "10.0.0.5", "10.1.0.5")]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "run.sh").read_text() == "ping ${P}.77 ${P}.5\n"


def test_a_kept_line_keeps_its_composed_address(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {".env": "LAB_PREFIX=10.0.0\n",
             "run.sh": "ping ${LAB_PREFIX}.5  # renamer: keep the hand-test box\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify").exit_code == 0
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    assert [(r["status"], r["reason"]) for r in audit["references"] if r["path"] == "run.sh"] == [("kept", "inline")]


def test_the_dnsmasq_lab_reverse_name_is_reported_and_its_octet_left(repo: Callable[..., Path],
                                                                     run: Callable[..., Result]) -> None:
    """QikfixAI/dnsmasq-lab's shape: `${DDNS_NS1_PTR:-53}` is the host octet of the renamed
    192.168.0.53 only because dnsmasq.conf composes it into the reverse name; the bare 53 is
    never rewritten, the composition is the residual, naming the default's line."""
    files = {"scripts/entrypoint.sh": ('export DDNS_REV_ZONE="${DDNS_REV_ZONE:-0.168.192.in-addr.arpa}"\n'
                                       'export DDNS_NS1_IP="${DDNS_NS1_IP:-192.168.0.53}"\n'
                                       'export DDNS_NS1_PTR="${DDNS_NS1_PTR:-53}"\nDNS_PORT=53\n'),
             "config/dnsmasq.conf": ("host-record=ns1.lab,${DDNS_NS1_IP}\n"
                                     "ptr-record=${DDNS_NS1_PTR}.${DDNS_REV_ZONE},ns1.lab\nport=53\n")}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    [found] = _residuals(root, run, "config/dnsmasq.conf")
    assert (found["line"], found["old"], found["new"]) == (2, "53.0.168.192.in-addr.arpa", "53.1.168.192.in-addr.arpa")
    assert "`DDNS_NS1_PTR` is ${DDNS_NS1_PTR:-53} at scripts/entrypoint.sh:3" in str(found["note"])
    assert run(root, "sweep", "--commit").exit_code == 1
    entry = (root / "scripts/entrypoint.sh").read_text()
    assert "${DDNS_NS1_IP:-192.168.1.53}" in entry and "${DDNS_NS1_PTR:-53}" in entry and "DNS_PORT=53" in entry
    assert (root / "config/dnsmasq.conf").read_text() == files["config/dnsmasq.conf"]
    assert run(root, "verify").exit_code == 1


# Break-it round 7, finding 13: the parts of a composed address in the shell's other dresses (the
# definition on the line it is used on, quotes between the parts, arithmetic, the dot inside the
# value). (script, its line:column, the definition named.) Each script is run with `ping` echoing
# its argument: after the sweep it still reaches the old address, so the residual is due.
ROUND_7 = [
    pytest.param("OCT=5; ping 10.0.0.$OCT\n", "1:13", "`OCT` is 5 at run.sh:1", id="same-line-semicolon"),
    pytest.param("OCT=5 && ping 10.0.0.${OCT}\n", "1:15", "`OCT` is 5 at run.sh:1", id="same-line-and"),
    pytest.param('NET=10.0.0\nping "$NET".5\n', "2:7", "`NET` is 10.0.0 at run.sh:1", id="double-quotes-between"),
    pytest.param("NET=10.0.0\nping ${NET}'.5'\n", "2:6", "`NET` is 10.0.0 at run.sh:1", id="single-quotes-between"),
    pytest.param('export NET="10.0.0"; ping "${NET}"."5"\n', "1:28", "`NET` is 10.0.0 at run.sh:1",
                 id="every-part-quoted"),
    pytest.param('OCT=5\nping 10.0.0."$OCT"\n', "2:6", "`OCT` is 5 at run.sh:1", id="quoted-octet-variable"),
    pytest.param("OCT=5\nping 10.0.0.$((OCT))\n", "2:6", "`OCT` is 5 at run.sh:1", id="arithmetic"),
    pytest.param("OCT=5\nping 10.0.0.$(( $OCT ))\n", "2:6", "`OCT` is 5 at run.sh:1", id="arithmetic-spaced"),
    pytest.param("IP=10.0.0.; ping ${IP}5\n", "1:18", "`IP` is 10.0.0. at run.sh:1", id="the-dot-in-the-value"),
    pytest.param("NET=10.0.; ping ${NET}0.5\n", "1:17", "`NET` is 10.0. at run.sh:1", id="two-dots-in-the-value"),
]


@pytest.mark.parametrize(("script", "where", "said"), ROUND_7)
def test_composed_addresses_in_the_shells_other_dresses_are_residuals(
        script: str, where: str, said: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"run.sh": script}, config=CONFIG, allowlist=ALLOW)
    [found] = _residuals(root, run, "run.sh")
    assert (found["old"], f"{found['line']}:{found['column']}") == ("10.0.0.5", where)
    assert said in str(found["note"]), found["note"]
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / "run.sh").read_text() == script
    checked = run(root, "verify")
    assert checked.exit_code == 1 and f"run.sh:{where}: residual (composed-address)" in checked.stdout
    done = subprocess.run(["sh", "-c", 'ping() { printf "%s\\n" "$1"; }; . ./run.sh'], cwd=root,
                          capture_output=True, text=True, check=True, env={"PATH": os.environ["PATH"]})
    assert done.stdout == "10.0.0.5\n"


@pytest.mark.parametrize("script", [
    pytest.param("HEAD=10.0.0.0; ping ${HEAD}.5\n", id="a-whole-address-before-the-octet"),
    pytest.param('NET=10.0.0\nping "$NET".6 ${NET}\'.50\'\n', id="other-octets-quoted"),
    pytest.param("IP=10.0.0.; ping ${IP}50\n", id="another-address-with-the-dot-in-the-value"),
    pytest.param('OCT=5; echo "$OCT". done\n', id="a-sentence-after-a-quote"),
])
def test_other_shell_dresses_that_make_no_old_address_are_left_alone(
        script: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"run.sh": script}, config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run, "run.sh") == []
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert run(root, "verify", "--strict").exit_code == 0


def test_arithmetic_that_computes_an_old_octet_is_a_residual_it_may_spell(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """`10.0.0.$((OCT + 1))` is computed, so its variable's value alone is no octet; but the literal
    is the old address's start and the interpolation completes it (renamer/composed_tails.py): it
    may spell 10.0.0.5, and here it does."""
    script = "OCT=4; ping 10.0.0.$((OCT + 1))\n"
    root = repo({"run.sh": script}, config=CONFIG, allowlist=ALLOW)
    [found] = _residuals(root, run, "run.sh")
    assert (found["old"], found["line"]) == ("10.0.0.5", 1) and "may spell 10.0.0.5" in str(found["note"])
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "run.sh").read_text() == script
    done = subprocess.run(["sh", "-c", 'ping() { printf "%s\\n" "$1"; }; . ./run.sh'], cwd=root,
                          capture_output=True, text=True, check=True, env={"PATH": os.environ["PATH"]})
    assert done.stdout == "10.0.0.5\n"


def test_the_note_names_the_definition_the_template_s_own_dialect_reads(repo: Callable[..., Path],
                                                                       run: Callable[..., Result]) -> None:
    """Break-it round 8 (severity 3): a Jinja `{{ prefix }}` was said to read a Helm chart's
    `net.prefix` (chart/values.yaml), not group_vars' `prefix`; and the chart's template its own."""
    root = repo({"chart/Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n",
                 "chart/values.yaml": 'net:\n  prefix: "10.0.0"\n',
                 "chart/templates/cm.yaml": 'data:\n  ip: "{{ .Values.net.prefix }}.5"\n',
                 "group_vars/all.yml": "prefix: 10.0.0\nhost_octet: 5\n",
                 "t.j2": "addr {{ prefix }}.{{ host_octet }}\n"}, config=CONFIG, allowlist=ALLOW)
    found = {f["path"]: str(f["note"]) for f in json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
             if f["reason"] == "composed-address"}
    assert "`prefix` is 10.0.0 at group_vars/all.yml:1" in found["t.j2"], found
    assert "chart/values.yaml" not in found["t.j2"], found
    assert "`prefix` is 10.0.0 at chart/values.yaml:2" in found["chart/templates/cm.yaml"], found
