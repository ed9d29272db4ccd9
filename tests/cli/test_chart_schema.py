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
