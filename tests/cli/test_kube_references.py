"""Kubernetes fields naming another object, end to end (break-it round 20k, issue 32).

A field that names an object by its name (a binding's subject, a pull secret, a Flux dependency,
a route's backend, a patch's target), in a mapping or in each item of a list, reads that object's
identity: held while the object is held, moved with it by `sweep --allow-identity`, held where
the object is kept. The namespace such a field gives (`subjects[].namespace`, `sourceRef.namespace`)
is a Namespace's name, held with it.
"""

from __future__ import annotations

import json

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = "version: 1\nrenames:\n  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}\nallowlist: allow.yaml\n"

OBJECTS = """\
apiVersion: v1
kind: ServiceAccount
metadata: {name: pug, namespace: db}
---
apiVersion: v1
kind: Secret
metadata: {name: pug, namespace: db}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: pug, namespace: db}
---
apiVersion: v1
kind: Service
metadata: {name: pug, namespace: db}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: pug, namespace: db}
"""
# every line naming one of OBJECTS (or a Kustomization pug) by its name: (path, line)
READERS = """\
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb, namespace: db}
subjects: [{kind: ServiceAccount, name: pug, namespace: db}]
roleRef: {kind: ClusterRole, name: view, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: crb}
subjects:
  - kind: ServiceAccount
    namespace: db
    name: pug
roleRef: {kind: ClusterRole, name: view, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: db}
spec:
  imagePullSecrets: [{name: pug}]
  containers:
    - name: pug
      image: nginx
      env:
        - {name: HOST, value: pug.ana.lan}
  volumes:
    - name: v
      projected:
        sources:
          - secret: {name: pug}
          - secret:
              name: pug
              items: [{key: a, path: a}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: db}
spec:
  template:
    spec:
      imagePullSecrets:
        - name: pug
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: apps, namespace: flux-system}
spec:
  dependsOn:
    - name: pug
  healthChecks:
    - {kind: Deployment, name: pug, namespace: db}
  patches:
    - patch: |
        - op: add
          path: /metadata/labels/tier
          value: web
      target:
        kind: Deployment
        name: pug
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: db}
spec:
  parentRefs: [{name: pug}]
  hostnames: [pug.ana.lan]
  rules:
    - backendRefs:
        - name: pug
          port: 80
"""
FLUX = ("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: pug, namespace: flux-system}\n"
        "spec:\n  path: ./k8s\n")
HELD = [4, 13, 20, 30, 32, 42, 49, 51, 59, 65, 69]


def _findings(run: Run, root: object) -> list[dict[str, object]]:
    done = run(root, "verify", "--format", "json")
    found: list[dict[str, object]] = json.loads(done.stdout)["findings"]
    return found


def test_list_items_naming_an_object_share_its_fate(repo: Repo, run: Run) -> None:
    """Break-it round 20k, finding 2: RoleBinding `subjects[].name` (block and flow),
    `imagePullSecrets[].name`, a projected volume's `secret.name`, Flux `dependsOn[].name`,
    `healthChecks[].name` and `spec.patches[].target.name`, Gateway API `parentRefs[].name` and
    `backendRefs[].name` were rewritten while the object they name was held. Held with it now;
    a container's `name:`, env values, `hostnames` follow (references to the host)."""
    files = {"k8s/objects.yaml": OBJECTS, "k8s/readers.yaml": READERS, "flux/apps.yaml": FLUX}
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    text = (root / "k8s/readers.yaml").read_text()
    assert text == (READERS.replace("pug.ana.lan", "wolf.fv.lan")
                    .replace("    - name: pug\n      image", "    - name: wolf\n      image")), text
    held = sorted(f["line"] for f in _findings(run, root)
                  if f["reason"] == "identity" and f["path"] == "k8s/readers.yaml")
    assert held == HELD, held
    note = next(f["note"] for f in _findings(run, root) if f["path"] == "k8s/readers.yaml" and f["line"] == 4)
    assert "names ServiceAccount pug by its name (`subjects`)" in str(note), note
    # --allow-identity: each object and each field naming it move together
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    assert all("pug" not in (root / rel).read_text() for rel in files)
    assert run(root, "verify").exit_code == 0


