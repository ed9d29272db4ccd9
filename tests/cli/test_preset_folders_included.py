"""A file in records-common's `backup/` or `archive/` folder that a live file names by path (break-it
round 17, #5): nginx's `include conf.d/backup/*.conf;`, compose's `env_file: ./backup/restic.env`,
Ansible's `include_vars: archive/legacy.yml` were kept as backups/archive, verify OK. Named by an
include directive (on its line, or a YAML list's key above it; relative, absolute or globbed) it is
live and swept; named otherwise (`cp` into the folder) it is left undecided; named by a record only,
or not at all, it stays a record."""

from __future__ import annotations

import json

from tests.testing.repos import LAB_CONFIG, Repo, Run

ALLOW = 'version: 1\nextends: [records-common]\ncurrent: ["**"]\nrecords:\n  - {name: notes, paths: ["notes/**"], reason: history}\n'

INCLUDED = {
    "nginx/conf.d/backup/upstreams.conf": "upstream app_backup {\n  server pug.lab.lan:8080 backup;\n}\n",
    "stack/backup/restic.env": "RESTIC_REPOSITORY=rest:http://pug.lab.lan:8000/\n",
    "ans/archive/legacy.yml": "legacy_ntp: 10.0.40.11\n",
    "ans/archive/old.yml": "old_dns: pug.lab.lan\n",
    "stack/backups/db.env": "DB_HOST=pug\n",
    "lib/archive/env.sh": "NAS=pug.lab.lan\n",
}
LIVE = {
    "nginx/nginx.conf": "http {\n  include conf.d/backup/*.conf;\n}\n",
    "stack/compose.yaml": ("services:\n  restic:\n    image: restic/restic\n    env_file: ./backup/restic.env\n"
                           "  db:\n    image: postgres\n    env_file:\n      - backups/db.env\n"),
    "ans/site.yml": ("- hosts: all\n  vars_files:\n    - archive/old.yml\n  tasks:\n"
                     "    - include_vars: archive/legacy.yml\n"),
    "bin/run.sh": "#!/bin/sh\n. ../lib/archive/env.sh\n",
}


