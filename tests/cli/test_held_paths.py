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
import subprocess
import sys
from pathlib import Path

from tests.testing.repos import LAB_CONFIG, Repo, Run, git

CONFIG = LAB_CONFIG
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


def test_a_folder_a_kept_file_would_split_is_refused(repo: Repo, run: Run) -> None:
    """Break-it round 13, finding 5: keeping one file of a folder that moves split it; the moved
    compose file's `env_file: ./secrets.enc.yaml` then named nothing, and `rsync -a hosts/pug/`
    (held with the kept file) shipped only the secret. Refused, nothing written, like a link into it."""
    files = {
        "hosts/pug/secrets.enc.yaml": "k: ENC[AES256_GCM,data:abc]\n",
        "hosts/pug/compose.yaml": "services:\n  app:\n    image: nginx\n    env_file: ./secrets.enc.yaml\n",
        "sync.sh": "rsync -a hosts/pug/ root@pug.lab.lan:/srv/stack/\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['hosts/pug/secrets.enc.yaml']\n")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert "hosts/pug/: renaming it to hosts/wolf/ would split it: hosts/pug/secrets.enc.yaml stays" in done.stderr
    assert not (root / "hosts/wolf").exists() and (root / "sync.sh").read_text() == files["sync.sh"]
    # decided: the whole folder is kept; its references are kept with it, the rest follows
    (root / "allow.yaml").write_text(ALLOW + "keep_paths: ['hosts/pug']\n")
    git(root, "commit", "-qam", "keep the folder")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "sync.sh").read_text() == "rsync -a hosts/pug/ root@wolf.lab.lan:/srv/stack/\n"
    assert run(root, "verify").exit_code == 0


