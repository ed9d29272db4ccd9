"""A key kept on purpose keeps its readers through a name, a list, a filter or a file (break-it
round 9, finding 3).

With `pug = "..."  # renamer: keep until cutover` in terraform.tfvars (a compose service `pug:`,
an inventory `hosts: pug:`, a Traefik middleware kept the same way), the sweep rewrote the readers
the round 8 fix did not know: a Terraform local holding the key (`var.hosts[local.pick]`), a
membership test (`contains(local.names, "pug")` of `keys(X)`, `contains(["pug"], k)` in a `for`),
jq/yq `select(.key == "pug")`, Python's `yaml.safe_load(...)["hosts"]["pug"]`, an env_file's
`DB_HOST=pug` and a mounted `proxy_pass http://pug:5432`, a Traefik router's `middlewares:
["pug"]`, Helm's `$n := "pug"`, Jinja's `set n = 'pug'`. `terraform apply` gave false, `{}` and
"Invalid index", the script a KeyError, and verify said OK. Each now shares the key's fate: kept
with a kept key, renamed with a renamed one, else a `key-reference` residual. terraform, jq, yq
and python3 read the swept files.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG
from tests.testing.repos import Repo, Run
from tests.testing.terraform import needs_terraform

KEEP = "  # renamer: keep until cutover"

TF = """\
variable "hosts" { type = map(string) }
locals {
  names = keys(var.hosts)
  pick  = "pug"
  other = "pug"
}
output "e" { value = contains(local.names, "pug") }
output "g" { value = { for k, v in var.hosts : k => v if contains(["pug"], k) } }
output "n" { value = var.hosts[local.pick] }
output "l" { value = lookup(var.hosts, local.other, "none") }
output "t" { value = try(var.hosts["pug"], null) }
output "x" { value = lookup(var.hosts, "pug") }
"""


def _apply(root: Path, tmp: Path) -> dict[str, object]:
    """terraform apply (no provider: outputs only), then the outputs' values."""
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1",
           "TF_DATA_DIR": str(tmp / "tf-data")}
    state = str(tmp / "tf.state")
    subprocess.run(["terraform", "init", "-input=false", "-backend=false", "-no-color"], cwd=root, env=env,
                   capture_output=True, text=True, check=True)
    applied = subprocess.run(["terraform", "apply", "-input=false", "-auto-approve", "-no-color", f"-state={state}"],
                             cwd=root, env=env, capture_output=True, text=True, check=False)
    assert applied.returncode == 0, applied.stdout + applied.stderr
    shown = subprocess.run(["terraform", "output", "-json", f"-state={state}"], cwd=root, env=env,
                           capture_output=True, text=True, check=True)
    return {k: v["value"] for k, v in json.loads(shown.stdout).items()}


