"""A Helm chart's names where a chart is consumed (break-it round 25, finding 04).

Under `grafana -> dash01` (a host named after its software), Kustomize's `helmCharts` (`name:`,
`valuesInline: grafana:`), an Argo CD `helm.values: |` block, a helmfile `chart: grafana/grafana`
and its repository alias, Terraform's `helm_release` `chart =` and `set { name = "grafana.enabled" }`
were rewritten to `dash01` with no word (chart not found, or a values key Helm ignores), verify
--strict OK. Now each is kept `chart`, the file byte for byte as it was, and the host's own line
follows; a host name as a value under those keys (an ingress host) still follows.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tests.conftest import Result

CONFIG = ("version: 1\nrenames:\n  hosts: {grafana: dash01, grafana.ana.lan: dash01.ana.lan}\n"
          "allowlist: allow.yaml\n")
ALLOW = 'version: 1\ncurrent: ["**"]\n'
HOSTS = "grafana ansible_host=10.0.0.70\n"

# name: (path, content): nothing in it moves
KEPT: dict[str, tuple[str, str | bytes]] = {
    "kustomize-helmcharts": ("kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                             "helmCharts:\n  - name: kube-prometheus-stack\n    releaseName: kps\n"
                             "    valuesInline:\n      grafana:\n        enabled: false\n"
                             "  - name: grafana\n    repo: https://grafana.github.io/helm-charts\n"
                             "    version: 8.5.0\n    releaseName: viz\n"),
    "argo-values-text": ("app.yaml", "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: mon}\n"
                         "spec:\n  source:\n    chart: kube-prometheus-stack\n    helm:\n      values: |\n"
                         "        grafana:\n          enabled: false\n      valuesObject:\n        grafana:\n"
                         "          adminPassword: x\n"),
    "argo-parameters": ("app.yaml", "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: mon}\n"
                        "spec:\n  source:\n    chart: kube-prometheus-stack\n    helm:\n      parameters:\n"
                        "        - name: grafana.enabled\n          value: \"false\"\n"),
    "helmfile-crlf": ("helmfile.yaml", b"repositories:\r\n  - name: grafana\r\n    url: https://grafana.github.io/helm-charts\r\n"
                      b"releases:\r\n  - name: kps\r\n    chart: prometheus-community/kube-prometheus-stack\r\n"
                      b"    values:\r\n      - grafana:\r\n          enabled: false\r\n"
                      b"  - name: viz\r\n    chart: grafana/grafana\r\n"),
    "terraform-helm-release": ("helm.tf", 'resource "helm_release" "kps" {\n  name  = "kps"\n'
                               '  chart = "kube-prometheus-stack"\n  set {\n    name  = "grafana.enabled"\n'
                               '    value = "false"\n  }\n}\nresource "helm_release" "viz" {\n  name       = "viz"\n'
                               '  repository = "https://grafana.github.io/helm-charts"\n  chart      = "grafana"\n}\n'),
    "helm-set-flag": ("deploy.sh", "#!/bin/sh\nhelm upgrade --install kps prometheus-community/kube-prometheus-stack "
                      "--set grafana.enabled=false\n"),
}


@pytest.mark.parametrize("case", sorted(KEPT))
def test_round25_a_charts_names_where_it_is_consumed_are_kept(case: str, repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    path, content = KEPT[case]
    root = repo({path: content, "hosts": HOSTS}, config=CONFIG, allowlist=ALLOW)
    before = (root / path).read_bytes()
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / path).read_bytes() == before  # the chart and its values keys: the software's
    assert (root / "hosts").read_text() == "dash01 ansible_host=10.0.0.70\n"  # the host follows
    found = json.loads(run(root, "audit", "--format", "json").stdout)
    assert "chart" in json.dumps(found)
    assert run(root, "verify", "--strict").exit_code == 0
    if path.endswith(".yaml"):
        list(yaml.safe_load_all(before.decode()))
    if path.endswith(".sh"):
        subprocess.run(["bash", "-n", str(root / path)], check=True)


def test_round25_a_host_as_a_value_under_those_keys_still_follows(repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    root = repo({"kustomization.yaml": "helmCharts:\n  - name: grafana\n    valuesInline:\n      grafana:\n"
                                       "        ingress:\n          hosts: [grafana.ana.lan]\n",
                 "helm.tf": 'resource "helm_release" "viz" {\n  chart = "grafana"\n  set {\n'
                            '    name  = "ingress.hosts[0]"\n    value = "grafana.ana.lan"\n  }\n}\n'},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    kustomization = (root / "kustomization.yaml").read_text()
    assert "  - name: grafana\n" in kustomization and "      grafana:\n" in kustomization
    assert "hosts: [dash01.ana.lan]" in kustomization
    tf = (root / "helm.tf").read_text()
    assert 'chart = "grafana"' in tf and 'value = "dash01.ana.lan"' in tf
    assert run(root, "verify", "--strict").exit_code == 0
