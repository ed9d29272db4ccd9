"""References the key pass missed (break-it round 5, findings B and C): Ansible's attribute form of
an inventory host, `hostvars.pug.ansible_host` and `groups.pug`, stayed while `hostvars['pug']`
followed the host; Helm's `$.Values.hosts.pug` (the top context from inside a `range`) and a
`{{ .pug }}` inside `{{- with .Values.hosts }}` stayed while values.yaml's key was renamed. Each
follows its host or key; where the scope cannot be read (a `range` element, a `with` of a
variable), a residual `key-reference`. ansible-playbook renders the inventory case."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

INVENTORY = "[web]\npug ansible_host=10.0.0.5\n"
VALUES = "hosts:\n  pug: 10.0.0.5\n"


def _findings(root: Path, run: Callable[..., Result]) -> list[tuple[str, str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return [(str(f["reason"]), str(f["path"]), int(f["line"])) for f in found]


def _swept(root: Path, run: Callable[..., Result]) -> None:
    assert run(root, "verify").exit_code == 1
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 0, checked.stdout


@pytest.mark.parametrize(("template", "expected"), [
    pytest.param("u = {{ hostvars.pug.ansible_host }}\n", "u = {{ hostvars.wolf.ansible_host }}\n", id="the-report"),
    pytest.param("{% for h in groups.pug %}{{ h }}{% endfor %} {{ groups.pug | length }}\n",
                 "{% for h in groups.wolf %}{{ h }}{% endfor %} {{ groups.wolf | length }}\n", id="groups"),
    pytest.param("a={{ hostvars.pug['ansible_host'] }} b={{ hostvars . pug.ansible_host }}\r\n",
                 "a={{ hostvars.wolf['ansible_host'] }} b={{ hostvars . wolf.ansible_host }}\r\n",
                 id="subscript-below-and-spaces-crlf"),
    pytest.param("{{ hostvars['pug'].ansible_host }} {{ hostvars.pug.ansible_host }}\n",
                 "{{ hostvars['wolf'].ansible_host }} {{ hostvars.wolf.ansible_host }}\n", id="both-forms"),
])
def test_an_inventory_host_read_by_attribute_follows_the_host(template: str, expected: str,
                                                              repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    root = repo({"inventory.ini": INVENTORY, "t.j2": template}, config=CONFIG, allowlist=ALLOW)
    _swept(root, run)
    assert (root / "t.j2").read_bytes().decode() == expected
    assert (root / "inventory.ini").read_text() == "[web]\nwolf ansible_host=10.1.0.5\n"


def test_a_bare_when_line_follows_and_ansible_renders_it(tmp_path: Path, repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    play = ("- hosts: all\n  connection: local\n  gather_facts: false\n  tasks:\n"
            "    - template: {src: t.j2, dest: '{{ out }}'}\n"
            "      when: hostvars.pug.ansible_host is defined and groups.web | length == 1\n")
    template = "{{ hostvars.pug.ansible_host }} {{ groups.web | join(',') }}\n"
    root = repo({"inventory.ini": INVENTORY, "t.j2": template, "play.yml": play}, config=CONFIG,
                allowlist=ALLOW)
    _swept(root, run)
    assert "hostvars.wolf.ansible_host is defined" in (root / "play.yml").read_text()
    out = tmp_path / "rendered"
    (tmp_path / "ansible.cfg").write_text("[defaults]\n")  # none of the machine's settings
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_LOCAL_TEMP": str(tmp_path / "ansible"),
           "ANSIBLE_HOME": str(tmp_path / "ansible-home"), "ANSIBLE_CONFIG": str(tmp_path / "ansible.cfg")}
    played = subprocess.run(
        [str(Path(sys.executable).parent / "ansible-playbook"), "-i", "inventory.ini", "play.yml",
         "-e", f"out={out}", "-e", f"ansible_python_interpreter={sys.executable}", "-e", "ansible_connection=local"],
        cwd=root, env=env, capture_output=True, text=True, check=False)
    assert played.returncode == 0, played.stdout + played.stderr
    assert out.read_text() == "10.1.0.5 wolf\n"


@pytest.mark.parametrize("template", [
    pytest.param("{{ hostvars.pugs.x }} {{ myhostvars.pug }} {{ hostvars.db01.pug }}\n", id="other-names"),
    pytest.param("{{ $hostvars.pug }} {{ x.hostvars.pug }}\n", id="not-the-root"),
])
def test_what_is_no_inventory_host_is_left_alone(template: str, repo: Callable[..., Path],
                                                 run: Callable[..., Result]) -> None:
    root = repo({"inventory.ini": INVENTORY, "t.j2": template}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "t.j2").read_text() == template


HELM = "{{- range .Values.l }}\n  b: {{ $.Values.hosts.pug }}\n{{- end }}\n{{- with .Values.hosts }}\n  c: {{ .pug }}\n{{- end }}\n"


@pytest.mark.parametrize(("values", "template", "expected"), [
    pytest.param(VALUES, HELM, HELM.replace("pug", "wolf"), id="the-report"),
    pytest.param("net:\n  hosts:\n    pug: {ip: 10.0.0.5}\n",
                 "{{ with .Values.net }}{{ with .hosts }}{{ .pug.ip }}{{ end }}{{ end }}\n"
                 "{{- with .Values.net.hosts -}}\n{{ .pug.ip }}{{ else }}{{ .Values.net.hosts.pug.ip }}\n{{- end }}\n",
                 "{{ with .Values.net }}{{ with .hosts }}{{ .wolf.ip }}{{ end }}{{ end }}\n"
                 "{{- with .Values.net.hosts -}}\n{{ .wolf.ip }}{{ else }}{{ .Values.net.hosts.wolf.ip }}\n{{- end }}\n",
                 id="nested-with-and-else"),
    pytest.param(VALUES, "{{ if .Values.on }}{{ with $.Values.hosts }}{{ .pug | quote }}{{ end }}{{ end }}\r\n",
                 "{{ if .Values.on }}{{ with $.Values.hosts }}{{ .wolf | quote }}{{ end }}{{ end }}\r\n",
                 id="with-of-the-top-inside-if-crlf"),
])
def test_a_helm_reference_follows_the_renamed_key(values: str, template: str, expected: str,
                                                  repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"chart/values.yaml": values, "chart/templates/cm.yaml": template}, config=CONFIG,
                allowlist=ALLOW)
    _swept(root, run)
    assert (root / "chart/templates/cm.yaml").read_bytes().decode() == expected
    assert (root / "chart/values.yaml").read_text() == values.replace("pug", "wolf").replace("10.0.0.5", "10.1.0.5")


@pytest.mark.parametrize("template", [
    pytest.param("{{- range .Values.hosts }}\n  c: {{ .pug }}\n{{- end }}\n", id="range-element"),
    pytest.param("{{- with $h := .Values.x }}\n  c: {{ .pug }}\n{{- end }}\n", id="with-a-variable"),
    pytest.param("{{- define \"x\" }}\n  c: {{ .pug }}\n{{- end }}\n", id="define"),
])
def test_a_scope_that_cannot_be_read_is_a_residual(template: str, repo: Callable[..., Path],
                                                   run: Callable[..., Result]) -> None:
    root = repo({"chart/values.yaml": VALUES, "chart/templates/cm.yaml": template}, config=CONFIG,
                allowlist=ALLOW)
    assert ("key-reference", "chart/templates/cm.yaml", 2) in _findings(root, run)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "chart/templates/cm.yaml").read_text() == template


def test_a_top_level_dot_name_is_no_values_key(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Outside any `with`, `.pug` is the chart's context, not `.Values`: nothing to follow."""
    template = "a: {{ .pug }} b: {{ $x.pug }}\n"
    root = repo({"chart/values.yaml": VALUES, "chart/templates/cm.yaml": template}, config=CONFIG,
                allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "chart/templates/cm.yaml").read_text() == template


