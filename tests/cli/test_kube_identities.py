"""Kubernetes identities, end to end (issue 32, item 4).

An object's name is its identity to the cluster: renamed by a text edit, `kubectl apply` makes a
second object (a StatefulSet's new pods with empty claims, a Service whose `.svc` readers find
nothing). Plain manifests, a chart's templates (text, `{{ }}` regions as code) and kustomize bases
and overlays: each identity field is a residual `identity` with its consequence said, nothing
written there, while the references (Ingress hosts, env values, ConfigMap data, `externalName`,
`hostAliases`) follow; `sweep --allow-identity` moves them all, a Service with every `.svc` name of
it, or none of them.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.testing.repos import CURRENT_ALL, Repo, Run, git

CONFIG = """\
version: 1
renames:
  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}
allowlist: allow.yaml
"""
STATEFUL = """\
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: ana-ml2
  namespace: ml
spec:
  serviceName: ana-ml2
  template:
    spec:
      hostAliases:
        - ip: 10.0.0.5
          hostnames: [ana-ml2.ana.lan]
      containers:
        - name: app
          image: nginx
          env:
            - name: PEER
              value: ana-ml2.ana.lan
            - {name: DB, value: "ana-ml2.ml.svc.cluster.local:5432"}
  volumeClaimTemplates:
    - metadata:
        name: data
      spec:
        accessModes: [ReadWriteOnce]
---
apiVersion: v1
kind: Service
metadata: {name: ana-ml2, namespace: ml}
spec:
  clusterIP: None
---
apiVersion: v1
kind: Service
metadata:
  name: upstream
spec:
  type: ExternalName
  externalName: ana-ml2.ana.lan
"""
INGRESS = """\
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  tls:
    - hosts: [ana-ml2.ana.lan]
  rules:
    - host: ana-ml2.ana.lan
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ana-ml2
data:
  upstream: http://ana-ml2.ana.lan:8080
  db: ana-ml2.ml.svc
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: ana-ml2
"""
TEMPLATE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ana-ml2
  labels:
    {{- include "chart.labels" . | nindent 4 }}
spec:
  template:
    spec:
      containers:
        - name: app
          image: "{{ .Values.image }}"
          env:
            - name: HOST
              value: {{ .Values.host | default "ana-ml2.ana.lan" | quote }}
"""
BASE = {
    "kustomize/base/kustomization.yaml": "resources: [deploy.yaml]\n",
    "kustomize/base/deploy.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ana-ml2\nspec:\n"
                                  "  template:\n    spec:\n      containers:\n        - name: app\n"
                                  "          image: nginx\n          env:\n            - name: PEER\n"
                                  "              value: ana-ml2.ana.lan\n",
    "kustomize/overlay/kustomization.yaml": "resources: [../base]\npatches:\n  - target:\n      kind: Deployment\n"
                                            "      name: ana-ml2\n    patch: |-\n      - op: add\n"
                                            "        path: /metadata/labels\n        value: {tier: ml}\n",
}
FILES = {"k8s/db.yaml": STATEFUL, "k8s/web.yaml": INGRESS, "chart/templates/deploy.yaml": TEMPLATE,
         "chart/Chart.yaml": "apiVersion: v2\nname: app\nversion: 1.0.0\n",
         "chart/values.yaml": "host: ana-ml2.ana.lan\n", **BASE}
# (path, line) of every identity field above
IDENTITIES = {("k8s/db.yaml", 4), ("k8s/db.yaml", 7), ("k8s/db.yaml", 19), ("k8s/db.yaml", 28),
              ("k8s/web.yaml", 14), ("k8s/web.yaml", 17), ("k8s/web.yaml", 29), ("chart/templates/deploy.yaml", 4),
              ("kustomize/base/deploy.yaml", 4), ("kustomize/overlay/kustomization.yaml", 5)}


def _findings(run: Run, root: object) -> list[dict[str, object]]:
    done = run(root, "verify", "--format", "json")
    found: list[dict[str, object]] = json.loads(done.stdout)["findings"]
    return found


def _kustomize(folder: object) -> str:
    return subprocess.run(["kubectl", "kustomize", str(folder)], check=True, capture_output=True,
                          text=True).stdout