def test_a_kept_object_holds_the_list_items_naming_it(repo: Repo, run: Run) -> None:
    """--allow-identity where ServiceAccount pug and Gateway pug are kept: the subjects and the
    route's `parentRefs` naming them stay (one name, one fate); Secret pug moves with its pull
    secrets."""
    kept = OBJECTS.replace("metadata: {name: pug, namespace: db}\n---\napiVersion: v1\nkind: Secret",
                           "metadata: {name: pug, namespace: db}  # renamer: keep\n---\napiVersion: v1\nkind: Secret")
    kept = kept.replace("kind: Gateway\nmetadata: {name: pug, namespace: db}",
                        "kind: Gateway\nmetadata: {name: pug, namespace: db}  # renamer: keep")
    root = repo({"k8s/objects.yaml": kept, "k8s/readers.yaml": READERS}, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 1
    text = (root / "k8s/readers.yaml").read_text()
    assert "subjects: [{kind: ServiceAccount, name: pug, namespace: db}]" in text, text
    assert "    name: pug\nroleRef" in text and "parentRefs: [{name: pug}]" in text, text
    assert "imagePullSecrets: [{name: wolf}]" in text and "        - name: wolf\n          port: 80" in text, text
    held = sorted(f["line"] for f in _findings(run, root)
                  if f["reason"] == "identity" and f["path"] == "k8s/readers.yaml")
    assert held == [4, 13, 65], held


NAMESPACED = """\
apiVersion: v1
kind: Namespace
metadata: {name: pug}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb, namespace: other}
subjects: [{kind: ServiceAccount, name: default, namespace: pug}]
roleRef: {kind: ClusterRole, name: view, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: crb}
subjects:
  - kind: ServiceAccount
    name: default
    namespace: pug
roleRef: {kind: ClusterRole, name: view, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: web, namespace: flux-system}
spec:
  chart:
    spec:
      chart: web
      sourceRef: {kind: HelmRepository, name: charts, namespace: pug}
  values: {host: pug.ana.lan}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: data}
spec:
  claimRef:
    name: data
    namespace: pug
"""


def test_a_namespace_a_reference_gives_is_held_with_the_namespace(repo: Repo, run: Run) -> None:
    """Break-it round 20k, finding 3: a RoleBinding subject's `namespace:` (flow and block), a Flux
    `sourceRef.namespace`, a PV's `claimRef.namespace` were rewritten while Namespace pug was
    held: held now; moved with it by --allow-identity."""
    root = repo({"k8s/ns.yaml": NAMESPACED}, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "k8s/ns.yaml").read_text() == NAMESPACED.replace("pug.ana.lan", "wolf.fv.lan")
    held = sorted(f["line"] for f in _findings(run, root) if f["reason"] == "identity")
    assert held == [3, 8, 17, 27, 36], held
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    assert "pug" not in (root / "k8s/ns.yaml").read_text()


VALUES = """\
service:
  name: pug
  port: 80
db:
  host: pug.ana.lan
persistence:
  data:
    existingClaim: pug
serviceAccount:
  create: false
  name: pug
postgresql:
  auth:
    existingSecret: "pug"
  serviceAccount: {create: true, name: pug}
podLabels:
  name: pug
notes: |
  service:
    name: pug
"""
RELEASE = """\
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: pug, namespace: media}
spec:
  chartRef: {kind: OCIRepository, name: app-template}
  values:
    controllers:
      pug:
        containers:
          app:
            env: {HOST: pug.ana.lan}
    service:
      app:
        controller: pug
        ports: {http: {port: 80}}
    persistence:
      config:
        existingClaim: pug
---
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: web, namespace: argocd}
spec:
  destination: {namespace: media, server: https://kubernetes.default.svc}
  source:
    chart: web
    helm:
      values: |
        serviceAccount:
          name: pug
        ingress:
          hosts: [pug.ana.lan]
"""


def test_helm_values_naming_an_object_are_identities(repo: Repo, run: Run) -> None:
    """Break-it round 20k, finding 6: a chart's values naming an object, `service.name`,
    `existingClaim`, `existingSecret`, `serviceAccount.name` (created or not, block or flow), an
    app-template `controllers:` key and the `controller:` naming it, were rewritten while the
    objects were held: held now, in a values file, a Flux HelmRelease's `spec.values` and an Argo
    CD Application's `helm.values` text. Hosts, `podLabels.name`, a block scalar's text follow."""
    files = {"chart/Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\n", "chart/values.yaml": VALUES,
             "flux/release.yaml": RELEASE}
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    values = (root / "chart/values.yaml").read_text()
    assert values == (VALUES.replace("pug.ana.lan", "wolf.fv.lan").replace("podLabels:\n  name: pug", "podLabels:\n  name: wolf")
                      .replace("  service:\n    name: pug", "  service:\n    name: wolf")), values
    release = (root / "flux/release.yaml").read_text()
    assert release == RELEASE.replace("pug.ana.lan", "wolf.fv.lan"), release
    held = {(f["path"], f["line"]) for f in _findings(run, root) if f["reason"] == "identity"}
    assert held == {("chart/values.yaml", n) for n in (2, 8, 11, 14, 15)} | {
        ("flux/release.yaml", n) for n in (3, 8, 14, 18, 30)}, held
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    assert "pug" not in (root / "flux/release.yaml").read_text()
    assert "pug" not in (root / "chart/values.yaml").read_text()


NAMESPACE_READERS = {
    "k8s/kustomization.yaml": "namespace: pug\nresources: [ns.yaml, app.yaml]\n",
    "k8s/ns.yaml": "apiVersion: v1\nkind: Namespace\nmetadata: {name: pug}\n",
    "k8s/app.yaml": "apiVersion: v1\nkind: Service\nmetadata: {name: api, namespace: pug}\n---\n"
                    "apiVersion: v1\nkind: Service\nmetadata: {name: db}\n",
    "other/cm.yaml": ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: other}\n"
                      "data: {URL: \"http://api.pug.svc.cluster.local\", U2: \"http://api.pug:80\", DB: db.pug.svc,"
                      " D2: \"db.pug:5432\", OTHER: mail.pug.lan, H: pug.ana.lan}\n"),
    "app/.env": "API=api.pug.svc.cluster.local\nSHORT=db.pug:5432\n",
}


