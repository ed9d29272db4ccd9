"""A renamed mapping key and the references to it move together (break-it round 4, finding 2):
`pug -> wolf` renamed `net.hosts.pug` in group_vars and left `{{ net.hosts.pug.ip }}` reading a
key that was gone, while verify said OK. Each reference whose path is a renamed key follows it;
one reading a key that keeps its name keeps it; one whose path no key has, while a key of that
name is renamed, is a residual `key-reference` naming both lines. The consumers judge the result:
ansible-playbook renders the template, terraform plans the outputs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import snapshot
from tests.testing.terraform import in_moved_tf, needs_terraform, tag

CONFIG = "version: 1\nrenames:\n  hosts: {pug: wolf}\nallowlist: allow.yaml\n"
ALLOW = """\
version: 1
current: ['**']
records:
  - name: archive
    paths: [archive/**]
    reason: the network as it was
"""
NET_BLOCK = "net:\n  hosts:\n    pug:\n      ip: 10.0.0.5\n    cat:\n      ip: 10.0.0.6\n"
NET_FLOW = "net: {hosts: {pug: {ip: 10.0.0.5}, cat: {ip: 10.0.0.6}}}\n"


def _verify(root: Path, run: Callable[..., Result]) -> tuple[int, list[dict[str, object]]]:
    done = run(root, "verify", "--format", "json")
    found: list[dict[str, object]] = json.loads(done.stdout)["findings"]
    return done.exit_code, found


# (the files, then each file as the sweep must leave it): every reference follows its key.
FOLLOWS = [
    pytest.param({"group_vars/all/net.yml": NET_BLOCK, "templates/a.j2": "ip={{ net.hosts.pug.ip }}\n"},
                 {"group_vars/all/net.yml": NET_BLOCK.replace("pug", "wolf"),
                  "templates/a.j2": "ip={{ net.hosts.wolf.ip }}\n"}, id="the-report-dotted"),
    pytest.param({"group_vars/all.yml": NET_FLOW,
                  "templates/a.j2": "a={{ net.hosts['pug'].ip }} b={{ net.hosts[\"pug\"][\"ip\"] }}\n"},
                 {"group_vars/all.yml": NET_FLOW.replace("pug", "wolf"),
                  "templates/a.j2": "a={{ net.hosts['wolf'].ip }} b={{ net.hosts[\"wolf\"][\"ip\"] }}\n"},
                 id="flow-mapping-both-quotes"),
    pytest.param({"group_vars/all.yml": "site:\n  lab:\n    net: {hosts: {pug: {ip: 10.0.0.5}}}\n",
                  "roles/web/templates/b.j2": "{% for k, v in site.lab.net.hosts.pug.items() %}{{ k }}{% endfor %}\n"
                                              "{{ site.lab.net.hosts.get('pug').ip }}\n",
                  "roles/web/tasks/main.yml": "- debug: msg=up\n  when: site.lab.net.hosts.pug.ip is defined\n"},
                 {"group_vars/all.yml": "site:\n  lab:\n    net: {hosts: {wolf: {ip: 10.0.0.5}}}\n",
                  "roles/web/templates/b.j2": "{% for k, v in site.lab.net.hosts.wolf.items() %}{{ k }}{% endfor %}\n"
                                              "{{ site.lab.net.hosts.get('wolf').ip }}\n",
                  "roles/web/tasks/main.yml": "- debug: msg=up\n  when: site.lab.net.hosts.wolf.ip is defined\n"},
                 id="nested-deeper-get-and-bare-when"),
    pytest.param({"vars/net.json": '{\n  "hosts": {\n    "pug": {"ip": "10.0.0.5"}\n  }\n}\n',
                  "templates/c.j2": "{{ hosts.pug.ip }}\n"},
                 {"vars/net.json": '{\n  "hosts": {\n    "wolf": {"ip": "10.0.0.5"}\n  }\n}\n',
                  "templates/c.j2": "{{ hosts.wolf.ip }}\n"}, id="json-key-jinja-reference"),
    pytest.param({"cfg.toml": "[hosts.pug]\nip = \"10.0.0.5\"\n", "templates/d.j2": "{{ hosts.pug.ip }}\n"},
                 {"cfg.toml": "[hosts.wolf]\nip = \"10.0.0.5\"\n", "templates/d.j2": "{{ hosts.wolf.ip }}\n"},
                 id="toml-table-jinja-reference"),
    pytest.param({"group_vars/all.yml": NET_BLOCK.replace("\n", "\r\n"),
                  "templates/e.j2": "a={{ net.hosts.pug.ip }}\r\nb={{ net.hosts['pug'].ip }}\r\n"},
                 {"group_vars/all.yml": NET_BLOCK.replace("pug", "wolf").replace("\n", "\r\n"),
                  "templates/e.j2": "a={{ net.hosts.wolf.ip }}\r\nb={{ net.hosts['wolf'].ip }}\r\n"},
                 id="crlf"),
]


@pytest.mark.parametrize(("files", "after"), FOLLOWS)
def test_every_reference_follows_its_renamed_key(files: dict[str, str], after: dict[str, str],
                                                 repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    code, found = _verify(root, run)
    assert code == 1 and found, found
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    for rel, text in after.items():
        assert (root / rel).read_bytes() == text.encode(), rel
    assert _verify(root, run) == (0, [])
    before = snapshot(root)
    assert run(root, "sweep").exit_code == 0
    assert snapshot(root) == before  # twice changes nothing


TF_MAIN = """\
variable "hosts" {
  type = map(object({ ip = string }))
}
locals {
  aliases = {
    pug = "dog"
  }
}
resource "terraform_data" "each" {
  for_each = var.hosts
  input    = "${each.key}=${each.value.ip}"
}
output "dotted" { value = var.hosts.pug.ip }
output "bracketed" { value = var.hosts["pug"].ip }
output "looked_up" { value = lookup(var.hosts, "pug", null).ip }
output "local" { value = "${local.aliases.pug}-alias" }
locals {
  network = yamldecode(file("${path.module}/../data/topology.yml"))
}
output "loaded" { value = local.network.hosts.pug.ip }
"""
TOPOLOGY = "# the canonical topology\nhosts:\n  pug:  { site: home, ip: 10.0.0.5 }\n  cat:  { site: home, ip: 10.0.0.6 }\n"
TFVARS = 'hosts = {\n  pug = { ip = "10.0.0.5" }\n  cat = { ip = "10.0.0.6" }\n}\n'
# after the move: `cat  =` stays aligned with `wolf =` as terraform fmt writes it (round 22, finding 12)
TFVARS_AFTER = TFVARS.replace("pug", "wolf").replace("  cat =", "  cat  =")


def _terraform(root: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1",
           "TF_DATA_DIR": str(tmp / "tf-data")}
    subprocess.run(["terraform", "init", "-input=false", "-backend=false", "-no-color"], cwd=root, env=env,
                   capture_output=True, text=True, check=True)
    return subprocess.run(["terraform", "plan", "-input=false", "-refresh=false", "-no-color"], cwd=root,
                          env=env, capture_output=True, text=True, check=False)


def _hcl_repo(repo: Callable[..., Path]) -> Path:
    return repo({"infra/main.tf": TF_MAIN, "infra/terraform.tfvars": TFVARS, "data/topology.yml": TOPOLOGY},
                config=CONFIG, allowlist=ALLOW)


def _hcl_moved(root: Path, run: Callable[..., Result]) -> None:
    """The map key and every lookup of it, swept: checked byte by byte, and verify agrees."""
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    # `for_each = var.hosts` reads the tfvars' keys: the instance moves with a `moved` block (issue 27)
    each = '  input    = "${each.key}=${each.value.ip}"\n}\n'
    moved = each[:-1] + '\n\n' + tag() + '\nmoved {\n  from = terraform_data.each["pug"]\n  to   = terraform_data.each["wolf"]\n}\n'
    for rel, text in in_moved_tf({"infra/main.tf": TF_MAIN.replace("pug", "wolf").replace(each, moved)}).items():
        assert (root / rel).read_text() == text, rel  # the block in the module's moved.tf
    assert (root / "infra/terraform.tfvars").read_text() == TFVARS_AFTER
    assert (root / "data/topology.yml").read_text() == TOPOLOGY.replace("pug", "wolf")
    assert _verify(root, run) == (0, [])


def test_an_hcl_map_key_and_its_lookups_move_together(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    _hcl_moved(_hcl_repo(repo), run)


# Terraform is in neither Debian nor PyPI (HashiCorp's licence): .ci/run takes it from HashiCorp's
# apt repository where that can be reached. Without it the swept bytes are still checked above;
# this adds terraform's own reading of them.
@needs_terraform
def test_an_hcl_map_key_and_its_lookups_move_together_as_terraform_reads_them(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = _hcl_repo(repo)
    assert _terraform(root / "infra", tmp_path).returncode == 0  # the repo plans before the move
    _hcl_moved(root, run)
    planned = _terraform(root / "infra", tmp_path)
    assert planned.returncode == 0, planned.stdout + planned.stderr
    for output in ("dotted", "bracketed", "looked_up", "loaded"):
        assert f'{output} = "10.0.0.5"' in " ".join(planned.stdout.split()), planned.stdout


def test_an_ansible_template_renders_after_the_move(tmp_path: Path, repo: Callable[..., Path],
                                                    run: Callable[..., Result]) -> None:
    play = ("- hosts: all\n  connection: local\n  gather_facts: false\n  tasks:\n"
            "    - template: {src: templates/hosts.j2, dest: '{{ out }}'}\n"
            "      when: net.hosts.pug.ip is defined\n")
    template = ("{{ net.hosts.pug.ip }} {{ net.hosts['pug'].ip }} {{ hostvars['pug'].ansible_host }}"
                " {{ network.hosts.pug.ip }}\n")
    # `network` is the data file loaded (as the report's repo loads its topology), through an alias
    loaded = ("prod_network: \"{{ lookup('file', playbook_dir ~ '/data/topology.yml') | from_yaml }}\"\n"
              "network: \"{{ prod_network }}\"\n")
    root = repo({"play.yml": play, "templates/hosts.j2": template, "group_vars/all/net.yml": NET_BLOCK,
                 "group_vars/all/network.yml": loaded, "data/topology.yml": TOPOLOGY,
                 "inventory.ini": "pug ansible_host=10.0.0.5\n"}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "templates/hosts.j2").read_text() == template.replace("pug", "wolf")
    out = tmp_path / "rendered"
    (tmp_path / "ansible.cfg").write_text("[defaults]\n")  # none of the machine's settings
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_LOCAL_TEMP": str(tmp_path / "ansible"),
           "ANSIBLE_HOME": str(tmp_path / "ansible-home"), "ANSIBLE_CONFIG": str(tmp_path / "ansible.cfg")}
    played = subprocess.run(
        [str(Path(sys.executable).parent / "ansible-playbook"), "-i", "inventory.ini", "play.yml",
         "-e", f"out={out}", "-e", f"ansible_python_interpreter={sys.executable}"],
        cwd=root, env=env, capture_output=True, text=True, check=False)
    assert played.returncode == 0, played.stdout + played.stderr
    assert out.read_text() == "10.0.0.5 10.0.0.5 10.0.0.5 10.0.0.5\n"


def test_a_reference_left_dangling_by_an_earlier_move_fails_verify_with_the_line_and_why(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # the key moved already (an earlier sweep, or by hand); the references did not
    root = repo({"group_vars/all.yml": NET_BLOCK.replace("pug", "wolf"),
                 "templates/a.j2": "x\nip={{ net.hosts.pug.ip }}\n",
                 "infra/terraform.tfvars": TFVARS_AFTER,
                 "infra/main.tf": 'output "a" { value = var.hosts.pug.ip }\n'}, config=CONFIG, allowlist=ALLOW)
    code, found = _verify(root, run)
    assert code == 1
    shown = {(f["path"], f["line"]): str(f["note"]) for f in found}
    assert set(shown) == {("templates/a.j2", 2), ("infra/main.tf", 1)}, found
    assert "net.hosts.pug" in shown["templates/a.j2", 2] and "group_vars/all.yml:3" in shown["templates/a.j2", 2]
    assert "infra/terraform.tfvars:2" in shown["infra/main.tf", 1]
    text = run(root, "verify")
    assert "templates/a.j2:2:" in text.stdout and "verify: FAILED" in text.stdout
    explained = run(root, "explain", "templates/a.j2").stdout
    assert "2:17  pug -> wolf: rewritten: current-state file, a reference to a renamed key: `net.hosts.pug`" \
        in explained, explained
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "templates/a.j2").read_text() == "x\nip={{ net.hosts.wolf.ip }}\n"
    assert _verify(root, run) == (0, [])


AMBIGUOUS = [
    pytest.param("{{ hosts.pug.ip }}\n", id="partial-path"),
    pytest.param("{{ net.hosts[site].pug.ip }}\n", id="variable-part"),
    pytest.param("{{ net['hosts'][name]['pug'] }}\n", id="variable-part-bracketed"),
    pytest.param("{{ item.pug }}\n", id="loop-variable"),
]


@pytest.mark.parametrize("template", AMBIGUOUS)
def test_a_reference_no_key_matches_is_a_residual_naming_both_lines(
        template: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"group_vars/all.yml": NET_BLOCK, "templates/a.j2": template}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "templates/a.j2").read_text() == template  # nothing rewritten there
    code, found = _verify(root, run)
    assert code == 1
    # break-it round 7, finding 10: the key is held back with the reader that cannot follow it
    assert [(f["path"], f["reason"]) for f in found] == [("group_vars/all.yml", "key-reference"),
                                                         ("templates/a.j2", "key-reference")], found
    assert "group_vars/all.yml:3" in str(found[1]["note"]), found
    assert "templates/a.j2:1" in str(found[0]["note"]), found
    assert (root / "group_vars/all.yml").read_text().split("\n")[2] == "    pug:"


def test_a_reference_to_a_key_that_keeps_its_name_is_kept_with_it(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Two mappings with a key `pug` are told apart by their whole path: the record's and the
    kept line's keep their references (quoted ones too, which the plain rules would rewrite),
    the renamed one's follow."""
    files = {
        "group_vars/all.yml": NET_BLOCK + "dogs:\n  pug: {breed: small}  # renamer: keep the breed\n",
        "archive/net-2020.json": '{"old_net": {"hosts": {"pug": {"ip": "10.0.0.9"}}}}\n',
        "templates/a.j2": ("new={{ net.hosts.pug.ip }}\n"
                           "old={{ old_net.hosts.pug.ip }} {{ old_net.hosts[\"pug\"].ip }}\n"
                           "dog={{ dogs.pug.breed }} {{ dogs['pug'].breed }}\n"),
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "templates/a.j2").read_text() == files["templates/a.j2"].replace(
        "new={{ net.hosts.pug.ip }}", "new={{ net.hosts.wolf.ip }}")
    assert (root / "archive/net-2020.json").read_text() == files["archive/net-2020.json"]
    assert _verify(root, run) == (0, [])
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = [(r["line"], r["reason"]) for r in audit["references"] if r["path"] == "templates/a.j2"]
    assert kept == [(2, "key-of-record"), (2, "key-of-record"), (3, "key-of-record"), (3, "key-of-record")]
    notes = [str(r["note"]) for r in audit["references"] if r["path"] == "templates/a.j2"]
    assert "archive/net-2020.json:1" in notes[0] and "group_vars/all.yml:8" in notes[2], notes


def test_a_key_no_file_defines_leaves_the_plain_rules_alone(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # no mapping of the repo has a key pug: a quoted name is the host, as ever; a dotted one is
    # the near-miss it was
    template = "{{ lookup('dig', 'pug') }} {{ facts['pug'] }} {{ item.pug }}\n"
    root = repo({"templates/a.j2": template}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "templates/a.j2").read_text() == template.replace("'pug'", "'wolf'")
    done = run(root, "verify", "--format", "json")
    assert done.exit_code == 0
    assert [n["text"] for n in json.loads(done.stdout)["near_misses"]] == ["pug"]
