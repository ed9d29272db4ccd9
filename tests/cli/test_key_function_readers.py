"""A key read through a function follows the key's fate (break-it round 8, finding 4).

`contains(keys(var.hosts), "pug")`, `{ for k, v in var.hosts : k => v if k == "pug" }`, Helm's
`index`/`get`/`hasKey`/`pluck`/`dig`, Jinja's `{% set h = net.hosts %}` alias, `'pug' in
net.hosts`, `selectattr('key', 'eq', 'pug')`, `lookup('vars', 'net')` and a loop's `k == 'pug'`,
and a docker compose file's service names (`depends_on`, `links`, `http://pug:80`) were plain
names: with the key kept on purpose they were rewritten and read nothing, verify OK. Each now
reads the key at its path: kept with a kept key, renamed with a renamed one, else a
`key-reference` residual. terraform reads the swept module where the finding is its evaluation.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

KEEP = "  # renamer: keep until cutover"

TF = """\
variable "hosts" { type = map(string) }
output "a" { value = var.hosts["pug"] }
output "b" { value = contains(keys(var.hosts), "pug") }
output "d" { value = { for k, v in var.hosts : k => v if k == "pug" } }
output "e" { value = [for k in keys(var.hosts) : k if "pug" == k] }
resource "terraform_data" "x" { input = lookup(var.hosts, "pug", "none") }
output "f" { value = index(keys(var.hosts), "pug") }
"""


def _tfvars(keep: str) -> str:
    return f'hosts = {{\n  pug = "10.0.0.99"{keep}\n}}\n'


def _findings(root: Path, run: Callable[..., Result]) -> list[tuple[str, str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return [(str(f["reason"]), str(f["path"]), int(f["line"])) for f in found]


def _plan(root: Path, tmp: Path) -> str:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1",
           "TF_DATA_DIR": str(tmp / "tf-data")}
    subprocess.run(["terraform", "init", "-input=false", "-backend=false", "-no-color"], cwd=root, env=env,
                   capture_output=True, text=True, check=True)
    planned = subprocess.run(["terraform", "plan", "-input=false", "-refresh=false", "-no-color"], cwd=root,
                             env=env, capture_output=True, text=True, check=False)
    assert planned.returncode == 0, planned.stdout + planned.stderr
    return " ".join(planned.stdout.split())


@pytest.mark.parametrize("keep", [pytest.param(KEEP, id="kept"), pytest.param("", id="renamed")])
def test_terraform_function_readers_follow_the_key(keep: str, tmp_path: Path, repo: Callable[..., Path],
                                                   run: Callable[..., Result]) -> None:
    root = repo({"main.tf": TF, "terraform.tfvars": _tfvars(keep)}, config=CONFIG, allowlist=ALLOW)
    before = _plan(root, tmp_path)
    assert "b = true" in before and 'e = [ + "pug", ]' in before and "f = 0" in before, before
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    expected = TF if keep else TF.replace('"pug"', '"wolf"')
    assert (root / "main.tf").read_text() == expected
    assert run(root, "verify", "--strict").exit_code == 0
    after = _plan(root, tmp_path)
    name = "pug" if keep else "wolf"
    assert "b = true" in after and f'e = [ + "{name}", ]' in after and f'+ {name} = "10.0.0.99"' in after, after
    assert "f = 0" in after, after


CHART_META = "apiVersion: v2\nname: c\nversion: 0.1.0\n"
HELM = """\
data:
  a: {{ index .Values.hosts "pug" | quote }}
  b: {{ get .Values.hosts "pug" | quote }}
  c: {{ pluck "pug" .Values.hosts | first | quote }}
  d: {{ hasKey $.Values.hosts "pug" }}
  e: {{ dig "pug" "none" .Values.hosts }}
  f: {{ index .Values "hosts" "pug" }}
{{- $h := .Values.hosts }}
  g: {{ index $h "pug" }}
{{- range $k, $v := .Values.hosts }}{{ if eq $k "pug" }}
  h: {{ $v }}{{ end }}{{ end }}
