"""Break-it round 17, #4: an identity collision split across two files that one tool reads as one
(an Ansible inventory folder, a compose project of two files) was a warning in the dry run,
written with exit 0 by `sweep --commit`, and `verify --strict` said OK. Now each is a structure
refusal (exit 3, nothing written, both places named), as the one-file case is, and `verify
--strict` fails once it is written by hand; an override naming its base's service again, one host
in two files of one inventory and files no pointer joins stay apart."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.testing.repos import PUG_ALLOW, PUG_CONFIG, git

WEB_YML = "web:\n  hosts:\n    pug:\n      ansible_host: 10.0.0.5\n"
DB_INI = "[db]\nwolf ansible_host=10.9.9.9\n"
APP = "services:\n  pug:\n    image: nginx\n    hostname: pug\n"
DB = "services:\n  wolf:\n    image: postgres\n    hostname: wolf\n"

# case -> (files, the place the refusal names first)
SPLIT: dict[str, tuple[dict[str, str], str]] = {
    # the report's: ansible.cfg points at a folder, a YAML file and an INI file in it
    "inventory-folder": ({"ansible.cfg": "[defaults]\ninventory = inventory/\n", "inventory/web.yml": WEB_YML,
                          "inventory/db.ini": DB_INI}, "inventory/db.ini:2"),
    # one level deeper: a subfolder of the inventory folder, `inventory: ` spelled with a colon
    "inventory-subfolder": ({"ansible/ansible.cfg": "[defaults]\ninventory: ./inventories/prod\n",
                             "ansible/inventories/prod/web/hosts.yaml": "all:\n  hosts:\n    pug:\n",
                             "ansible/inventories/prod/db": "[db]\nwolf\n"}, "ansible/inventories/prod/db:2"),
    # a list of sources in ansible.cfg
    "inventory-cfg-list": ({"ansible.cfg": "[defaults]\ninventory = hosts.ini, extra.yml\n",
                            "hosts.ini": "[web]\npug\n", "extra.yml": "db:\n  hosts:\n    wolf:\n"},
                           "extra.yml:3"),
    # `-i` twice on one command line of a script
    "inventory-flags": ({"deploy.sh": "#!/bin/sh\nansible-playbook -i inv/web.ini --inventory=inv/db.ini site.yml\n",
                         "inv/web.ini": "[web]\npug ansible_host=10.0.0.5\n", "inv/db.ini": DB_INI,
                         "site.yml": "- hosts: all\n  tasks: []\n"}, "inv/db.ini:2"),
    # ANSIBLE_INVENTORY in a CI file
    "inventory-env": ({".gitlab-ci.yml": "deploy:\n  variables:\n    ANSIBLE_INVENTORY: inv/a.ini,inv/b.ini\n"
                                         "  script: [ansible-playbook site.yml]\n",
                       "inv/a.ini": "[web]\npug\n", "inv/b.ini": "[db]\nwolf\n"}, "inv/b.ini:2"),
    # the report's: COMPOSE_FILE in .env
    "compose-file-env": ({".env": "COMPOSE_FILE=base.yaml:db.yaml\n", "base.yaml": APP, "db.yaml": DB},
                         "db.yaml:2"),
    # compose's default override beside the default file, one folder down
    "compose-override": ({"stack/compose.yaml": APP, "stack/compose.override.yaml": DB},
                         "stack/compose.override.yaml:2"),
    # `docker compose -f -f` in a Makefile
    "compose-flags": ({"Makefile": "up:\n\tdocker compose -f app.yml --file=db/db.yml up -d\n",
                       "app.yml": APP, "db/db.yml": DB}, "db/db.yml:2"),
    # `include:` of a compose file, the long form with a list of paths
    "compose-include": ({"compose.yaml": "include:\n  - path: [parts/db.yaml]\n" + APP, "parts/db.yaml": DB},
                        "parts/db.yaml:2"),
    # break-it round 19, #6: ssh `Include conf.d/*` joins two files' Host blocks (ssh uses the first)
    "ssh-include-glob": ({"ssh/ssh_config": "Include conf.d/*\n",
                          "ssh/conf.d/10-web": "Host pug\n  HostName 10.0.0.5\n  User app\n",
                          "ssh/conf.d/20-db": "Host wolf\n  HostName 10.9.9.9\n  User db\n"}, "ssh/conf.d/20-db:1"),
    # the including file holds `Host wolf` itself; the included file a `Host pug web` list
    "ssh-include-own-block": ({"dotfiles/ssh/config": "Include ~/.ssh/hosts/web.conf\n\nHost wolf\n  User db\n",
                               "dotfiles/ssh/hosts/web.conf": "Host pug web\n  User app\n"}, "dotfiles/ssh/config:3"),
    # `docker stack deploy -c -c`: stack's `--compose-file`, merged as compose merges
    "stack-deploy": ({"b/deploy.sh": "#!/bin/sh\ndocker stack deploy -c base.yml -c db.yml app\n",
                      "b/base.yml": APP, "b/db.yml": DB}, "b/db.yml:2"),
    "stack-deploy-long": ({"Makefile": "up:\n\tdocker stack deploy --compose-file app.yml --compose-file=db/db.yml x\n",
                           "app.yml": APP, "db/db.yml": DB}, "db/db.yml:2"),
    # ansible-navigator's inventory entries: one inventory
    "navigator-entries": ({"d/ansible-navigator.yml": "ansible-navigator:\n  ansible:\n    inventory:\n      entries:\n"
                                                      "        - inventory/web.yml\n        - inventory/db.ini\n",
                           "d/inventory/web.yml": WEB_YML, "d/inventory/db.ini": DB_INI}, "d/inventory/db.ini:2"),
    "navigator-json": ({".ansible-navigator.json": '{"ansible-navigator": {"ansible": {"inventory": '
                                                   '{"entries": ["inv/a.ini", "inv/b.yml"]}}}}\n',
                        "inv/a.ini": "[web]\npug\n", "inv/b.yml": "db:\n  hosts:\n    wolf:\n"}, "inv/b.yml:3"),
}


def _repo(repo, files: dict[str, str]) -> Path:
    root: Path = repo({"renamer.yaml": PUG_CONFIG, "allow.yaml": PUG_ALLOW, **files}, config=None, allowlist=None)
    return root


@pytest.mark.parametrize("case", sorted(SPLIT))
def test_an_identity_made_one_across_two_files_of_one_reader_is_refused(repo, run, case) -> None:
    files, named = SPLIT[case]
    root = _repo(repo, files)
    head = git(root, "rev-parse", "HEAD")
    dry = run(root, "sweep", "--dry-run", "--format", "summary")
    assert f"\n  {named}: after the rename " in dry.stdout[dry.stdout.index("Refused:"):], dry.stdout
    for args in (["sweep", "--commit"], ["sweep"]):
        done = run(root, *args)
        assert done.exit_code == 3, done.stdout
        assert f"{named}: after the rename " in done.stderr and "nothing written" in done.stderr, done.stderr
        assert git(root, "rev-parse", "HEAD") == head and git(root, "status", "--porcelain") == ""
    assert all((root / path).read_text() == text for path, text in files.items())


RECORDED = "pug-move: pug -> wolf\n\nRenamer-Move: pug-move\nRenamer-Commit: rewrite"


@pytest.mark.parametrize("case", sorted(SPLIT))
def test_verify_strict_fails_on_a_split_identity_once_written(repo, run, case) -> None:
    """Written by hand in a commit of the move (its trailers name it): compared with the files
    before it, strict verify fails."""
    files, _ = SPLIT[case]
    root: Path = repo({"renamer.yaml": PUG_CONFIG.replace("version: 1\n", "version: 1\nname: pug-move\n"),
                       "allow.yaml": PUG_ALLOW, **files}, config=None, allowlist=None)
    for path, text in files.items():
        (root / path).write_text(text.replace("pug", "wolf").replace("10.0.0.5", "10.1.0.5"))
    git(root, "commit", "-qam", RECORDED)
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1, strict.stdout
    assert ": error: collision: " in strict.stdout, strict.stdout


def test_verify_strict_passes_an_override_where_no_move_is_recorded(repo, run) -> None:
    """No commit of the move is known: `wolf` in a compose file and its override, and a host in
    two files of one inventory, are what these readers join on purpose; strict verify passes."""
    files = {"stack/compose.yaml": DB, "stack/compose.override.yaml": "services:\n  wolf:\n    ports: ['5432:5432']\n",
             "ansible.cfg": "[defaults]\ninventory = inventory/\n", "inventory/a.ini": "[db]\nwolf\n",
             "inventory/b.yml": "monitored:\n  hosts:\n    wolf:\n"}
    root = _repo(repo, files)
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 0, strict.stdout


def test_what_one_reader_joins_on_purpose_or_nothing_joins_is_swept(repo, run) -> None:
    """An override naming its base's service again (both renamed: still one service), one host in
    two files of one inventory folder, and two inventories and compose files no pointer joins:
    rewritten and committed with a warning at most, and `verify --strict` passes after."""
    files = {
        "ansible.cfg": "[defaults]\ninventory = inventory/\n",
        "inventory/web.yml": WEB_YML, "inventory/more.ini": "[monitored]\npug\n",
        "stack/compose.yaml": APP, "stack/compose.override.yaml": "services:\n  pug:\n    ports: ['80:80']\n",
        "other/prod.ini": "[web]\npug\n", "other/staging.ini": "[web]\nwolf\n",
        "a/base.yaml": APP, "b/db.yaml": DB,
    }
    root = _repo(repo, files)
    dry = run(root, "sweep", "--dry-run", "--format", "summary")
    assert "Refused:" not in dry.stdout, dry.stdout
    assert "other/staging.ini:2:1 [web.wolf]: warning: collision: wolf is already here" in dry.stdout, dry.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stderr
    assert (root / "stack/compose.override.yaml").read_text().startswith("services:\n  wolf:\n")
    assert (root / "inventory/more.ini").read_text() == "[monitored]\nwolf\n"
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 0, strict.stdout


def test_ansible_inventory_lists_two_machines_after_the_refused_sweep(repo, run, tmp_path) -> None:
    """The real reader of the report's case: `ansible-inventory --list` over the folder holds
    `pug` and `wolf` before, and still after the refused sweep; written by hand it holds one."""
    inventory = Path(sys.executable).with_name("ansible-inventory")
    assert inventory.exists(), "ansible-core is a test dependency"
    files, _ = SPLIT["inventory-folder"]
    root = _repo(repo, files)
    env = {**os.environ, "ANSIBLE_LOCAL_TEMP": str(tmp_path / "tmp"), "ANSIBLE_HOME": str(tmp_path / "home"),
           "ANSIBLE_CONFIG": str(root / "ansible.cfg")}

    def hosts() -> list[str]:
        shown = subprocess.run([str(inventory), "--list"], capture_output=True, text=True, check=True,
                               timeout=120, cwd=root, env=env)
        return sorted(json.loads(shown.stdout)["_meta"]["hostvars"])

    assert hosts() == ["pug", "wolf"]
    assert run(root, "sweep", "--commit").exit_code == 3
    assert hosts() == ["pug", "wolf"]
    (root / "inventory/web.yml").write_text(WEB_YML.replace("pug", "wolf"))
    assert hosts() == ["wolf"]


def test_ssh_reaches_the_db_machine_by_name_after_the_refused_sweep(repo, run, tmp_path) -> None:
    """The real reader of round 19's #6c: `ssh -G wolf` over the split config (a relative Include
    is read under ~/.ssh) gives the db machine's user before and after the refused sweep; written
    by hand it gives the old pug's."""
    files, _ = SPLIT["ssh-include-glob"]
    root = _repo(repo, files)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".ssh").symlink_to(root / "ssh")

    def user() -> str:
        shown = subprocess.run(["ssh", "-G", "-F", str(home / ".ssh/ssh_config"), "wolf"], capture_output=True,
                               text=True, check=True, timeout=60, env={**os.environ, "HOME": str(home)})
        return next(line.split()[1] for line in shown.stdout.splitlines() if line.startswith("user "))

    assert user() == "db"
    assert run(root, "sweep", "--commit").exit_code == 3
    assert user() == "db"
    (root / "ssh/conf.d/10-web").write_text(files["ssh/conf.d/10-web"].replace("pug", "wolf"))
    assert user() == "app"
