"""Kubernetes manifests in other shapes, end to end (break-it round 20k, finding 7).

A `kind: List`'s items and a JSON manifest (one object, a `List`, an array of objects) are
manifests as a YAML document is: `kubectl apply -f` creates each item, so their identities
(`metadata.name`, `metadata.namespace`, the fields naming another object) are held as a YAML
document's are, and a JSON Service's short DNS names are its.
"""

from __future__ import annotations

import json

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = "version: 1\nrenames:\n  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}\nallowlist: allow.yaml\n"
LIST = """\
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Service
    metadata: {name: pug, namespace: db}
  - apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: pug
      namespace: db
    spec:
      selector:
        matchLabels: {app: pug}
      template:
        metadata: {labels: {app: pug}}
        spec:
          serviceAccountName: pug
          containers:
            - name: web
              env: [{name: HOST, value: pug.ana.lan}]
-   apiVersion: v1
    kind: ConfigMap
    metadata: {name: other}
    data: {host: pug.ana.lan}
"""
LIST_AT_ZERO = """\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: pug
  data: {host: pug.ana.lan}
"""
JSON_ONE = '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "pug", "namespace": "cache"}}\n'
JSON_PRETTY = """\
{
  "apiVersion": "v1",
  "kind": "List",
  "items": [
    {
      "apiVersion": "v1",
      "kind": "Pod",
      "metadata": {"name": "pug", "namespace": "web"},
      "spec": {
        "imagePullSecrets": [{"name": "pug"}],
        "containers": [{"name": "pug", "image": "nginx",
                        "env": [{"name": "DB", "value": "pug.cache:5432"}, {"name": "H", "value": "pug.ana.lan"}]}]
      }
    }
  ]
}
"""
JSON_ARRAY = '[{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "pug"}}, {"host": "pug.ana.lan"}]\n'
PLAIN_JSON = '{"kind": "Service", "name": "pug", "host": "pug.ana.lan"}\n'


def _held(run: Run, root: object) -> set[tuple[str, int]]:
    done = run(root, "verify", "--format", "json")
    return {(str(f["path"]), int(f["line"])) for f in json.loads(done.stdout)["findings"] if f["reason"] == "identity"}


def test_list_items_and_json_manifests_hold_their_identities(repo: Repo, run: Run) -> None:
    """Break-it round 20k, finding 7: `items[].metadata.name` of a `kind: List` and a `.json`
    manifest's `metadata.name` were rewritten with no residual. Held now, in every shape (items
    deeper than `items:` or at its column, a dash with more room, one-line and pretty JSON, a
    JSON List, a JSON array); the references beside them follow; a JSON file that is no manifest
    (no apiVersion) is text; `--allow-identity` moves them all."""
    files = {"k8s/list.yaml": LIST, "k8s/zero.yaml": LIST_AT_ZERO, "k8s/svc.json": JSON_ONE,
             "k8s/pod.json": JSON_PRETTY, "k8s/array.json": JSON_ARRAY, "app/plain.json": PLAIN_JSON}
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    for rel, text in files.items():
        want = text.replace("pug.ana.lan", "wolf.fv.lan")
        if rel == "app/plain.json":
            want = want.replace("pug", "wolf")
        want = want.replace('[{"name": "pug", "image"', '[{"name": "wolf", "image"')  # a container's name
        assert (root / rel).read_text() == want, rel
    held = _held(run, root)
    assert held == {("k8s/list.yaml", 6), ("k8s/list.yaml", 10), ("k8s/list.yaml", 14),
                    ("k8s/list.yaml", 16), ("k8s/list.yaml", 18), ("k8s/zero.yaml", 7), ("k8s/svc.json", 1),
                    ("k8s/pod.json", 8), ("k8s/pod.json", 10), ("k8s/pod.json", 12), ("k8s/array.json", 1)}, held
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    for rel in files:
        assert "pug" not in (root / rel).read_text(), rel
    assert run(root, "verify").exit_code == 0
