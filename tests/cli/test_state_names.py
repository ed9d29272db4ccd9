"""Names that key state outside the repo, end to end (break-it round 10, finding 4).

A compose project's name (its folder where it declares named volumes, `name:`,
COMPOSE_PROJECT_NAME, `-p`), a compose volume's `name:`, a StatefulSet's and a helmfile release's
name: renamed, the next `docker compose up` or apply starts empty beside the old (a
StatefulSet's is an `identity`: tests/cli/test_kube_identities.py). Residuals
`state-name` (a folder held whole); the rest of each file still follows.
"""

from __future__ import annotations

import json

from tests.testing.findings import places
from tests.testing.repos import CURRENT_ALL, Repo, Run, git

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.lab.lan: wolf.lab.lan}
allowlist: allow.yaml
"""
VOLUMES = ("services:\n  db:\n    image: postgres:16\n    hostname: pug\n    volumes: [pgdata:/var/lib/postgresql/data]\n"
           "volumes:\n  pgdata: {}\n")


def test_compose_project_names_are_held_and_the_rest_follows(repo: Repo, run: Run) -> None:
    files = {
        "hosts/pug/compose.yaml": VOLUMES,
        "hosts/pug/nginx.conf": "server_name pug.lab.lan;\n",
        "stacks/app/compose.yaml": "name: pug\nservices:\n  app:\n    image: nginx\n    hostname: pug\n"
                                   "    volumes: [appdata:/data]\nvolumes:\n  appdata: {}\n"
                                   "  logs:\n    name: pug\n    external: true\n",
        "stacks/app/.env": "COMPOSE_PROJECT_NAME=pug\nUPSTREAM=pug.lab.lan\n",
        "deploy.sh": "docker compose -p pug up -d\ndocker-compose --project-name=pug ps\nssh pug true\n",
        "k8s/db.yaml": "apiVersion: apps/v1\nkind: Service\nmetadata:\n  name: pug\n---\n"
                       "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: pug\n  labels: {app: pug}\n"
                       "spec:\n  serviceName: pug\n",
        "helmfile.yaml": "releases:\n  - name: pug\n    chart: bitnami/postgresql\n    values:\n"
                         "      - host: pug.lab.lan\n",
        # these move: bind mounts only (no named volume), or a project pinned by `name:` / `.env`
        "stacks/pug/compose.yml": "services:\n  app:\n    hostname: pug\n    volumes: [./data:/data]\n",
        "pinned/pug/compose.yaml": "name: web\n" + VOLUMES,
        "envpinned/pug/compose.yaml": VOLUMES,
        "envpinned/pug/.env": "COMPOSE_PROJECT_NAME=web\n",
    }
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    done = run(root, "verify", "--format", "json")
    assert done.exit_code == 1
    held = {(f["path"], f["line"]) for f in json.loads(done.stdout)["findings"] if f.get("reason") == "state-name"}
    assert held == {("hosts/pug/compose.yaml", 0), ("hosts/pug/nginx.conf", 0), ("stacks/app/compose.yaml", 1),
                    ("stacks/app/compose.yaml", 10), ("stacks/app/.env", 1), ("deploy.sh", 1), ("deploy.sh", 2),
                    ("helmfile.yaml", 2)}
    # a StatefulSet's name, its serviceName and a Service's name: Kubernetes identities (test_kube_identities.py)
    assert places(root, run, "identity") == [("k8s/db.yaml", 4), ("k8s/db.yaml", 9), ("k8s/db.yaml", 12)]
    notes = "\n".join(f["note"] for f in json.loads(done.stdout)["findings"] if f.get("reason") == "state-name")
    assert "its named volumes (`pug_pgdata`) are created anew, empty" in notes
    # each note's advice fits its state: compose volumes for a compose name, the release for Helm's
    by_place = {(f["path"], f["line"]): f["note"] for f in json.loads(done.stdout)["findings"]
                if f.get("reason") == "state-name"}
    assert "copy each volume" in by_place[("hosts/pug/compose.yaml", 0)]
    assert "copy each volume" in by_place[("deploy.sh", 1)]
    assert "second release" in by_place[("helmfile.yaml", 2)]
    assert "copy each volume" not in by_place[("helmfile.yaml", 2)]
    assert run(root, "sweep", "--commit").exit_code == 1  # left for a decision, the rest applied
    # the folder is held whole (its nginx.conf too), its contents follow
    assert (root / "hosts/pug/compose.yaml").read_text() == VOLUMES.replace("hostname: pug", "hostname: wolf")
    assert (root / "hosts/pug/nginx.conf").read_text() == "server_name wolf.lab.lan;\n"
    assert not (root / "hosts/wolf").exists()
    app = (root / "stacks/app/compose.yaml").read_text()
    assert app.startswith("name: pug\n") and "hostname: wolf" in app and "    name: pug\n" in app
    assert (root / "stacks/app/.env").read_text() == "COMPOSE_PROJECT_NAME=pug\nUPSTREAM=wolf.lab.lan\n"
    assert (root / "deploy.sh").read_text() == files["deploy.sh"].replace("ssh pug", "ssh wolf")
    k8s = (root / "k8s/db.yaml").read_text()
    assert k8s == files["k8s/db.yaml"].replace("app: pug", "app: wolf")
    assert (root / "helmfile.yaml").read_text() == files["helmfile.yaml"].replace("host: pug", "host: wolf")
    assert (root / "stacks/wolf/compose.yml").exists() and not (root / "stacks/pug").exists()
    assert (root / "pinned/wolf/compose.yaml").exists() and (root / "envpinned/wolf/.env").exists()
    # decided: the old project pinned by `name:` lets the folder move; the rest kept by rules
    (root / "hosts/pug/compose.yaml").write_text("name: pug\n" + (root / "hosts/pug/compose.yaml").read_text())
    (root / "allow.yaml").write_text(
        CURRENT_ALL + "keep:\n  - {name: data, path: '**', line_contains: pug, reason: moved with the data later}\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "pin the project")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "hosts/wolf/compose.yaml").read_text().startswith("name: pug\n")
    assert run(root, "verify").exit_code == 0


def test_an_object_store_key_is_held_and_a_composed_name_left_with_derived_names_off(repo: Repo, run: Run) -> None:
    """break-it t26-32, finding 10 (bdruth/homelab-infra, `pihole -> sinkhole`): a data source's
    S3 object key (`pihole/pi-hole-teleporter.zip`, written by a service outside the repo) was
    rewritten, and `"pihole-${var.pihole_suffix}"` (the hosts pihole-blue, pihole-green, which
    `derived_names: false` leaves) was rewritten while the literal `pug-blue` was left."""
    main = ('variable "suffix" {\n  default = "blue"\n}\nresource "terraform_data" "lxc" {\n'
            '  input = "pug-${var.suffix}"\n  triggers_replace = ["pug-blue", "pug-{{ suffix }}"]\n}\n'
            'data "aws_s3_object" "backup" {\n  bucket = "b"\n  key    = "pug/pi-hole-teleporter.zip"\n}\n'
            'resource "google_storage_bucket_object" "o" {\n  bucket = "b"\n  name   = "pug/x"\n  source = "pug.txt"\n}\n'
            'output "host" {\n  value = "pug.lab.lan"\n}\n')
    root = repo({"main.tf": main}, config=CONFIG, allowlist=CURRENT_ALL)
    assert places(root, run, "state-name") == [("main.tf", 10), ("main.tf", 14)]
    assert run(root, "sweep", "--commit").exit_code == 1  # left for a decision, the rest applied
    assert (root / "main.tf").read_text() == main.replace('"pug.lab.lan"', '"wolf.lab.lan"').replace(
        '"pug.txt"', '"wolf.txt"')