def test_a_file_a_live_file_includes_by_path_is_live(repo: Repo, run: Run) -> None:
    files = {**INCLUDED, **LIVE,
             "backup/copy.env": "DB_HOST=pug\n",  # a live script copies into it: undecided
             "bin/save.sh": "#!/bin/sh\ncp stack/app.env backup/copy.env\n",
             "archive/old.txt": "server pug.lab.lan;\n",  # only a note names it: a record
             "notes/2026-01.md": "see include archive/old.txt\n",
             "backup/untouched.env": "DB_HOST=pug\n",  # nothing names it: a record
             # named by a path whose end alone is the file's (the machine's path, a variable above):
             # a copy or the live file? undecided
             "apache/archive/old-vhost.conf": "ProxyPass / http://pug.lab.lan/\n",
             "apache/apache2.conf": "IncludeOptional /etc/apache2/archive/*.conf\n",
             "systemd/backup/restic.env": "RESTIC_HOST=pug\n",
             "systemd/restic.service": "[Service]\nEnvironmentFile=/opt/restic/backup/restic.env\n",
             "play/archive/vars.yml": "v: pug\n",
             "play/site.yml": "- hosts: all\n  vars_files: [\"{{ playbook_dir }}/archive/vars.yml\"]\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW)
    done = run(root, "verify", "--format", "json")
    unclassified = {f["path"] for f in json.loads(done.stdout)["findings"] if f["status"] == "unclassified"}
    assert unclassified == {"backup/copy.env", "apache/archive/old-vhost.conf", "systemd/backup/restic.env",
                            "play/archive/vars.yml"}
    explained = run(root, "explain", "stack/backup/restic.env")
    assert "stack/compose.yaml:4 includes it by its path" in explained.stdout, explained.stdout
    assert run(root, "sweep", "--commit").exit_code == 1  # the copy is left for a decision
    for rel, text in INCLUDED.items():
        swept = (root / rel).read_text()
        assert swept == text.replace("pug.lab.lan", "wolf.lab.lan").replace("10.0.40.11", "10.0.50.21").replace(
            "=pug", "=wolf"), rel
    for rel in ("backup/copy.env", "archive/old.txt", "backup/untouched.env", "apache/archive/old-vhost.conf",
                "systemd/backup/restic.env", "play/archive/vars.yml"):
        assert (root / rel).read_text() == files[rel], rel
    audit = json.loads(run(root, "audit", "--format", "json").stdout)["references"]
    kept = {r["path"] for r in audit if r["status"] == "kept"}
    assert {"archive/old.txt", "backup/untouched.env"} <= kept


def test_a_file_included_by_an_included_file_is_live_too(repo: Repo, run: Run) -> None:
    """One level deeper: nginx.conf includes `backup/main.conf`, which includes `../archive/legacy.conf`;
    a cycle of includes between two preset folders, named by no live file, stays records."""
    files = {"nginx/nginx.conf": "http {\n  include backup/main.conf;\n}\n",
             "nginx/backup/main.conf": "include ../archive/legacy.conf;\nserver pug.lab.lan;\n",
             "nginx/archive/legacy.conf": "server 10.0.40.11;\n",
             "loop/backup/a.conf": "include ../archive/b.conf;\nserver pug.lab.lan;\n",
             "loop/archive/b.conf": "include ../backup/a.conf;\nserver pug.lab.lan;\n"}
    root = repo(files, config=LAB_CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "nginx/backup/main.conf").read_text() == "include ../archive/legacy.conf;\nserver wolf.lab.lan;\n"
    assert (root / "nginx/archive/legacy.conf").read_text() == "server 10.0.50.21;\n"
    for rel in ("loop/backup/a.conf", "loop/archive/b.conf"):
        assert (root / rel).read_text() == files[rel], rel


def test_an_include_in_a_comment_names_nothing(repo: Repo, run: Run) -> None:
    """Break-it round 19, #11: a commented-out include (`# include conf.d/backup/*.conf;`, `# -
    include_vars: archive/legacy.yml`, `; conf-file=...`, `// import`, after a directive on its
    line) is no include: the file stays a record, kept and unchanged; the same directive live on
    another line still makes its file live."""
    kept = {"nginx/conf.d/backup/upstreams.conf": "upstream old { server pug.lab.lan:8080; }\n",
            "ans/archive/legacy.yml": "legacy_ntp: pug.lab.lan\n",
            "dns/backup/extra.conf": "address=/pug.lab.lan/10.0.40.11\n",
            "caddy/archive/old.caddy": "pug.lab.lan { respond 200 }\n",
            "sh/archive/env.sh": "NAS=pug.lab.lan\n"}
    live = {"web/backup/live.conf": "server pug.lab.lan:80;\n"}
    referrers = {
        "nginx/nginx.conf": "http {\n  # include conf.d/backup/*.conf;   (disabled 2025-01: failover retired)\n}\n",
        "ans/site.yml": "- hosts: all\n  tasks:\n    # - include_vars: archive/legacy.yml\n    - debug: {msg: hi}\n",
        "dns/dnsmasq.conf": ";conf-file=backup/extra.conf\nport=53\n",
        "caddy/Caddyfile": "// import archive/old.caddy\n:80 {\n}\n",
        "sh/run.sh": "#!/bin/sh\necho start  # . archive/env.sh (retired)\n",
        "web/nginx.conf": "# include backup/live.conf; (kept below)\ninclude backup/live.conf;\n",
    }
    root = repo({**kept, **live, **referrers}, config=LAB_CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    for rel, text in kept.items():
        assert (root / rel).read_text() == text, rel
    assert (root / "web/backup/live.conf").read_text() == "server wolf.lab.lan:80;\n"
    audit = json.loads(run(root, "audit", "--format", "json").stdout)["references"]
    assert set(kept) <= {r["path"] for r in audit if r["status"] == "kept"}
    assert run(root, "verify").exit_code == 0


def test_a_module_source_a_kustomize_resource_and_a_compose_extends_make_their_file_live(repo: Repo,
                                                                                          run: Run) -> None:
    """Break-it round 19, #16: Terraform's `module { source = "./archive/dns" }` (a folder read
    whole, its `main.tf` undecided by its name), a kustomization's `resources:` (a file, and a
    folder of its own kustomization), `components:`, and compose's `extends: {file: ...}` (a
    compose file, undecided by its content) left the file unclassified; each is live now. A
    folder above the preset's (`source = "./tf2"`) decides nothing below it."""
    live = {"tf/archive/dns/main.tf": 'variable "x" { default = "pug.lab.lan" }\n',
            "k8s/backup/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata: {host: pug.lab.lan}\n",
            "k8s/archive/overlay/kustomization.yaml": "resources: [cm.yaml]\n",
            "k8s/archive/overlay/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {h: pug.lab.lan}\n",
            "k8s/backup/comp/kustomization.yaml": "kind: Component\nresources: [extra.yaml]\n",
            "k8s/backup/comp/extra.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\ndata: {h: pug.lab.lan}\n",
            "comp/backup/base.yml": "services:\n  base: {image: x, environment: {UP: pug.lab.lan}}\n"}
    readers = {"tf/main.tf": 'module "dns" { source = "./archive/dns" }\n',
               "k8s/kustomization.yaml": "resources:\n  - backup/cm.yaml\n  - archive/overlay\ncomponents:\n  - backup/comp\n",
               "comp/compose.yaml": "services:\n  app:\n    extends: {file: backup/base.yml, service: base}\n",
               "tf2/main.tf": 'module "all" { source = "./" }\n'}
    kept = {"tf2/archive/old/main.tf": 'variable "x" { default = "pug.lab.lan" }\n'}
    root = repo({**live, **readers, **kept}, config=LAB_CONFIG, allowlist=ALLOW)
    for rel, by in (("comp/backup/base.yml", "comp/compose.yaml:3"), ("tf/archive/dns/main.tf", "tf/main.tf:1")):
        explained = run(root, "explain", rel)
        assert f"{by} includes it by its path" in explained.stdout, explained.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout  # the main.tf no include names: left undecided
    for rel, text in live.items():
        assert (root / rel).read_text() == text.replace("pug.lab.lan", "wolf.lab.lan"), rel
    assert (root / "tf2/archive/old/main.tf").read_text() == kept["tf2/archive/old/main.tf"]
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert {f["path"] for f in found if f["status"] == "unclassified"} == {"tf2/archive/old/main.tf"}
