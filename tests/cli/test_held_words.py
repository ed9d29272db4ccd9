"""Words that must keep a held path's name, end to end (sweep/held_words.py; break-it round 15,
findings 3 and 7): a directory argument plus a relative word (`tar -C hosts pug`), and a bare word
that a file joins into a path under the held entry's folder (a NixOS flake listing its hosts
beside `builtins.readDir ./.`, a Makefile's `HOSTS := pug rex` walked as `hosts/$(h)/`, an
Ansible inventory naming the host whose `host_vars/pug.yml` is kept, an f-string or `%`/`format`
path). Rewritten, each would name nothing; every other mention follows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.testing.repos import LAB_CONFIG, Repo, Run, git

ALLOW = "version: 1\ncurrent: ['**']\nrecords:\n  - {name: notes, paths: ['notes/**'], reason: history}\n"
KEEP_HOSTS = ALLOW + "keep_paths: ['hosts/pug']\n"

FLAKE_HOSTS = """\
let
  knownHosts = [
    "pug"
    "rex"
  ];
  inherit (builtins) attrNames readDir;
  allHosts = attrNames (readDir ./.);
in
inputs: inputs.nixpkgs.lib.genAttrs allHosts (host: inputs.nixpkgs.lib.nixosSystem {
  modules = [
    ./${host}
    ({ config, ... }: {
      networking.hostName = host;
      assertions = [ { assertion = builtins.elem config.networking.hostName knownHosts; } ];
    })
  ];
})
"""


def _held(run: Run, root: Path) -> set[tuple[str, int]]:
    done = run(root, "verify", "--format", "json")
    return {(f["path"], f["line"]) for f in json.loads(done.stdout)["findings"] if f.get("reason") == "held-path"}


def test_round15_a_kept_nixos_host_s_name_in_its_flake_s_host_list_is_a_residual(repo: Repo, run: Run) -> None:
    """Finding 3 (jmbaur/homelab nixos-configurations/default.nix): the flake reads its hosts with
    `readDir ./.`; with hosts/pug kept, `"pug"` in knownHosts must stay the folder's name."""
    files = {"hosts/pug/default.nix": "{ services.nginx.enable = true; }\n", "hosts/rex/default.nix": "{ }\n",
             "hosts/default.nix": FLAKE_HOSTS, "deploy.sh": "ssh pug.lab.lan nixos-rebuild switch\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=KEEP_HOSTS)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "hosts/default.nix").read_text() == FLAKE_HOSTS
    assert (root / "hosts/pug/default.nix").exists() and not (root / "hosts/wolf").exists()
    assert (root / "deploy.sh").read_text() == "ssh wolf.lab.lan nixos-rebuild switch\n"  # a mention follows
    assert _held(run, root) == {("hosts/default.nix", 3)}
    assert run(root, "verify").exit_code == 1


VARIANTS = {
    # a flake output whose module is the kept folder
    "flake.nix": ("{ outputs = { nixpkgs, ... }: {\n  nixosConfigurations = {\n    pug = nixpkgs.lib.nixosSystem {\n"
                  "      modules = [ ./hosts/pug ];\n    };\n    rex = nixpkgs.lib.nixosSystem "
                  "{ modules = [ ./hosts/rex ]; };\n  };\n}; }\n", 3),
    # a Makefile list joined into a path under the folder
    "Makefile": ("HOSTS := pug rex\ndeploy: $(foreach h,$(HOSTS),hosts/$(h)/app.conf)\n"
                 "sync:\n\tfor h in $(HOSTS); do rsync -a hosts/$$h/ $$h:/srv/; done\n", 1),
    # a script listing the folder
    "tools/check.py": ("import os\nEXPECTED = {\"pug\", \"rex\"}\n"
                       "assert set(os.listdir(\"hosts\")) == EXPECTED\n", 2),
    # a shell glob over the folder, read from the script's folder
    "hosts/check.sh": ("for d in ./*/; do echo \"$d\"; done\nKNOWN=\"pug rex\"\n", 2),
    # Python formats: the word is the folder's name in each
    "scripts/fmt.py": ("a = \"hosts/%s/app.conf\" % \"pug\"\n", 1),
    "scripts/fmt2.py": ("b = \"hosts/{}/\".format(\"pug\")\n", 1),
    "scripts/fstr.py": ("host = \"pug\"\npath = f\"hosts/{host}/app.conf\"\n", 1),
    # Terraform: a file per host under the module's folder
    "main.tf": ('resource "local_file" "conf" {\n  for_each = toset(["pug", "rex"])\n'
                '  content  = file("${path.module}/hosts/${each.key}/app.conf")\n  filename = "/tmp/${each.key}"\n}\n', 2),
    # Ansible: a template per host named from the loop's item
    "deploy.yml": ("- hosts: localhost\n  tasks:\n    - copy: {src: \"hosts/{{ item }}/app.conf\", dest: /tmp/x}\n"
                   "      loop: [pug, rex]\n", 4),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_round15_a_word_a_file_joins_into_a_kept_folder_s_path_is_a_residual(repo: Repo, run: Run, name: str) -> None:
    text, line = VARIANTS[name]
    files = {"hosts/pug/app.conf": "x=1\n", "hosts/rex/app.conf": "x=1\n", name: text}
    root = repo(files, config=LAB_CONFIG, allowlist=KEEP_HOSTS)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / name).read_text() == text
    assert _held(run, root) == {(name, line)}


def test_round15_an_inventory_host_whose_kept_host_vars_file_is_its_name_is_a_residual(repo: Repo, run: Run) -> None:
    """Ansible finds host_vars/pug.yml by the inventory's host name: kept, the inventory's `pug`
    and a play's `inventory_hostname` list must keep it too, and so does every bare `pug` of the
    project's plays (break-it round 17 #16: the held host's other readers are held with it)."""
    files = {"host_vars/pug.yml": "ansible_port: 2222\n", "inventory.yml": "all:\n  hosts:\n    pug:\n    rex:\n",
             "site.yml": "- hosts: all\n  tasks:\n    - debug: {msg: pug}\n"
                         "      when: inventory_hostname in ['pug', 'rex']\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW + "keep_paths: ['host_vars/pug.yml']\n")
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "inventory.yml").read_text() == files["inventory.yml"]
    assert (root / "site.yml").read_text() == files["site.yml"]
    # residuals: held with the kept file (held-path), or the inventory's name held with its kept vars
    # (key-reference, break-it round 16 #14), whichever rule reads them first
    done = run(root, "verify", "--format", "json")
    assert done.exit_code == 1
    assert {(f["path"], f["line"]) for f in json.loads(done.stdout)["findings"]
            if f.get("reason") in ("held-path", "key-reference")} >= {("inventory.yml", 3), ("site.yml", 3), ("site.yml", 4)}
    # ansible-inventory still gives the host its vars: the name and the file agree
    shown = subprocess.run([str(Path(sys.executable).parent / "ansible-inventory"), "-i", "inventory.yml", "--host", "pug"], cwd=root,
                           capture_output=True, text=True, check=True)
    assert json.loads(shown.stdout)["ansible_port"] == 2222


def test_round15_a_name_composed_with_a_derived_file_name_is_a_residual(repo: Repo, run: Run) -> None:
    """An f-string `host_vars/{host}-qemu.yml` with `host = "pug"` names host_vars/pug-qemu.yml, a
    derived name no rename moves."""
    files = {"host_vars/pug-qemu.yml": "fake: true\n", "host_vars/rex-qemu.yml": "fake: true\n",
             "tools/vm.py": "host = \"pug\"\nOVERLAY = f\"host_vars/{host}-qemu.yml\"\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "tools/vm.py").read_text() == files["tools/vm.py"]
    assert _held(run, root) == {("tools/vm.py", 1)}


FOLLOWS = {
    # no reader of the kept folder in the file
    "deploy.sh": "ssh pug true\nHOSTS=\"pug rex\"\n",
    # it reads another folder by name
    "modules.nix": "let mods = builtins.readDir ./modules; in [ \"pug\" ]\n",
    "stacks.sh": "for h in pug rex; do docker compose -f stacks/$h/compose.yaml up; done\n",
    # a glob over another folder; a listing of the root's entries holds no word naming hosts/pug
    "certs.sh": "for c in certs/*; do echo pug; done\n",
    # Ansible: not an inventory, no inventory_hostname on the line
    "play.yml": "- hosts: all\n  tasks:\n    - debug: {msg: pug}\n",
    # a Nix binding whose value names no kept path
    "flake.nix": "{ nixosConfigurations = { pug = mk ./machines/pug; }; }\n",
}


@pytest.mark.parametrize("name", sorted(FOLLOWS))
def test_round15_a_word_no_file_reads_as_the_kept_folder_s_name_follows(repo: Repo, run: Run, name: str) -> None:
    text = FOLLOWS[name]
    files = {"hosts/pug/app.conf": "x=1\n", "host_vars/pug.yml": "a: 1\n", "stacks/pug/compose.yaml": "services: {}\n",
             "machines/pug/default.nix": "{ }\n", name: text}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW + "keep_paths: ['hosts/pug']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / name).read_text() == text.replace("pug", "wolf")
    assert run(root, "verify").exit_code == 0


def test_round15_where_the_folder_moves_its_readers_words_follow(repo: Repo, run: Run) -> None:
    files = {"hosts/pug/default.nix": "{ }\n", "hosts/rex/default.nix": "{ }\n", "hosts/default.nix": FLAKE_HOSTS}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "hosts/wolf/default.nix").exists()
    assert '"wolf"' in (root / "hosts/default.nix").read_text()
    assert run(root, "verify").exit_code == 0


SPLIT = """\
tar -C hosts -cf x.tar pug
tar --directory=hosts -czf x.tgz pug/app.conf
rsync -a --relative hosts/./pug backup:/srv/
cd hosts && tar c pug | ssh backup restore
cd hosts; tar c pug
find hosts -name pug -type d
git -C hosts/pug log
make -C hosts/pug
docker build -f hosts/pug/Dockerfile hosts/pug
ssh pug true
tar -C stacks -cf y.tar pug
cd /srv && tar c pug
cd hosts && ssh pug uptime
"""


def test_round15_a_kept_path_split_over_a_directory_argument_is_held(repo: Repo, run: Run) -> None:
    """Finding 7's rest: a directory argument and a relative word name the kept folder."""
    files = {"hosts/pug/app.conf": "x=1\n", "hosts/pug/Dockerfile": "FROM scratch\n", "ci.sh": SPLIT}
    root = repo(files, config=LAB_CONFIG, allowlist=KEEP_HOSTS)
    assert run(root, "sweep", "--commit").exit_code == 0
    # what names the kept folder stays; the host, a folder the repo lacks, a machine path follow
    lines = SPLIT.splitlines(keepends=True)
    assert (root / "ci.sh").read_text() == "".join(lines[:9]) + "ssh wolf true\n" \
        "tar -C stacks -cf y.tar wolf\ncd /srv && tar c wolf\ncd hosts && ssh wolf uptime\n"
    done = run(root, "audit", "--format", "json")
    kept = {f["line"] for f in json.loads(done.stdout)["references"]
            if f["path"] == "ci.sh" and f.get("reason") == "held-path"}
    assert kept == set(range(1, 10))
    assert run(root, "verify").exit_code == 0


def test_round15_words_an_earlier_sweep_rewrote_fail_verify(repo: Repo, run: Run) -> None:
    """The same class seen after the edit: a word written new where the held entry keeps the old
    name (`dangling-path`); where the new entry exists too, or the word is no path's, nothing."""
    files = {"hosts/pug/default.nix": "{ }\n", "hosts/rex/default.nix": "{ }\n",
             "hosts/default.nix": FLAKE_HOSTS.replace('"pug"', '"wolf"'),
             "ci.sh": "tar -C hosts -cf x.tar wolf\ntar -C hosts -cf y.tar rex\nssh wolf true\n",
             "Makefile": "HOSTS := wolf rex\nall: $(foreach h,$(HOSTS),hosts/$(h)/default.nix)\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=KEEP_HOSTS)
    done = run(root, "verify", "--format", "json")
    found = {(f["path"], f["line"]) for f in json.loads(done.stdout)["findings"] if f.get("reason") == "dangling-path"}
    assert found == {("hosts/default.nix", 3), ("ci.sh", 1), ("Makefile", 1)}
    assert done.exit_code == 1
    # a folder of the new name is there too: each word names it
    (root / "hosts/wolf").mkdir()
    (root / "hosts/wolf/default.nix").write_text("{ }\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "wolf's own folder")
    done = run(root, "verify", "--format", "json")
    assert not [f for f in json.loads(done.stdout)["findings"] if f.get("reason") == "dangling-path"]


def test_round15_a_host_vars_copy_ansible_never_reads_holds_no_inventory_host(repo: Repo, run: Run) -> None:
    """A record's `backups/host_vars/pug.yml` is no vars file of the inventory's; a group_vars file
    under inventory/ is no inventory: both words follow."""
    files = {"backups/host_vars/pug.yml": "ansible_host: 10.0.40.11\n", "inventory/hosts.yml": "all:\n  hosts:\n    pug:\n",
             "inventory/group_vars/all.yml": "backup_host: pug\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW.replace("'notes/**'", "'notes/**', 'backups/**'"))
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "inventory/hosts.yml").read_text() == "all:\n  hosts:\n    wolf:\n"
    assert (root / "inventory/group_vars/all.yml").read_text() == "backup_host: wolf\n"
    assert run(root, "verify").exit_code == 0


SITE = ("- hosts: web\n  gather_facts: false\n  tasks:\n"
        "    - debug: {msg: \"port={{ app_port | default('MISSING') }} files={{ query('fileglob', playbook_dir"
        " + '/../services/' + inventory_hostname + '/*') | length }}\"}\n")


def _play(root: Path, tmp_path: Path) -> str:
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_LOCAL_TEMP": str(tmp_path / "ansible"),
           "ANSIBLE_HOME": str(tmp_path / "ansible-home"), "ANSIBLE_CONFIG": str(tmp_path / "none.cfg")}
    done = subprocess.run([str(Path(sys.executable).parent / "ansible-playbook"), "-i", "inventory/hosts.ini",
                           "playbooks/site.yml"], cwd=root, env=env, capture_output=True, text=True, check=False)
    return " ".join(sorted(line.strip() for line in done.stdout.splitlines() if '"msg"' in line))


@pytest.mark.parametrize(("keep", "extra"), [
    ("playbooks/host_vars/pug.yml", {"playbooks/host_vars/pug.yml": "app_port: 8080\n"}),
    ("services/pug", {"services/pug/compose.yaml": "services: {app: {image: nginx}}\n"})])
def test_round17_files_ansible_finds_by_the_host_s_own_name_hold_the_inventory_host(
        repo: Repo, run: Run, tmp_path: Path, keep: str, extra: dict[str, str]) -> None:
    """Break-it round 17, #10: a kept `host_vars/pug.yml` beside the playbook (not the inventory), and a
    kept `services/pug/` a task finds by `playbook_dir + '/../services/' + inventory_hostname`: the
    inventory's `pug` was renamed, and the play lost both (port=MISSING files=0). Each is held, alone."""
    files = {"inventory/hosts.ini": "[web]\npug ansible_connection=local\nrex ansible_connection=local\n",
             "playbooks/site.yml": SITE, **extra,
             "playbooks/peer.yml": "- hosts: rex\n  tasks:\n    - debug: {msg: \"{{ hostvars['pug'].app_port }}\"}\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW + f"keep_paths: ['{keep}']\n")
    before = _play(root, tmp_path)
    assert "port=8080" in before or "files=1" in before
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "inventory/hosts.ini").read_text() == files["inventory/hosts.ini"]
    assert _play(root, tmp_path) == before
    assert (root / "playbooks/peer.yml").read_text() == files["playbooks/peer.yml"]  # a reader held with it
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert ("inventory/hosts.ini", 2, "key-reference") in [(f["path"], f["line"], f["reason"]) for f in found]
    assert keep in str(next(f["note"] for f in found if f["path"] == "inventory/hosts.ini"))


@pytest.mark.parametrize("reader", [
    "    - copy: {src: \"services/{{ inventory_hostname }}/\", dest: /srv/}\n",  # Jinja inline, from the root
    "    - copy: {src: \"{{ playbook_dir }}/../services/{{ inventory_hostname_short }}/\", dest: /srv/}\n",
    "    - debug: {msg: \"{{ lookup('file', 'services/' ~ ansible_hostname ~ '/compose.yaml') }}\"}\n",
    "    - template: {src: \"../services/{{ ansible_facts.nodename }}/x.j2\", dest: /x}\n",
])
def test_round17_any_spelling_of_the_own_name_joined_into_a_kept_folder_holds_the_host(
        repo: Repo, run: Run, reader: str) -> None:
    files = {"inventory/hosts.ini": "[web]\npug ansible_connection=local\n",
             "playbooks/site.yml": "- hosts: web\n  tasks:\n" + reader,
             "services/pug/compose.yaml": "services: {app: {image: nginx}}\n", "ssh.sh": "ssh pug true\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW + "keep_paths: ['services/pug']\n")
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "inventory/hosts.ini").read_text() == files["inventory/hosts.ini"]
    assert (root / "ssh.sh").read_text() == "ssh wolf true\n"  # no inventory: follows


def test_round17_host_vars_beside_no_playbook_or_an_unread_folder_hold_nothing(repo: Repo, run: Run) -> None:
    """The controls: `docs/host_vars/pug.yml` beside no playbook, and a task joining the own name into
    another folder: the inventory host follows."""
    files = {"inventory/hosts.ini": "[web]\npug ansible_connection=local\n",
             "docs/host_vars/pug.yml": "app_port: 8080\n", "docs/readme.md": "notes\n",
             "playbooks/site.yml": "- hosts: web\n  tasks:\n    - copy: {src: \"other/{{ inventory_hostname }}/\"}\n",
             "services/pug/compose.yaml": "services: {app: {image: nginx}}\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW + "keep_paths: ['docs/host_vars/pug.yml', 'services/pug']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "inventory/hosts.ini").read_text() == "[web]\nwolf ansible_connection=local\n"