def test_each_helm_chart_reads_its_own_values(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Finding D: `hosts.pug` in two charts is two keys; db keeps its own (a marked line), so db's
    templates keep reading pug while web's follow the renamed key."""
    template = "a: {{ .Values.hosts.pug }}\n{{- with .Values.hosts }}\nb: {{ .pug }}\n{{- end }}\n"
    files = {"charts/web/Chart.yaml": "name: web\n", "charts/web/values.yaml": "hosts:\n  pug: x\n",
             "charts/web/templates/cm.yaml": template,
             "charts/db/Chart.yaml": "name: db\n", "charts/db/values.yaml": "hosts:\n  pug: x  # renamer: keep\n",
             "charts/db/templates/cm.yaml": template,
             "charts/db/charts/sub/values.yaml": "hosts:\n  pug: y\n",
             "charts/db/charts/sub/templates/cm.yaml": template}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _swept(root, run)
    assert (root / "charts/web/templates/cm.yaml").read_text() == template.replace("pug", "wolf")
    assert (root / "charts/db/templates/cm.yaml").read_text() == template
    assert (root / "charts/db/charts/sub/templates/cm.yaml").read_text() == template.replace("pug", "wolf")
    assert (root / "charts/db/values.yaml").read_text() == "hosts:\n  pug: x  # renamer: keep\n"


def test_a_chart_with_no_such_key_is_left_to_the_plain_rules(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    """db's `.Values.hosts.pug` reads a key db does not define: no other chart's key decides it."""
    template = "a: {{ .Values.hosts.pug }}\n"
    files = {"charts/web/values.yaml": "hosts:\n  pug: x\n", "charts/web/templates/cm.yaml": template,
             "charts/db/values.yaml": "hosts:\n  cat: x\n", "charts/db/templates/cm.yaml": template}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert all(reason != "key-reference" for reason, _, _ in _findings(root, run))
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "charts/web/templates/cm.yaml").read_text() == template.replace("pug", "wolf")
    assert (root / "charts/db/templates/cm.yaml").read_text() == template


TF_MODULE = ('variable "hosts" {\n  default = {\n    pug = "10.0.0.5"%s\n  }\n}\n'
             'output "ip" {\n  value = var.hosts.pug\n}\n')


def test_each_terraform_module_reads_its_own_variables(repo: Callable[..., Path],
                                                       run: Callable[..., Result]) -> None:
    files = {"modules/a/main.tf": TF_MODULE % "", "modules/b/main.tf": TF_MODULE % "  # renamer: keep",
             "modules/c/main.tf": 'output "ip" {\n  value = var.hosts.pug\n}\n',
             "modules/c/terraform.tfvars": 'hosts = {\n  pug = "10.0.0.5" # renamer: keep\n}\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    a = (root / "modules/a/main.tf").read_text()
    assert 'wolf = "10.1.0.5"' in a and "value = var.hosts.wolf" in a, a
    b = (root / "modules/b/main.tf").read_text()
    assert 'pug = "10.0.0.5"  # renamer: keep' in b and "value = var.hosts.pug" in b, b
    assert "value = var.hosts.pug" in (root / "modules/c/main.tf").read_text()
    done = run(root, "verify")
    assert done.exit_code == 0, done.stdout