def test_identity_fields_are_residuals_with_the_consequence_and_references_follow(repo: Repo, run: Run) -> None:
    root = repo(FILES, config=CONFIG, allowlist=CURRENT_ALL)
    found = _findings(run, root)
    held = {(f["path"], f["line"]) for f in found if f["reason"] == "identity"}
    assert held == IDENTITIES
    notes = {(f["path"], f["line"]): str(f["note"]) for f in found if f["reason"] == "identity"}
    assert notes[("k8s/db.yaml", 4)].startswith("renaming StatefulSet ana-ml2 strands PVC data-ana-ml2-0")
    assert notes[("k8s/db.yaml", 28)].startswith(
        "renaming Service ana-ml2 breaks ana-ml2.ml.svc.cluster.local readers")
    assert notes[("k8s/web.yaml", 14)].startswith("renaming ConfigMap ana-ml2 deletes and recreates it")
    assert notes[("chart/templates/deploy.yaml", 4)].startswith("renaming Deployment ana-ml2 deletes and recreates")
    assert "immutable" in notes[("k8s/db.yaml", 7)] and "`claimName`" in notes[("k8s/web.yaml", 29)]
    assert "patch applies to nothing" in notes[("kustomize/overlay/kustomization.yaml", 5)]
    assert "names no Service" in notes[("k8s/db.yaml", 19)] and "names no Service" in notes[("k8s/web.yaml", 17)]
    assert run(root, "sweep", "--commit").exit_code == 1  # the references written, the identities left
    db = (root / "k8s/db.yaml").read_text()
    assert db == STATEFUL.replace("ana-ml2.ana.lan", "fv-ml1.fv.lan")  # hostAliases, env, externalName
    web = (root / "k8s/web.yaml").read_text()
    assert web == INGRESS.replace("ana-ml2.ana.lan", "fv-ml1.fv.lan")  # tls.hosts, host, ConfigMap data
    assert (root / "chart/templates/deploy.yaml").read_text() == TEMPLATE.replace("ana-ml2.ana.lan",
                                                                                  "fv-ml1.fv.lan")
    assert "value: fv-ml1.fv.lan" in (root / "kustomize/base/deploy.yaml").read_text()
    assert (root / "kustomize/overlay/kustomization.yaml").read_text() == BASE["kustomize/overlay/kustomization.yaml"]
    rendered = _kustomize(root / "kustomize/overlay")
    assert "name: ana-ml2\n" in rendered and "tier: ml" in rendered  # the patch still applies
    assert {(f["path"], f["line"]) for f in _findings(run, root)} == IDENTITIES  # verify still fails on them


def test_allow_identity_moves_every_identity_and_the_overlay_still_patches(repo: Repo, run: Run) -> None:
    root = repo(FILES, config=CONFIG, allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit", "--allow-identity")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "k8s/db.yaml").read_text() == STATEFUL.replace("ana-ml2", "fv-ml1").replace(
        "fv-ml1.ana.lan", "fv-ml1.fv.lan")
    assert (root / "k8s/web.yaml").read_text() == INGRESS.replace("ana-ml2", "fv-ml1").replace(
        "fv-ml1.ana.lan", "fv-ml1.fv.lan")
    rendered = _kustomize(root / "kustomize/overlay")
    assert "name: fv-ml1\n" in rendered and "tier: ml" in rendered and "ana-ml2" not in rendered
    assert run(root, "verify").exit_code == 0


