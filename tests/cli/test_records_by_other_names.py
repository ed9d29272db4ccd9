"""Records spelled otherwise (issue 27, t35-sweep findings 10-17, 19): changelogs, incident notes,
shell histories, logs, saved tool output, editor copies and `.mailmap` under the names teams give them
are kept by records-common; records inside a current file (a notebook's outputs, an RPM spec's
%changelog, dated rows, saved tool output under any name) are kept line by line (record_spans.py)
while the file's live lines follow; `init` names a record class for a dot folder it can load."""

from __future__ import annotations

import json

from tests.testing.repos import Repo, Run, git, init_and_commit

CONFIG = """\
version: 1
cutover: 2026-01-01
renames:
  hosts: {web01: app01, web01.lab.example: app01.lab.example}
  addresses: {10.0.0.70: 10.0.1.90}
allowlist: allow.yaml
"""
ALLOW = ("version: 1\nextends: [records-common]\ncurrent: [\"**\"]\ndated:\n  filenames: true\n"
         "  sections: ['^#{1,6}\\s+\\[?(?P<date>\\d{4}-\\d{2}-\\d{2})']\n")
LIVE = {"hosts.ini": "[web]\nweb01 ansible_host=10.0.0.70\n"}
NOTE = "At 03:12 web01 (10.0.0.70) stopped answering.\n"
ENTRY = "* 2025-03-01: app moved to web01 (10.0.0.70)\n"
BY_NAME = {
    # changelogs in any case and format (finding 10)
    "debian/changelog": ("app (1.2) bookworm; urgency=low\n\n  * Point at web01 (10.0.0.70).\n\n"
                         " -- Ops <ops@example.org>  Sat, 01 Mar 2025 10:00:00 +0000\n"),
    "Changelog.md": ENTRY, "changes.txt": ENTRY, "pkg/changelog.rst": ENTRY, "RELEASE_NOTES.md": ENTRY,
    "docs/release-notes/1.2.md": ENTRY, "Release-Notes.txt": ENTRY, "NEWS": ENTRY,
    # incident notes in folders by other names (finding 11)
    "incident-reports/disk.md": NOTE, "outages/2025-q1.md": NOTE, "rca/web.md": NOTE,
    "Incidents/x.md": NOTE, "docs/post-mortem/y.md": NOTE, "ops/incident_reports/z.txt": NOTE,
    # shell and REPL histories (finding 12)
    ".bash_history": "ssh web01\nping 10.0.0.70\n", ".zsh_history": ": 1735689600:0;ssh web01\n",
    "ops/.python_history": "socket.gethostbyname('web01')\n", ".psql_history": "\\c -h web01 app\n",
    ".viminfo": ":%s/web01/web02/g\n", ".lesshst": "?web01\n", "ops/.node_repl_history": "dns('web01')\n",
    ".mysql_history": "-- web01\n",
    # logs and captured output (finding 13)
    "ansible.log": "ok: [web01] => {\"ansible_host\": \"10.0.0.70\"}\n", "logs/backup-run.log": NOTE,
    "nohup.out": NOTE, "site.retry": "web01\n", "app.log.1": NOTE,
    # saved tool output by its name (finding 14)
    "scans/lab.gnmap": "Host: 10.0.0.70 (web01) Status: Up\n", "alerts.mbox": NOTE,
    # editor copies (finding 16): Emacs' auto-save, VS Code's Local History, temp saves
    "#hosts.ini#": LIVE["hosts.ini"], ".history/inventory/hosts_20250301101500.ini": LIVE["hosts.ini"],
    "hosts.ini.tmp": LIVE["hosts.ini"],
    # Jupyter's own copies (finding 15)
    ".ipynb_checkpoints/check-checkpoint.ipynb": '{"cells": [], "note": "web01"}\n',
}
EXCLUDED = {"hosts.ini.kate-swp": "web01 10.0.0.70\n", ".~lock.hosts.ods#": "web01\n"}


def _swept(text: str) -> str:
    return (text.replace("web01.lab.example", "app01.lab.example").replace("web01", "app01")
            .replace("10.0.0.70", "10.0.1.90"))