def test_names_and_host_paths_that_only_look_like_a_held_path_follow(repo: Repo, run: Run) -> None:
    """Break-it round 13, findings 1 and 2: a host's FQDN is a name even where a kept folder is
    called by it; a path on a machine is no repo path because a record or a kept folder ends with
    the same components (`/etc/nginx/sites-enabled/pug.conf`, `~/pug/app.conf`, `/pug/app.conf`)."""
    files = {
        "pug.lab.lan/compose.yaml": VOLUMES,
        "certs/pug.lab.lan/cert.pem": "-----BEGIN CERTIFICATE-----\n",
        "notes/2024/pug/etc/nginx/sites-enabled/pug.conf": "server_name pug.lab.lan;\n",
        "pug/app.conf": "listen 80;\n",
        "hosts.ini": "[db]\npug.lab.lan ansible_host=10.0.40.11\n",
        "Makefile": "renew:\n\tcertbot certonly -d pug.lab.lan\n\tssh pug.lab.lan systemctl reload nginx\n",
        "site.yml": "- template: {src: site.conf.j2, dest: /etc/nginx/sites-enabled/pug.conf}\n"
                    "- copy: {src: x, dest: ~/pug/app.conf}\n- shell: docker run -v /srv/data:/pug/app.conf img\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['pug.lab.lan', 'certs/pug.lab.lan', 'pug']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "hosts.ini").read_text() == "[db]\nwolf.lab.lan ansible_host=10.0.50.21\n"
    assert (root / "Makefile").read_text() == files["Makefile"].replace("pug.lab.lan", "wolf.lab.lan")
    assert (root / "site.yml").read_text() == files["site.yml"].replace("pug", "wolf")
    # written new by hand elsewhere: no dangling-path, they are no repo paths
    (root / "run.sh").write_text("cat /etc/nginx/sites-enabled/wolf.conf ~/wolf/app.conf\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "by hand")
    assert run(root, "verify").exit_code == 0


def test_windows_paths_brace_sets_and_variables_are_read_as_paths(repo: Repo, run: Run) -> None:
    """Break-it round 13, finding 3: a token cut by `\\`, `{`, `,` left a bare `pug`, rewritten."""
    files = {
        "hosts/pug/app.conf": "listen 80;\n", "hosts/rex/app.conf": "listen 80;\n",
        "deploy.bat": "xcopy hosts\\pug\\app.conf C:\\srv\\\r\n",
        "deploy.ps1": "Copy-Item \"$PSScriptRoot\\hosts\\pug\\app.conf\" C:\\srv\r\n",
        "win.yml": "- win_copy: {src: 'hosts\\pug\\app.conf', dest: 'C:\\srv\\app.conf'}\n",
        "loop.sh": "for f in hosts/{pug,rex}/app.conf; do cat $f; done\ncat ${REPO}/hosts/pug/app.conf\n"
                   "scp a,hosts/pug/app.conf b:\nssh pug true\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['hosts/pug']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    for rel in ("deploy.bat", "deploy.ps1", "win.yml"):
        assert (root / rel).read_bytes() == files[rel].encode(), rel
    assert (root / "loop.sh").read_text() == files["loop.sh"].replace("ssh pug", "ssh wolf")
    # and verify's dangling-path reads the same dresses written new
    (root / "deploy.bat").write_text("xcopy hosts\\wolf\\app.conf C:\\srv\\\r\n")
    (root / "loop.sh").write_text("for f in hosts/{wolf,rex}/app.conf; do cat $f; done\n")
    git(root, "commit", "-qam", "by hand")
    done = run(root, "verify", "--format", "json")
    dangling = {f["path"] for f in json.loads(done.stdout)["findings"] if f.get("reason") == "dangling-path"}
    assert done.exit_code == 1 and dangling == {"deploy.bat", "loop.sh"}


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


def test_a_mount_unit_inside_an_ansible_task_holds_its_point_too(repo: Repo, run: Run) -> None:
    """Break-it round 13, finding 4: the unit in a `copy: content:` is held `unit-name`; its point
    was rewritten elsewhere (`rsync -a /srv/pug/` became /srv/wolf/, which nothing mounts)."""
    files = {"roles/nas/tasks/main.yml": "- copy:\n    dest: /etc/systemd/system/srv-pug.mount\n    content: |\n"
                                         "      [Mount]\n      What=nas:/backup\n      Where=/srv/pug\n"
                                         "      Type=nfs\n- shell: rsync -a /srv/pug/ /backup/\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    reasons = {f["line"]: f.get("reason") for f in _findings(run, root, "verify")}
    assert reasons[6] == "unit-name" and reasons[8] == "held-path"
    (root / "allow.yaml").write_text(ALLOW + "keep:\n  - {name: nas, path: roles/nas/tasks/main.yml, "
                                             "line_contains: Where=, reason: remounted later}\n")
    git(root, "commit", "-qam", "keep the mount point")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "rsync -a /srv/pug/ /backup/" in (root / "roles/nas/tasks/main.yml").read_text()
    assert run(root, "verify").exit_code == 0


def test_a_record_left_in_a_moving_folder_splits_nothing_live_but_the_folder_reference_is_held(
        repo: Repo, run: Run) -> None:
    """History stays where it was written (the folder's live files move); a reference to the
    folder itself would name part of it under either name: a residual, never a silent choice."""
    files = {"hosts/pug/app.conf": "listen 80;\n", "hosts/pug/NOTES.md": "# pug\n",
             "sync.sh": "rsync -a hosts/pug/ backup:\ncat hosts/pug/app.conf\n"}
    root = repo(files, config=CONFIG,
                allowlist=ALLOW.replace("'notes/**'", "'notes/**', '**/NOTES.md'"))
    assert run(root, "sweep", "--commit").exit_code == 1  # the folder reference is left for a decision
    assert (root / "hosts/wolf/app.conf").exists() and (root / "hosts/pug/NOTES.md").exists()
    assert (root / "sync.sh").read_text() == "rsync -a hosts/pug/ backup:\ncat hosts/wolf/app.conf\n"
    found = [f for f in _findings(run, root, "verify") if f.get("reason") == "held-path"]
    assert [(f["path"], f["line"]) for f in found] == [("sync.sh", 1)]
    assert "a folder the sweep splits" in str(found[0]["note"])


def test_a_tail_both_a_moving_file_and_a_record_end_with_follows_the_moving_file(repo: Repo, run: Run) -> None:
    """Break-it round 14, findings 6 and 13: `pug/compose.yaml` (from `cd stacks`) was held because a
    backup record ends so too, and written new by hand it failed verify as dangling."""
    allow = ALLOW + "  - {name: backups, paths: ['backups/**'], reason: snapshot}\n"
    files = {"stacks/pug/compose.yaml": "services:\n  web:\n    image: nginx\n",
             "backups/2024-01-01/pug/compose.yaml": "services:\n  web:\n    image: nginx\n",
             "deploy.sh": "cd stacks && docker compose -f pug/compose.yaml up -d\n"
                          "docker compose -f \"${STACKS}/pug/compose.yaml\" pull\n"}
    root = repo(files, config=CONFIG, allowlist=allow)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "deploy.sh").read_text() == files["deploy.sh"].replace("pug/", "wolf/")
    assert (root / "stacks/wolf/compose.yaml").exists()
    (root / "run.sh").write_text("cd stacks && docker compose -f wolf/compose.yaml ps\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "by hand")
    assert run(root, "verify").exit_code == 0


def test_paths_rooted_at_a_command_or_a_batch_files_folder_are_read_as_paths(repo: Repo, run: Run) -> None:
    """Break-it round 14, finding 7: `$(CURDIR)/`, `$(dirname "$0")/`, `$(pwd)/`, `%~dp0`."""
    files = {"hosts/pug/app.conf": "listen 80;\n",
             "Makefile": "deploy:\n\tscp $(CURDIR)/hosts/pug/app.conf root@10.0.40.11:/etc/app.conf\n",
             "deploy.sh": "scp \"$(dirname \"$0\")/hosts/pug/app.conf\" x:\nrsync -a $(pwd)/hosts/pug/ x:/srv/\n",
             "deploy.bat": "scp %~dp0hosts\\pug\\app.conf x:\r\nscp %REPO%\\hosts\\pug\\app.conf x:\r\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['hosts/pug']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "Makefile").read_text() == files["Makefile"].replace("10.0.40.11", "10.0.50.21")
    assert (root / "deploy.sh").read_text() == files["deploy.sh"]
    assert (root / "deploy.bat").read_bytes() == files["deploy.bat"].encode()


def test_a_record_a_moving_neighbour_names_splits_the_folder_and_is_refused(repo: Repo, run: Run) -> None:
    """Break-it round 14, finding 8: the moved README's `[disk swap](2025-03-01-disk-swap.md)`
    named a record left behind."""
    files = {"hosts/pug/README.md": "# pug\n\nPast outages: [disk swap](2025-03-01-disk-swap.md).\n",
             "hosts/pug/2025-03-01-disk-swap.md": "# 2025-03-01 disk swap on pug\n",
             "hosts/pug/compose.yaml": "services:\n  nas:\n    image: samba\n"}
    root = repo(files, config=CONFIG.replace("version: 1\n", "version: 1\ncutover: 2026-10-05\n"),
                allowlist=ALLOW + "dated: {filenames: true}\n")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3 and "hosts/pug/2025-03-01-disk-swap.md stays" in done.stderr
    assert not (root / "hosts/wolf").exists()


def test_a_sweep_of_some_paths_never_splits_their_folder(repo: Repo, run: Run) -> None:
    """Break-it round 14, finding 12: `sweep hosts/pug/compose.yaml` left hosts/pug/app.env behind."""
    files = {"hosts/pug/compose.yaml": "services:\n  db:\n    image: x\n    env_file: ./app.env\n",
             "hosts/pug/app.env": "DB=pug\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "hosts/pug/compose.yaml")
    assert done.exit_code == 3 and "hosts/pug/app.env stays" in done.stderr
    assert run(root, "sweep", "--commit").exit_code == 0  # the whole folder moves
    assert (root / "hosts/wolf/app.env").exists()


def test_a_name_spelled_from_parts_that_names_a_file_no_rename_moves_is_held(repo: Repo, run: Run) -> None:
    """Break-it round 14, finding 10 (adrienkohlbecker/homelab): `host_vars/{lab,pug}-qemu.yml` names
    host_vars/pug-qemu.yml, a derived name the sweep does not rename."""
    files = {"host_vars/pug.yml": "ansible_host: 10.0.40.11\n", "host_vars/pug-qemu.yml": "fake: true\n",
             "host_vars/lab-qemu.yml": "fake: true\n",
             "README.md": "Test overlays live in `host_vars/{lab,pug}-qemu.yml`; pug is the NAS.\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "README.md").read_text() == \
        "Test overlays live in `host_vars/{lab,pug}-qemu.yml`; wolf is the NAS.\n"
    found = [f for f in _findings(run, root, "verify") if f.get("reason") == "held-path"]
    assert [(f["path"], f["line"]) for f in found] == [("README.md", 1)]


def test_a_record_folder_a_moving_neighbour_names_splits_the_folder_and_is_refused(repo: Repo, run: Run) -> None:
    """Break-it round 15, finding 4: a compose volume `./incidents` and a link `incidents/` name the
    record folder left behind."""
    allow = ALLOW.replace("'notes/**'", "'notes/**', 'hosts/*/incidents/**'")
    files = {"hosts/pug/compose.yaml": "services:\n  docs:\n    image: nginx\n    volumes:\n"
                                       "      - ./incidents:/usr/share/nginx/html:ro\n",
             "hosts/pug/incidents/2025-03-01-disk-swap.md": "# disk swap\n",
             "hosts/pug/README.md": "See [incidents](incidents/) for history.\n"}
    root = repo(files, config=CONFIG, allowlist=allow)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3 and "hosts/pug/incidents/2025-03-01-disk-swap.md stays" in done.stderr


def test_url_encoded_and_globbed_paths_to_a_kept_folder_are_held(repo: Repo, run: Run) -> None:
    """Break-it round 15, finding 7: a forge API's `hosts%2Fpug%2Fapp.conf` and `certs/*/pug.pem`."""
    files = {"hosts/pug/app.conf": "x=1\n", "certs/rex/pug.pem": "k\n",
             "ci.sh": "curl \"https://git.example/api/v4/projects/1/repository/files/hosts%2Fpug%2Fapp.conf/raw\"\n"
                      "for f in certs/*/pug.pem; do openssl x509 -in \"$f\"; done\nssh pug true\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['hosts/pug', 'certs/rex/pug.pem']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "ci.sh").read_text() == files["ci.sh"].replace("ssh pug", "ssh wolf")


def test_a_path_joined_from_literals_to_a_kept_folder_is_held(repo: Repo, run: Run) -> None:
    """Break-it round 15, finding 5: `os.path.join("hosts", "pug", ...)`, pathlib's `/`, Nix's
    `../hosts + "/pug/..."` and Jinja's `~` built a path whose `pug` piece was rewritten."""
    files = {"hosts/pug/app.conf": "x=1\n",
             "scripts/push.py": "import os, pathlib\nSRC = os.path.join(\"hosts\", \"pug\", \"app.conf\")\n"
                                "SRC2 = pathlib.Path(\"hosts\") / \"pug\" / \"app.conf\"\nHOST = \"pug\"\n",
             "nix/host.nix": "{ environment.etc.\"app.conf\".source = ../hosts + \"/pug/app.conf\"; }\n",
             "deploy.yml": "- copy: {src: \"{{ 'hosts/' ~ 'pug' ~ '/app.conf' }}\", dest: /etc/app.conf}\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['hosts/pug']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "scripts/push.py").read_text() == files["scripts/push.py"].replace('HOST = "pug"', 'HOST = "wolf"')
    assert (root / "nix/host.nix").read_text() == files["nix/host.nix"]
    assert (root / "deploy.yml").read_text() == files["deploy.yml"]


JOINS = {
    "go/read.go": ('package main\nimport ("os"; "path/filepath")\nfunc main() {\n'
                   '\tb, _ := os.ReadFile(filepath.Join("hosts", "pug", "app.conf"))\n'
                   '\tc, _ := os.ReadFile(path.Join("hosts", "pug"))\n'
                   '\td := filepath.Join(\n\t\t"hosts",\n\t\t"pug",\n\t\t"app.conf",\n\t)\n'
                   '\tprintln(b, c, d, "pug")\n}\n'),
    "rs/main.rs": 'fn main() { let p = Path::new("hosts").join("pug").join("app.conf"); }\n',
    "py/read.py": 'from pathlib import Path\nP = Path("hosts").joinpath("pug", "app.conf")\n',
    "java/Read.java": 'class R { Path p = Paths.get("hosts", "pug", "app.conf"); Path q = Path.of("hosts", "pug"); }\n',
    "cs/Read.cs": 'class R { string p = Path.Combine("hosts", "pug", "app.conf"); }\n',
    "rb/read.rb": 'P = File.join("hosts", "pug", "app.conf")\n',
    "js/read.js": 'const p = path.resolve(__dirname, "..", "hosts", "pug");\n',
    "ans/site.yml": ("- copy: {src: \"{{ ['hosts', 'pug', 'app.conf'] | path_join }}\", dest: /a}\n"
                     "- copy: {src: \"{{ ['hosts', 'pug', 'app.conf'] | join('/') }}\", dest: /b}\n"),
    "py/join.py": 'P = "/".join(["hosts", "pug", "app.conf"])\nQ = os.path.join(BASE, "hosts", "pug")\n',
}


def test_a_path_joined_by_any_language_s_join_call_to_a_kept_folder_is_held(repo: Repo, run: Run) -> None:
    """Break-it round 17, #15: Go's `filepath.Join("hosts", "pug", ...)` was rewritten to a folder
    that does not exist. Go's `path.Join` and a call split over lines, Rust's `Path::new(..).join(..)`,
    pathlib's `.joinpath`, Java's `Paths.get`/`Path.of`, C#'s `Path.Combine`, Ruby's `File.join`,
    Node's `path.resolve`, a list joined into a path (Jinja `| path_join`, `| join('/')`, Python
    `"/".join([...])`), a variable first argument: each `pug` piece held; the bare `"pug"` beside
    them follows."""
    files = {"hosts/pug/app.conf": "x=1\n", **JOINS}
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['hosts/pug']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "go/read.go").read_text() == files["go/read.go"].replace('println(b, c, d, "pug")',
                                                                            'println(b, c, d, "wolf")')
    for rel in JOINS:
        if rel != "go/read.go":
            assert (root / rel).read_text() == files[rel], rel
    held = {(f["path"], f["line"]) for f in _findings(run, root, "audit") if f.get("reason") == "held-path"}
    assert held >= {("go/read.go", 4), ("go/read.go", 5), ("go/read.go", 8), ("rs/main.rs", 1), ("py/read.py", 2),
                    ("java/Read.java", 1), ("cs/Read.cs", 1), ("rb/read.rb", 1), ("js/read.js", 1),
                    ("ans/site.yml", 1), ("ans/site.yml", 2), ("py/join.py", 1), ("py/join.py", 2)}


# Break-it round 19, #9: the held word is a variable's value, the path built from the variable on
# another line. (file, text, the line of the word held)
VARIABLES = {
    "py/load.py": ('import os\nBASE = "hosts"\nHOST = "pug"\ncfg = open(os.path.join(BASE, HOST, "app.conf")).read()\n',
                   3),
    "py/parts.py": ('import os\nparts = ["hosts", "pug", "app.conf"]\ncfg = open(os.sep.join(parts)).read()\n', 2),
    "py/star.py": ('import os\nparts = ["hosts", "pug"]\nd = os.path.join(*parts)\n', 2),
    "py/fstring.py": ('BASE = "hosts"\nhost = "pug"\np = f"{BASE}/{host}/app.conf"\n', 2),
    "sh/load.sh": ('dir=hosts\nname=pug\ncat "$dir/$name/app.conf"\n', 2),
    "sh/unquoted.sh": ('export NODE=pug\nBASE=$(dirname "$0")/../hosts\ncat ${BASE}/${NODE}/app.conf\n', 1),
    "ans/site.yml": ("- hosts: localhost\n  vars: {node: pug}\n  tasks:\n"
                     "    - debug: {msg: \"{{ lookup('file', playbook_dir ~ '/../hosts/' ~ node ~ '/app.conf') }}\"}\n",
                     2),
    "go/main.go": ('package main\nfunc main() {\n\tbase := "hosts"\n\thost := "pug"\n'
                   '\tp := filepath.Join(base, host, "app.conf")\n\tprintln(p)\n}\n', 4),
    "js/read.js": ("const host = 'pug';\nconst p = path.join(__dirname, '..', 'hosts', host, 'app.conf');\n", 1),
    "sh/loop.sh": ('BASE=hosts\nfor h in rex pug; do cat "$BASE/$h/app.conf"; done\n', 2),
    "mk/Makefile": ("DIR = hosts\nHOST ?= pug\nshow:\n\tcat $(DIR)/$(HOST)/app.conf\n", 2),
}


def test_a_held_path_reached_through_a_variable_set_on_another_line_is_held(repo: Repo, run: Run) -> None:
    """Python `os.path.join(BASE, HOST, ...)`, `os.sep.join(parts)`, `os.path.join(*parts)`, an
    f-string; shell `"$dir/$name/..."` and `${BASE}/${NODE}/...`; Ansible `playbook_dir ~ ... ~
    node`; Go, Node, make: each word kept with the path (held-path), the files unchanged, python
    and bash still read the file. A variable no path is built from, or one whose path names a
    folder that moves, follows."""
    files = {"hosts/pug/app.conf": "x=1\n", "stacks/pug/compose.yaml": "services: {}\n",
             **{rel: text for rel, (text, _) in VARIABLES.items()},
             "py/ssh.py": 'HOST = "pug"\nsubprocess.run(["ssh", HOST, "true"])\n',
             "py/stack.py": 'import os\nSTACK = "pug"\np = os.path.join("stacks", STACK, "compose.yaml")\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['hosts/pug']\n")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout
    for rel in VARIABLES:
        assert (root / rel).read_text() == files[rel], rel
    held = {(f["path"], f["line"]) for f in _findings(run, root, "audit") if f.get("reason") == "held-path"}
    assert held >= {(rel, line) for rel, (_, line) in VARIABLES.items()}, sorted(held)
    assert (root / "py/ssh.py").read_text() == files["py/ssh.py"].replace('"pug"', '"wolf"')
    assert (root / "py/stack.py").read_text() == files["py/stack.py"].replace('"pug"', '"wolf"')
    assert (root / "stacks/wolf/compose.yaml").exists()
    shown = subprocess.run([sys.executable, "-c", (root / "py/load.py").read_text() + "print(cfg, end='')"], cwd=root,
                           capture_output=True, text=True, check=False)
    assert shown.returncode == 0 and shown.stdout == "x=1\n", shown.stderr
    shown = subprocess.run(["bash", "sh/load.sh"], cwd=root, capture_output=True, text=True, check=False)
    assert shown.returncode == 0 and shown.stdout == "x=1\n", shown.stderr


# Latin-1 text holding `Â°` (0xC2 0xB0, which UTF-8 reads as one character: the sweep's lines
# count bytes in a file that is not UTF-8), and CP1252 quotes.
LATIN1 = b"Temp 25 \xc2\xb0C caf\xe9: docker compose -f hosts/pug/compose.yaml up; ssh pug\n"
CP1252 = b"\x93caf\xe9\x94 \xc3\xa9t\xe9: rsync -a hosts/pug/ backup:/srv/ && ssh pug true\n"


def test_references_in_a_latin1_or_cp1252_file_are_held_as_in_utf8(repo: Repo, run: Run) -> None:
    """Issue 27: a file read through another encoding is read for held paths as the sweep reads it
    for rewriting; the rest of the line follows, every other byte unchanged."""
    files: dict[str, str | bytes] = {"hosts/pug/compose.yaml": VOLUMES, "latin1.sh": LATIN1, "cp1252.sh": CP1252,
                                     "tar.sh": b"\xe9\xc2\xb0 tar -C hosts -cf x.tar pug\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['hosts/pug']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "latin1.sh").read_bytes() == LATIN1.replace(b"ssh pug", b"ssh wolf")
    assert (root / "cp1252.sh").read_bytes() == CP1252.replace(b"ssh pug", b"ssh wolf")
    assert (root / "tar.sh").read_bytes() == files["tar.sh"]
    held = {(f["path"], f["line"], f["column"]) for f in _findings(run, root, "audit") if f.get("reason") == "held-path"}
    # columns as the sweep counts them in a file that is not UTF-8: one per byte
    assert held == {("latin1.sh", 1, LATIN1.index(b"pug") + 1), ("cp1252.sh", 1, CP1252.index(b"pug") + 1),
                    ("tar.sh", 1, files["tar.sh"].index(b"pug") + 1)}
    assert run(root, "verify").exit_code == 0


def test_a_path_written_new_in_a_latin1_or_utf16_file_fails_verify(repo: Repo, run: Run) -> None:
    """dangling-path reads a Latin-1 file's columns as the sweep does, and a UTF-16 file with a BOM
    (which the sweep never rewrites) through its decoding, as the scan reads it."""
    latin1 = b"caf\xe9 \xc2\xb0 cp hosts/wolf/compose.yaml /srv/\n"
    utf16 = "\ufeffCopy-Item hosts/wolf/compose.yaml C:/srv\r\nWrite-Host caf\u00e9\r\n".encode("utf-16-le")
    files: dict[str, str | bytes] = {"hosts/pug/compose.yaml": VOLUMES, "latin1.sh": latin1, "deploy.ps1": utf16,
                                     "ok.ps1": "\ufeffCopy-Item hosts/pug/compose.yaml C:/srv\r\n".encode("utf-16-le")}
    root = repo(files, config=CONFIG, allowlist=ALLOW + "keep_paths: ['hosts/pug']\n")
    found = {(f["path"], f["line"], f["column"]) for f in _findings(run, root, "verify")
             if f.get("reason") == "dangling-path"}
    assert found == {("latin1.sh", 1, latin1.index(b"wolf") + 1), ("deploy.ps1", 1, 18)}
    assert run(root, "verify").exit_code == 1
    run(root, "sweep", "--commit")  # nothing to rewrite: each file stays as it is
    assert (root / "deploy.ps1").read_bytes() == utf16 and (root / "latin1.sh").read_bytes() == latin1


def _with_submodule(repo: Repo, tmp_path: Path, files: dict[str, str], allow: str = ALLOW) -> Path:
    """A repo holding `files` and a real submodule checked out at hosts/pug."""
    inner = tmp_path / "inner"
    inner.mkdir()
    git(inner, "init", "-q")
    (inner / "site.yml").write_text("- hosts: all\n")
    git(inner, "add", "-A")
    git(inner, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "site")
    root = repo(files, config=CONFIG, allowlist=allow)
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "hosts/pug")
    git(root, "commit", "-qm", "submodule")
    return root


def test_paths_into_a_submodule_named_after_the_host_stay_with_it(repo: Repo, run: Run, tmp_path: Path) -> None:
    """Break-it round 16, finding 16: a sweep never moves a submodule, so a path into it keeps the
    old name, a residual while its .gitmodules lines are undecided, kept once a keep rule keeps them."""
    deploy = ("#!/bin/sh\nansible-playbook hosts/pug/site.yml\ncd ./hosts/pug/ && git pull\n"
              "git -C hosts/pug log -1\nssh pug.lab.lan uptime\n")
    root = _with_submodule(repo, tmp_path, {"deploy.sh": deploy, "docs/run.md": "See [site](../hosts/pug/site.yml).\n"})
    held = {(f["path"], f["line"]) for f in _findings(run, root, "verify") if f.get("reason") == "held-path"}
    assert held == {("deploy.sh", 2), ("deploy.sh", 3), ("deploy.sh", 4), ("docs/run.md", 1)}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "deploy.sh").read_text() == deploy.replace("ssh pug.lab.lan", "ssh wolf.lab.lan")
    assert (root / "hosts/pug/site.yml").exists() and not (root / "hosts/wolf").exists()
    # the hint's second way out: keep the submodule's lines; its references are then kept with it
    (root / "allow.yaml").write_text(ALLOW + "keep:\n  - {name: submodule, path: .gitmodules, "
                                             "line_contains: hosts/pug, reason: the checkout stays}\n")
    git(root, "commit", "-qam", "keep the submodule")
    assert run(root, "verify").exit_code == 0
    kept = {(f["path"], f["line"]) for f in _findings(run, root, "audit") if f.get("reason") == "held-path"}
    assert kept == {("deploy.sh", 2), ("deploy.sh", 3), ("deploy.sh", 4), ("docs/run.md", 1)}


def test_verify_sees_a_path_into_a_submodule_written_with_the_new_name(repo: Repo, run: Run,
                                                                       tmp_path: Path) -> None:
    """An earlier sweep (or a hand edit) wrote the new name into a path whose submodule stayed."""
    allow = ALLOW + ("keep:\n  - {name: submodule, path: .gitmodules, line_contains: hosts/pug, "
                     "reason: the checkout stays}\n")
    root = _with_submodule(repo, tmp_path, {"deploy.sh": "ansible-playbook hosts/wolf/site.yml\n",
                                            "other.sh": "ansible-playbook stacks/wolf/site.yml\n"}, allow)
    found = _findings(run, root, "verify")
    assert {(f["path"], f["line"], f["reason"]) for f in found} == {("deploy.sh", 1, "dangling-path")}
    assert run(root, "verify").exit_code == 1


def test_a_sweep_of_some_paths_holds_paths_into_the_submodule_too(repo: Repo, run: Run, tmp_path: Path) -> None:
    root = _with_submodule(repo, tmp_path, {"scripts/deploy.sh": "ansible-playbook hosts/pug/site.yml\n"})
    assert run(root, "sweep", "--commit", "scripts").exit_code == 1
    assert (root / "scripts/deploy.sh").read_text() == "ansible-playbook hosts/pug/site.yml\n"


def test_a_kept_path_named_exactly_like_a_moving_host_is_warned_of(repo: Repo, run: Run) -> None:
    """Break-it round 17, #21 (onedr0p/home-ops): `keep_paths` on `talos/nodes/controlplane/k8s-0.yaml.j2`
    while `k8s-0 -> k8s-3`: a justfile finds node files by `{{ node }}`, so the kept file is found by
    no name the rename leaves. Named exactly like the host (a folder, a file's stem before its
    extensions, the FQDN) it is warned of in the dry run and the commit, and audit's note says why; a
    derived name (`pug-backup.sh`) is no path of the host's."""
    files = {"talos/nodes/pug.yaml.j2": "hostname: pug\n", "hosts/pug/app.conf": "x=1\n",
             "dns/pug.lab.lan.zone": "x\n", "scripts/pug-backup.sh": "echo\n",
             "justfile": "render node:\n    minijinja-cli talos/nodes/{{ node }}.yaml.j2\n"}
    keep = "keep_paths: [talos/nodes/pug.yaml.j2, hosts/pug, dns/pug.lab.lan.zone, scripts/pug-backup.sh]\n"
    root = repo(files, config=CONFIG, allowlist=ALLOW + keep)
    warned = ["talos/nodes/pug.yaml.j2: pug -> wolf", "hosts/pug/app.conf: pug -> wolf",
              "dns/pug.lab.lan.zone: pug.lab.lan -> wolf.lab.lan"]
    for args in (("--dry-run",), ("--commit",)):
        done = run(root, "sweep", *args)
        assert done.exit_code == 0
        shown = done.stdout.split("Warning: kept paths named exactly like a host the rename moves (3;")[1]
        listed = [line.strip() for line in shown.splitlines()[1:] if line.startswith("  ")]
        assert sorted(listed) == sorted(warned), args
    assert (root / "talos/nodes/pug.yaml.j2").read_text() == "hostname: wolf\n"
    notes = {f["path"]: f["note"] for f in _findings(run, root, "audit") if f.get("role") == "path"}
    assert "named exactly like pug" in str(notes["talos/nodes/pug.yaml.j2"])
    assert "scripts/pug-backup.sh" not in notes
