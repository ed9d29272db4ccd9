"""A Kubernetes object's identity fields, read as text (kube_identities.py): which spans are one,
in every dress a manifest, a chart's template or a kustomization writes them."""

from __future__ import annotations

import pytest

from renamer.kube_identities import identities


def _fields(rel: str, text: str) -> list[tuple[int, str, str]]:
    """(line, field, value) of each identity of `text`."""
    data = text.encode()
    return sorted((data.count(b"\n", 0, i.start) + 1, i.field, data[i.start:i.end].decode())
                  for i in identities(rel, data))


@pytest.mark.parametrize(("rel", "text", "expected"), [
    pytest.param("a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: pug\n", [(4, "name", "pug")],
                 id="block"),
    pytest.param("a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: 'pug', namespace: \"db\"}\n",
                 [(3, "name", "pug"), (3, "namespace", "db")], id="flow-quoted"),
    pytest.param("a.yml", "kind: Service\napiVersion: v1\nmetadata:\n  labels:\n    name: x\n  name: pug\n",
                 [(6, "name", "pug")], id="a-label-called-name-is-no-name"),
    pytest.param("a.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  # name: old\n  name: pug # here\nspec:\n"
                 "  containers:\n    - name: pug\n", [(5, "name", "pug")], id="comments-and-containers"),
    pytest.param("a.yaml", "---\napiVersion: v1\nkind: A\nmetadata:\n  name: one\n---\napiVersion: v1\nkind: B\n"
                 "metadata:\n  name: two\n", [(5, "name", "one"), (10, "name", "two")], id="two-documents"),
    pytest.param("a.yaml", "kind: Thing\nmetadata:\n  name: pug\n", [], id="no-apiversion-no-manifest"),
    pytest.param("chart/templates/d.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
                 "  name: {{ .Release.Name }}-pug\n  labels:\n    {{- include \"l\" . | nindent 4 }}\n",
                 [(4, "name", "{{ .Release.Name }}-pug")], id="template-name-runs-to-the-line-end"),
    pytest.param("chart/templates/d.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n"
                 "  name: \"{{ .Values.prefix }}-pug\"  # the db\n  namespace: {{ .Release.Namespace }} # ns\n",
                 [(4, "name", "{{ .Values.prefix }}-pug"), (5, "namespace", "{{ .Release.Namespace }}")],
                 id="template-name-quoted-and-commented"),
    pytest.param("a.yaml", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: pug\nspec:\n"
                 "  serviceName: pug-hl\n  template:\n    metadata:\n      name: not-me\n"
                 "  volumeClaimTemplates:\n    - metadata:\n        name: data\n      spec: {}\n"
                 "    - metadata: {name: logs}\n",
                 [(4, "name", "pug"), (6, "serviceName", "pug-hl"), (12, "claim-template", "data"),
                  (14, "claim-template", "logs")], id="statefulset"),
    pytest.param("a.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  volumes:\n"
                 "    - persistentVolumeClaim: {claimName: pug}\n    - persistentVolumeClaim:\n"
                 "        claimName: \"data-pug-0\"\n",
                 [(4, "name", "p"), (7, "claimName", "pug"), (9, "claimName", "data-pug-0")], id="claims"),
    pytest.param("k/kustomization.yaml", "resources: [a.yaml]\npatches:\n  - target: {kind: Deployment, name: pug}\n"
                 "  - target:\n      kind: Service\n      name: db\n    path: p.yaml\n",
                 [(3, "target", "pug"), (6, "target", "db")], id="kustomize-targets"),
    pytest.param("k/other.yaml", "target:\n  name: pug\n", [], id="a-target-elsewhere-is-no-patch"),
    pytest.param("app.ini", "url = http://pug.db.svc.cluster.local:80/\nb = pug.db.svc\n",
                 [(1, "service-dns", "pug"), (1, "service-dns-namespace", "db"), (2, "service-dns", "pug"),
                  (2, "service-dns-namespace", "db")], id="svc-names"),
    pytest.param("app.ini", "a = Pug.DB.svc.cluster.local.\nb = pug-0.pug.ml.svc\n",
                 [(1, "service-dns", "Pug"), (1, "service-dns-namespace", "DB"), (2, "service-dns", "pug"),
                  (2, "service-dns-namespace", "ml")], id="svc-any-case-and-a-pod-of-a-statefulset"),
    pytest.param("app.ini", "a = grafana.pug.svc.home.arpa\nb = pug.svc\n", [], id="svc-as-a-domain-label"),
    pytest.param("a.yaml", "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web, namespace: ml}\n"
                 "spec:\n  tls:\n    - hosts: [pug.lab.lan]\n      secretName: pug-tls\n  rules:\n"
                 "    - host: pug.lab.lan\n      http:\n        paths:\n          - backend:\n"
                 "              service:\n                port: {number: 80}\n                name: pug\n",
                 [(3, "name", "web"), (3, "namespace", "ml"), (7, "ref", "pug-tls"), (15, "ref", "pug")],
                 id="ingress-backend-and-tls-secret"),
    pytest.param("a.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n"
                 "    spec:\n      serviceAccountName: pug\n      containers:\n        - name: app\n"
                 "          envFrom:\n            - configMapRef: {name: pug}\n          env:\n"
                 "            - name: A\n              valueFrom:\n                secretKeyRef:\n"
                 "                  key: k\n                  name: pug\n      volumes:\n"
                 "        - name: c\n          configMap:\n            name: pug\n",
                 [(4, "name", "web"), (8, "ref", "pug"), (12, "ref", "pug"), (18, "ref", "pug"),
                  (22, "ref", "pug")], id="pod-references-by-name"),
    pytest.param("a.yaml", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\n"
                 "spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: pug}\n",
                 [(3, "name", "h"), (5, "ref", "pug")], id="scale-target"),
    pytest.param("a.yaml", "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: h\nspec:\n"
                 "  chartRef:\n    kind: OCIRepository\n    name: pug\n  values:\n"
                 "    resourceClaimTemplateName: pug\n",
                 [(4, "name", "h"), (8, "ref", "pug"), (10, "ref", "pug")], id="flux-chart-ref"),
    pytest.param("a.yaml", "apiVersion: external-secrets.io/v1\nkind: ExternalSecret\nmetadata:\n  name: e\nspec:\n"
                 "  secretStoreRef: {kind: ClusterSecretStore, name: op}\n  dataFrom:\n    - extract:\n"
                 "        key: pug\n  data:\n    - secretKey: K\n      remoteRef: {key: pug, property: x}\n",
                 [(4, "name", "e"), (6, "ref", "op"), (9, "external-key", "pug"), (12, "external-key", "pug")],
                 id="external-secret-items"),
    pytest.param("chart/values.yaml", "fullnameOverride: pug\nnameOverride: \"pug\"\nimage: x\n",
                 [(1, "override", "pug"), (2, "override", "pug")], id="chart-overrides"),
    pytest.param("chart/other.yaml", "fullnameOverride: pug\n", [], id="an-override-outside-values"),
])
def test_identity_fields(rel: str, text: str, expected: list[tuple[int, str, str]]) -> None:
    assert _fields(rel, text) == expected