def test_records_by_other_names_are_kept_and_audited(repo: Repo, run: Run) -> None:
    root = repo({**LIVE, **BY_NAME, **EXCLUDED}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "hosts.ini").read_text() == _swept(LIVE["hosts.ini"])
    for rel, text in {**BY_NAME, **EXCLUDED}.items():
        assert (root / rel).read_text() == text, rel
    assert run(root, "verify").exit_code == 0
    # swap and lock files are excluded like `*.swp`: never read, so --strict names them for a person
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    assert "2 current-state places not read" in strict.stdout, strict.stdout
    assert all(rel in strict.stdout for rel in EXCLUDED), strict.stdout
    audit = json.loads(run(root, "audit", "--format", "json").stdout)["references"]
    kept = {r["path"]: r["reason"] for r in audit if r["status"] == "kept"}
    assert set(BY_NAME) <= set(kept), set(BY_NAME) - set(kept)
    expected = {"debian/changelog": "changelogs", "rca/web.md": "incidents", ".viminfo": "histories",
                "nohup.out": "logs", "alerts.mbox": "tool-output", "#hosts.ini#": "editor-copies",
                ".history/inventory/hosts_20250301101500.ini": "editor-copies",
                ".ipynb_checkpoints/check-checkpoint.ipynb": "notebook-checkpoints"}
    assert {rel: kept[rel] for rel in expected} == expected


