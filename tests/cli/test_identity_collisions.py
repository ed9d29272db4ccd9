"""Break-it round 9 #5: a rename that makes two objects one identity, where the reader keeps one
and drops the other with no error, is refused by every sweep that writes (exit 3, nothing
written, both places named), and `verify --strict` fails on it once written, whatever commit
wrote it (a renamer move, or a move by hand with `sed` and a plain commit).

The class: two compose services of one `container_name` (docker refuses the second container),
two Kubernetes objects of one API group, kind, namespace and name in one file (`kubectl apply`
overwrites the first with the second), two nginx server blocks of one parent answering one
`server_name` on one listen (nginx: "conflicting server name", the second ignored), a top-level
label twice across the files of one config directory (`include conf.d/*.conf`: "duplicate
upstream"; HAProxy's numbered fragments: two `backend wolf`), two entries of one `host_vars/` or
`group_vars/` name (`wolf.yml` beside `wolf/` or `wolf.yaml`: Ansible reads one). A new value
that merely stands elsewhere (another namespace, another listen, an Ansible list of records) is
still only a warning.

A Kubernetes object's name is an identity (tests/cli/test_kube_identities.py): a plain sweep leaves
it, a residual, so nothing collides; these sweeps move identities (`--allow-identity`) and the
collision is what stops them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.testing.repos import PUG_ALLOW, PUG_CONFIG, git

SVC = "apiVersion: v1\nkind: Service\nmetadata: {{name: {a}, namespace: {na}}}\n"

# path -> (text, the line the refusal names), for pug -> wolf, pug.ana.lan -> wolf.fv.lan
IDENTITIES: dict[str, tuple[str, int]] = {
    "compose.yaml": ("services:\n  a:\n    image: x\n    container_name: pug\n"
                     "  b:\n    image: y\n    container_name: wolf\n", 7),
    "k8s/svc.yaml": (SVC.format(a="pug", na="web") + "---\n" + SVC.format(a="wolf", na="web"), 7),
    "k8s/list.yaml": ("apiVersion: v1\nkind: List\nitems:\n"
                      "- {apiVersion: apps/v1, kind: Deployment, metadata: {name: pug}}\n"
                      "- {apiVersion: apps/v1, kind: Deployment, metadata: {name: wolf}}\n", 5),
    "nginx/site.conf": ("server {\n  listen 80;\n  server_name pug.ana.lan;\n}\n"
                        "server {\n  server_name wolf.fv.lan;\n}\n", 6),  # no listen: port 80
}
# Files of one config directory (a collision across two of them, named at the standing one).
DIRECTORIES: dict[str, str] = {
    "nginx/nginx.conf": "events {}\nhttp {\n  include conf.d/*.conf;\n}\n",
    "nginx/conf.d/a.conf": "upstream pug { server 10.0.0.5:80; }\n",
    "nginx/conf.d/b.conf": "upstream wolf { server 10.9.9.9:80; }\n",
    "haproxy/10-a.cfg": "backend pug\n  server s 10.0.0.5:80\n",
    "haproxy/20-b.cfg": "backend wolf\n  server s 10.9.9.9:80\n",
    # (namespace db: k8s/svc.yaml's Service pug in web, refused, holds every Service pug of web)
    "deploy/a.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: pug\n  namespace: db\n",
    "deploy/b.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: wolf\n  namespace: db\n",
}
VARS: dict[str, str] = {
    "inventory/hosts": "[web]\npug\nwolf\n",
    "inventory/host_vars/pug.yml": "ansible_host: 10.0.0.5\nonly_pug: 1\n",
    "inventory/host_vars/wolf/main.yml": "ansible_host: 10.9.9.9\n",
    "inventory/group_vars/pug.yml": "a: 1\n",
    "inventory/group_vars/wolf.yaml": "b: 1\n",
}


def _repo(repo, files: dict[str, str], config: str = PUG_CONFIG) -> Path:
    root: Path = repo({"renamer.yaml": config, "allow.yaml": PUG_ALLOW, **files}, config=None, allowlist=None)
    return root


def _everything() -> dict[str, str]:
    return {**{p: t for p, (t, _) in IDENTITIES.items()}, **DIRECTORIES, **VARS}


def test_each_identity_is_refused_naming_both_places_and_nothing_is_written(repo, run) -> None:
    root = _repo(repo, _everything())
    head = git(root, "rev-parse", "HEAD")
    dry = run(root, "sweep", "--allow-identity", "--dry-run", "--format", "summary")
    assert dry.exit_code == 0
    refused = dry.stdout[dry.stdout.index("Refused:"):]
    for path, (_, line) in IDENTITIES.items():
        assert f"\n  {path}:{line}: after the rename " in refused, path
    assert ("two compose services have container_name 'wolf' (lines 4, 7): a renamed object would collide "
            "with an existing one") in refused
    assert "two Kubernetes Service objects in namespace 'web' are named 'wolf' (lines 3, 7)" in refused
    assert "two Kubernetes Deployment.apps objects (no namespace given) are named 'wolf' (lines 4, 5)" in refused
    assert "the server_name 'wolf.fv.lan' would stand twice among its siblings (lines 3, 6)" in refused
    assert ("  nginx/conf.d/b.conf:1: the block 'upstream wolf' would stand twice in one config directory, "
            "whose files are read as one (nginx/conf.d/a.conf:1, nginx/conf.d/b.conf:1)") in refused
    assert ("  haproxy/20-b.cfg:1: the section 'backend wolf' would stand twice in one config directory, "
            "whose files are read as one (haproxy/10-a.cfg:1, haproxy/20-b.cfg:1)") in refused
    assert ("  deploy/b.yaml:4: after the rename two Kubernetes Service objects in namespace 'db' are named "
            "'wolf' in one folder, which `kubectl apply -f` applies as one (deploy/a.yaml:4, deploy/b.yaml:4)"
            ) in refused
    assert ("  inventory/host_vars/pug.yml: renaming it to inventory/host_vars/wolf.yml beside "
            "inventory/host_vars/wolf/ would give two entries one name: Ansible reads wolf's variables from "
            "one of them and drops the other's") in refused
    assert ("  inventory/group_vars/pug.yml: renaming it to inventory/group_vars/wolf.yml beside "
            "inventory/group_vars/wolf.yaml would give two entries one name") in refused
    for args in (["sweep", "--allow-identity", "--commit"], ["sweep", "--allow-identity"]):
        done = run(root, *args)
        assert done.exit_code == 3, done.stderr
        assert "nothing written" in done.stderr
        for path in [*IDENTITIES, "nginx/conf.d/b.conf", "haproxy/20-b.cfg", "deploy/b.yaml",
                     "inventory/host_vars/pug.yml"]:
            assert f"{path}:" in done.stderr, path
        assert git(root, "rev-parse", "HEAD") == head and git(root, "status", "--porcelain") == ""
    assert all((root / path).read_text() == text for path, text in _everything().items())


DEP = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {0}\nspec:\n  selector: {{matchLabels: {{app: {0}}}}}\n"
       "  template:\n    metadata: {{labels: {{app: {0}}}}}\n    spec: {{containers: [{{name: c, image: nginx}}]}}\n")
INVENTORY_AND_KUSTOMIZE: dict[str, tuple[dict[str, str], str]] = {
    "inventory-yaml-two-groups": ({"inv/hosts.yml": "all:\n  children:\n    web:\n      hosts:\n        pug:\n"
                                                    "          ansible_host: 10.0.0.5\n    db:\n      hosts:\n"
                                                    "        wolf:\n          ansible_host: 10.9.9.9\n"},
                                  "inv/hosts.yml:9"),
    "inventory-yaml-all-hosts-and-a-child": ({"hosts.yaml": "all:\n  hosts:\n    wolf:\n  children:\n    web:\n"
                                                             "      hosts:\n        pug:\n"}, "hosts.yaml:3"),
    "inventory-ini-two-groups": ({"inv/hosts.ini": "[web]\npug ansible_host=10.0.0.5\n\n[db]\n"
                                                   "wolf ansible_host=10.9.9.9\n"}, "inv/hosts.ini:5"),
    "inventory-ini-ungrouped-and-a-group": ({"inventory": "wolf\n\n[web]\npug\n"}, "inventory:1"),
    "kustomize-two-folders": ({"k8s/pug.yaml": DEP.format("pug"), "k8s/db/deploy.yaml": DEP.format("wolf"),
                               "k8s/kustomization.yaml": "resources:\n  - pug.yaml\n  - db/deploy.yaml\n"},
                              "k8s/db/deploy.yaml:4"),
    "kustomize-one-folder": ({"kust/kustomization.yaml": "resources: [a.yaml, b.yaml]\n",
                              "kust/a.yaml": SVC.format(a="pug", na="web"), "kust/b.yaml": SVC.format(a="wolf", na="web")},
                             "kust/b.yaml:3"),
    "kustomize-a-base-folder": ({"app/base/kustomization.yaml": "resources: [dep.yaml]\n",
                                 "app/base/dep.yaml": DEP.format("wolf"), "app/extra.yaml": DEP.format("pug"),
                                 "app/kustomization.yaml": "resources:\n  - base\n  - extra.yaml\n"},
                                "app/base/dep.yaml:4"),
}
VARIANTS: dict[str, tuple[dict[str, str], str]] = {
    "compose-flow": ({"stack/compose.yml": "services:\n  a: {image: x, container_name: wolf}\n"
                                           "  b: {image: y, container_name: pug}\n"}, "stack/compose.yml:2"),
    "k8s-api-group": ({"k8s/two.yaml": "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n"
                                       "  name: wolf\n  namespace: web\n---\napiVersion: networking.k8s.io/v1\n"
                                       "kind: Ingress\nmetadata:\n  namespace: web\n  name: pug\n"},
                      "k8s/two.yaml:5"),
    "k8s-cluster-scoped": ({"k8s/ns.yaml": "apiVersion: v1\nkind: Namespace\nmetadata: {name: pug}\n---\n"
                                           "apiVersion: v1\nkind: Namespace\nmetadata: {name: wolf, namespace: x}\n"},
                           "k8s/ns.yaml:7"),
    "nginx-listen-spellings": ({"conf/http.conf": "http {\n  server {\n    listen 0.0.0.0:8080 default_server;\n"
                                                  "    server_name a pug.ana.lan;\n  }\n  server {\n"
                                                  "    listen *:8080;\n    server_name wolf.fv.lan;\n  }\n}\n"},
                               "conf/http.conf:8"),
    "nginx-sites-enabled": ({"nginx/sites-enabled/a.conf": "server {\n  server_name pug.ana.lan;\n}\n",
                             "nginx/sites-enabled/b.conf": "server {\n  listen 80;\n  server_name wolf.fv.lan;\n}\n"},
                            "nginx/sites-enabled/b.conf:3"),
    "nginx-include-glob": ({"nginx/nginx.conf": "events {}\nhttp {\n  include /etc/nginx/sites/*.conf;\n}\n",
                            "nginx/sites/a.conf": "upstream pug { server 10.0.0.5:80; }\n",
                            "nginx/sites/b.conf": "upstream wolf { server 10.9.9.9:80; }\n"},
                           "nginx/sites/b.conf:1"),
    "host-vars-folder-beside-a-file": ({"host_vars/pug/main.yml": "ansible_host: 10.0.0.5\n",
                                        "host_vars/wolf.yml": "ansible_host: 10.9.9.9\n"}, "host_vars/pug/"),
    "host-vars-bare-name": ({"host_vars/pug.yaml": "ansible_host: 10.0.0.5\n",
                             "host_vars/wolf": "ansible_host: 10.9.9.9\n"}, "host_vars/pug.yaml"),
    # Break-it round 16, #8: an inventory's host is one identity across its groups, and a
    # kustomization's resources one set of objects wherever they stand.
    **INVENTORY_AND_KUSTOMIZE,
}


@pytest.mark.parametrize("case", sorted(VARIANTS))
def test_variants_of_one_identity_are_refused(repo, run, case) -> None:
    files, named = VARIANTS[case]
    root = _repo(repo, files)
    done = run(root, "sweep", "--allow-identity", "--commit")
    assert done.exit_code == 3, done.stdout
    assert f"{named}: " in done.stderr and "nothing written" in done.stderr
    assert git(root, "status", "--porcelain") == ""


def test_identities_that_stay_apart_are_swept_with_a_warning_at_most(repo, run) -> None:
    """Another namespace, another kind or API group, another listen, two compose files, a folder
    that is no config directory, manifests in two folders or in a kustomization's (kustomize
    refuses the duplicate itself), one object declared twice on purpose (two patches of `pug`:
    still one identity), a host_vars name that only starts alike, an Ansible list of records (a
    name twice may be round-robin: a warning, break-it co5): rewritten and committed, and
    `verify --strict` passes after."""
    files = {
        "k8s-ns/ns.yaml": SVC.format(a="pug", na="web") + "---\n" + SVC.format(a="wolf", na="db"),
        "k8s-kinds/kinds.yaml": ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: pug, namespace: web}\n---\n"
                           + SVC.format(a="wolf", na="web")),
        "k8s-groups/groups.yaml": ("apiVersion: example.com/v1\nkind: Service\nmetadata: {name: pug, namespace: web}\n"
                            "---\n" + SVC.format(a="wolf", na="web")),
        "nginx/ports.conf": ("server {\n  listen 8080;\n  server_name pug.ana.lan;\n}\n"
                             "server {\n  listen 80;\n  server_name wolf.fv.lan;\n}\n"),
        "nginx/nested.conf": ("http {\n  server {\n    server_name pug.ana.lan;\n  }\n}\n"
                              "stream {\n  server {\n    server_name wolf.fv.lan;\n  }\n}\n"),
        "a/compose.yaml": "services:\n  a: {image: x, container_name: pug}\n",
        "b/compose.yaml": "services:\n  b: {image: y, container_name: wolf}\n",
        "configs/a.conf": "upstream pug { server 10.0.0.5:80; }\n",
        "configs/b.conf": "upstream wolf { server 10.9.9.9:80; }\n",
        "conf.d/a.conf": "server { listen 80; server_name x; location / { proxy_pass http://pug; } }\n",
        "conf.d/b.conf": "server { listen 80; server_name y; location / { proxy_pass http://wolf; } }\n",
        "host_vars/pug.yml": "ansible_host: 10.0.0.5\n",
        "host_vars/wolfram/main.yml": "ansible_host: 10.9.9.9\n",
        "kust/kustomization.yaml": "resources: [a.yaml]\npatches:\n  - path: b.yaml\n",  # a patch: no resource
        "kust/a.yaml": SVC.format(a="pug", na="web"),
        "kust/b.yaml": SVC.format(a="wolf", na="web"),
        "inv/hosts.ini": "[web]\npug\n\n[db]\npug\nrex\n",  # one host in two groups stays one
        "inv/hosts.yml": "all:\n  children:\n    web:\n      hosts:\n        pug:\n    db:\n      hosts:\n"
                         "        pug:\n        wolfram:\n",
        "web/a.yaml": SVC.format(a="pug", na="web"),
        "db/b.yaml": SVC.format(a="wolf", na="web"),
        "patches.yaml": ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: pug}\nspec: {replicas: 2}\n---\n"
                         "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: pug}\nspec: {paused: true}\n"),
        "vars.yml": "local_dns:\n  - {name: pug.ana.lan, ip: 10.0.0.5}\n  - {name: wolf.fv.lan, ip: 10.9.9.9}\n",
    }
    root = _repo(repo, files)
    dry = run(root, "sweep", "--allow-identity", "--dry-run", "--format", "summary")
    assert "Refused:" not in dry.stdout, dry.stdout
    assert "vars.yml:3:12 [local_dns[1].name]: warning: collision: wolf.fv.lan is already here" in dry.stdout, dry.stdout
    done = run(root, "sweep", "--allow-identity", "--commit")
    assert done.exit_code == 0, done.stderr
    assert (root / "host_vars/wolf.yml").exists() and (root / "conf.d/a.conf").read_text().count("wolf") == 1
    assert git(root, "status", "--porcelain") == ""
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 0, strict.stdout


def _by_hand(root: Path, files: dict[str, str], message: str) -> None:
    """The move as `sed` and `git mv` would make it, committed with `message`."""
    for path, text in files.items():
        (root / path).write_text(text.replace("pug.ana.lan", "wolf.fv.lan").replace("pug", "wolf")
                                 .replace("10.0.0.5", "10.1.0.5"))
    for path in files:
        if "/pug" in path:
            git(root, "mv", path, path.replace("/pug", "/wolf"))
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


@pytest.mark.parametrize("message", ["cutover", "pug-move: pug -> wolf\n\nRenamer-Move: pug-move\n"
                                                 "Renamer-Commit: rewrite"], ids=["by-hand", "recorded"])
def test_verify_strict_fails_on_each_identity_once_written(repo, run, message) -> None:
    """Written by hand and committed as `cutover` (no commit of the move is recorded: each file is
    compared with itself, each new value's places spelled apart) or as a renamer move committed
    before this check (compared with the commit before the move): `verify --strict` fails naming
    each; plain verify warns."""
    config = PUG_CONFIG.replace("version: 1\n", "version: 1\nname: pug-move\n")
    files = _everything()
    root = _repo(repo, files, config)
    _by_hand(root, files, message)
    plain = run(root, "verify")
    assert plain.exit_code == 0, plain.stdout
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    errors = sorted(line.split(": error:")[0] for line in strict.stdout.splitlines() if ": error: collision: " in line)
    assert errors == ["compose.yaml:7:1", "deploy/b.yaml:4:1", "haproxy/20-b.cfg:1:1", "inventory/group_vars/wolf",
                      "inventory/host_vars/wolf", "inventory/hosts:3:1", "k8s/list.yaml:5:1", "k8s/svc.yaml:7:1",
                      "nginx/conf.d/b.conf:1:1", "nginx/site.conf:6:1"], strict.stdout
    assert ("inventory/host_vars/wolf: error: collision: inventory/host_vars/wolf.yml and "
            "inventory/host_vars/wolf/ both hold wolf's variables: Ansible reads one of them and drops "
            "the other's") in strict.stdout
    if message == "cutover":
        assert "two siblings share wolf, the name this move gives pug; rename one by hand" in strict.stdout
    else:
        assert "beside the wolf that stood here before its first commit" in strict.stdout
    # each renamed apart by hand: nothing left to fail on
    for path in ("compose.yaml", "k8s/svc.yaml", "k8s/list.yaml", "nginx/conf.d/a.conf", "haproxy/10-a.cfg",
                 "inventory/hosts", "deploy/a.yaml"):
        text = (root / path).read_text()
        (root / path).write_text(text.replace("wolf", "rex", 1))
    (root / "nginx/site.conf").write_text((root / "nginx/site.conf").read_text().replace("wolf", "rex", 1))
    git(root, "mv", "inventory/host_vars/wolf.yml", "inventory/host_vars/rex.yml")
    git(root, "mv", "inventory/group_vars/wolf.yml", "inventory/group_vars/rex.yml")
    git(root, "commit", "-qam", "rex")
    again = run(root, "verify", "--strict")
    assert again.exit_code == 0, again.stdout


def test_ansible_drops_one_of_two_entries_of_one_name(repo, run, tmp_path) -> None:
    """The real reader: after the move by hand, `ansible-inventory --host wolf` loses pug's own
    variable (it reads the folder and drops the file), and `group_vars/wolf.yaml`'s `b`; the
    sweep refuses both renames, so nothing of this is ever written by renamer."""
    inventory = Path(sys.executable).with_name("ansible-inventory")
    assert inventory.exists(), "ansible-core is a test dependency"
    files = {"inventory/hosts": "[wolf]\nwolf\n", **{p: t for p, t in VARS.items() if p != "inventory/hosts"}}
    root = _repo(repo, files)
    assert run(root, "sweep", "--allow-identity", "--commit").exit_code == 3
    _by_hand(root, {p: t for p, t in files.items() if p != "inventory/hosts"}, "cutover")
    shown = subprocess.run([str(inventory), "-i", str(root / "inventory/hosts"), "--host", "wolf"],
                           capture_output=True, text=True, check=True, timeout=120,
                           env={**os.environ, "ANSIBLE_LOCAL_TEMP": str(tmp_path / "tmp"),
                                "ANSIBLE_HOME": str(tmp_path / "home")})
    variables = json.loads(shown.stdout)
    assert variables["ansible_host"] == "10.9.9.9" and "only_pug" not in variables and "b" not in variables
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize("case", sorted(INVENTORY_AND_KUSTOMIZE))
def test_verify_strict_fails_on_two_hosts_or_resources_made_one_once_written(repo, run, case) -> None:
    """Break-it round 16, #8: the dry run warned, `sweep --commit` wrote them with exit 0 and
    `verify --strict` said OK. Written by hand now (the sweep refuses them), strict verify fails."""
    files, _ = INVENTORY_AND_KUSTOMIZE[case]
    root = _repo(repo, files)
    assert run(root, "sweep", "--allow-identity", "--commit").exit_code == 3
    _by_hand(root, files, "cutover")
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1, strict.stdout
    assert ": error: collision: " in strict.stdout, strict.stdout
