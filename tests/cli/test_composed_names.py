"""Names whose host part is a variable and whose domain is literal (break-it round 4, finding 4):
`${NODE}.ana.lan` beside `NODE=ana-ml2` became fv-ml1.ana.lan, a name that does not exist, when the
move took the host to fv.lan. The literal domain follows where every value the repo gives the
variable moves to one domain; otherwise a residual `composed-name` names the definitions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest
from ruamel.yaml import YAML

from tests.conftest import Result
from tests.testing.terraform import needs_terraform

ANSIBLE_INVENTORY = str(Path(sys.executable).parent / "ansible-inventory")
ALLOW = "version: 1\ncurrent: ['**']\n"
MOVED = """\
version: 1
renames:
  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}
allowlist: allow.yaml
"""
# The host renamed, and its domain renamed as a name of its own.
DOMAIN_RENAMED = """\
version: 1
renames:
  hosts: {ana-ml2: fv-ml1, ana.lan: fv.lan}
allowlist: allow.yaml
"""
KEPT_DOMAIN = MOVED.replace("fv-ml1.fv.lan", "fv-ml1.ana.lan")


def _findings(root: Path, run: Callable[..., Result]) -> list[dict[str, object]]:
    found: list[dict[str, object]] = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return found


def _shell(root: Path, env_file: str, word: str) -> str:
    """What a POSIX shell (as compose interpolates) makes of `word` with `env_file` sourced."""
    script = f'set -a; . "./{env_file}"; printf %s "{word}"'
    done = subprocess.run(["bash", "-c", script], cwd=root, capture_output=True, text=True, check=True,
                          env={"PATH": os.environ["PATH"]})
    return done.stdout


def _jinja(template: str, variables_file: Path) -> str:
    """What Ansible's Jinja makes of `template` with the variables of a YAML vars file."""
    variables = YAML(typ="safe").load(variables_file.read_text())
    return jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(template).render(**variables)


# (config, files, the composed file, what it must become) where every value follows to one domain.
FOLLOWS = [
    pytest.param(MOVED, {"stack/.env": "NODE=ana-ml2\n"}, "stack/compose.yml",
                 "services:\n  web:\n    environment:\n      - URL=https://${NODE}.ana.lan/\n",
                 "services:\n  web:\n    environment:\n      - URL=https://${NODE}.fv.lan/\n", id="compose-list-from-env"),
    pytest.param(MOVED, {}, "stack/compose.yml",
                 "services:\n  web:\n    environment:\n      NODE: ana-ml2\n      URL: \"https://${NODE}.ana.lan:8443\"\n",
                 "services:\n  web:\n    environment:\n      NODE: fv-ml1\n      URL: \"https://${NODE}.fv.lan:8443\"\n",
                 id="compose-environment-mapping"),
    pytest.param(MOVED, {"app.env": "NODE=ana-ml2\r\n"}, "run.sh", "ssh root@$NODE.ana.lan uptime\r\n",
                 "ssh root@$NODE.fv.lan uptime\r\n", id="bare-variable-crlf"),
    pytest.param(MOVED, {"app.env": 'NODE="ana-ml2"  # the gpu box\n'}, "run.sh",
                 'curl "http://"${NODE}".ana.lan/health"\n', 'curl "http://"${NODE}".fv.lan/health"\n',
                 id="quoted-expansion"),
    pytest.param(DOMAIN_RENAMED, {"app.env": "NODE=ana-ml2\n"}, "run.sh", "H=${NODE}.ana.lan\n",
                 "H=${NODE}.fv.lan\n", id="domain-renamed-itself"),
    pytest.param(MOVED, {"app.env": "NODE=${PRIMARY}\nPRIMARY=ana-ml2\n"}, "run.sh", "H=${NODE}.ana.lan\n",
                 "H=${NODE}.fv.lan\n", id="through-another-variable"),
    # X is known: the default and X's value both move, so both follow (finding 5's "make the
    # composed FQDN follow").
    pytest.param(MOVED, {"app.env": "X=ana-ml2\n"}, "run.sh", 'H=${X:-"ana-ml2"}.ana.lan\n',
                 'H=${X:-"fv-ml1"}.fv.lan\n', id="quoted-default-with-a-known-variable"),
    pytest.param(MOVED, {"app.env": "X=ana-ml2\nY=ana-ml2\n"}, "run.sh", "H=${X:-${Y:-ana-ml2}}.ana.lan\n",
                 "H=${X:-${Y:-fv-ml1}}.fv.lan\n", id="nested-default-with-a-known-variable"),
]