def test_the_same_names_as_live_configuration_still_follow(repo: Repo, run: Run) -> None:
    """The patterns are names, not words in them: a role about logs, a changelog generator's script,
    a history-named variable file, an `rca` word inside a name are current."""
    live = {"roles/logs/tasks/main.yml": "- debug: msg=web01\n", "bin/changelog-gen.sh": "HOST=web01\n",
            "vars/history_host.yml": "host: web01\n", "rcache/hosts": "10.0.0.70 web01\n",
            "logging.conf": "host = web01\n", "notes.tmpl": "web01\n"}
    root = repo({**LIVE, **live}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    for rel, text in live.items():
        assert (root / rel).read_text() == _swept(text), rel


NOTEBOOK = {"cells": [{"cell_type": "code", "execution_count": 1, "metadata": {},
                       "source": ["!ping -c1 web01\n"],
                       "outputs": [{"output_type": "stream", "name": "stdout",
                                    "text": ["PING web01 (10.0.0.70) 56(84) bytes of data.\n",
                                             "64 bytes from web01 (10.0.0.70): icmp_seq=1 time=0.31 ms\n"]}]},
                      {"cell_type": "markdown", "metadata": {}, "source": ["Serve from web01\n"]}],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
SPEC = ("Name: app\nVersion: 1.2\nSource0: https://web01.lab.example/app-1.2.tgz\n%description\nThe app.\n"
        "%files\n/opt/app\n%changelog\n* Sat Mar 01 2025 Ops <root@web01.lab.example> - 1.2-1\n"
        "- build on web01 (10.0.0.70)\n")
LEDGER = ("date,host,ip,action\n2025-03-01,web01,10.0.0.70,kernel upgrade\n"
          "2025-04-12,web01,10.0.0.70,disk swap\n2026-03-01,web01,10.0.0.70,planned: firmware\n")
RUN_LOG = ("2025-03-01 10:00:00,123 p=81 u=root n=ansible | ok: [web01] => {\n"
           '    "ansible_host": "10.0.0.70"\n}\n2025-03-01 10:00:02,001 p=81 u=root n=ansible | PLAY RECAP\n')
SAVED = {
    "scans/nmap-lab.xml": ('<?xml version="1.0"?>\n<nmaprun scanner="nmap" args="nmap -sV 10.0.0.0/24">\n'
                           '<host><address addr="10.0.0.70"/><hostname name="web01"/></host>\n</nmaprun>\n'),
    "scans/lab.txt": "# Nmap 7.94 scan initiated Sat Mar  1 10:00:00 2025\nNmap scan report for web01 (10.0.0.70)\n",
    "plans/plan-output.txt": ('Terraform will perform the following actions:\n\n  + resource "x" "web" {\n'
                              '      + name = "web01"\n      + ip   = "10.0.0.70"\n    }\n\nPlan: 1 to add\n'),
    "runs/deploy.out": "PLAY [web] *****************\n\nTASK [ping] ****\nok: [web01]\n",
    "ops-mail": ("From ops@example.org Sat Mar  1 10:00:00 2025\nFrom: ops@example.org\nSubject: web01 down\n\n"
                 "web01 (10.0.0.70) is not answering.\n"),
    "deploy/run.txt": RUN_LOG,
}


def test_records_inside_current_files_are_kept_line_by_line(repo: Repo, run: Run) -> None:
    files = {**LIVE, **SAVED, "check.ipynb": json.dumps(NOTEBOOK, indent=1) + "\n", "rpm/app.spec": SPEC,
             "ledger/maintenance.csv": LEDGER}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    book = json.loads((root / "check.ipynb").read_text())  # still a notebook
    assert book["cells"][0]["source"] == ["!ping -c1 app01\n"]
    assert book["cells"][1]["source"] == ["Serve from app01\n"]
    assert book["cells"][0]["outputs"] == NOTEBOOK["cells"][0]["outputs"]  # type: ignore[index]
    spec = (root / "rpm/app.spec").read_text()
    assert spec == SPEC.replace("Source0: https://web01.", "Source0: https://app01.")
    assert (root / "ledger/maintenance.csv").read_text() == LEDGER.replace(
        "2026-03-01,web01,10.0.0.70", "2026-03-01,app01,10.0.1.90")
    for rel, text in SAVED.items():
        assert (root / rel).read_text() == text, rel
    assert run(root, "verify", "--strict").exit_code == 0
    audit = json.loads(run(root, "audit", "--format", "json").stdout)["references"]
    reasons = {(r["path"], r["reason"]) for r in audit if r["status"] == "kept"}
    assert {("check.ipynb", "notebook-output"), ("rpm/app.spec", "spec-changelog"),
            ("ledger/maintenance.csv", "dated-row"), ("plans/plan-output.txt", "tool-output"),
            ("ops-mail", "tool-output"), ("deploy/run.txt", "dated-row")} <= reasons
    explained = run(root, "explain", "check.ipynb")
    assert "what a past run printed" in explained.stdout, explained.stdout


def test_mailmap_still_maps_the_history_s_authors(repo: Repo, run: Run) -> None:
    root = repo({**LIVE, ".mailmap": "Ops Team <ops@example.org> <root@web01.lab.example>\n"
                 "<admin@example.org> Root <root@10.0.0.70>\n"}, config=CONFIG, allowlist=ALLOW)
    before = git(root, "check-mailmap", "root <root@web01.lab.example>")
    assert before.strip() == "Ops Team <ops@example.org>"
    assert run(root, "sweep", "--commit").exit_code == 0
    assert git(root, "check-mailmap", "root <root@web01.lab.example>") == before
    assert git(root, "check-mailmap", "Root <root@10.0.0.70>").strip() == "Root <admin@example.org>"
    assert (root / "hosts.ini").read_text() == _swept(LIVE["hosts.ini"])


def test_init_names_a_dot_folder_s_class_and_keeps_renamed_records(repo: Repo, run: Run) -> None:
    """Finding 19: a VS Code `.history/` folder made init write the class `.history`, which its own
    loader refuses; finding 11/12/16 through init: what init proposes keeps them."""
    files = {**LIVE, ".history/inventory/hosts_20250301101500.ini": LIVE["hosts.ini"],
             "incident-reports/disk.md": NOTE, "outages/q1.md": NOTE, "rca/web.md": NOTE,
             "ops/.bash_history": "ssh web01\n", "ansible.log": NOTE, "nohup.out": NOTE,
             ".ipynb_checkpoints/c-checkpoint.ipynb": '{"cells": [], "x": "web01"}\n', "#hosts.ini#": NOTE,
             # dot folders init names for copies by itself (not in the preset): `.dumps`, `.attic`
             ".dumps/hosts.ini": LIVE["hosts.ini"], "etc/.attic/hosts.ini": LIVE["hosts.ini"]}
    root = repo(files, config=None, allowlist=None)
    init_and_commit(root, run, ["--from", "web01=app01", "--from", "10.0.0.70=10.0.1.90"])
    written = (root / "allowlists" / "app01-move.yaml").read_text()
    assert "- name: dumps\n" in written and "- name: attic\n" in written, written
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "hosts.ini").read_text() == _swept(LIVE["hosts.ini"])
    for rel, text in files.items():
        if rel != "hosts.ini":
            assert (root / rel).read_text() == text, rel