def test_a_service_and_its_svc_names_share_one_fate(repo: Repo, run: Run) -> None:
    """--allow-identity, but one `.svc` name is kept (the inline marker, a keep rule): the Service's
    name and every other `.svc` name of it stay too, residuals naming what stays; other identities
    move. Kept in a record, a `.svc` name holds nothing back."""
    files = {
        "k8s/db.yaml": STATEFUL,
        "app/config.ini": "[db]\nurl = postgres://ana-ml2.ml.svc:5432/app  # renamer: keep\n",
        "app/other.env": "DB=ana-ml2.ml.svc.cluster.local\n",
        "notes/2026-01-01.md": "moved the db to ana-ml2.ml.svc\n",
        # another namespace's Service of the name, kept: another Service, which holds nothing here
        "k8s/other.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: ana-ml2  # renamer: keep\n"
                          "  namespace: other\n",
    }
    allow = "version: 1\ncurrent: [k8s/**, app/**]\nrecords:\n  - {name: notes, paths: [notes/**], reason: dated}\n"
    root = repo(files, config=CONFIG, allowlist=allow)
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 1
    db = (root / "k8s/db.yaml").read_text()
    assert "metadata: {name: ana-ml2, namespace: ml}" in db  # the Service stays
    assert '"ana-ml2.ml.svc.cluster.local:5432"' in db
    assert "  name: fv-ml1\n  namespace: ml\n" in db  # the StatefulSet moves, its governing Service's name not
    assert "serviceName: ana-ml2" in db
    assert (root / "app/other.env").read_text() == files["app/other.env"]
    found = [f for f in _findings(run, root) if f["reason"] == "identity"]
    assert {(f["path"], f["line"]) for f in found} == {("k8s/db.yaml", 7), ("k8s/db.yaml", 19),
                                                       ("k8s/db.yaml", 28), ("app/other.env", 1)}
    # without the kept line, the Service and its names move together
    (root / "app/config.ini").write_text("[db]\nurl = postgres://ana-ml2.ml.svc:5432/app\n")
    git(root, "commit", "-qam", "unkeep")
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    assert (root / "app/config.ini").read_text() == "[db]\nurl = postgres://fv-ml1.ml.svc:5432/app\n"
    assert "metadata: {name: fv-ml1, namespace: ml}" in (root / "k8s/db.yaml").read_text()
    assert (root / "k8s/other.yaml").read_text() == files["k8s/other.yaml"]
    assert (root / "notes/2026-01-01.md").read_text() == files["notes/2026-01-01.md"]
    assert run(root, "verify").exit_code == 0


def test_a_helm_template_key_collision_is_refused_and_branches_are_alternatives(repo: Repo, run: Run) -> None:
    """Two keys at one indentation of a chart's template after the rename: refused, nothing written
    (exit 3); in the two branches of one `{{- if }}`/`{{- else }}` they never render together."""
    colliding = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-hosts\ndata:\n"
                 "  ana-ml2: {{ .Values.a | quote }}\n  {{- with .Values.b }}\n  fv-ml1: {{ . | quote }}\n"
                 "  {{- end }}\n")
    branches = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-peers\ndata:\n"
                "  {{- if .Values.old }}\n  ana-ml2: \"1\"\n  {{- else }}\n  fv-ml1: \"2\"\n  {{- end }}\n"
                "  peer: ana-ml2.ana.lan\n")
    files = {"chart/Chart.yaml": "apiVersion: v2\nname: app\nversion: 1.0.0\n",
             "chart/templates/hosts.yaml": colliding, "chart/templates/peers.yaml": branches}
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert ("chart/templates/hosts.yaml:8: after the rename the key 'fv-ml1' under data would stand twice "
            "(lines 6, 8)") in done.stdout + done.stderr
    assert (root / "chart/templates/hosts.yaml").read_text() == colliding
    assert (root / "chart/templates/peers.yaml").read_text() == branches  # nothing written anywhere
    (root / "chart/templates/hosts.yaml").unlink()
    git(root, "commit", "-qam", "drop the colliding template")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "chart/templates/peers.yaml").read_text() == branches.replace("ana-ml2", "fv-ml1").replace(
        "fv-ml1.ana.lan", "fv-ml1.fv.lan")