"""
JINJA = """\
{% set h = net.hosts %}
one {{ h['pug'].ip }}
two {{ net.hosts | dict2items | selectattr('key', 'eq', 'pug') | list }}
three {{ lookup('vars', 'net').hosts['pug'] }}
{% if 'pug' in net.hosts %}four{% endif %}
{% for k, v in net.hosts.items() %}{% if k == 'pug' %}five{% endif %}{% endfor %}
"""
COMPOSE = """\
services:
  pug:{keep}
    image: nginx
  app:
    image: x
    depends_on: [pug]
    links: ["pug:db"]
    volumes_from: [pug]
    network_mode: "service:pug"
    environment:
      UPSTREAM: http://pug:80
"""


@pytest.mark.parametrize(("files", "reader"), [
    pytest.param({"chart/Chart.yaml": CHART_META, "chart/values.yaml": "hosts:\n  pug: 10.0.0.99{keep}\n",
                  "chart/templates/cm.yaml": HELM}, "chart/templates/cm.yaml", id="helm"),
    pytest.param({"group_vars/all.yml": "net:\n  hosts:\n    pug: {{ip: 10.0.0.99}}{keep}\n",
                  "templates/a.j2": JINJA}, "templates/a.j2", id="jinja"),
    pytest.param({"compose.yaml": COMPOSE}, "compose.yaml", id="compose"),
])
@pytest.mark.parametrize("keep", [pytest.param(KEEP, id="kept"), pytest.param("", id="renamed")])
def test_function_readers_keep_with_a_kept_key_and_follow_a_renamed_one(
        files: dict[str, str], reader: str, keep: str, repo: Callable[..., Path],
        run: Callable[..., Result]) -> None:
    files = {rel: text.replace("{keep}", keep).replace("{{ip", "{ip").replace("99}}", "99}")
             if "{keep}" in text else text for rel, text in files.items()}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    text = files[reader]
    expected = text if keep else text.replace("pug", "wolf")
    if keep and reader == "compose.yaml":
        expected = text  # the service keeps its name, and every reader of it
    assert (root / reader).read_text() == expected
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_reader_through_an_unreadable_alias_is_a_residual_and_holds_the_key(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # `h` is a filtered mapping: which key `h['pug']` reads cannot be told, so neither moves
    files = {"group_vars/all.yml": "net:\n  hosts:\n    pug: {ip: 10.0.0.99}\n",
             "templates/a.j2": "{% set h = net.hosts | combine(extra) %}\none {{ h['pug'].ip }}\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    found = _findings(root, run)
    assert ("key-reference", "templates/a.j2", 2) in found, found
    assert ("key-reference", "group_vars/all.yml", 3) in found, found
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "templates/a.j2").read_text() == files["templates/a.j2"]
    assert (root / "group_vars/all.yml").read_text() == files["group_vars/all.yml"]


def test_a_quoted_reader_by_an_unknown_path_beside_a_kept_key_is_a_residual(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"group_vars/all.yml": f"net:\n  hosts:\n    pug: {{ip: 10.0.0.99}}{KEEP}\n",
             "templates/a.j2": "{{ facts['pug'] }}\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert ("key-reference", "templates/a.j2", 1) in _findings(root, run)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "templates/a.j2").read_text() == files["templates/a.j2"]


def test_compose_service_kept_in_one_file_and_renamed_in_the_other_is_a_residual(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"compose.yaml": "services:\n  pug:\n    image: nginx\n  app:\n    depends_on: [pug]\n",
             "compose.override.yaml": f"services:\n  pug:{KEEP}\n    ports: ['80:80']\n",
             "other/compose.yaml": "services:\n  app:\n    environment: {{U: http://pug:80}}\n"}
    files["other/compose.yaml"] = files["other/compose.yaml"].replace("{{", "{").replace("}}", "}")
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    found = _findings(root, run)
    assert ("key-reference", "compose.yaml", 5) in found, found
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "compose.yaml").read_text() == files["compose.yaml"]
    # another project's file names no service pug: the host, as ever
    assert (root / "other/compose.yaml").read_text() == files["other/compose.yaml"].replace("pug", "wolf")
