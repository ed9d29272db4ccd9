"""A preset's folder pattern is evidence, not proof (break-it round 8, #1): records-common's
`**/backup/**`, `**/archive/**` and `**/journal/**` kept live Ansible roles named after what they do
as history, beat `current: ["**"]`, and `init` called them "History covered by the records-common
preset", so verify passed at once and the whole move was missed. A role or chart named after what it
does is live; a structurally live file below such a folder is left for a person to decide (verify
fails, naming why); a current pattern naming the folder decides it; a record class of your own, and
the preset's file-name patterns, still keep."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result
from tests.testing.repos import LAB_CONFIG, init_and_commit

CONFIG = LAB_CONFIG
ALLOW = 'version: 1\nextends: [records-common]\ncurrent: ["**"]\n'
PAIRS = ("--from", "pug=wolf", "--from", "pug.lab.lan=wolf.lab.lan", "--from", "10.0.40.11=10.0.50.21")

# The report's three roles, and variants: other role folders, a role's own files, a chart named
# after what it does, a preset folder inside a role, a role under ansible/.
LIVE = {
    "roles/backup/defaults/main.yml": 'backup_target: "sftp:restic@pug.lab.lan:/srv/restic"\n',
    "roles/archive/tasks/main.yml": "- name: push\n  command: rsync -a /data pug:/archive/\n",
    "roles/journal/templates/journal-upload.conf.j2": "[Journal]\nRemoteURL=http://10.0.40.11:19532\n",
    "roles/backups/handlers/main.yml": "- name: restart\n  command: ssh pug systemctl restart restic\n",
    "roles/archive/meta/main.yml": "galaxy_info:\n  author: pug\n",
    "roles/journal/vars/main.yml": "journal_remote: pug.lab.lan\n",
    "roles/backup/README.md": "Pushes to pug nightly.\n",
    "ansible/roles/archive/files/archive.conf": "target=pug\n",
    "roles/web/files/backup/restic.conf": "host=pug\n",
    "charts/backup/Chart.yaml": "apiVersion: v2\nname: backup\ndescription: backs up pug\nversion: 0.1.0\n",
    "charts/backup/values.yaml": "target: pug\n",
    "charts/backup/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\ndata:\n  t: pug.lab.lan\n",
}
# What the preset still keeps: notes, dated copies, a machine's file tree, a `.bak` inside a role,
# a folder of old roles' notes.
RECORDS = {
    "journal/2024-01-02.md": "2024-01-02 moved pug\n",
    "archive/notes.txt": "pug served the lab\n",
    "backups/2024-05-01/compose.yml": "services:\n  app:\n    environment: [DB=pug]\n",
    "backups/host1/etc/systemd/system/restic.service": "[Service]\nExecStart=/usr/bin/restic -r sftp:pug:/r\n",
    "roles/backup/files/restic.conf.bak": "host=pug\n",
    "roles/archive/oldrole/README.md": "old role for pug\n",
}
# Structurally live below a folder the preset names, the path cannot say copy or live.
UNDECIDED = {
    "backup/compose.yaml": "services:\n  app:\n    environment: [DB=pug]\n",
    "archive/roles/web/tasks/main.yml": "- command: ssh pug\n",
    "infra/backup/main.tf": 'locals {\n  target = "pug.lab.lan"\n}\n',
    "archive/systemd/sync.service": "[Service]\nExecStart=/usr/bin/rsync -a / pug:/srv\n",
    "journal/templates/upload.conf.j2": "URL=http://10.0.40.11\n",
    "roles/archive/oldrole/tasks/main.yml": "- command: ssh pug\n",  # a folder of roles, no role
}


def test_roles_named_after_what_they_do_are_swept(repo: Callable[..., Path],
                                                  run: Callable[..., Result]) -> None:
    root = repo({**LIVE, **RECORDS}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "verify", "--strict").exit_code == 1  # the live references are found
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    for rel, text in LIVE.items():
        after = (root / rel).read_text()
        assert "pug" not in after.replace("/archive/", "") and "10.0.40.11" not in after, (rel, after)
        assert after != text, rel
    for rel, text in RECORDS.items():
        assert (root / rel).read_text() == text, rel
    verified = run(root, "verify", "--strict")
    assert verified.exit_code == 0, verified.stdout


def test_a_structurally_live_file_below_a_preset_folder_is_undecided(repo: Callable[..., Path],
                                                                     run: Callable[..., Result]) -> None:
    root = repo(UNDECIDED, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout
    for rel, text in UNDECIDED.items():
        assert (root / rel).read_text() == text, rel  # never rewritten while undecided
    verified = run(root, "verify", "--strict")
    assert verified.exit_code == 1
    assert f"{len(UNDECIDED)} unclassified" in verified.stdout, verified.stdout
    assert "covers it only by the folder name backup/, and compose.yaml is live configuration" \
        in verified.stdout
    assert "archive/roles/web/tasks/main.yml:1:" in verified.stdout
    assert "in a tasks/ folder, an Ansible role's" in verified.stdout


def test_your_own_decision_beats_the_presets_folder_name(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    """A current pattern naming the folder (not `**`) makes it current; a record class of your own
    keeps it; a current pattern above the folder (`stacks/**`) leaves the preset's guess standing."""
    allow = ("version: 1\nextends: [records-common]\n"
             'current: ["**", "backup/**", "stacks/backup/**", "infra/**"]\n'
             "records:\n  - name: old-roles\n    paths: ['archive/**']\n    reason: archived roles\n")
    files = {**UNDECIDED, "stacks/backup/run.sh": "ssh pug\n", "stacks/archive/notes.txt": "pug\n"}
    root = repo(files, config=CONFIG, allowlist=allow)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout  # journal/ and roles/archive/oldrole/ are still undecided
    for rel in ("backup/compose.yaml", "stacks/backup/run.sh"):
        assert "wolf" in (root / rel).read_text(), rel
    for rel in ("archive/roles/web/tasks/main.yml", "archive/systemd/sync.service", "stacks/archive/notes.txt",
                "infra/backup/main.tf"):  # own class; preset over `stacks/**`; `infra/**` names no backup/
        assert (root / rel).read_text() == files[rel], rel
    verified = run(root, "verify", "--strict")
    assert "3 unclassified" in verified.stdout, verified.stdout  # journal/templates, oldrole, infra/backup