def test_a_charts_names_are_identities_and_a_svc_label_of_a_domain_is_none(repo: Repo, run: Run) -> None:
    """A template's name whose action defaults to the old name, and the chart's `fullnameOverride`,
    name every object it renders: identities. `ana-ml2.lab.svc.home.arpa` is a name under a
    domain with a `svc` label, no Service's: it follows."""
    files = {
        "chart/Chart.yaml": "apiVersion: v2\nname: app\nversion: 1.0.0\n",
        "chart/values.yaml": "fullnameOverride: ana-ml2\nupstream: ana-ml2.ana.lan\n",
        "chart/templates/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n"
                                    "  name: {{ .Values.name | default \"ana-ml2\" }}\n"
                                    "spec:\n  type: ExternalName\n  externalName: {{ .Values.upstream }}\n",
        "app.env": "PEER=ana-ml2.lab.svc.home.arpa\n",
    }
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    found = [f for f in _findings(run, root) if f["reason"] == "identity"]
    assert [(f["path"], f["line"]) for f in found] == [("chart/templates/svc.yaml", 4), ("chart/values.yaml", 1)]
    assert "every object the chart renders is named from it" in str(found[1]["note"])
    assert str(found[0]["note"]).startswith("renaming Service ana-ml2 breaks ana-ml2.NS.svc.cluster.local readers")
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "chart/values.yaml").read_text() == "fullnameOverride: ana-ml2\nupstream: fv-ml1.fv.lan\n"
    assert (root / "app.env").read_text() == "PEER=fv-ml1.lab.svc.home.arpa\n"
    assert (root / "chart/templates/svc.yaml").read_text() == files["chart/templates/svc.yaml"]


def test_a_claim_and_a_governing_service_share_their_objects_fate(repo: Repo, run: Run) -> None:
    """--allow-identity, the PersistentVolumeClaim kept (the inline marker): every `claimName` of it
    stays too; the Service kept: a StatefulSet's `serviceName` naming it stays. Other names move."""
    files = {
        "k8s/pvc.yaml": "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: ana-ml2  # renamer: keep\n",
        "k8s/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: ana-ml2  # renamer: keep\n",
        "k8s/sts.yaml": ("apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: ana-ml2\nspec:\n"
                         "  serviceName: ana-ml2\n  template:\n    spec:\n      volumes:\n"
                         "        - persistentVolumeClaim: {claimName: ana-ml2}\n"),
    }
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit", "--allow-identity")
    assert done.exit_code == 1
    assert "Service ana-ml2's name stays where a field names it (k8s/svc.yaml:4, " in done.stdout
    assert "PersistentVolumeClaim ana-ml2's name stays where a field names it (k8s/pvc.yaml:4, " in done.stdout
    assert (root / "k8s/sts.yaml").read_text() == files["k8s/sts.yaml"].replace("  name: ana-ml2", "  name: fv-ml1")
    found = [f for f in _findings(run, root) if f["reason"] == "identity"]
    assert [(f["path"], f["line"]) for f in found] == [("k8s/sts.yaml", 6), ("k8s/sts.yaml", 10)]


def test_fields_naming_another_object_share_its_fate(repo: Repo, run: Run) -> None:
    """An Ingress backend's `service.name`, `envFrom` `configMapRef`, a TLS `secretName` name another
    object by its name: held with it by default, moved with it under --allow-identity, and held
    where that object is kept (the ConfigMap here)."""
    ingress = ("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  tls:\n"
               "    - hosts: [ana-ml2.ana.lan]\n      secretName: ana-ml2\n  rules:\n    - host: ana-ml2.ana.lan\n"
               "      http:\n        paths:\n          - path: /\n            pathType: Prefix\n            backend:\n"
               "              service:\n                name: ana-ml2\n                port: {number: 80}\n")
    files = {
        "k8s/ingress.yaml": ingress,
        "k8s/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: ana-ml2\n",
        "k8s/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ana-ml2  # renamer: keep\n",
        "k8s/deploy.yaml": ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n"
                            "    spec:\n      containers:\n        - name: app\n          envFrom:\n"
                            "            - configMapRef: {name: ana-ml2}\n"),
    }
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    held = sorted((f["path"], f["line"]) for f in _findings(run, root) if f["reason"] == "identity")
    assert held == [("k8s/deploy.yaml", 11), ("k8s/ingress.yaml", 8), ("k8s/ingress.yaml", 17), ("k8s/svc.yaml", 4)]
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 1  # the kept ConfigMap's reader stays
    assert (root / "k8s/ingress.yaml").read_text() == ingress.replace("ana-ml2.ana.lan", "fv-ml1.fv.lan").replace(
        "ana-ml2", "fv-ml1")
    assert (root / "k8s/svc.yaml").read_text() == files["k8s/svc.yaml"].replace("ana-ml2", "fv-ml1")
    assert (root / "k8s/deploy.yaml").read_text() == files["k8s/deploy.yaml"]
    assert sorted((f["path"], f["line"]) for f in _findings(run, root) if f["reason"] == "identity") == [
        ("k8s/deploy.yaml", 11)]


