"""A reference follows a key only where the sweep provably rewrites that key (break-it round 6).

"follow" and "keep" were decided without asking what the sweep does to the key at the other end:
a Terraform module's callers, a parent chart's values, a kept line, a kept inventory host, a data
file of the same name elsewhere, a key file skipped too large, a Helm variable, a BOM. Each case:
followed where the key is renamed, kept where it is kept, else a `key-reference` residual
(verify fails, nothing rewritten there); a kept line whose target moves is refused before any
write. terraform and ansible-playbook read the results where they are installed.
"""

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
from tests.testing.terraform import needs_terraform

KEEP = "  # renamer: keep old box"


def _findings(root: Path, run: Callable[..., Result]) -> list[tuple[str, str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return [(str(f["reason"]), str(f["path"]), int(f["line"])) for f in found]


def _residual(root: Path, run: Callable[..., Result], rel: str, line: int, files: dict[str, str]) -> None:
    """A `key-reference` at rel:line that verify fails on; the sweep leaves that line as it was."""
    assert ("key-reference", rel, line) in _findings(root, run)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / rel).read_text().split("\n")[line - 1] == files[rel].split("\n")[line - 1]
    assert run(root, "verify").exit_code == 1


def _clean(root: Path, run: Callable[..., Result]) -> None:
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout


# -- 1. a Terraform module reads its callers' arguments ---------------------------------------------

MODULE = 'variable "hosts" {}\noutput "ip" { value = var.hosts.pug.ip }\n'


def _call(name: str, source: str, keep: str = "") -> str:
    return (f'module "{name}" {{\n  source = "{source}"\n'
            f'  hosts  = {{ pug = {{ ip = "10.0.0.5" }} }}{keep}\n}}\n')


@pytest.mark.parametrize(("files", "caller"), [
    pytest.param({"main.tf": _call("dns", "./modules/dns")}, "main.tf", id="the-report"),
    pytest.param({"envs/prod/main.tf": _call("dns", "../../modules/dns"),
                  "envs/prod/vars.tf": 'variable "x" {}\n'}, "envs/prod/main.tf", id="caller-in-another-folder"),
    pytest.param({"main.tf": _call("dns", "./modules/dns") + _call("dns2", "./modules/dns")}, "main.tf",
                 id="two-callers-both-renamed"),
])
def test_a_module_reference_follows_its_callers_renamed_key(files: dict[str, str], caller: str,
                                                            repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    root = repo({"modules/dns/main.tf": MODULE, **files}, config=CONFIG, allowlist=ALLOW)
    _clean(root, run)
    assert (root / "modules/dns/main.tf").read_text() == MODULE.replace("pug", "wolf")
    assert "hosts  = { wolf = { ip = \"10.1.0.5\" } }" in (root / caller).read_text()


@pytest.mark.parametrize("files", [
    pytest.param({"main.tf": _call("dns", "./modules/dns") + _call("old", "./modules/dns", KEEP)},
                 id="a-second-caller-kept"),
    pytest.param({"main.tf": _call("dns", "./modules/dns"),
                  "lab/main.tf": _call("dns", "../modules/dns", KEEP)}, id="a-caller-elsewhere-kept"),
])
def test_callers_that_disagree_leave_a_residual(files: dict[str, str], repo: Callable[..., Path],
                                                run: Callable[..., Result]) -> None:
    root = repo({"modules/dns/main.tf": MODULE, **files}, config=CONFIG, allowlist=ALLOW)
    _residual(root, run, "modules/dns/main.tf", 2, {"modules/dns/main.tf": MODULE, **files})


def test_a_module_called_only_by_a_kept_caller_keeps(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"modules/dns/main.tf": MODULE, "main.tf": _call("dns", "./modules/dns", KEEP)}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _clean(root, run)
    assert (root / "modules/dns/main.tf").read_text() == MODULE
    assert (root / "main.tf").read_text() == files["main.tf"]


def test_a_values_yaml_beside_a_module_makes_no_chart_of_it(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    """A helm_release's values.yaml beside the .tf: the module still reads the shared tfvars."""
    main = 'variable "hosts" {}\noutput "ip" {\n  value = var.hosts.pug\n}\n'
    files = {"infra/main.tf": main, "infra/values.yaml": "replicas: 1\n",
             "env/prod.tfvars": 'hosts = {\n  pug = "10.0.0.5"\n}\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _clean(root, run)
    assert (root / "infra/main.tf").read_text() == main.replace("pug", "wolf")


def _terraform(root: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1",
           "TF_DATA_DIR": str(tmp / "tf-data")}
    subprocess.run(["terraform", "init", "-input=false", "-backend=false", "-no-color"], cwd=root, env=env,
                   capture_output=True, text=True, check=True)
    return subprocess.run(["terraform", "plan", "-input=false", "-refresh=false", "-no-color"], cwd=root,
                          env=env, capture_output=True, text=True, check=False)


@needs_terraform
def test_terraform_plans_the_swept_module_call(tmp_path: Path, repo: Callable[..., Path],
                                               run: Callable[..., Result]) -> None:
    caller = _call("dns", "./modules/dns") + 'output "ip" { value = module.dns.ip }\n'
    root = repo({"modules/dns/main.tf": MODULE, "main.tf": caller}, config=CONFIG, allowlist=ALLOW)
    assert _terraform(root, tmp_path).returncode == 0
    _clean(root, run)
    planned = _terraform(root, tmp_path)
    assert planned.returncode == 0, planned.stdout + planned.stderr
    assert 'ip = "10.1.0.5"' in " ".join(planned.stdout.split()), planned.stdout


# -- 2. a subchart reads its parent's values ----------------------------------------------------------

SUB_TEMPLATE = "ip: {{ .Values.hosts.pug.ip }}\n"


@pytest.mark.parametrize(("parent", "template", "meta"), [
    pytest.param("web:\n  hosts:\n    pug: {ip: 10.0.0.5}\n", SUB_TEMPLATE, "name: web\n", id="the-report"),
    pytest.param("global:\n  hosts:\n    pug: {ip: 10.0.0.5}\n", "ip: {{ .Values.global.hosts.pug.ip }}\n",
                 "name: web\n", id="global"),
    pytest.param("hosts:\n  pug: {ip: 10.0.0.5}\n", "ip: {{ $.Values.hosts.pug.ip }}\n",
                 "name: web\ntype: library\n", id="library-chart"),
    pytest.param("frontend:\n  hosts:\n    pug: {ip: 10.0.0.5}\n", SUB_TEMPLATE, "name: frontend\n",
                 id="named-by-its-chart-yaml"),
])
def test_a_subchart_follows_its_parents_renamed_value(parent: str, template: str, meta: str,
                                                      repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"chart/Chart.yaml": "name: top\n", "chart/values.yaml": parent,
             "chart/charts/web/Chart.yaml": meta, "chart/charts/web/values.yaml": "hosts: {}\n",
             "chart/charts/web/templates/cm.yaml": template}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _clean(root, run)
    assert (root / "chart/charts/web/templates/cm.yaml").read_text() == template.replace("pug", "wolf")
    assert (root / "chart/values.yaml").read_text() == parent.replace("pug", "wolf").replace("10.0.0.5", "10.1.0.5")


def test_a_subchart_default_kept_under_a_renamed_override_is_a_residual(repo: Callable[..., Path],
                                                                        run: Callable[..., Result]) -> None:
    files = {"chart/Chart.yaml": "name: top\n", "chart/values.yaml": "web:\n  hosts:\n    pug: {ip: 10.0.0.5}\n",
             "chart/charts/web/Chart.yaml": "name: web\n",
             "chart/charts/web/values.yaml": f"hosts:\n  pug: {{ip: 10.0.0.9}}{KEEP}\n",
             "chart/charts/web/templates/cm.yaml": SUB_TEMPLATE}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _residual(root, run, "chart/charts/web/templates/cm.yaml", 1, files)


def test_another_subchart_s_block_is_not_read(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The parent's `db.hosts.pug` is db's, not web's: web's template is the plain rules'."""
    files = {"chart/Chart.yaml": "name: top\n", "chart/values.yaml": "db:\n  hosts:\n    pug: {ip: 10.0.0.5}\n",
             "chart/charts/web/Chart.yaml": "name: web\n", "chart/charts/web/values.yaml": "hosts: {}\n",
             "chart/charts/web/templates/cm.yaml": SUB_TEMPLATE}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _clean(root, run)
    assert (root / "chart/charts/web/templates/cm.yaml").read_text() == SUB_TEMPLATE


# -- 3. a kept line whose target the sweep renames ----------------------------------------------------

@pytest.mark.parametrize(("files", "rel", "line"), [
    pytest.param({"group_vars/all.yml": "net: {hosts: {pug: {ip: 10.0.0.5}}}\n",
                  "templates/t.j2": "ip={{ net.hosts.pug.ip }}  {# renamer: keep old box #}\n"},
                 "templates/t.j2", 1, id="the-report"),
    pytest.param({"chart/values.yaml": "hosts:\n  pug: 10.0.0.5\n",
                  "chart/templates/cm.yaml": "a: 1\nb: {{ .Values.hosts.pug }}  # renamer: keep\r\n"},
                 "chart/templates/cm.yaml", 2, id="helm-crlf"),
    pytest.param({"stack/.env": "NODE=pug\n", "stack/compose.yml": "URL: https://${NODE}.ana.lan/  # renamer: keep\n"},
                 "stack/compose.yml", 1, id="composed-name"),
    pytest.param({"group_vars/all.yml": "domain_host: pug\n",
                  "t.j2": "x\n{{ domain_host }}.ana.lan {# renamer: keep #}\n"}, "t.j2", 2, id="composed-jinja"),
])
def test_a_kept_line_whose_target_moves_is_refused_before_any_write(
        files: dict[str, str], rel: str, line: int, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    planned = run(root, "sweep", "--dry-run")  # a preview exits 0 (docs/cli.md) and says it would refuse
    assert planned.exit_code == 0, planned.stdout + planned.stderr
    refused = planned.stdout.split("Refused: ", 1)[-1]
    assert f"{rel}:{line}: " in refused and "drop the keep" in refused, planned.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout  # refused before the first write, as a structure problem is
    message = done.stdout + done.stderr
    assert f"{rel}:{line}" in message and "drop the keep" in message, message
    assert "Traceback" not in message
    for path, text in files.items():
        assert (root / path).read_bytes() == text.encode(), path  # nothing written
    assert subprocess.run(["git", "-C", str(root), "status", "--porcelain"], capture_output=True,
                          text=True, check=True).stdout == ""


def test_keeping_both_ends_is_the_way_out(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"group_vars/all.yml": f"net: {{hosts: {{pug: {{ip: 10.0.0.5}}}}}}{KEEP}\n",
             "templates/t.j2": "ip={{ net.hosts.pug.ip }}  {# renamer: keep old box #}\n",
             "stack/.env": f"NODE=pug{KEEP}\n", "stack/compose.yml": "URL: https://${NODE}.ana.lan/  # renamer: keep\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _clean(root, run)
    for path, text in files.items():
        assert (root / path).read_text() == text


# -- 4. hostvars and groups follow the inventory host's fate ------------------------------------------

@pytest.mark.parametrize("inventory", [
    pytest.param({"inventory/hosts.yml": "all:\n  hosts:\n    pug:  # renamer: keep old box\n      ansible_host: x\n"},
                 id="the-report"),
    pytest.param({"inventory.ini": "[web]\npug ansible_host=x  # renamer: keep\n"}, id="ini"),
    pytest.param({"hosts": "[web]\npug\n"}, id="a-record-inventory"),
])
def test_a_kept_inventory_host_keeps_its_hostvars(inventory: dict[str, str], repo: Callable[..., Path],
                                                  run: Callable[..., Result]) -> None:
    template = "{{ hostvars.pug.ansible_host }} {{ hostvars['pug'].x }} {{ groups.pug }} {{ hostvars[\"pug\"] }}\n"
    allow = (ALLOW + "records:\n  - {name: old-inventory, paths: [hosts], reason: the old lab}\n"
             if "hosts" in inventory else ALLOW)
    root = repo({**inventory, "t.j2": template}, config=CONFIG, allowlist=allow)
    _clean(root, run)
    assert (root / "t.j2").read_text() == template


def test_an_inventory_host_kept_in_one_inventory_and_renamed_in_another_is_a_residual(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"inventories/prod/hosts.yml": "all:\n  hosts:\n    pug: {}\n",
             "inventories/lab/hosts.yml": "all:\n  hosts:\n    pug: {}  # renamer: keep\n",
             "t.j2": "{{ hostvars.pug.ansible_host }}\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _residual(root, run, "t.j2", 1, files)


def test_hostvars_of_a_host_no_inventory_names_is_a_residual(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    files = {"t.j2": "{{ hostvars.pug.ansible_host }}\n", "group_vars/all.yml": "x: 1\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _residual(root, run, "t.j2", 1, files)


# -- 5. a data file loaded by a relative path ---------------------------------------------------------

NET = "hosts:\n  pug: {ip: 10.0.0.5}\n"
PLAY = ("- hosts: all\n  vars:\n    network: \"{{ lookup('file','data/net.yml') | from_yaml }}\"\n"
        "  tasks:\n    - debug: {msg: \"{{ network.hosts.pug.ip }}\"}\n")


@pytest.mark.parametrize("lab_first", [pytest.param(True, id="the-report"), pytest.param(False, id="other-order")])
def test_a_loaded_file_is_the_one_beside_the_play(lab_first: bool, repo: Callable[..., Path],
                                                  run: Callable[..., Result]) -> None:
    allow = 'version: 1\ncurrent: ["prod/**"]\nrecords:\n  - {name: lab, paths: ["lab/**"], reason: a lab copy}\n'
    other = "a-lab" if lab_first else "z-lab"
    files = {"prod/data/net.yml": NET, f"{other}/data/net.yml": NET, "prod/play.yml": PLAY}
    allow = allow.replace("lab/**", f"{other}/**")
    root = repo(files, config=CONFIG, allowlist=allow)
    _clean(root, run)
    assert (root / "prod/play.yml").read_text() == PLAY.replace("pug", "wolf")
    assert (root / f"{other}/data/net.yml").read_text() == NET


def test_a_role_reads_its_own_files_folder(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    task = ("- set_fact:\n    network: \"{{ lookup('file', 'net.yml') | from_yaml }}\"\n"
            "- debug: {msg: \"{{ network.hosts.pug.ip }}\"}\n")
    files = {"roles/dns/files/net.yml": NET, "roles/dns/tasks/main.yml": task,
             "roles/app/files/net.yml": f"hosts:\n  pug: {{ip: 10.0.0.5}}{KEEP}\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _clean(root, run)
    assert (root / "roles/dns/tasks/main.yml").read_text() == task.replace("pug", "wolf")


def test_a_load_through_an_unknown_folder_with_two_candidates_is_a_residual(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    play = PLAY.replace("'data/net.yml'", "base_dir ~ '/data/net.yml'")
    files = {"prod/data/net.yml": NET, "lab/data/net.yml": f"hosts:\n  pug: {{ip: 10.0.0.5}}{KEEP}\n",
             "prod/play.yml": play}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _residual(root, run, "prod/play.yml", 5, files)


def test_terraform_file_is_read_from_the_module_folder(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    main = ('locals {\n  network = yamldecode(file("${path.module}/data/net.yml"))\n}\n'
            'output "ip" {\n  value = local.network.hosts.pug.ip\n}\n')
    allow = 'version: 1\ncurrent: ["infra/**"]\nrecords:\n  - {name: old, paths: ["a/**"], reason: a copy}\n'
    files = {"infra/main.tf": main, "infra/data/net.yml": NET, "a/data/net.yml": NET}
    root = repo(files, config=CONFIG, allowlist=allow)
    _clean(root, run)
    assert (root / "infra/main.tf").read_text() == main.replace("pug", "wolf")


# -- 6. a key in a file the sweep does not rewrite ----------------------------------------------------

PAD = "# " + "x" * 2200 + "\n"
SMALL = 'version: 1\nrenames:\n  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}\nallowlist: allow.yaml\n' \
        "options: {max_file_size: 2KiB}\n"


@pytest.mark.parametrize(("files", "rel"), [
    pytest.param({"group_vars/all.yml": "net: {hosts: {pug: {ip: 10.0.0.5}}}\n" + PAD,
                  "templates/t.j2": "ip={{ net.hosts.pug.ip }} {{ net.hosts['pug'].ip }}\n"}, "templates/t.j2",
                 id="the-report-and-a-quoted-one"),
    pytest.param({"stack/.env": "NODE=pug\n" + PAD, "stack/compose.yml": "URL: https://${NODE}.ana.lan/\n"},
                 "stack/compose.yml", id="composed-name"),
    pytest.param({"chart/values.yaml": "hosts:\n  pug: x\n" + PAD, "chart/templates/cm.yaml": "{{ .Values.hosts.pug }}\n"},
                 "chart/templates/cm.yaml", id="helm"),
])
def test_a_reference_to_a_key_in_a_skipped_file_keeps(files: dict[str, str], rel: str,
                                                      repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(files, config=SMALL, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert (root / rel).read_text() == files[rel], done.stdout
    for path, text in files.items():
        assert (root / path).read_text() == text
    assert run(root, "verify", "--strict").exit_code == 1  # the skipped file still holds the old name


# -- 7. Helm template variables, grouped expressions --------------------------------------------------

VALUES = "hosts:\n  pug: {ip: 10.0.0.5}\n"


@pytest.mark.parametrize("template", [
    pytest.param("{{- $hosts := .Values.hosts }}\nip: {{ $hosts.pug.ip }}\n", id="the-report"),
    pytest.param("{{- $v := .Values -}}\nip: {{ $v.hosts.pug.ip }}\n", id="values-variable"),
    pytest.param("ip: {{ (.Values.hosts).pug.ip }}\n", id="grouped"),
    pytest.param("{{ $h := $.Values.hosts }}{{ with .Values.x }}{{ $h.pug.ip | quote }}{{ end }}\r\n",
                 id="top-context-crlf"),
    pytest.param("{{ with .Values.hosts }}{{ $p := .pug }}{{ $p.ip }}{{ .pug.ip }}{{ end }}\n", id="set-under-with"),
])
def test_a_helm_variable_follows_the_key_it_holds(template: str, repo: Callable[..., Path],
                                                  run: Callable[..., Result]) -> None:
    root = repo({"chart/values.yaml": VALUES, "chart/templates/cm.yaml": template}, config=CONFIG, allowlist=ALLOW)
    _clean(root, run)
    assert (root / "chart/templates/cm.yaml").read_bytes().decode() == template.replace("pug", "wolf")


@pytest.mark.parametrize("template", [
    pytest.param("{{- range $k, $v := .Values.all }}\n{{ $v.pug.ip }}\n{{- end }}\n", id="range-element"),
    pytest.param("{{- $h := include \"x\" . }}\n{{ $h.pug.ip }}\n", id="computed"),
    pytest.param("{{- $h := .Values.hosts }}\n{{- $h = .Values.other }}\n{{ $h.pug.ip }}\n", id="set-twice"),
])
def test_a_helm_variable_that_cannot_be_read_is_a_residual(template: str, repo: Callable[..., Path],
                                                           run: Callable[..., Result]) -> None:
    files = {"chart/values.yaml": VALUES, "chart/templates/cm.yaml": template}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    line = template.count("\n", 0, template.index("pug")) + 1
    _residual(root, run, "chart/templates/cm.yaml", line, files)


def test_a_grouped_jinja_expression_follows(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"group_vars/all.yml": "net: {hosts: {pug: {ip: 10.0.0.5}}}\n",
             "t.j2": "{{ (net.hosts).pug.ip }} {{ ( net.hosts ).pug.ip }}\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _clean(root, run)
    assert (root / "t.j2").read_text() == files["t.j2"].replace("pug", "wolf")


# -- 8. a BOM is no part of the first key -------------------------------------------------------------

@pytest.mark.parametrize(("files", "rel"), [
    pytest.param({"chart/values.yaml": "\ufeffhosts:\n  pug:\n    ip: 10.0.0.5\n",
                  "chart/templates/cm.yaml": "{{- with .Values.hosts }}{{ .pug.ip }}{{ end }}\n"},
                 "chart/templates/cm.yaml", id="the-report"),
    pytest.param({"group_vars/all": "\ufeffnet:\r\n  hosts:\r\n    pug: {ip: 10.0.0.5}\r\n",
                  "t.j2": "{{ net.hosts.pug.ip }}\n"}, "t.j2", id="group-vars-crlf"),
    pytest.param({"infra/main.tf": '\ufefflocals {\n  hosts = { pug = "10.0.0.5" }\n}\n'
                                   'output "ip" {\n  value = local.hosts.pug\n}\n'}, "infra/main.tf", id="hcl"),
])
def test_a_bom_is_no_part_of_the_first_key(files: dict[str, str], rel: str, repo: Callable[..., Path],
                                           run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert all(reason != "key-reference" for reason, _, _ in _findings(root, run))
    _clean(root, run)
    assert (root / rel).read_bytes().decode().count("wolf") >= 1
    assert "pug" not in (root / rel).read_bytes().decode()


# -- ansible renders what the sweep left ------------------------------------------------------------

def _play(root: Path, tmp: Path, inventory: str) -> subprocess.CompletedProcess[str]:
    (tmp / "ansible.cfg").write_text("[defaults]\n")  # none of the machine's settings
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_LOCAL_TEMP": str(tmp / "ansible"),
           "ANSIBLE_HOME": str(tmp / "ansible-home"), "ANSIBLE_CONFIG": str(tmp / "ansible.cfg")}
    return subprocess.run(
        [str(Path(sys.executable).parent / "ansible-playbook"), "-i", inventory, "play.yml",
         "-e", f"ansible_python_interpreter={sys.executable}", "-e", "ansible_connection=local"],
        cwd=root, env=env, capture_output=True, text=True, check=False)


def test_ansible_reads_a_kept_host_s_hostvars_after_the_sweep(tmp_path: Path, repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    play = ("- hosts: all\n  gather_facts: false\n  tasks:\n"
            "    - assert:\n        that: \"hostvars.pug.ansible_host is defined\"\n")
    files = {"inventory/hosts.yml": "all:\n  hosts:\n    pug:  # renamer: keep old box\n"
                                    "      ansible_host: 10.0.0.5  # renamer: keep old box\n",
             "play.yml": play}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    _clean(root, run)
    played = _play(root, tmp_path, "inventory/hosts.yml")
    assert played.returncode == 0, played.stdout + played.stderr