@pytest.mark.parametrize(("config", "defs", "path", "content", "expected"), FOLLOWS)
def test_the_literal_domain_follows_where_every_value_moves_to_it(
        config: str, defs: dict[str, str], path: str, content: str, expected: str,
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**defs, path: content}, config=config, allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / path).read_bytes().decode() == expected
    done = run(root, "verify", "--strict")
    assert done.exit_code == 0, done.stdout
    assert run(root, "sweep", "--commit").exit_code == 0  # a second sweep changes nothing
    assert (root / path).read_bytes().decode() == expected


@pytest.mark.parametrize("line", [
    pytest.param('H=${X:-"ana-ml2"}.ana.lan', id="quoted"),
    pytest.param("H=${X:=${Y:-'ana-ml2'}}.ana.lan", id="nested"),
])
def test_a_default_whose_variable_moves_too_expands_to_the_new_name(line: str, repo: Callable[..., Path],
                                                                   run: Callable[..., Result]) -> None:
    """Finding 5: the composed FQDN follows where the variable's own values move with the default:
    bash expands it to the new name with the variables set from the repo and with them unset."""
    root = repo({"app.env": "X=ana-ml2\nY=ana-ml2\n", "run.sh": f"{line}\n"}, config=MOVED, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    written = (root / "run.sh").read_text()
    assert written.count("fv-ml1") == 1 and ".fv.lan" in written and "ana" not in written
    expression = written.strip().split("=", 1)[1]
    assert _shell(root, "app.env", expression.replace('"', '\\"')) == "fv-ml1.fv.lan"
    unset = subprocess.run(["bash", "-c", '. ./run.sh; printf %s "$H"'], cwd=root, capture_output=True,
                           text=True, check=True, env={"PATH": os.environ["PATH"]})
    assert unset.stdout == "fv-ml1.fv.lan"


def test_compose_with_its_env_file_expands_to_the_new_name(repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    """The report's case, expanded as compose interpolates it (a shell with the .env sourced)."""
    files = {"stack/.env": "NODE=ana-ml2\nPORT=8000\n",
             "stack/compose.yml": "services:\n  app:\n    command: [\"curl\", \"http://${NODE}.ana.lan:${PORT}/v1\"]\n"}
    root = repo(files, config=MOVED, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert _shell(root / "stack", ".env", "http://${NODE}.fv.lan:${PORT}/v1") == "http://fv-ml1.fv.lan:8000/v1"
    assert "${NODE}.fv.lan" in (root / "stack/compose.yml").read_text()


def test_each_stack_reads_its_own_env(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Compose reads the `.env` beside the compose file: the stack whose NODE moves follows, the
    other keeps its name (a value defined nearer wins over the rest of the repo's)."""
    compose = "services:\n  app:\n    environment:\n      - URL=https://${NODE}.ana.lan/\n"
    files = {"gpu/.env": "NODE=ana-ml2\n", "gpu/compose.yml": compose,
             "db/.env": "NODE=db01\n", "db/compose.yml": compose}
    root = repo(files, config=MOVED, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "gpu/compose.yml").read_text() == compose.replace(".ana.lan", ".fv.lan")
    assert (root / "db/compose.yml").read_text() == compose
    assert _shell(root / "gpu", ".env", "https://${NODE}.fv.lan/") == "https://fv-ml1.fv.lan/"
    assert _shell(root / "db", ".env", "https://${NODE}.ana.lan/") == "https://db01.ana.lan/"
    done = run(root, "verify", "--strict")
    assert done.exit_code == 0, done.stdout


def test_an_ansible_template_follows_its_host_vars(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"inventory/host_vars/ana-ml2.yml": "node_name: ana-ml2\n",
             "roles/llm/templates/upstream.conf.j2": "server {{ node_name }}.ana.lan:8000;\n"}
    root = repo(files, config=MOVED, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    template = (root / "roles/llm/templates/upstream.conf.j2").read_text()
    assert template == "server {{ node_name }}.fv.lan:8000;\n"
    assert (root / "inventory/host_vars/fv-ml1.yml").exists()  # renamed with its host
    assert _jinja(template, root / "inventory/host_vars/fv-ml1.yml") == "server fv-ml1.fv.lan:8000;"


def test_an_ini_inventory_host_line_defines_the_variable(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"inventory/hosts": "[gpu]\nana-ml2 ansible_host=10.250.50.54 node=ana-ml2\n",
             "play.yml": "- hosts: gpu\n  vars:\n    url: \"http://{{ node }}.ana.lan/\"\n"}
    root = repo(files, config=MOVED, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert '"http://{{ node }}.fv.lan/"' in (root / "play.yml").read_text()
    inventory = subprocess.run([ANSIBLE_INVENTORY, "-i", str(root / "inventory/hosts"), "--host", "fv-ml1"],
                               capture_output=True, text=True, check=True, timeout=120,
                               env={**os.environ, "ANSIBLE_LOCAL_TEMP": str(root.parent / ".ansible-tmp"),
                                    "ANSIBLE_HOME": str(root.parent / ".ansible")})
    assert json.loads(inventory.stdout)["node"] == "fv-ml1"


TEMPLATEFILE = {"main.tf": ('variable "node" {\n  default = "ana-ml2"\n}\n\nlocals {\n'
                            '  url = templatefile("${path.module}/url.tpl", { node = var.node })\n}\n'),
                "url.tpl": "https://${node}.ana.lan/\n"}


def _templatefile_moved(repo: Callable[..., Path], run: Callable[..., Result]) -> Path:
    """`variable "node" { default = "ana-ml2" }` passed to templatefile, swept: the default and the
    template's literal domain follow together, byte for byte."""
    root = repo(TEMPLATEFILE, config=MOVED, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "url.tpl").read_text() == "https://${node}.fv.lan/\n"
    assert (root / "main.tf").read_text() == TEMPLATEFILE["main.tf"].replace("ana-ml2", "fv-ml1")
    return root


def test_a_terraform_templatefile_follows_the_variable_default(repo: Callable[..., Path],
                                                               run: Callable[..., Result]) -> None:
    _templatefile_moved(repo, run)


# Terraform is in neither Debian nor PyPI (HashiCorp's licence): .ci/run takes it from HashiCorp's
# apt repository where that can be reached; without it the bytes are still checked above.
@needs_terraform
def test_a_terraform_templatefile_follows_the_variable_default_as_terraform_renders_it(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = _templatefile_moved(repo, run)
    done = subprocess.run(["terraform", "console"], input="local.url\n", cwd=root, capture_output=True,
                          text=True, check=True, timeout=120,
                          env={**os.environ, "TF_IN_AUTOMATION": "1", "CHECKPOINT_DISABLE": "1"})
    assert "https://fv-ml1.fv.lan/" in done.stdout


RESIDUALS = [
    pytest.param({"a/.env": "NODE=ana-ml2\n", "b/.env": "NODE=db01\n"}, "lib/url.sh", "U=https://${NODE}.ana.lan/\n",
                 ["`NODE` is ana-ml2 at a/.env:1", "`NODE` is db01 at b/.env:1"], id="two-stacks-two-values"),
    pytest.param({"group_vars/gpu.yml": "node: ana-ml2\n", "group_vars/db.yml": "node: db01\n"},
                 "roles/x/templates/t.j2", "host {{ node }}.ana.lan\n", ["`node` is db01 at group_vars/db.yml:1"],
                 id="group-vars-two-values"),
    pytest.param({}, "roles/x/templates/t.j2", "server_name {{ inventory_hostname }}.ana.lan;\n",
                 ["`inventory_hostname` is each host's own name", "fv-ml1.ana.lan"], id="inventory-hostname"),
    pytest.param({}, "t.yml", "h: \"{{ ansible_hostname | lower }}.ana.lan\"\n", ["`ansible_hostname`"],
                 id="ansible-fact-filtered"),
    pytest.param({}, "hiera/common.yaml", "url: \"https://%{facts.hostname}.ana.lan/\"\n", ["`hostname`"],
                 id="puppet-fact"),
    pytest.param({}, "hiera/node.yaml", "url: \"https://%{::hostname}.ana.lan/\"\n", ["`hostname`"],
                 id="puppet-top-scope"),
    pytest.param({}, "bin/report.sh", "curl \"https://$(hostname -s).ana.lan/metrics\"\n", ["`hostname`"],
                 id="command-substitution"),
    pytest.param({}, "bin/report.sh", "curl https://`hostname`.ana.lan/\r\n", ["`hostname`"], id="backticks-crlf"),
    pytest.param({}, "bin/report.sh", "echo $HOSTNAME.ana.lan\n", ["`HOSTNAME`"], id="bash-hostname"),
    pytest.param({"app.env": "node=ana-ml2\n"}, "t.j2", "H={{ node | replace('ana', 'x') }}.ana.lan\n",
                 ["a filter that changes it"], id="a-filter-that-changes-the-value"),
    pytest.param({"app.env": "NODE=ana-ml2\n"}, "run.sh", "curl http://gpu-${NODE}-bmc.ana.lan/\n",
                 ["cannot follow by its domain"], id="prefix-and-suffix-make-another-name"),
    pytest.param({"app.env": "X=ana-ml2\n"}, "run.sh", "H=${X:-${Y:-ana-ml2}}.ana.lan\n",
                 ["`Y` is defined nowhere"], id="nested-default-one-variable-unknown"),
]


@pytest.mark.parametrize(("defs", "path", "content", "said"), RESIDUALS)
def test_no_one_domain_is_right_a_residual(defs: dict[str, str], path: str, content: str, said: list[str],
                                          repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**defs, path: content}, config=MOVED, allowlist=ALLOW)
    found = [f for f in _findings(root, run) if f["path"] == path]
    assert [f["reason"] for f in found] == ["composed-name"], found
    note = str(found[0]["note"])
    assert all(s in note for s in said), note
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / path).read_bytes().decode() == content
    assert run(root, "verify").exit_code == 1
    shown = run(root, "explain", path)
    assert "composed-name" in shown.stdout


@pytest.mark.parametrize(("defs", "content", "said"), [
    pytest.param({}, "H=${NODE}.ana.lan\n", "`NODE` is defined nowhere in the repo", id="defined-nowhere"),
    pytest.param({"a.env": "NODE=$(cat /etc/node)\n"}, "H=${NODE}.ana.lan\n", "computed when it runs",
                 id="computed"),
    pytest.param({"a.env": "NODE=${A}\nA=${NODE}\n"}, "H=${NODE}.ana.lan\n", "cycle", id="a-cycle"),
])
def test_a_value_that_cannot_be_told_is_a_near_miss(defs: dict[str, str], content: str, said: str,
                                                    repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**defs, "run.sh": content}, config=MOVED, allowlist=ALLOW)
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout
    assert "near-miss" in checked.stdout and said in checked.stdout, checked.stdout
    assert "where it holds ana-ml2" in checked.stdout
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize(("config", "defs", "content"), [
    pytest.param(MOVED, {"a.env": "NODE=db01\n"}, "H=${NODE}.ana.lan\n", id="another-host"),
    pytest.param(KEPT_DOMAIN, {"a.env": "NODE=ana-ml2\n"}, "H=${NODE}.ana.lan\n", id="the-domain-stays"),
    pytest.param(KEPT_DOMAIN, {}, "H={{ inventory_hostname }}.ana.lan $(hostname).ana.lan\n", id="builtins-domain-stays"),
    pytest.param(MOVED, {"a.env": "NODE=ana-ml2\n"}, "H=sub.${NODE}.ana.lan x_${NODE}.ana.lan\n", id="longer-names"),
    pytest.param(MOVED, {"a.env": "NODE=ana-ml2\n"}, "H=${NODE}.ana.lan.example ${NODE}.ana.lanx\n",
                 id="other-domains"),
    pytest.param(MOVED, {}, "H=${NODE}.other.lan {{ inventory_hostname }}.fv.lan\n", id="domains-nobody-leaves"),
])
def test_names_no_move_breaks_are_left_alone(config: str, defs: dict[str, str], content: str,
                                            repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**defs, "run.sh": content}, config=config, allowlist=ALLOW)
    assert all(f["reason"] != "composed-name" for f in _findings(root, run))
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / "run.sh").read_text() == content
    done = run(root, "verify", "--strict")
    assert done.exit_code == 0, done.stdout


def test_a_record_s_definition_is_no_value(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """An old `.env` backup (a record) defines nothing today: only the live value decides."""
    allow = ("version: 1\ncurrent: ['**']\nrecords:\n  - name: backups\n    paths: ['*.bak*']\n"
             "    reason: copies of what was\n")
    files = {".env": "NODE=ana-ml2\n", ".env.bak-20260901": "NODE=db01\n",
             "compose.yml": "x:\n  - URL=http://${NODE}.ana.lan/\n"}
    root = repo(files, config=MOVED, allowlist=allow)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "compose.yml").read_text() == "x:\n  - URL=http://${NODE}.fv.lan/\n"
    assert (root / ".env.bak-20260901").read_text() == "NODE=db01\n"


def test_a_record_keeps_its_composed_names(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """An incident note says what was: its `${NODE}.ana.lan` is no live reference to follow."""
    allow = ("version: 1\ncurrent: ['**']\nrecords:\n  - name: incidents\n    paths: ['incidents/**']\n"
             "    reason: what happened then\n")
    note = "We curled https://${NODE}.ana.lan/ and {{ inventory_hostname }}.ana.lan by hand.\n"
    files = {".env": "NODE=ana-ml2\n", "incidents/outage.md": note}
    root = repo(files, config=MOVED, allowlist=allow)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "incidents/outage.md").read_text() == note
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    assert all(r["path"] != "incidents/outage.md" for r in audit["references"])
    assert run(root, "verify", "--strict").exit_code == 0
