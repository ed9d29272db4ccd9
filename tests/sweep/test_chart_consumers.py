"""A chart's names where a chart is consumed (break-it round 25, finding 04): pure logic; the CLI
behaviour is tests/cli/test_chart_consumers.py."""

from __future__ import annotations

import pytest

from renamer.occurrences import Match
from renamer.sweep import chart_consumers


def _kept(data: bytes, nth: int = 0) -> bool:
    at = -1
    for _ in range(nth + 1):
        at = data.index(b"grafana", at + 1)
    [m] = chart_consumers.held(data, [Match(at, at + 7, "grafana", "dash01", "host")])
    return m.kept == "chart"


@pytest.mark.parametrize(("data", "nth", "kept"), [
    (b"helmCharts:\n  - name: grafana\n    repo: x\n", 0, True),
    (b"helmCharts:\n  - name: x\n    valuesInline:\n      grafana:\n        enabled: false\n", 0, True),
    (b"helmCharts:\n  - name: x\n    valuesInline:\n      grafana:\n        url: http://grafana.lan\n", 1, False),
    (b"spec:\n  source:\n    helm:\n      values: |\n        grafana:\n          enabled: false\n", 0, True),
    (b"releases:\n  - name: viz\n    chart: grafana/grafana\n", 0, True),
    (b"releases:\n  - name: viz\n    chart: grafana/grafana\n", 1, True),
    (b"repositories:\n  - name: grafana\n    url: u\nreleases:\n  - chart: grafana/x\n", 0, True),
    (b"repositories:\n  - name: grafana\n    url: u\n", 0, False),  # no release names the alias
    (b'resource "helm_release" "v" {\n  chart = "grafana"\n}\n', 0, True),
    (b'resource "helm_release" "v" {\n  set {\n    name = "grafana.enabled"\n  }\n}\n', 0, True),
    (b'resource "null_resource" "v" {\n  name = "grafana"\n}\n', 0, False),
    (b"helm upgrade kps x --set grafana.enabled=false\n", 0, True),
    (b"curl --set grafana=1\n", 0, False),  # no helm on the line
    (b"helm:\n  parameters:\n    - name: grafana.enabled\n      value: 'false'\n", 0, True),
])
def test_held(data: bytes, nth: int, kept: bool) -> None:
    assert chart_consumers.might_hold(data) or not kept
    assert _kept(data, nth) is kept