def test_init_proposes_roles_as_current_and_lists_the_undecided(repo: Callable[..., Path],
                                                                run: Callable[..., Result]) -> None:
    """The report's second run: init on the bare repo wrote `current: []` and "History covered by the
    records-common preset: 3 files"; now the roles are current, copies it can prove are records, and
    what it cannot tell is listed with why."""
    copy = {"compose.yaml": UNDECIDED["backup/compose.yaml"], "backup/compose.yaml": UNDECIDED["backup/compose.yaml"]}
    undecided = {"archive/templates/nginx.conf.j2": "server {{ x }} pug;\n"}
    root = repo({**LIVE, **RECORDS, **copy, **undecided}, config=None, allowlist=None)
    done = init_and_commit(root, run, PAIRS)
    assert f"History covered by the records-common preset: {len(RECORDS)} files" in done.stdout, done.stdout
    assert "archive/templates/nginx.conf.j2  (in archive/, which records-common's archive class names, " \
           "but in a templates/ folder" in done.stdout
    assert "Could not classify (1;" in done.stdout
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr  # the undecided template
    for rel in [*LIVE, "compose.yaml"]:
        assert "wolf" in (root / rel).read_text() or "10.0.50.21" in (root / rel).read_text(), rel
    for rel, text in {**RECORDS, **undecided, "backup/compose.yaml": copy["backup/compose.yaml"]}.items():
        assert (root / rel).read_text() == text, rel
    verified = run(root, "verify", "--strict")
    assert verified.exit_code == 1 and "1 unclassified" in verified.stdout, verified.stdout
    assert "archive/templates/nginx.conf.j2:1:" in verified.stdout


def test_init_on_the_reports_roles_alone_fails_verify_until_swept(repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    roles = {rel: LIVE[rel] for rel in list(LIVE)[:3]}
    root = repo(roles, config=None, allowlist=None)
    done = init_and_commit(root, run, PAIRS)
    assert "History covered" not in done.stdout and "roles/**" in done.stdout, done.stdout
    assert run(root, "verify").exit_code == 1  # before: OK at once, the move missed
    assert run(root, "sweep", "--commit").exit_code == 0
    verified = run(root, "verify", "--strict")
    assert verified.exit_code == 0, verified.stdout
