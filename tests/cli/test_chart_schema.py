"""A Helm chart's own names under a host named after its software (break-it round 23, finding 17).

`grafana -> metrics` made Chart.yaml's `dependencies: - name: grafana` `metrics` (no such chart),
`https://grafana.github.io/helm-charts` `metrics.github.io`, and the values keys of the subchart's
schema (`grafana:`, `grafana.ini:`, kube-prometheus-stack's `grafana: {enabled: false}`)
`metrics...`, which Helm ignores silently; sweep 0, verify OK. Now those are kept (`chart`,
`public-domain`), and only the lab's names move: `root_url: https://grafana.lab.example` and
`http://grafana:3000`.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'
CONFIG = "version: 1\nrenames:\n  hosts: {grafana: metrics, loki: logs01, web01: app01}\nallowlist: allow.yaml\n"
CHART = """apiVersion: v2
name: monitoring
version: 0.1.0
dependencies:
  - name: grafana
    version: 7.0.0
    repository: https://grafana.github.io/helm-charts
    condition: grafana.enabled
  - name: loki
    alias: logs
    version: 5.0.0
    repository: https://grafana.github.io/helm-charts
  - name: kube-prometheus-stack
    version: 55.0.0
    repository: https://prometheus-community.github.io/helm-charts
"""
VALUES = """grafana:
  enabled: true
  image:
    repository: grafana/grafana
  grafana.ini:
    server:
      root_url: https://grafana.lab.example
logs:
  loki:
    auth_enabled: false
  gateway:
    host: loki.lab.example
  targets:
    web01: {port: 9100}
kube-prometheus-stack:
  grafana:
    enabled: false
ingress:
  hosts:
    - host: grafana.lab.example
