"""software_refs: pure spans (the CLI behaviour is tests/cli/test_software_names.py)."""

from __future__ import annotations

import pytest

from renamer import software_refs


def _kept(data: bytes, names: list[str]) -> list[tuple[bytes, str]]:
    return sorted((data[s:e], reason) for s, e, reason, _ in software_refs.spans(data, names))


@pytest.mark.parametrize(("data", "names", "kept"), [
    (b"url: postgres://u@postgres:5432/x\n", ["postgres"], [(b"postgres", "scheme")]),
    (b"CACHE=Redis+tls://redis:6380\n", ["redis"], [(b"Redis", "scheme")]),
    (b"npm install @grafana/ui\n", ["grafana"], [(b"grafana", "package")]),
    (b"mail root@grafana/x\n", ["grafana"], []),  # an account's host: no scope
    (b"apiVersion: traefik.io/v1alpha1\n", ["traefik"], [(b"traefik", "api-group")]),
    (b"  - apiGroups: ['', 'grafana.integreatly.org']\n", ["grafana"], [(b"grafana", "api-group")]),
    (b"labels:\n  - traefik.enable=true\n  - homepage.href=http://homepage:3000/\n", ["traefik", "homepage"],
     [(b"homepage", "label-key"), (b"traefik", "label-key")]),
    (b"docker run --label traefik.enable=true nginx\n", ["traefik"], [(b"traefik", "label-key")]),
    (b"user nginx;\n", ["nginx"], [(b"nginx", "software")]),
    (b"[Service]\nUser=redis\r\n", ["redis"], [(b"redis", "software")]),
    (b"- hosts: nginx\n  tasks:\n    - apt: name=nginx state=present\n", ["nginx"], [(b"nginx", "software")]),
    (b"spec:\n  backend:\n    service:\n      name: nginx\n", ["nginx"], []),  # an Ingress backend, no module
    (b"local all postgres peer\n", ["postgres"], [(b"postgres", "software")]),
    (b"local all postgres\n", ["postgres"], []),  # no method: no pg_hba row
    (b"#!/bin/bash\nvault kv get x\nssh vault uptime\n", ["vault"], [(b"vault", "software")]),
    (b"vault kv get x\n", ["vault"], []),  # a line's start outside a shell script: no command position
    (b"ExecReload=nginx -s reload\n", ["nginx"], [(b"nginx", "software")]),
    (b"unit => 'vault.service'\nhost: grafana.service.consul\n", ["vault", "grafana"], [(b"vault", "software")]),
    (b"perhaps from a vault, or ssh to vault\n", ["vault"], [(b"vault", "prose-noun")]),
    (b"server_name a pug;\n", ["pug"], []),  # nginx's name list, no article
    (b"import redis\nr = redis.Redis(host='redis')\n", ["redis"], [(b"redis", "package"), (b"redis", "package")]),
    (b'import (\n\t"code.gitea.io/sdk/gitea"\n)\nc := gitea.NewClient(u)\n', ["gitea"],
     [(b"gitea", "package")]),  # a Go import block: the qualifier (the import path is a URL's)
    # a line that only looks like an import, in a file with no `import` at all: a host (issue 30's
    # cheap test before each pass: every import says `import`)
    (b"from hermes we route\nping hermes.lab\n", ["hermes"], []),
    (b'hosts = [\n  "lab/hermes"\n]\nssh hermes.lab\n', ["hermes"], []),
    (b"services:\n  web:\n    labels:\n      hermes.enable: 'true'\n", ["hermes"], [(b"hermes", "label-key")]),
    (b"- name: install\n  ansible.builtin.apt:\n    name: nginx\n", ["nginx"], [(b"nginx", "software")]),
    (b"kind: Pod\nspec:\n  containers:\n    - name: grafana\n      image: x\n", ["grafana"],
     [(b"grafana", "container-port")]),
    # a dashboard icon's name is the icon set's for the software (Glance, Homepage, Dashy); a host's
    # own URL as the icon, or a name no software has, follows
    (b"  annotations:\n    glance/icon: di:grafana\n", ["grafana"], [(b"grafana", "software")]),
    (b"- Grafana:\n    icon: si-grafana\n    href: http://grafana:3000\n", ["grafana"],
     [(b"grafana", "software")]),
    (b'gethomepage.dev/icon: "grafana.png"\r\n', ["grafana"], [(b"grafana", "software")]),
    (b"icon: https://cdn.jsdelivr.net/gh/walkxcode/dashboard-icons/svg/grafana.svg\n", ["grafana"],
     [(b"grafana", "software")]),
    (b'{"icon": "hl-grafana", "url": "http://grafana/"}', ["grafana"], [(b"grafana", "software")]),
    (b"icon: http://grafana:3000/favicon.ico\n", ["grafana"], []),
    (b"icon: di:pve2\n", ["pve2"], []),
    (b"kind: Pod\nspec:\n  containers:\n    - name: web01\n      image: busybox\n", ["web01"], []),
])
def test_spans(data: bytes, names: list[str], kept: list[tuple[bytes, str]]) -> None:
    assert _kept(data, names) == kept


def test_a_name_with_a_dot_or_absent_is_never_asked() -> None:
    assert software_refs.spans(b"postgres://x", ["web01.lab"]) == []
    assert software_refs.spans(b"postgres://x", ["redis"]) == []