def test_an_external_secret_stores_item_is_held_whatever_the_flag(repo: Repo, run: Run) -> None:
    """Found on a real GitOps repo (onedr0p/home-ops): `extract.key: radarr` names an item of the
    secret store (1Password), which no sweep renames: a `state-name` residual, with --allow-identity
    too; Flux's `chartRef` names the OCIRepository beside it, an identity that moves with the flag."""
    secret = ("apiVersion: external-secrets.io/v1\nkind: ExternalSecret\nmetadata:\n  name: web\nspec:\n"
              "  dataFrom:\n    - extract:\n        key: ana-ml2\n")
    release = ("apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: web\nspec:\n"
               "  chartRef:\n    kind: OCIRepository\n    name: ana-ml2\n")
    files = {"k8s/secret.yaml": secret, "k8s/release.yaml": release,
             "k8s/oci.yaml": "apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata:\n  name: ana-ml2\n"}
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    found = sorted((f["path"], f["line"], f["reason"]) for f in _findings(run, root) if f["reason"])
    assert found == [("k8s/oci.yaml", 4, "identity"), ("k8s/release.yaml", 8, "identity"),
                     ("k8s/secret.yaml", 8, "state-name")]
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 1
    assert (root / "k8s/secret.yaml").read_text() == secret
    assert (root / "k8s/release.yaml").read_text() == release.replace("ana-ml2", "fv-ml1")


SHORT_CONFIG = "version: 1\nrenames:\n  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}\nallowlist: allow.yaml\n"
SHORT_SERVICE = "apiVersion: v1\nkind: Service\nmetadata: {name: pug, namespace: db}\nspec:\n  ports: [{port: 5432}]\n"
SHORT_READERS = """\
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: web}
data:
  a: pug.db
  b: "pug.db:5432"
  c: "postgres://pug.db:5432/x"
  d: pug.db.svc.cluster
  e: pug.db.svc
  nginx.conf: |
    proxy_pass http://pug.db:5432;
  f: pug.lan
  g: pug.web
  h: pug.ana.lan
"""


def test_a_services_short_dns_names_share_its_fate(repo: Repo, run: Run) -> None:
    """Break-it round 20, finding 1: `NAME.NS`, `NAME.NS:port`, `NAME.NS.svc.cluster` of Service
    db/pug (a pod's search list completes them to `pug.db.svc.cluster.local`) were rewritten while
    the Service was held; held with it now, in a manifest and in any other file. `pug.lan` (no
    namespace lan), `pug.web` (no Service pug in web) and `pug.ana.lan` are hosts: they follow."""
    files = {"k8s/svc.yaml": SHORT_SERVICE, "k8s/cfg.yaml": SHORT_READERS,
             "app/.env": "DB=pug.db:5432\nCACHE=pug.lan\n"}
    root = repo(files, config=SHORT_CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    cfg = (root / "k8s/cfg.yaml").read_text()
    assert cfg == (SHORT_READERS.replace("pug.lan", "wolf.lan").replace("pug.web", "wolf.web")
                   .replace("pug.ana.lan", "wolf.fv.lan")), cfg
    assert (root / "app/.env").read_text() == "DB=pug.db:5432\nCACHE=wolf.lan\n"
    found = {(f["path"], f["line"]) for f in _findings(run, root) if f["reason"] == "identity"}
    assert found == {("k8s/svc.yaml", 3), ("app/.env", 1), *(("k8s/cfg.yaml", n) for n in (5, 6, 7, 8, 9, 11))}, found
    note = next(f["note"] for f in _findings(run, root) if f["path"] == "app/.env")
    assert "short DNS name (`pug.db`, which a pod's search list completes to `pug.db.svc.cluster.local`)" in note, note
    # --allow-identity: the Service and every spelling of its name move together
    done = run(root, "sweep", "--commit", "--allow-identity")
    assert done.exit_code == 0, done.stdout
    assert (root / "k8s/cfg.yaml").read_text() == cfg.replace("pug.db", "wolf.db")
    assert (root / "app/.env").read_text() == "DB=wolf.db:5432\nCACHE=wolf.lan\n"
    assert "metadata: {name: wolf, namespace: db}" in (root / "k8s/svc.yaml").read_text()
    assert run(root, "verify").exit_code == 0


SELECTED = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: app
spec:
  selector:
    matchLabels:
      app.kubernetes.io/instance: pug
      "tier": pug-db
  template:
    metadata:
      labels:
        app.kubernetes.io/instance: pug
        tier: pug-db
        host: pug.ana.lan
    spec:
      containers:
        - name: web
          image: nginx
          env: [{name: DB, value: pug.ana.lan}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: app}
spec:
  serviceName: db
  selector: {matchLabels: {app: pug}}
  template:
    metadata: {labels: {app: pug}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: once, namespace: app}
spec:
  selector:
    matchLabels: {run: pug}
  template:
    metadata:
      labels: {run: pug}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: app}
