"""References to a path that keeps its old name, end to end (break-it round 12, finding 2).

A folder held `state-name`, a `keep_paths` folder, a record: the path stays, so every reference
to it in a current file stays too (kept where the path is kept on purpose, a residual `held-path`
where its hold is undecided); a reference to a path the sweep moves, or to no repo path at all,
follows. verify also fails on a path already written with the new value where the repo holds it
under the old one (`dangling-path`).
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

from tests.testing.repos import Repo, Run, git

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.lab.lan: wolf.lab.lan}
  addresses: {10.0.40.11: 10.0.50.21}
allowlist: allow.yaml
"""
ALLOW = "version: 1\ncurrent: ['**']\nrecords:\n  - {name: notes, paths: ['notes/**'], reason: history}\n"
VOLUMES = "services:\n  db:\n    image: postgres:16\n    volumes: [pgdata:/var/lib/postgresql/data]\nvolumes:\n  pgdata:\n"


def _findings(run: Run, root: Path, command: str) -> list[dict[str, object]]:
    done = run(root, command, "--format", "json")
    found: list[dict[str, object]] = json.loads(done.stdout)["findings" if command == "verify" else "references"]
    return found


def test_references_to_a_compose_folder_held_as_state_name_stay_with_it(repo: Repo, run: Run) -> None:
    """Round 12's reproduction and its dresses: -f, an Ansible src:, a checkout elsewhere."""
    files = {
        "hosts/pug/compose.yaml": VOLUMES,
        "deploy.sh": "docker compose -f hosts/pug/compose.yaml up -d\nssh pug.lab.lan ls /opt/pug/data\n",
        "site.yml": "- hosts: all\n  tasks:\n    - copy: {src: hosts/pug/compose.yaml, dest: /srv/stack/compose.yaml}\n"
                    "    - debug: {msg: pug}\n",
        "README.md": "Run `/srv/infra/hosts/pug/compose.yaml` on pug.\n",
        "docs/run.md": "From here: [stack](../hosts/pug/compose.yaml), [folder](../hosts/pug/).\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    held = {(f["path"], f["line"]) for f in _findings(run, root, "verify") if f.get("reason") == "held-path"}
    assert held == {("deploy.sh", 1), ("site.yml", 3), ("README.md", 1), ("docs/run.md", 1)}
    assert run(root, "sweep", "--commit").exit_code == 1  # the folder's hold is undecided
    assert (root / "hosts/pug/compose.yaml").exists() and not (root / "hosts/wolf").exists()
    # each reference to the held folder stays; the rest of each line follows
    assert (root / "deploy.sh").read_text() == \
        "docker compose -f hosts/pug/compose.yaml up -d\nssh wolf.lab.lan ls /opt/wolf/data\n"
    assert "src: hosts/pug/compose.yaml" in (root / "site.yml").read_text()
    assert "msg: wolf" in (root / "site.yml").read_text()
    assert (root / "README.md").read_text() == "Run `/srv/infra/hosts/pug/compose.yaml` on wolf.\n"
    assert (root / "docs/run.md").read_text() == files["docs/run.md"]
    # decided: the operator keeps the folder; its references are then kept with it, verify 0
    (root / "allow.yaml").write_text(ALLOW + "keep_paths: ['hosts/pug']\n")
    git(root, "commit", "-qam", "keep the stack's folder")
    assert run(root, "verify").exit_code == 0
    kept = {(f["path"], f["line"]) for f in _findings(run, root, "audit") if f.get("reason") == "held-path"}
    assert kept == {("deploy.sh", 1), ("site.yml", 3), ("README.md", 1), ("docs/run.md", 1)}


def test_references_to_kept_folders_and_records_are_kept(repo: Repo, run: Run) -> None:
    files = {
        "backups/pug/dump.sql": "-- dump\n",
        "notes/pug/2024.md": "# pug in 2024\n",
        "roles/web/files/pug/app.conf": "listen 80;\n",
        "roles/web/tasks/main.yml": "- copy: {src: pug/app.conf, dest: /etc/pug/app.conf}\n",
        "backup.sh": "rsync -a backups/pug/ backup.lab:/srv/pug/\ncat ./backups/pug/dump.sql\n",
        "ops/README.md": "See [2024](../notes/pug/2024.md) about pug.\n",
        # a path inside the kept folder that no file spells: a sops creation rule's regex
        ".sops.yaml": "creation_rules:\n  - path_regex: backups/pug/secrets.ya?ml$\n    age: pug\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['backups/pug', 'roles/web/files/pug']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "backup.sh").read_text() == "rsync -a backups/pug/ backup.lab:/srv/wolf/\ncat ./backups/pug/dump.sql\n"
    assert (root / "ops/README.md").read_text() == "See [2024](../notes/pug/2024.md) about wolf.\n"
    # Ansible reads a role's src: from its files/ folder; the destination on the host follows
    assert (root / "roles/web/tasks/main.yml").read_text() == "- copy: {src: pug/app.conf, dest: /etc/wolf/app.conf}\n"
    assert (root / ".sops.yaml").read_text() == files[".sops.yaml"].replace("age: pug", "age: wolf")
    assert run(root, "verify").exit_code == 0
    reasons = {(f["path"], f["line"]): f.get("reason") for f in _findings(run, root, "audit")}
    assert reasons[("backup.sh", 1)] == reasons[("backup.sh", 2)] == "held-path"
    assert reasons[("ops/README.md", 1)] == "held-path"


def test_references_to_paths_the_sweep_moves_or_to_no_repo_path_follow(repo: Repo, run: Run) -> None:
    files = {
        "stacks/pug/compose.yml": "services:\n  app:\n    volumes: [./data:/data]\n",  # bind mounts: moves
        "deploy.sh": "docker compose -f stacks/pug/compose.yml up -d\ncat /etc/pug/app.conf\nls pug/\n",
        "site.yml": "- copy: {src: stacks/pug/compose.yml, dest: /opt/pug/compose.yml}\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "stacks/wolf/compose.yml").exists()
    assert (root / "deploy.sh").read_text() == files["deploy.sh"].replace("pug", "wolf")
    assert (root / "site.yml").read_text() == files["site.yml"].replace("pug", "wolf")
    assert run(root, "verify").exit_code == 0


def test_every_repo_path_a_current_file_named_still_exists_after_the_sweep(repo: Repo, run: Run) -> None:
    """The class, checked as a whole: each token that named a repo path before the sweep names
    one after it (moved with it, or left with it)."""
    files = {
        "hosts/pug/compose.yaml": VOLUMES, "hosts/pug/.env": "TZ=UTC\n",
        "stacks/pug/compose.yml": "services:\n  app:\n    image: nginx\n",
        "backups/pug/dump.sql": "-- dump\n", "notes/pug/2024.md": "# 2024\n",
        "run.sh": "docker compose -f hosts/pug/compose.yaml --env-file hosts/pug/.env up\n"
                  "docker compose -f stacks/pug/compose.yml up\nrsync backups/pug/dump.sql x:\n"
                  "less notes/pug/2024.md\n",
        "docs/index.md": "[a](../hosts/pug/compose.yaml) [b](../stacks/pug/compose.yml) [c](../notes/pug/2024.md)\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['backups/pug']\n")
    run(root, "sweep", "--commit")
    token = re.compile(r"[\w./-]+/[\w./-]+")
    for rel in ("run.sh", "docs/index.md"):
        for spelled in token.findall((root / rel).read_text()):
            path = posixpath.normpath(posixpath.join(posixpath.dirname(rel), spelled)).rstrip("/")
            assert (root / path).exists(), f"{rel} names {spelled}, which does not exist"


def test_verify_fails_on_a_path_written_new_where_the_repo_holds_it_old(repo: Repo, run: Run) -> None:
    files = {
        "hosts/pug/compose.yaml": VOLUMES,
        "notes/pug/2024.md": "# 2024\n",
        "stacks/wolf/compose.yml": "services:\n  app:\n    image: nginx\n",
        "deploy.sh": "docker compose -f hosts/wolf/compose.yaml up -d\nless notes/wolf/2024.md\n"
                     "docker compose -f stacks/wolf/compose.yml up\nls /opt/wolf/data\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['hosts/pug']\n")
    done = run(root, "verify", "--format", "json")
    assert done.exit_code == 1
    dangling = {(f["path"], f["line"]) for f in json.loads(done.stdout)["findings"]
                if f.get("reason") == "dangling-path"}
    assert dangling == {("deploy.sh", 1), ("deploy.sh", 2)}  # stacks/wolf exists; /opt is the host's
    assert "hosts/pug/compose.yaml keeps the old name" in run(root, "verify").stdout
    (root / "deploy.sh").write_text(files["deploy.sh"].replace("hosts/wolf", "hosts/pug").replace("notes/wolf",
                                                                                                     "notes/pug"))
    git(root, "commit", "-qam", "the old paths back")
    assert run(root, "verify").exit_code == 0


def test_a_folder_split_by_a_kept_file_keeps_references_to_that_file_and_moves_the_rest(repo: Repo, run: Run) -> None:
    files = {
        "hosts/pug/secrets.yaml": "token: x\n",
        "hosts/pug/app.conf": "listen 80;\n",
        "deploy.sh": "sops -d hosts/pug/secrets.yaml\ncp hosts/pug/app.conf /etc/app.conf\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['hosts/pug/secrets.yaml']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "hosts/pug/secrets.yaml").exists() and (root / "hosts/wolf/app.conf").exists()
    assert (root / "deploy.sh").read_text() == "sops -d hosts/pug/secrets.yaml\ncp hosts/wolf/app.conf /etc/app.conf\n"
    assert run(root, "verify").exit_code == 0


MOUNT = "[Unit]\nDescription=pug data\n[Mount]\nWhat=nas:/export/pug\nWhere=/mnt/pug\nType=nfs\n"


def test_references_to_a_mount_point_its_unit_keeps_stay_with_it(repo: Repo, run: Run) -> None:
    """Round 12's milder case of the class: `Where=/mnt/pug` held `unit-name` (the unit's name
    encodes it), while `rsync -a /mnt/pug/` elsewhere became /mnt/wolf/, which nothing mounts."""
    files = {
        "units/mnt-pug.mount": MOUNT,
        "units/backup.service": "[Service]\nExecStart=rsync -a /mnt/pug/ /srv/backup/pug/\n",
        "check.sh": "df -h /mnt/pug\nls /mnt/pugs /srv/mnt/pug\nssh pug uptime\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    held = {(f["path"], f["line"]) for f in _findings(run, root, "verify") if f.get("reason") == "held-path"}
    assert held == {("units/backup.service", 2), ("check.sh", 1)}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "units/backup.service").read_text() == \
        "[Service]\nExecStart=rsync -a /mnt/pug/ /srv/backup/wolf/\n"
    assert (root / "check.sh").read_text() == "df -h /mnt/pug\nls /mnt/pugs /srv/mnt/wolf\nssh wolf uptime\n"
    # decided: the unit's mount point is kept by a rule; the references are kept with it
    (root / "allow.yaml").write_text(ALLOW + "keep:\n  - {name: nas, path: units/mnt-pug.mount, "
                                             "line_contains: Where=, reason: remounted later}\n")
    git(root, "commit", "-qam", "keep the mount point")
    assert run(root, "verify").exit_code == 0
    kept = {(f["path"], f["line"]) for f in _findings(run, root, "audit") if f.get("reason") == "held-path"}
    assert kept == {("units/backup.service", 2), ("check.sh", 1)}