def test_the_notes_say_the_consequence() -> None:
    data = (b"apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: pug\nspec:\n  volumeClaimTemplates:\n"
            b"    - metadata:\n        name: data\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: pug\n"
            b"  namespace: db\n")
    notes = {(i.kind, i.field): i.note for i in identities("a.yaml", data)}
    assert notes[("StatefulSet", "name")].startswith("renaming StatefulSet NAME strands PVC data-NAME-0")
    assert "`data-pug-0`" not in notes[("StatefulSet", "claim-template")]
    assert "(`NAME-pug-0`)" in notes[("StatefulSet", "claim-template")]
    assert notes[("Service", "name")].startswith("renaming Service NAME breaks NAME.db.svc.cluster.local readers")
    assert notes[("Service", "namespace")].startswith("renaming the namespace of Service pug moves it")
    hpa = b"apiVersion: v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec:\n  scaleTargetRef:\n" \
          b"    kind: Deployment\n    name: pug\n"
    assert [(i.kind, i.note[:36]) for i in identities("h.yaml", hpa) if i.field == "ref"] == [
        ("Deployment", "names Deployment NAME by its name (`")]


def _refs(text: str) -> list[tuple[int, str, str, str]]:
    """(line, kind named, value, namespace) of each reference field of `text`."""
    data = text.encode()
    return sorted((data.count(b"\n", 0, i.start) + 1, i.kind, data[i.start:i.end].decode(), i.namespace)
                  for i in identities("a.yaml", data) if i.field == "ref")


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param("apiVersion: v1\nkind: RoleBinding\nmetadata: {name: rb, namespace: app}\nsubjects:\n"
                 "- kind: User\n  name: 'pug'\n- name: \"sa\"  # the pod's\n  kind: ServiceAccount\n  namespace: db\n",
                 [(6, "User", "pug", "app"), (7, "ServiceAccount", "sa", "db"), (9, "Namespace", "db", "")],
                 id="items-at-the-keys-column-quoted-and-commented"),
    pytest.param("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  imagePullSecrets:\n    - {name: a}\n"
                 "    - name: b\n  containers:\n    - name: c\n      env: [{name: E, value: x}]\n",
                 [(6, "Secret", "a", ""), (7, "Secret", "b", "")], id="pull-secrets-not-containers-nor-env"),
    pytest.param("apiVersion: v1\nkind: HelmRelease\nmetadata: {name: x, namespace: f}\nspec:\n"
                 "  dependsOn: [{name: a, namespace: n}, {name: b}]\n",
                 [(5, "HelmRelease", "a", "n"), (5, "HelmRelease", "b", "f"), (5, "Namespace", "n", "")],
                 id="depends-on-names-its-own-kind"),
    pytest.param("apiVersion: v1\nkind: HelmRelease\nmetadata: {name: x}\nspec:\n  valuesFrom:\n"
                 "    - kind: Secret\n      name: s\n      valuesKey: v\n    - {name: c}\n",
                 [(7, "Secret", "s", ""), (9, "ConfigMap", "c", "")], id="values-from"),
    pytest.param("apiVersion: v1\nkind: HTTPRoute\nmetadata: {name: r}\nspec:\n  rules:\n    - backendRefs:\n"
                 "        - name: svc\n          port: 80\n        - kind: ServiceImport\n          name: imp\n",
                 [(7, "Service", "svc", ""), (10, "ServiceImport", "imp", "")], id="backend-kind-default-service"),
    pytest.param("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes:\n    - name: v\n      secret:\n"
                 "        secretName: s\n        items: [{key: k, path: p}]\n",
                 [(8, "Secret", "s", "")], id="a-volumes-secret-is-its-secret-name"),
])
def test_fields_naming_objects(text: str, expected: list[tuple[int, str, str, str]]) -> None:
    """Break-it round 20k, finding 2: one table of fields naming an object, in mappings and in each
    item of a list (block at the key's column or deeper, flow), the kind each names, the namespace
    it gives (itself a Namespace's name)."""
    assert _refs(text) == expected