def test_a_namespaces_dns_readers_share_its_fate(repo: Repo, run: Run) -> None:
    """Break-it round 20k, finding 4: with Namespace pug renamed by --allow-identity,
    `api.pug.svc.cluster.local`, `api.pug:80`, `db.pug.svc`, `db.pug:5432` (Services of namespace
    pug, one placed by the kustomization) stayed behind as near-miss warnings and verify said OK.
    The namespace label is an occurrence now: held with the Namespace, moved with it. `mail.pug.lan`
    (no Service's name) stays a near-miss."""
    root = repo(NAMESPACE_READERS, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    held = {(f["path"], f["line"], f["column"]) for f in _findings(run, root) if f["reason"] == "identity"
            and f["path"] in ("other/cm.yaml", "app/.env")}
    assert held == {("other/cm.yaml", 4, 25), ("other/cm.yaml", 4, 65), ("other/cm.yaml", 4, 81),
                    ("other/cm.yaml", 4, 98), ("app/.env", 1, 9), ("app/.env", 2, 10)}, held
    done = run(root, "sweep", "--commit", "--allow-identity")
    assert done.exit_code == 0, done.stdout
    cm = (root / "other/cm.yaml").read_text()
    assert "http://api.wolf.svc.cluster.local" in cm and "http://api.wolf:80" in cm and "db.wolf.svc" in cm, cm
    assert "db.wolf:5432" in cm and "mail.pug.lan" in cm and "wolf.fv.lan" in cm, cm
    assert (root / "app/.env").read_text() == "API=api.wolf.svc.cluster.local\nSHORT=db.wolf:5432\n"
    assert run(root, "verify").exit_code == 0


AFFIXED = {
    "k8s/base/kustomization.yaml": "resources: [svc.yaml, deploy.yaml]\n",
    "k8s/base/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: pug\n  namespace: db\n",
    "k8s/base/deploy.yaml": ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app, namespace: web}\nspec:\n"
                             "  template:\n    spec:\n      containers:\n        - name: app\n          env:\n"
                             "            - {name: DB, value: prod-pug-v2.db.svc.cluster.local}\n"
                             "            - {name: DB1, value: \"prod-pug-v2.db:5432\"}\n"
                             "            - {name: DB2, value: \"my-pug-v2.db.svc\"}\n"),
    "k8s/prod/kustomization.yaml": ("namePrefix: prod-\nnameSuffix: -v2\nresources: [../base]\npatches:\n"
                                    "  - target: {kind: Service, name: pug}\n    patch: |-\n      - op: add\n"
                                    "        path: /metadata/labels\n        value: {tier: db}\n"),
}