"""
PROD = "grafana:\n  grafana.ini:\n    server:\n      domain: grafana.lab.example\n"
NOTIFY = "curl -X POST http://grafana:3000/api/annotations\n"


def test_round23_a_charts_own_names_are_kept_the_lab_names_move(repo: Callable[..., Path],
                                                                run: Callable[..., Result]) -> None:
    files = {"charts/monitoring/Chart.yaml": CHART, "charts/monitoring/values.yaml": VALUES,
             "charts/monitoring/values-prod.yaml": PROD, "notify.sh": NOTIFY}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "charts/monitoring/Chart.yaml").read_text() == CHART
    assert (root / "charts/monitoring/values.yaml").read_text() == VALUES.replace(
        "https://grafana.lab.example", "https://metrics.lab.example").replace(
        "loki.lab.example", "logs01.lab.example").replace("host: grafana.lab.example", "host: metrics.lab.example").replace(
        "web01: {port", "app01: {port")  # a host-keyed map in a dependency's block: no software's name
    assert (root / "charts/monitoring/values-prod.yaml").read_text() == PROD.replace(
        "domain: grafana.lab", "domain: metrics.lab")
    assert (root / "notify.sh").read_text() == NOTIFY.replace("grafana:3000", "metrics:3000")
    assert run(root, "verify").exit_code == 0
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = {(r["path"], r["line"]) for r in audit["references"] if r["status"] == "kept" and r["reason"] == "chart"}
    assert kept == {("charts/monitoring/Chart.yaml", 5), ("charts/monitoring/Chart.yaml", 8),
                    ("charts/monitoring/Chart.yaml", 9), ("charts/monitoring/values.yaml", 1),
                    ("charts/monitoring/values.yaml", 5), ("charts/monitoring/values.yaml", 9),
                    ("charts/monitoring/values.yaml", 16), ("charts/monitoring/values-prod.yaml", 1),
                    ("charts/monitoring/values-prod.yaml", 2)}


@pytest.mark.parametrize("values", ["grafana:\n  enabled: true\n", "ingress:\n  grafana: x\n"])
def test_round23_a_values_file_without_a_chart_follows(values: str, repo: Callable[..., Path],
                                                       run: Callable[..., Result]) -> None:
    root = repo({"apps/values.yaml": values}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "apps/values.yaml").read_text() == values.replace("grafana", "metrics")


# Break-it round 24, findings 06 and 09: the same names in Helm 2's requirements, the locks, a
# flow-style `dependencies:` and inline values (Flux HelmRelease, Argo CD, helmfile).
R24_KEPT: dict[str, bytes] = {
    "v1/Chart.yaml": b"apiVersion: v1\nname: monitoring\nversion: 1.0.0\n",
    "v1/requirements.yaml": (b"dependencies:\n  - name: grafana\n    version: 8.5.0\n"
                             b"    repository: https://charts.lab.example/\n    condition: grafana.enabled\n"),
    "v1/requirements.lock": (b"dependencies:\n- name: grafana\n  repository: https://charts.lab.example/\n"
                             b"  version: 8.5.0\ndigest: sha256:3f1b\ngenerated: \"2024-05-01T10:00:00Z\"\n"),
    "v1/values.yaml": b"grafana:\n  enabled: true\n  adminUser: admin\n",
    "flow/Chart.yaml": (b"apiVersion: v2\r\nname: monitoring2\r\nversion: 1.0.0\r\n"
                        b"dependencies: [{name: grafana, version: 8.5.0, repository: \"https://charts.lab.example/\"},\r\n"
                        b"  {name: loki, alias: logs, version: 5.0.0}]\r\n"),
    "flow/Chart.lock": (b"dependencies:\n- name: grafana\n  repository: https://charts.lab.example/\n  version: 8.5.0\n"
                        b"- name: loki\n  version: 5.0.0\ndigest: sha256:0a1b\n"),
    "flow/values.yaml": b"grafana:\n  persistence:\n    enabled: true\n",
    "block/Chart.yaml": CHART.encode(),
    "block/Chart.lock": b"dependencies:\n- name: grafana\n  version: 7.0.0\n- name: loki\n  version: 5.0.0\n",
}
R24_INLINE: dict[str, tuple[bytes, bytes]] = {
    "flux/helmrelease.yaml": (
        b"apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: kube-prometheus-stack\n"
        b"spec:\n  chart:\n    spec:\n      chart: kube-prometheus-stack\n  values:\n    grafana:\n"
        b"      enabled: false\n      forceDeployDashboards: true\n    prometheus:\n      url: http://grafana:3000\n",
        b"apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: kube-prometheus-stack\n"
        b"spec:\n  chart:\n    spec:\n      chart: kube-prometheus-stack\n  values:\n    grafana:\n"
        b"      enabled: false\n      forceDeployDashboards: true\n    prometheus:\n      url: http://metrics:3000\n"),
    "argo/app.yaml": (
        b"apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: mon\nspec:\n  source:\n"
        b"    chart: kube-prometheus-stack\n    helm:\n      valuesObject:\n        grafana:\n          enabled: false\n"
        b"          ingress:\n            hosts: [grafana.lab.example]\n",
        b"apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: mon\nspec:\n  source:\n"
        b"    chart: kube-prometheus-stack\n    helm:\n      valuesObject:\n        grafana:\n          enabled: false\n"
        b"          ingress:\n            hosts: [metrics.lab.example]\n"),
    "helmfile.yaml": (
        b"releases:\n  - name: mon\n    chart: prometheus-community/kube-prometheus-stack\n    values:\n"
        b"      - grafana:\n          enabled: false\n        alertmanager:\n          url: http://grafana:3000\n",
        b"releases:\n  - name: mon\n    chart: prometheus-community/kube-prometheus-stack\n    values:\n"
        b"      - grafana:\n          enabled: false\n        alertmanager:\n          url: http://metrics:3000\n"),
}


def test_round24_requirements_locks_flow_dependencies_and_inline_values_are_the_charts(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files: dict[str, str | bytes] = {**R24_KEPT, **{p: before for p, (before, _) in R24_INLINE.items()},
                                     "urls.txt": b"dashboards: http://grafana:3000\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout
    for path, text in R24_KEPT.items():
        assert (root / path).read_bytes() == text, path
    for path, (_, after) in R24_INLINE.items():
        assert (root / path).read_bytes() == after, path
    assert (root / "urls.txt").read_text() == "dashboards: http://metrics:3000\n"
    for path in [*R24_KEPT, *R24_INLINE]:  # each still parses
        subprocess.run(["yq", ".", str(root / path)], check=True, capture_output=True)
    assert run(root, "verify").exit_code == 0
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = {r["path"] for r in audit["references"] if r["status"] == "kept" and r["reason"] == "chart"}
    assert kept == {"v1/requirements.yaml", "v1/requirements.lock", "v1/values.yaml", "flow/Chart.yaml",
                    "flow/Chart.lock", "flow/values.yaml", "block/Chart.yaml", "block/Chart.lock",
                    "flux/helmrelease.yaml", "argo/app.yaml", "helmfile.yaml"}, kept
