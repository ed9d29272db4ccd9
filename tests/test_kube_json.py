"""A JSON manifest's identities (kube_json.py): spans of the strings a YAML document's reader
would hold, in one object, a List, an array; nothing where the text is no JSON."""

from __future__ import annotations

import pytest

from renamer.kube_json import json_identities


def _fields(text: str) -> list[tuple[str, str, str]]:
    data = text.encode()
    return sorted((i.field, i.kind, data[i.start:i.end].decode()) for i in json_identities(data))


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param('{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "pug", "namespace": "db"}}',
                 [("name", "Service", "pug"), ("namespace", "Service", "db")], id="one"),
    pytest.param('{"kind": "List", "apiVersion": "v1", "items": [{"apiVersion": "v1", "kind": "Secret",'
                 ' "metadata": {"name": "s"}}]}', [("name", "Secret", "s")], id="list"),
    pytest.param('[{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "labels": {"name": "x"}}},'
                 ' {"name": "not-a-manifest"}]', [("name", "ConfigMap", "c")], id="array"),
    pytest.param('{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p\\u00e9"}, "spec": {'
                 '"serviceAccountName": "sa", "volumes": [{"name": "v", "persistentVolumeClaim": {"claimName": "d"}},'
                 ' {"name": "w", "configMap": {"name": "cm"}}], "imagePullSecrets": [{"name": "ps"}],'
                 ' "containers": [{"name": "c", "envFrom": [{"secretRef": {"name": "sr"}}]}]}}',
                 [("claimName", "PersistentVolumeClaim", "d"), ("name", "Pod", "p\\u00e9"), ("ref", "ConfigMap", "cm"),
                  ("ref", "Secret", "ps"), ("ref", "Secret", "sr"), ("ref", "ServiceAccount", "sa")],
                 id="references-and-an-escaped-name"),
    pytest.param('{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": {"selector":'
                 ' {"matchLabels": {"app": "a"}}, "template": {"metadata": {"labels": {"app": "a", "t": "x"}}}}}',
                 [("name", "Deployment", "d"), ("selector", "Deployment", "a"), ("selector", "Deployment", "a")],
                 id="selector"),
    pytest.param('{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "pug"}', [], id="truncated"),
    pytest.param('{"apiVersion": "v1", "kind": "Service" // comment\n}', [], id="no-json"),
    pytest.param('{"apiVersion": 1, "kind": "Service", "metadata": {"name": "pug"}}', [], id="version-not-a-string"),
])
def test_json_identities(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert _fields(text) == expected