def test_a_prefixed_services_readers_share_its_fate(repo: Repo, run: Run) -> None:
    """Break-it round 20k, finding 4 (10.sh): a kustomization's `namePrefix: prod-` and
    `nameSuffix: -v2` render Service pug as `prod-pug-v2`; its readers `prod-pug-v2.db.svc...` and
    `prod-pug-v2.db:5432` were left behind by --allow-identity (near-miss warnings, verify OK). The
    old name inside the rendered name is an occurrence: held with the Service, moved with it.
    `my-pug-v2` (no kustomization's prefix) stays a near-miss."""
    root = repo(AFFIXED, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    held = {(f["path"], f["line"]) for f in _findings(run, root) if f["reason"] == "identity"}
    assert held == {("k8s/base/svc.yaml", 4), ("k8s/base/deploy.yaml", 10), ("k8s/base/deploy.yaml", 11),
                    ("k8s/prod/kustomization.yaml", 5)}, held
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    deploy = (root / "k8s/base/deploy.yaml").read_text()
    assert deploy == AFFIXED["k8s/base/deploy.yaml"].replace("prod-pug-v2", "prod-wolf-v2"), deploy
    assert run(root, "verify").exit_code == 0


def test_a_kept_namespace_holds_its_dns_readers(repo: Repo, run: Run) -> None:
    """--allow-identity where Namespace pug is kept: the `.svc` names' namespace label, the
    kustomization's `namespace:` and each `metadata.namespace` stay with it (one name, one fate);
    the host name follows."""
    files = dict(NAMESPACE_READERS)
    files["k8s/ns.yaml"] = "apiVersion: v1\nkind: Namespace\nmetadata: {name: pug}  # renamer: keep\n"
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 1
    for rel in ("k8s/kustomization.yaml", "k8s/app.yaml", "app/.env"):
        assert (root / rel).read_text() == files[rel], rel
    assert (root / "other/cm.yaml").read_text() == files["other/cm.yaml"].replace("pug.ana.lan", "wolf.fv.lan")


RELEASES = """\
apiVersion: v1
kind: ConfigMap
metadata: {name: pug, namespace: db}
data: {values.yaml: "a: 1"}
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: app, namespace: db}
spec:
  releaseName: pug
  storageNamespace: db
  valuesFrom:
    - {kind: ConfigMap, name: pug}
---
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: app2, namespace: argocd}
spec:
  source: {helm: {releaseName: pug}}
---
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: set, namespace: argocd}
spec:
  generators:
    - list: {elements: [{name: pug, url: pug.ana.lan}]}
    - list:
        elements:
          - cluster: pug
            name: pug
            url: https://pug.ana.lan
  template:
    metadata: {name: "{{name}}-{{ .cluster }}"}
    spec: {destination: {namespace: "{{name}}", server: "{{url}}"}}
"""
GENERATED = """\
configMapGenerator:
  - name: pug
    literals: [host=pug.ana.lan]
secretGenerator:
- name: pug
  envs: [pug.env]
replicas:
  - {name: pug, count: 2}
images:
  - name: pug
    newTag: "2"
"""


def test_release_names_generators_and_set_elements_are_identities(repo: Repo, run: Run) -> None:
    """Break-it round 20k, finding 18: a Flux HelmRelease's `spec.releaseName`, Argo CD's
    `helm.releaseName` (the release every chart object belongs to), `valuesFrom` naming the held
    ConfigMap, an ApplicationSet list generator's elements its template names an Application or a
    namespace with, a kustomization's `configMapGenerator`/`secretGenerator` name (the generated
    object's) and `replicas` name (a workload's) were rewritten while held: held now. The hosts, an
    element the template uses for no name (`url`), the `envs` file, an image name follow."""
    root = repo({"k8s/objects.yaml": RELEASES, "k8s/kustomization.yaml": GENERATED, "k8s/pug.env": "A=1\n"},
                config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "k8s/objects.yaml").read_text() == RELEASES.replace("pug.ana.lan", "wolf.fv.lan")
    text = (root / "k8s/kustomization.yaml").read_text()
    assert text == (GENERATED.replace("pug.ana.lan", "wolf.fv.lan").replace("pug.env", "wolf.env")
                    .replace("  - name: pug\n    newTag", "  - name: wolf\n    newTag")), text
    held = sorted((f["path"], f["line"]) for f in _findings(run, root) if f["reason"] == "identity")
    assert held == [("k8s/kustomization.yaml", n) for n in (2, 5, 8)] + [
        ("k8s/objects.yaml", n) for n in (3, 10, 13, 19, 26, 29, 30)], held
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    assert "pug" not in (root / "k8s/objects.yaml").read_text()
    assert "pug" not in (root / "k8s/kustomization.yaml").read_text()


BARE = """\
apiVersion: v1
kind: Service
metadata: {name: pug, namespace: cache}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: worker, namespace: cache}
spec:
  template:
    spec:
      containers:
        - name: pug
          image: busybox
          args: [--upstream, pug]
          env:
            - {name: REDIS, value: pug}
            - {name: REDIS2, value: "pug:6379"}
            - name: REDIS3
              value: redis://pug:6379/0
            - {name: HOST, value: pug.ana.lan}
            - {name: OTHER, value: pug-cache}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: conf, namespace: cache}
data:
  upstream: pug
  nginx.conf: |
    proxy_pass http://pug:6379;
---
apiVersion: v1
kind: ConfigMap
metadata: {name: conf, namespace: web}
data:
  upstream: pug
"""


def test_a_bare_service_name_in_its_namespace_is_its_dns_name(repo: Repo, run: Run) -> None:
    """Break-it round 20k, finding 8: `REDIS=pug`, `pug:6379` in a pod of namespace cache resolve to
    Service cache/pug through the pod's search list; they were rewritten as hosts (and with
    --allow-identity moved while a keep rule held the Service). Held with the Service now, in env
    values, `args` and a ConfigMap's data of its namespace; a container's name, a ConfigMap of
    another namespace and `pug.ana.lan` follow (`pug-cache`: another name)."""
    kept = BARE.replace("metadata: {name: pug, namespace: cache}", "metadata: {name: pug, namespace: cache}  # renamer: keep")
    root = repo({"k8s/app.yaml": kept}, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 1
    text = (root / "k8s/app.yaml").read_text()
    assert text == (kept.replace("pug.ana.lan", "wolf.fv.lan").replace("        - name: pug\n", "        - name: wolf\n")
                    .replace("namespace: web}\ndata:\n  upstream: pug", "namespace: web}\ndata:\n  upstream: wolf")), text
    held = sorted(f["line"] for f in _findings(run, root) if f["reason"] == "identity")
    assert held == [14, 16, 17, 19, 27, 29], held


def test_a_bare_service_name_is_held_with_its_service_and_moves_with_it(repo: Repo, run: Run) -> None:
    """Finding 8 without a keep rule: a plain sweep holds the bare readers with Service cache/pug
    (they were plain host rewrites); --allow-identity moves them all with it."""
    root = repo({"k8s/app.yaml": BARE}, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    held = sorted(f["line"] for f in _findings(run, root) if f["reason"] == "identity")
    assert held == [3, 14, 16, 17, 19, 27, 29], held
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    text = (root / "k8s/app.yaml").read_text()
    assert "pug" not in text.replace("pug-cache", ""), text
    assert run(root, "verify").exit_code == 0


RESOURCE_SET = """\
apiVersion: fluxcd.controlplane.io/v1
kind: ResourceSet
metadata: {name: nfs-scalers, namespace: kube-system}
spec:
  inputs:
    - app: radarr
    - app: pug
      capacity: 2Gi
      host: pug.ana.lan
  resources:
    - apiVersion: autoscaling/v2
      kind: HorizontalPodAutoscaler
      metadata:
        name: << inputs.app >>-nfs-scaler
        namespace: default
      spec:
        scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: << inputs.app >>}
        metrics: [{type: External, external: {metric: {name: probe_success}}}]
"""


def test_a_resource_sets_inputs_naming_objects_are_identities(repo: Repo, run: Run) -> None:
    """Break-it round 20k, finding 13 (billimek/k8s-gitops): a Flux Operator ResourceSet's
    `inputs: [{app: sonarr}]` made an HPA `sonarr-nfs-scaler` scaling Deployment sonarr; the input
    was rewritten while the Deployment (HelmRelease) was held. The input a template names objects
    with is held; an input it uses for no name (`host`) follows."""
    root = repo({"k8s/set.yaml": RESOURCE_SET}, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "k8s/set.yaml").read_text() == RESOURCE_SET.replace("pug.ana.lan", "wolf.fv.lan")
    held = [(f["line"], f["column"]) for f in _findings(run, root) if f["reason"] == "identity"]
    assert held == [(7, 12)], held
    assert "a ResourceSet's parameter `app`" in str(_findings(run, root)[0]["note"])


SUBSTITUTED = {
    "k8s/apps/pug/ks.yaml": ("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\n"
                             "metadata: {name: apps, namespace: flux-system}\nspec:\n  components: [../../components/backup]\n"
                             "  path: ./k8s/apps/app\n  postBuild:\n    substitute:\n      APP: pug\n"
                             "      APP_HOST: pug.ana.lan\n      VOLSYNC_CAPACITY: 5Gi\n"
                             "---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\n"
                             "metadata: {name: other, namespace: flux-system}\nspec:\n"
                             "  postBuild: {substitute: {APP: pug, APP_HOST: pug.ana.lan}}\n"),
    "k8s/components/backup/pvc.yaml": ("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: ${APP}\n"
                                       "spec:\n  resources: {requests: {storage: \"${VOLSYNC_CAPACITY:=1Gi}\"}}\n"),
    "k8s/components/backup/route.yaml": ("apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\n"
                                         "metadata: {name: \"${APP:-web}-route\"}\nspec:\n  hostnames: [\"${APP_HOST}\"]\n"),
}


def test_a_flux_substitute_naming_objects_is_an_identity(repo: Repo, run: Run) -> None:
    """Found on onedr0p/home-ops (radarr -> filmarr): a Flux Kustomization's `postBuild.substitute`
    `APP: radarr` is substituted into shared components' `name: ${APP}` (a PVC: renamed, a new,
    empty claim); it was rewritten silently. A variable the repo's manifests put in a `name:` or
    `namespace:` (`${APP}`, `${APP:=x}`, `${APP:-x}-route`) is held now; one used for a host
    (`APP_HOST`) follows; --allow-identity moves it."""
    root = repo(SUBSTITUTED, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1
    text = (root / "k8s/apps/wolf/ks.yaml").read_text()  # (the folder follows: Flux reads `path:`)
    assert text == SUBSTITUTED["k8s/apps/pug/ks.yaml"].replace("pug.ana.lan", "wolf.fv.lan"), text
    held = sorted((f["line"], f["column"]) for f in _findings(run, root) if f["reason"] == "identity")
    assert held == [(9, 12), (17, 33)], held
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    assert "pug" not in (root / "k8s/apps/wolf/ks.yaml").read_text()