def _findings(root: Path, run: Run) -> list[tuple[str, str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return [(str(f["reason"]), str(f["path"]), int(f["line"])) for f in found]


@needs_terraform
@pytest.mark.parametrize("keep", [pytest.param(KEEP, id="kept"), pytest.param("", id="renamed")])
def test_terraform_reads_a_key_through_a_local_and_a_list(keep: str, tmp_path: Path, repo: Repo,
                                                         run: Run) -> None:
    tfvars = f'hosts = {{\n  pug = "10.0.0.99"{keep}\n  rex = "10.0.0.98"\n}}\n'
    root = repo({"main.tf": TF, "terraform.tfvars": tfvars}, config=CONFIG, allowlist=ALLOW)
    before = _apply(root, tmp_path)
    assert before == {"e": True, "g": {"pug": "10.0.0.99"}, "n": "10.0.0.99", "l": "10.0.0.99",
                      "t": "10.0.0.99", "x": "10.0.0.99"}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "main.tf").read_text() == (TF if keep else TF.replace('"pug"', '"wolf"'))
    assert run(root, "verify", "--strict").exit_code == 0
    name = "pug" if keep else "wolf"
    assert _apply(root, tmp_path) == {**before, "g": {name: "10.0.0.99"}}
    if keep:
        audit = run(root, "audit").stdout
        assert 'local.pick = "pug", read as a key of var.hosts' in audit, audit


def test_a_local_read_as_a_key_and_as_a_name_is_a_residual(repo: Repo, run: Run) -> None:
    """`local.pick` indexes the kept map and also builds a host name: which the literal is cannot
    be told, so it is not rewritten and verify fails; the name's other readers still follow."""
    tf = ('variable "hosts" { type = map(string) }\nlocals {\n  pick = "pug"\n}\n'
          'output "n" { value = var.hosts[local.pick] }\noutput "h" { value = "${local.pick}.ana.lan" }\n'
          'output "d" { value = "pug.ana.lan" }\n')
    root = repo({"main.tf": tf, "terraform.tfvars": f'hosts = {{\n  pug = "10.0.0.99"{KEEP}\n}}\n'},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1  # the residual is left for a decision
    text = (root / "main.tf").read_text()
    assert 'pick = "pug"' in text and '"wolf.fv.lan"' in text
    assert ("key-reference", "main.tf", 3) in _findings(root, run)
    assert run(root, "verify").exit_code == 1


def test_a_local_that_is_no_key_follows_the_host(repo: Repo, run: Run) -> None:
    """Negative: a local never read as a key is a host name like any other (the plain rules)."""
    tf = ('variable "hosts" { type = map(string) }\nlocals {\n  pick = "pug"\n}\n'
          'output "h" { value = "ssh ${local.pick}" }\noutput "n" { value = var.hosts["rex"] }\n')
    root = repo({"main.tf": tf, "terraform.tfvars": f'hosts = {{\n  pug = "10.0.0.99"{KEEP}\n  rex = "x"\n}}\n'},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert 'pick = "wolf"' in (root / "main.tf").read_text()
    assert run(root, "verify", "--strict").exit_code == 0


SCRIPT = """\
#!/bin/sh
yq -r ".hosts | to_entries[] | select(.key == \\"pug\\") | .value.ip" inv.yaml
yq -r '.hosts | has("pug")' inv.yaml
jq -r '.hosts | keys | index("pug")' inv.json
jq -r '.hosts | .pug.ip' inv.json
python3 -c "import yaml;print(yaml.safe_load(open(\\"inv.yaml\\"))[\\"hosts\\"][\\"pug\\"][\\"ip\\"])"
python3 read.py
H=pug
yq -r ".hosts.$H.ip" inv.yaml
"""
READ = """\
import json
with open("inv.json") as f:
    data = json.load(f)
print(data["hosts"].get("pug", {}).get("ip"), "pug" in data["hosts"])
"""


def _script(root: Path) -> str:
    done = subprocess.run(["sh", "run.sh"], cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize("keep", [pytest.param(KEEP, id="kept"), pytest.param("", id="renamed")])
def test_jq_yq_and_python_read_the_key_after_the_sweep(keep: str, repo: Repo, run: Run) -> None:
    inventory = f"hosts:\n  pug:{keep}\n    ip: 10.0.0.99\n  rex:\n    ip: 10.0.0.98\n"
    files = {"inv.yaml": inventory, "run.sh": SCRIPT, "read.py": READ,
             "inv.json": '{"hosts": {"pug": {"ip": "10.0.0.99"}}}\n'}
    if keep:  # JSON holds no comment: a keep rule keeps its key
        allow = ALLOW + "keep:\n  - {name: json, path: inv.json, line_contains: '\"pug\"', reason: cutover}\n"
    else:
        allow = ALLOW
    root = repo(files, config=CONFIG, allowlist=allow)
    before = _script(root)
    assert before == "10.0.0.99\ntrue\n0\n10.0.0.99\n10.0.0.99\n10.0.0.99 True\n10.0.0.99\n"
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert _script(root) == before
    assert ("wolf" in (root / "run.sh").read_text()) is not bool(keep)
    assert ("wolf" in (root / "read.py").read_text()) is not bool(keep)
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_load_of_an_unknown_file_is_a_residual(repo: Repo, run: Run) -> None:
    """`json.load(sys.stdin)["hosts"]["pug"]` reads a document no path names: where a key pug is
    kept, which it reads cannot be told, so it is left (verify fails), never rewritten alone."""
    root = repo({"inv.yaml": f"hosts:\n  pug:{KEEP}\n    ip: 10.0.0.99\n",
                 "read.py": 'import json, sys\nprint(json.load(sys.stdin)["hosts"]["pug"])\n'},
                config=CONFIG, allowlist=ALLOW)
    run(root, "sweep", "--commit")
    assert '["pug"]' in (root / "read.py").read_text()
    assert ("key-reference", "read.py", 2) in _findings(root, run)


COMPOSE = """\
services:
  pug:{keep}
    image: postgres
  web:
    image: nginx
    env_file: [db.env]
    volumes: ["./nginx.conf:/etc/nginx/nginx.conf:ro"]
"""
NGINX = "events {}\nhttp { server { location / { proxy_pass http://pug:5432; } } }\n"


@pytest.mark.parametrize("keep", [pytest.param(KEEP, id="kept"), pytest.param("", id="renamed")])
def test_an_env_file_and_a_mounted_file_read_the_service(keep: str, repo: Repo, run: Run) -> None:
    files = {"stack/compose.yaml": COMPOSE.format(keep=keep), "stack/db.env": "DB_HOST=pug\nDB_PORT=5432\n",
             "stack/.env": "UPSTREAM=http://pug:5432/\n", "stack/nginx.conf": NGINX}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    name = "pug" if keep else "wolf"
    assert (root / "stack/db.env").read_text() == f"DB_HOST={name}\nDB_PORT=5432\n"
    assert (root / "stack/.env").read_text() == f"UPSTREAM=http://{name}:5432/\n"
    assert f"http://{name}:5432" in (root / "stack/nginx.conf").read_text()
    assert run(root, "verify", "--strict").exit_code == 0
    if keep:
        assert "reads the key services.pug at stack/compose.yaml:2" in run(root, "audit").stdout


def test_an_env_file_of_no_project_naming_the_service_follows_the_host(repo: Repo, run: Run) -> None:
    """Negative: a kept service `pug` in another folder's project is not what this env file reads."""
    root = repo({"a/compose.yaml": COMPOSE.format(keep=KEEP), "a/db.env": "DB_HOST=pug\n",
                 "b/compose.yaml": "services:\n  app:\n    image: x\n    env_file: app.env\n",
                 "b/app.env": "DB_HOST=pug\n", "a/nginx.conf": NGINX},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "a/db.env").read_text() == "DB_HOST=pug\n"
    assert (root / "b/app.env").read_text() == "DB_HOST=wolf\n"


DYNAMIC = """\
http:
  routers:
    r1:
      rule: "Host(`a.example`)"
      service: pug@file
      middlewares: ["pug", "auth@docker"]
    r2:
      rule: "Host(`b.example`)"
      service: pug
      middlewares:
        - pug@file
  middlewares:
    pug:{keep}
      basicAuth: {{users: ["u:x"]}}
  services:
    pug:{keep}
      loadBalancer: {{servers: [{{url: "http://10.0.0.99/"}}]}}
"""


@pytest.mark.parametrize("keep", [pytest.param(KEEP, id="kept"), pytest.param("", id="renamed")])
def test_traefik_routers_read_the_file_provider_s_definitions(keep: str, repo: Repo, run: Run) -> None:
    import yaml

    label = '      - "traefik.http.routers.r3.middlewares=pug@file,other"\n'
    root = repo({"dynamic.yml": DYNAMIC.format(keep=keep),
                 "compose.yaml": f"services:\n  app:\n    image: x\n    labels:\n{label}"},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    done = yaml.safe_load((root / "dynamic.yml").read_text())
    name = "pug" if keep else "wolf"
    assert set(done["http"]["middlewares"]) == {name} and set(done["http"]["services"]) == {name}
    routers = done["http"]["routers"]
    assert routers["r1"] == {"rule": "Host(`a.example`)", "service": f"{name}@file",
                             "middlewares": [name, "auth@docker"]}
    assert routers["r2"]["service"] == name and routers["r2"]["middlewares"] == [f"{name}@file"]
    assert f"middlewares={name}@file,other" in (root / "compose.yaml").read_text()
    assert run(root, "verify", "--strict").exit_code == 0


CHART = {"chart/Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n",
         "chart/templates/cm.yaml": ('{{ $n := "pug" }}a: {{ (index .Values.hosts $n).ip }}\n'
                                     '{{- range $k, $v := .Values.hosts }}\n{{- if has $k (list "pug") }}\n'
                                     'b: {{ $v.ip }}\n{{- end }}\n{{- end }}\n')}
JINJA = ("{% set n = 'pug' %}{{ net.hosts[n].ip }}\n"
         "{{ net.hosts | dict2items | selectattr('key', 'in', ['pug']) | list }}\n"
         "{{ net.hosts | json_query('pug.ip') }}\n{% for k, v in net.hosts.items() %}"
         "{% if k in ['pug'] %}{{ v.ip }}{% endif %}{% endfor %}\n")


@pytest.mark.parametrize("keep", [pytest.param(KEEP, id="kept"), pytest.param("", id="renamed")])
def test_helm_and_jinja_read_the_key_through_a_variable_or_a_list(keep: str, repo: Repo, run: Run) -> None:
    import jinja2
    import yaml

    files = {**CHART, "chart/values.yaml": f"hosts:\n  pug:{keep}\n    ip: 10.0.0.99\n",
             "group_vars/all.yml": f"net:\n  hosts:\n    pug:{keep}\n      ip: 10.0.0.99\n",
             "templates/t.j2": JINJA}
    root = repo(files, config=CONFIG, allowlist=ALLOW)

    def render() -> str:
        variables = yaml.safe_load((root / "group_vars/all.yml").read_text())
        template = (root / "templates/t.j2").read_text().split("\n")
        return jinja2.Template(template[0] + "\n" + template[3]).render(**variables)

    before = render()
    assert before == "10.0.0.99\n10.0.0.99"
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert render() == before
    name = "pug" if keep else "wolf"
    chart = (root / "chart/templates/cm.yaml").read_text()
    assert f'$n := "{name}"' in chart and f'(list "{name}")' in chart
    jinja = (root / "templates/t.j2").read_text()
    assert jinja.count(f"'{name}") == 4 and (keep == "" or "wolf" not in jinja)
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("keep", [pytest.param(KEEP, id="kept"), pytest.param("", id="renamed")])
def test_an_inventory_group_and_a_host_read_through_a_variable(keep: str, repo: Repo, run: Run) -> None:
    """`groups['pug']` reads the group `[pug]` (not the host pug, kept here in `[web]`), and
    `{% set n = 'pug' %}{{ hostvars[n] }}` reads the host: each takes its own fate."""
    play = ("- hosts: all\n  tasks:\n    - debug: msg=\"{{ groups['pug'] }}\"\n"
            "    - debug: msg=\"{% set n = 'pug' %}{{ hostvars[n].ansible_host }}\"\n")
    root = repo({"hosts.ini": f"[pug]{keep}\nrex\n[web]\npug{KEEP}\n", "site.yml": play},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    group = "pug" if keep else "wolf"
    assert (root / "hosts.ini").read_text().startswith(f"[{group}]")
    text = (root / "site.yml").read_text()
    assert f"groups['{group}']" in text and "set n = 'pug'" in text
    assert run(root, "verify", "--strict").exit_code == 0


@needs_terraform
@pytest.mark.parametrize("keep", [pytest.param(KEEP, id="kept"), pytest.param("", id="renamed")])
def test_a_variable_holding_the_key_in_tfvars_or_its_default(keep: str, tmp_path: Path, repo: Repo,
                                                             run: Run) -> None:
    tf = ('variable "hosts" { type = map(string) }\nvariable "pick" { type = string }\n'
          'variable "dflt" {\n  type    = string\n  default = "pug"\n}\n'
          'output "n" { value = var.hosts[var.pick] }\noutput "d" { value = lookup(var.hosts, var.dflt) }\n')
    tfvars = f'hosts = {{\n  pug = "10.0.0.99"{keep}\n}}\npick = "pug"\n'
    root = repo({"main.tf": tf, "terraform.tfvars": tfvars}, config=CONFIG, allowlist=ALLOW)
    assert _apply(root, tmp_path) == {"n": "10.0.0.99", "d": "10.0.0.99"}
    assert run(root, "sweep", "--commit").exit_code == 0
    assert ('pick = "pug"' in (root / "terraform.tfvars").read_text()) is bool(keep)
    assert run(root, "verify", "--strict").exit_code == 0
    assert _apply(root, tmp_path) == {"n": "10.0.0.99", "d": "10.0.0.99"}
