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


# Break-it round 4, finding 4: the domain variable defined through another variable was "defined
# nowhere" (or, for Terraform's `var.base`, read as the literal text `var.base`: no finding at all).
THROUGH = [
    pytest.param({"stack/.env": "BASE=ana.lan\nDOMAIN=${BASE}\n"}, "stack/compose.yml",
                 "services:\n  web:\n    environment:\n      - URL=https://ana-ml2.${DOMAIN}/\n",
                 ["`DOMAIN` is ${BASE} at stack/.env:2", "`BASE` is ana.lan at stack/.env:1"], id="env-through-env"),
    pytest.param({"group_vars/all.yml": 'base_domain: ana.lan\ndomain: "{{ base_domain }}"\n'},
                 "roles/web/templates/site.conf.j2", "server_name ana-ml2.{{ domain }};\n",
                 ["`domain` is {{ base_domain }} at group_vars/all.yml:2", "`base_domain` is ana.lan"],
                 id="group-vars-through-jinja"),
    pytest.param({"variables.tf": 'variable "base" {\n  type    = string\n  default = "ana.lan"\n}\n',
                  "locals.tf": "locals {\n  domain = var.base\n}\n"}, "main.tf",
                 'output "url" {\n  value = "https://ana-ml2.${local.domain}/"\n}\n',
                 ["`domain` is var.base at locals.tf:2", "`base` is ana.lan at variables.tf:3"],
                 id="terraform-local-through-a-variable-default"),
    pytest.param({"a.env": "SUB=ana\r\nDOMAIN=${SUB}.lan\r\n"}, "run.sh", "ssh root@ana-ml2.$DOMAIN\r\n",
                 ["`DOMAIN` is ${SUB}.lan at a.env:2", "`SUB` is ana at a.env:1"], id="a-value-built-from-a-variable-crlf"),
    pytest.param({"a.env": "DOMAIN=${BASE:-ana.lan}\n"}, "run.sh", "H=ana-ml2.${DOMAIN}\n",
                 ["`DOMAIN` is ${BASE:-ana.lan} at a.env:1"], id="through-a-default-defined-nowhere"),
    pytest.param({"a.env": "A=${B}\nB=${C}\nC=ana.lan\n"}, "run.sh", "H=ana-ml2.${A}\n",
                 ["`A` is ${B} at a.env:1", "`B` is ${C} at a.env:2", "`C` is ana.lan at a.env:3"], id="three-deep"),
]


@pytest.mark.parametrize(("defs", "path", "content", "said"), THROUGH)
def test_a_domain_variable_defined_through_another_is_followed(
        defs: dict[str, str], path: str, content: str, said: list[str],
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**defs, path: content}, config=MOVED, allowlist=ALLOW)
    found = [f for f in _findings(root, run) if f["path"] == path]
    assert [f["reason"] for f in found] == ["templated-name"], found
    assert all(s in str(found[0]["note"]) for s in said), found[0]["note"]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / path).read_bytes().decode() == content
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize(("defs", "said"), [
    pytest.param({"a.env": "DOMAIN=${BASE}\nBASE=${DOMAIN}\n"}, "is defined through a cycle", id="a-cycle"),
    pytest.param({"a.env": "DOMAIN=${BASE}\n"}, "`DOMAIN` is ${BASE} at a.env:1 and `BASE` is defined nowhere",
                 id="to-a-variable-defined-nowhere"),
    pytest.param({"a.env": "".join(f"V{i}=${{V{i + 1}}}\n" for i in range(12)) + "V12=ana.lan\n"},
                 "more than 8 variables", id="too-deep"),
    pytest.param({"a.env": "DOMAIN=$(cat /etc/domain)\n"}, "computed when it runs", id="computed"),
])
def test_a_domain_that_cannot_be_followed_says_why(defs: dict[str, str], said: str, repo: Callable[..., Path],
                                                   run: Callable[..., Result]) -> None:
    variable = "V0" if "V0" in defs["a.env"] else "DOMAIN"
    root = repo({**defs, "run.sh": f"H=ana-ml2.${{{variable}}}\n"}, config=LABEL_ONLY, allowlist=ALLOW)
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout
    assert "near-miss" in checked.stdout and said in checked.stdout, checked.stdout
    assert "defined nowhere in the repo; where" not in checked.stdout or "BASE" in said
    assert run(root, "verify", "--strict").exit_code == 1


def test_a_domain_variable_defined_through_another_domain_is_another_machine(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"a.env": "BASE=other.lan\nDOMAIN=${BASE}\n", "run.sh": "H=ana-ml2.${DOMAIN}\n"}
    root = repo(files, config=MOVED, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "run.sh").read_text() == "H=fv-ml1.${DOMAIN}\n"
    assert run(root, "verify", "--strict").exit_code == 0
