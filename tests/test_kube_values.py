"""Helm values naming an object (kube_values.py): which values are, by path, in every dress a
values file writes them."""

from __future__ import annotations

import pytest

from renamer.kube_values import CONTROLLER, value_names


def _names(text: str) -> list[tuple[int, str, str]]:
    data = text.encode()
    return [(data.count(b"\n", 0, v.start) + 1, v.kind, data[v.start:v.end].decode())
            for v in value_names(data, 0, len(data))]


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param("serviceAccount:\n  # the pod's\n  name: 'sa'  # here\n", [(3, "ServiceAccount", "sa")], id="comment"),
    pytest.param("a:\n  - persistence:\n      existingClaim: c\n  - service: {name: s, port: 80}\n",
                 [(3, "PersistentVolumeClaim", "c"), (4, "Service", "s")], id="under-list-items-and-flow"),
    pytest.param("service:\n  main:\n    name: x\nname: y\nservice.name: z\n", [], id="not-the-pair"),
    pytest.param("text: |\n  service:\n    name: s\nexistingSecret: t\n", [(4, "Secret", "t")], id="block-scalar"),
    pytest.param("controllers:\n  web:\n    containers: {}\n  db: {}\nother:\n  controllers:\n    x: {}\n",
                 [(2, CONTROLLER, "web"), (4, CONTROLLER, "db")], id="controller-keys-at-the-root-only"),
    pytest.param("service:\n  app:\n    controller: web\n", [(3, CONTROLLER, "web")], id="controller-reference"),
    pytest.param("serviceAccount:\n  name: '{{ .Release.Name }}'\n", [], id="a-template-is-no-name"),
])
def test_value_names(text: str, expected: list[tuple[int, str, str]]) -> None:
    assert _names(text) == expected