data:
  selector: pug
"""


def test_a_workloads_selector_is_an_identity(repo: Repo, run: Run) -> None:
    """Break-it round 20, finding 5: a Deployment's, StatefulSet's, Job's `spec.selector.matchLabels`
    (block and flow) and its pod template's labels of those keys were rewritten: the selector is
    immutable, so `kubectl apply` refuses; held now, residual `identity`. A template label the
    selector does not read, env values and a ConfigMap's `selector` key follow."""
    root = repo({"k8s/app.yaml": SELECTED}, config=SHORT_CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    text = (root / "k8s/app.yaml").read_text()
    assert text == (SELECTED.replace("host: pug.ana.lan", "host: wolf.fv.lan")
                    .replace("value: pug.ana.lan", "value: wolf.fv.lan").replace("selector: pug\n", "selector: wolf\n")), text
    found = [f for f in _findings(run, root) if f["reason"] == "identity"]
    assert sorted(f["line"] for f in found) == [9, 14, 28, 30, 37, 40], found  # (`pug-db`: another name)
    assert "`kubectl apply` is refused (`field is immutable`)" in str(found[0]["note"]), found[0]
    # --allow-identity: selector and template labels move together
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    moved = (root / "k8s/app.yaml").read_text()
    assert moved.count("pug") == 2 and "matchLabels: {app: wolf}" in moved and "labels: {app: wolf}" in moved, moved


def test_the_namespace_a_gitops_object_applies_into_is_an_identity(repo: Repo, run: Run) -> None:
    """Break-it round 20, finding 3: a kustomization's `namespace:`, a Flux Kustomization's and
    HelmRelease's `spec.targetNamespace`, an Argo CD Application's `spec.destination.namespace` were
    rewritten while Namespace pug was held: every object moved to a new, empty namespace at the next
    sync. Held with it now; `--allow-identity` moves them with the Namespace."""
    files = {
        "k8s/kustomization.yaml": "namespace: pug\nresources: [ns.yaml]\n",
        "k8s/ns.yaml": "apiVersion: v1\nkind: Namespace\nmetadata: {name: pug}\n",
        "flux/ks.yaml": "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\n"
                        "metadata: {name: app, namespace: flux-system}\nspec:\n  targetNamespace: pug\n  path: ./k8s\n"
                        "---\napiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\n"
                        "metadata: {name: app, namespace: flux-system}\nspec:\n  targetNamespace: pug\n"
                        "  values: {host: pug.ana.lan}\n",
        "argo/app.yaml": "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: app, namespace: argocd}\n"
                         "spec:\n  destination:\n    server: https://kubernetes.default.svc\n    namespace: pug\n",
    }
    root = repo(files, config=SHORT_CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    for rel, text in files.items():
        assert (root / rel).read_text() == text.replace("pug.ana.lan", "wolf.fv.lan"), rel
    found = {(f["path"], f["line"]) for f in _findings(run, root) if f["reason"] == "identity"}
    assert found == {("k8s/kustomization.yaml", 1), ("k8s/ns.yaml", 3), ("flux/ks.yaml", 5), ("flux/ks.yaml", 12),
                     ("argo/app.yaml", 7)}, found
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    assert all("pug" not in (root / rel).read_text() for rel in files)
    assert run(root, "verify").exit_code == 0


CLASSES = """\
apiVersion: v1
kind: PersistentVolume
metadata: {name: pug}
spec:
  storageClassName: pug
  claimRef: {name: pug, namespace: db}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: pug, namespace: db}
spec:
  storageClassName: "pug"
  volumeName: pug
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: db}
spec:
  template:
    spec:
      priorityClassName: pug
      runtimeClassName: pug
      containers: [{name: web, image: nginx, env: [{name: H, value: pug.ana.lan}]}]
"""


def test_class_and_volume_fields_name_their_objects(repo: Repo, run: Run) -> None:
    """Break-it round 20, finding 2 (part): a PVC's `volumeName` (the held PV), a PV's `claimRef`
    (the held PVC), `storageClassName` (immutable on a claim), `priorityClassName` and
    `runtimeClassName` were rewritten while the object they name kept its name: held now, moved
    with it by --allow-identity."""
    root = repo({"k8s/data.yaml": CLASSES}, config=SHORT_CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "k8s/data.yaml").read_text() == CLASSES.replace("pug.ana.lan", "wolf.fv.lan")
    held = sorted(f["line"] for f in _findings(run, root) if f["reason"] == "identity")
    assert held == [3, 5, 6, 10, 12, 13, 21, 22], held
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    assert "pug" not in (root / "k8s/data.yaml").read_text()
    assert run(root, "verify").exit_code == 0


PROVIDED = {
    "flux/apps/provider.yaml": ("apiVersion: fluxcd.controlplane.io/v1\nkind: ResourceSetInputProvider\n"
                                "metadata:\n  name: apps\n  namespace: flux-system\nspec:\n  type: Static\n"
                                "  defaultValues:\n    app: pug\n    host: pug.ana.lan\n"),
    "flux/apps/set.yaml": ("apiVersion: fluxcd.controlplane.io/v1\nkind: ResourceSet\n"
                           "metadata:\n  name: apps\n  namespace: flux-system\nspec:\n  inputsFrom:\n"
                           "    - apiVersion: fluxcd.controlplane.io/v1\n      kind: ResourceSetInputProvider\n"
                           "      name: apps\n  resources:\n    - apiVersion: apps/v1\n      kind: Deployment\n"
                           "      metadata:\n        name: << inputs.app >>\n        namespace: default\n"
                           "      spec:\n        template:\n          spec:\n            containers:\n"
                           "              - name: app\n                env: [{name: HOST, value: '<< inputs.host >>'}]\n"),
    "flux/apps/kustomization.yaml": "resources: [provider.yaml, set.yaml]\n",
}
PUG = "version: 1\nrenames:\n  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}\nallowlist: allow.yaml\n"


def test_a_resource_set_input_providers_default_values_naming_objects_are_identities(repo: Repo, run: Run) -> None:
    """billimek/k8s-gitops (break-it round 20k, severity 1): a ResourceSetInputProvider's
    `defaultValues: {app: sonarr}` feeds another file's ResourceSet, whose template names a
    Deployment `<< inputs.app >>`; the value was rewritten as a plain string (the Deployment
    deleted and another created). The input a template names objects with is held, `identity`,
    with why; one it uses for no name (`host`) follows; --allow-identity moves it. What kubectl
    renders of the folder is asserted, not what renamer reports."""
    root = repo(PROVIDED, config=PUG, allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    rendered = _kustomize(root / "flux/apps")
    assert "    app: pug\n" in rendered and "    host: wolf.fv.lan\n" in rendered, rendered
    held = [(f["path"], f["line"], f["reason"]) for f in _findings(run, root)]
    assert held == [("flux/apps/provider.yaml", 9, "identity")], held
    note = str(_findings(run, root)[0]["note"])
    assert "ResourceSetInputProvider's `defaultValues` input `app`" in note and "<< inputs.app >>" in note, note
    moved = run(root, "sweep", "--commit", "--allow-identity")
    assert moved.exit_code == 0, moved.stdout + moved.stderr
    rendered = _kustomize(root / "flux/apps")
    assert "    app: wolf\n" in rendered and "pug" not in rendered, rendered
    assert run(root, "verify").exit_code == 0


def test_a_provider_no_resource_set_names_objects_from_follows(repo: Repo, run: Run) -> None:
    # the template uses `app` for no name: the value is a plain reference
    files = {**PROVIDED, "flux/apps/set.yaml": PROVIDED["flux/apps/set.yaml"].replace(
        "name: << inputs.app >>", "name: web").replace("value: '<< inputs.host >>'", "value: '<< inputs.app >>'")}
    root = repo(files, config=PUG, allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "    app: wolf\n" in _kustomize(root / "flux/apps")


_SET = PROVIDED["flux/apps/set.yaml"]
_PROVIDER = PROVIDED["flux/apps/provider.yaml"]


@pytest.mark.parametrize(("provider", "template"), [
    pytest.param(_PROVIDER, _SET.replace("<< inputs.app >>", "<< inputs.app | slugify >>"), id="piped-input"),
    pytest.param(_PROVIDER, _SET.replace("spec:\n  inputsFrom:", "spec:\n  inputStrategy:\n    name: Permute\n  inputsFrom:")
                 .replace("<< inputs.app >>", "<< inputs.apps.app >>"), id="permute-strategy"),
    pytest.param(_PROVIDER.replace("    app: pug\n    host: pug.ana.lan\n", "    {app: pug, host: pug.ana.lan}\n"),
                 _SET, id="flow-style-default-values"),
    pytest.param(_PROVIDER, _SET.replace("kind: Deployment\n      metadata:\n        name: << inputs.app >>",
                                         "kind: StatefulSet\n      metadata:\n        name: db")
                 .replace("      spec:\n        template:", "      spec:\n        serviceName: << inputs.app >>\n"
                          "        template:"), id="stateful-set-service-name"),
    pytest.param(_PROVIDER, _SET.replace("name: << inputs.app >>", "name: web")
                 .replace("      spec:\n        template:", "      spec:\n        selector:\n          matchLabels: "
                          "{app: '<< inputs.app >>'}\n        template:"), id="selector-label"),
])
def test_a_provider_input_a_resource_set_puts_in_an_identity_any_way_is_held(
        provider: str, template: str, repo: Repo, run: Run) -> None:
    """break-it t26-32, finding 07: each shape was rewritten, exit 0 (the generated object deleted and
    another created) while the plain `name: << inputs.app >>` was held. kubectl renders the folder."""
    root = repo({**PROVIDED, "flux/apps/provider.yaml": provider, "flux/apps/set.yaml": template},
                config=PUG, allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    rendered = _kustomize(root / "flux/apps")
    assert "app: pug" in rendered and "wolf.fv.lan" in rendered, rendered  # the name held, the host followed
    held = [(f["path"], f["reason"]) for f in _findings(run, root)]
    assert held == [("flux/apps/provider.yaml", "identity")], held
    moved = run(root, "sweep", "--commit", "--allow-identity")
    assert moved.exit_code == 0, moved.stdout + moved.stderr
    assert "pug" not in _kustomize(root / "flux/apps")


def test_a_resource_sets_own_inputs_read_through_a_pipe_are_held(repo: Repo, run: Run) -> None:
    # t26-32, finding 07 (the same regex): a ResourceSet's inline `inputs:` with a piped template
    text = ("apiVersion: fluxcd.controlplane.io/v1\nkind: ResourceSet\nmetadata:\n  name: apps\n"
            "  namespace: flux-system\nspec:\n  inputs:\n    - app: pug\n  resources:\n    - apiVersion: v1\n"
            "      kind: ConfigMap\n      metadata:\n        name: << inputs.app | slugify >>\n"
            "        namespace: default\n")
    root = repo({"flux/set.yaml": text}, config=PUG, allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "flux/set.yaml").read_text() == text
    assert [(f["path"], f["line"], f["reason"]) for f in _findings(run, root)] == [("flux/set.yaml", 8, "identity")]
