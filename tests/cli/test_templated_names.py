"""Names built from a domain variable the repo defines (break-it round 3, finding 9):
`ana-ml2.{{ domain }}` beside `domain: ana.lan` is ana-ml2.ana.lan, a residual `templated-name`
naming the variable and where it is defined; a variable defined nowhere is a near-miss note."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

ALLOW = "version: 1\ncurrent: ['**']\n"
# The report's renames (the domain changes) and its finding's (only the label changes).
MOVED = """\
version: 1
renames:
  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}
  addresses: {10.250.50.54: 10.251.50.54}
allowlist: allow.yaml
"""
LABEL_ONLY = """\
version: 1
renames:
  hosts: {ana-ml2.ana.lan: fv-ml1.ana.lan}
allowlist: allow.yaml
"""


def _findings(root: Path, run: Callable[..., Result]) -> list[dict[str, object]]:
    found: list[dict[str, object]] = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return found


CASES = [
    pytest.param({"group_vars/all.yml": "domain: ana.lan\n"}, "roles/web/tasks/main.yml",
                 'url: "https://ana-ml2.{{ domain }}/"\n', "domain", "group_vars/all.yml:1", id="jinja-group-vars"),
    pytest.param({"roles/web/defaults/main.yml": "---\nbase_domain: 'ana.lan'  # the lab\n"},
                 "roles/web/templates/site.conf.j2", "server_name ana-ml2.{{ base_domain | default('x.lan') }};\n",
                 "base_domain", "roles/web/defaults/main.yml:2", id="jinja-default-filter-defaults-file"),
    pytest.param({"vars.yml": "site:\n  domain: ana.lan\n"}, "task.yml", "h: ana-ml2.{{site.domain}}\n",
                 "domain", "vars.yml:2", id="jinja-attribute"),
    pytest.param({"stack/.env": "DOMAIN=ana.lan\n"}, "stack/compose.yml",
                 "services:\n  web:\n    environment:\n      - URL=https://ana-ml2.${DOMAIN}/\n",
                 "DOMAIN", "stack/.env:1", id="compose-from-env"),
    pytest.param({}, "x.env", "DOMAIN=ana.lan\nURL=https://ana-ml2.${DOMAIN}/\n", "DOMAIN", "x.env:1",
                 id="env-same-file"),
    pytest.param({"lib.sh": "export DOMAIN=\"ana.lan\"\n"}, "run.sh", "ssh root@ana-ml2.$DOMAIN uptime\n",
                 "DOMAIN", "lib.sh:1", id="shell-bare-variable"),
    pytest.param({"inventory/hosts": "[all:vars]\nlab_domain=ana.lan\n"}, "play.yml",
                 "- hosts: all\n  vars:\n    api: \"ana-ml2.{{ lab_domain }}:8443\"\n", "lab_domain",
                 "inventory/hosts:2", id="ini-inventory-vars"),
    pytest.param({"chart/values.yaml": "ingress:\n  domain: ana.lan\n"}, "chart/templates/ingress.yaml",
                 "spec:\n  rules:\n    - host: ana-ml2.{{ .Values.ingress.domain }}\n", "domain",
                 "chart/values.yaml:2", id="helm-values"),
    pytest.param({"terraform.tfvars": 'domain = "ana.lan"\n'}, "main.tf",
                 'locals {\n  url = "https://ana-ml2.${var.domain}/"\n}\n', "domain", "terraform.tfvars:1",
                 id="terraform-tfvars"),
    pytest.param({"vars.yml": "zone: lan\n"}, "task.yml", "h: ana-ml2.ana.{{ zone }}\n", "zone", "vars.yml:1",
                 id="variable-is-the-last-label-only"),
    pytest.param({"vars.yml": "sub: ana\n"}, "task.yml", "h: ana-ml2.{{ sub }}.lan\n", "sub", "vars.yml:1",
                 id="variable-then-a-label"),
]


@pytest.mark.parametrize("config", [pytest.param(MOVED, id="domain-moves"), pytest.param(LABEL_ONLY, id="label-only")])
@pytest.mark.parametrize(("defs", "path", "content", "variable", "where"), CASES)
def test_a_name_built_from_a_variable_holding_the_old_domain_is_a_residual(
        config: str, defs: dict[str, str], path: str, content: str, variable: str, where: str,
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**defs, path: content}, config=config, allowlist=ALLOW)
    found = _findings(root, run)
    assert [(f["path"], f["reason"]) for f in found] == [(path, "templated-name")], found
    note = str(found[0]["note"] if "note" in found[0] else found[0])
    assert f"`{variable}`" in note and where in note, note
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / path).read_text() == content  # the label is not rewritten on its own either
    assert run(root, "verify", "--strict").exit_code == 1
    shown = run(root, "explain", path)
    assert "templated-name" in shown.stdout and variable in shown.stdout


def test_the_template_s_own_default_is_the_old_domain(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Defined nowhere in the repo, the default decides: `${DOMAIN:-ana.lan}`, `default('ana.lan')`."""
    files = {"run.sh": "H=ana-ml2.${DOMAIN:-ana.lan}\n", "t.yml": "h: \"ana-ml2.{{ d | default('ana.lan') }}\"\n"}
    root = repo(files, config=LABEL_ONLY, allowlist=ALLOW)
    found = _findings(root, run)
    assert sorted((f["path"], f["reason"]) for f in found) == [("run.sh", "templated-name"),
                                                               ("t.yml", "templated-name")]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert {p: (root / p).read_text() for p in files} == files


def test_a_variable_defined_nowhere_is_a_near_miss(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """What `domain` holds cannot be told: never silent, a near-miss (verify warns, --strict fails)."""
    root = repo({"task.yml": 'url: "https://ana-ml2.{{ domain }}/"\n'}, config=LABEL_ONLY, allowlist=ALLOW)
    checked = run(root, "verify")
    assert checked.exit_code == 0
    assert "near-miss" in checked.stdout and "`domain` is defined nowhere" in checked.stdout, checked.stdout
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize(("defs", "content", "expected"), [
    # Another domain: another machine; the host rename still renames the label, as everywhere.
    pytest.param({"vars.yml": "domain: other.lan\n"}, "h: ana-ml2.{{ domain }}\n", "h: fv-ml1.{{ domain }}\n",
                 id="defined-as-another-domain"),
    pytest.param({"vars.yml": "domain: ana.lan\n"}, "h: xana-ml2.{{ domain }} ana-ml20.{{ domain }}\n", None,
                 id="other-labels"),
])
def test_other_names_are_no_residual(defs: dict[str, str], content: str, expected: str | None,
                                     repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**defs, "task.yml": content}, config=MOVED, allowlist=ALLOW)
    assert all(f["reason"] != "templated-name" for f in _findings(root, run))
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / "task.yml").read_text() == (expected or content)
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_label_rename_keeping_the_domain_is_rewritten(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """With `ana-ml2 -> fv-ml1` and the FQDN's rename keeping the domain, the plain rewrite of the
    label makes the new FQDN: nothing to decide."""
    config = MOVED.replace("fv-ml1.fv.lan", "fv-ml1.ana.lan")
    root = repo({"vars.yml": "domain: ana.lan\n", "task.yml": "h: ana-ml2.{{ domain }}\n"}, config=config,
                allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "task.yml").read_text() == "h: fv-ml1.{{ domain }}\n"
    assert run(root, "verify", "--strict").exit_code == 0
