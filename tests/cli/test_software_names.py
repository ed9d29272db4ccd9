"""A host named after its software, followed into the software's own names (break-it round 24,
findings 06, 11, 22, 24, 25; renamer/software_refs.py).

Under `nginx -> proxy01`, `postgres -> db01`, `redis -> cache01`, `vault -> secrets`,
`traefik -> edge01`, `homepage -> dash01`, `grafana -> dash02`: URL schemes (`postgres://` ->
`db01://`), Ansible packages, services and users, nginx's `user`, pg_hba.conf's role, the
software's commands and units (`vault token create`, `vault.service`), Docker label keys
(`traefik.enable`), Kubernetes API groups, operator container and port names and English nouns
(`from a vault`) were rewritten: sweep 0, verify OK. Now each is kept with its reason, the hosts
beside them still follow, and the swept files still parse (yq, jq, node, bash -n).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'
CONFIG = ("version: 1\nrenames:\n  hosts: {nginx: proxy01, postgres: db01, redis: cache01, vault: secrets, "
          "traefik: edge01, homepage: dash01, grafana: dash02, gitea: git01}\nallowlist: allow.yaml\n")

# (path, before, after): the software's names kept, the hosts beside them follow
CASES: dict[str, tuple[bytes, bytes]] = {
    # finding 22: schemes (compose, an env file with CRLF, JavaScript)
    "compose.yaml": (
        b"services:\n  app:\n    image: nginx:1.25\n    environment:\n"
        b"      DATABASE_URL: postgres://app:pw@postgres:5432/app\n      REDIS_URL: redis://redis:6379/0\n",
        b"services:\n  app:\n    image: nginx:1.25\n    environment:\n"
        b"      DATABASE_URL: postgres://app:pw@db01:5432/app\n      REDIS_URL: redis://cache01:6379/0\n"),
    "app.env": (b"DATABASE_URL=postgres://u@postgres/app\r\nCACHE=redis+tls://redis:6380\r\n",
                b"DATABASE_URL=postgres://u@db01/app\r\nCACHE=redis+tls://cache01:6380\r\n"),
    "client.js": (b'const u = new URL("redis://redis:6379/0");\nconsole.log(u.protocol);\n',
                  b'const u = new URL("redis://cache01:6379/0");\nconsole.log(u.protocol);\n'),
    # finding 22: Ansible packages, services, users in flow, block and key=value dress
    "site.yml": (
        b"- hosts: nginx\n  become: true\n  tasks:\n"
        b"    - ansible.builtin.apt: {name: nginx, state: present}\n"
        b"    - ansible.builtin.user: {name: postgres, groups: ssl-cert}\n"
        b"    - ansible.builtin.command: nginx -t\n"
        b"    - ansible.builtin.service: {name: nginx, state: reloaded}\n"
        b"    - ansible.builtin.file: {path: /srv/cache, state: directory, owner: redis, group: redis}\n"
        b"    - name: packages\n      package:\n        name: [redis, postgres]\n"
        b"    - ansible.builtin.systemd:\n        name: vault\n        state: restarted\n"
        b"    - ansible.builtin.shell: vault token create -address=https://vault:8200 -format=json\n",
        b"- hosts: proxy01\n  become: true\n  tasks:\n"
        b"    - ansible.builtin.apt: {name: nginx, state: present}\n"
        b"    - ansible.builtin.user: {name: postgres, groups: ssl-cert}\n"
        b"    - ansible.builtin.command: nginx -t\n"
        b"    - ansible.builtin.service: {name: nginx, state: reloaded}\n"
        b"    - ansible.builtin.file: {path: /srv/cache, state: directory, owner: redis, group: redis}\n"
        b"    - name: packages\n      package:\n        name: [redis, postgres]\n"
        b"    - ansible.builtin.systemd:\n        name: vault\n        state: restarted\n"
        b"    - ansible.builtin.shell: vault token create -address=https://secrets:8200 -format=json\n"),
    # finding 22: nginx's user (with its group), php-fpm's, pg_hba's role (CRLF)
    "proxy.conf": (b"user nginx nginx;\nupstream app { server postgres:5432; }\n",
                   b"user nginx nginx;\nupstream app { server db01:5432; }\n"),
    "www.conf": (b"[www]\nuser = nginx\nlisten = /run/php.sock\n", b"[www]\nuser = nginx\nlisten = /run/php.sock\n"),
    "pg_hba.conf": (b"local   all   postgres   peer\r\nhost    app   app   10.0.0.0/24   scram-sha-256\r\n",
                    b"local   all   postgres   peer\r\nhost    app   app   10.0.0.0/24   scram-sha-256\r\n"),
    # finding 22: the software's command and unit, in a shell script, Puppet, a Dockerfile
    "ldap.sh": (b"#!/bin/sh\nset -e\nvault kv get secret/ldap\nvault write auth/ldap/config url=ldap://ldap\n"
                b"systemctl reload nginx && journalctl -u vault.service\ncurl -s https://vault:8200/v1/sys/health\n",
                b"#!/bin/sh\nset -e\nvault kv get secret/ldap\nvault write auth/ldap/config url=ldap://ldap\n"
                b"systemctl reload nginx && journalctl -u vault.service\ncurl -s https://secrets:8200/v1/sys/health\n"),
    "site.pp": (b"systemd::dropin_file { 'limits.conf':\n  unit    => 'vault.service',\n}\n"
                b"host { 'vault': ip => '10.0.0.5' }\n",
                b"systemd::dropin_file { 'limits.conf':\n  unit    => 'vault.service',\n}\n"
                b"host { 'secrets': ip => '10.0.0.5' }\n"),
    "Dockerfile": (b"FROM nginx:1.25\nRUN nginx -t\nRUN apt-get install -y curl redis\n",
                   b"FROM nginx:1.25\nRUN nginx -t\nRUN apt-get install -y curl redis\n"),
    # the same class in code: a Go import named after the software and its qualifier, a Go module
    # path on the software's domain, a Python import (the host in its argument follows)
    "main.go": (b'package main\n\nimport (\n\t"fmt"\n\n\t"code.gitea.io/sdk/gitea"\n)\n\nfunc main() {\n'
                b'\tc, err := gitea.NewClient("https://gitea.lab.example", gitea.SetBasicAuth("a", "b"))\n'
                b'\tfmt.Println(c, err, gitea.GitServicePlain)\n}\n',
                b'package main\n\nimport (\n\t"fmt"\n\n\t"code.gitea.io/sdk/gitea"\n)\n\nfunc main() {\n'
                b'\tc, err := gitea.NewClient("https://git01.lab.example", gitea.SetBasicAuth("a", "b"))\n'
                b'\tfmt.Println(c, err, gitea.GitServicePlain)\n}\n'),
    "go.mod": (b"module example.com/tools\n\nrequire code.gitea.io/sdk/gitea v0.15.1\n",
               b"module example.com/tools\n\nrequire code.gitea.io/sdk/gitea v0.15.1\n"),
    "cache.py": (b'import redis\n\nr = redis.Redis(host="redis", port=6379)\n',
                 b'import redis\n\nr = redis.Redis(host="cache01", port=6379)\n'),
    # finding 25: label keys (compose list and map, Dockerfile LABEL, k8s annotations); values follow
    "labels.yaml": (
        b"services:\n  app:\n    labels:\n      - traefik.enable=true\n"
        b"      - traefik.http.routers.app.rule=Host(`app.lab.example`)\n      - homepage.group=Media\n"
        b"      - homepage.href=http://homepage:3000/\n  web:\n    labels:\n      traefik.enable: \"true\"\n"
        b"      homepage.name: web\n",
        b"services:\n  app:\n    labels:\n      - traefik.enable=true\n"
        b"      - traefik.http.routers.app.rule=Host(`app.lab.example`)\n      - homepage.group=Media\n"
        b"      - homepage.href=http://dash01:3000/\n  web:\n    labels:\n      traefik.enable: \"true\"\n"
        b"      homepage.name: web\n"),
    "web.Dockerfile": (b"FROM alpine\nLABEL traefik.enable=true homepage.group=Tools\n",
                       b"FROM alpine\nLABEL traefik.enable=true homepage.group=Tools\n"),
    # finding 11: API groups (apiVersion, RBAC apiGroups), the schema URL's path; finding 06: a
    # software's container and port names
    "dash.yaml": (
        b"\xef\xbb\xbf---\n# yaml-language-server: $schema=https://k8s-schemas.example.io/grafana.integreatly.org/"
        b"grafanadashboard_v1beta1.json\napiVersion: grafana.integreatly.org/v1beta1\nkind: GrafanaDashboard\n"
        b"metadata:\n  name: node\nspec:\n  url: https://grafana.com/api/dashboards/1860/revisions/37/download\n"
        b"---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: r\nrules:\n"
        b"  - apiGroups: [\"grafana.integreatly.org\"]\n    resources: [\"*\"]\n    verbs: [get]\n",
        b"\xef\xbb\xbf---\n# yaml-language-server: $schema=https://k8s-schemas.example.io/grafana.integreatly.org/"
        b"grafanadashboard_v1beta1.json\napiVersion: grafana.integreatly.org/v1beta1\nkind: GrafanaDashboard\n"
        b"metadata:\n  name: node\nspec:\n  url: https://grafana.com/api/dashboards/1860/revisions/37/download\n"
        b"---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: r\nrules:\n"
        b"  - apiGroups: [\"grafana.integreatly.org\"]\n    resources: [\"*\"]\n    verbs: [get]\n"),
    "instance.yaml": (
        b"apiVersion: grafana.integreatly.org/v1beta1\nkind: Grafana\nmetadata:\n  name: main\nspec:\n"
        b"  config:\n    server:\n      root_url: https://grafana.lab.example\n  deployment:\n    spec:\n"
        b"      template:\n        spec:\n          containers:\n            - name: grafana\n"
        b"              ports:\n                - name: grafana\n                  containerPort: 3000\n"
        b"---\napiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata:\n  name: main\nspec:\n"
        b"  endpoints:\n    - port: grafana\n      path: /metrics\n",
        b"apiVersion: grafana.integreatly.org/v1beta1\nkind: Grafana\nmetadata:\n  name: main\nspec:\n"
        b"  config:\n    server:\n      root_url: https://dash02.lab.example\n  deployment:\n    spec:\n"
        b"      template:\n        spec:\n          containers:\n            - name: grafana\n"
        b"              ports:\n                - name: grafana\n                  containerPort: 3000\n"
        b"---\napiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata:\n  name: main\nspec:\n"
        b"  endpoints:\n    - port: grafana\n      path: /metrics\n"),
    # finding 24: a common noun and a vendor's product in prose (Markdown, a YAML comment, Latin-1)
    "README.md": (b"Set the `sm_creds` variable (perhaps from a vault) in group_vars.\n"
                  b"Consider a vault if you need secure passwords.\nThe Puppet server runs on vault (https://vault:8200).\n",
                  b"Set the `sm_creds` variable (perhaps from a vault) in group_vars.\n"
                  b"Consider a vault if you need secure passwords.\nThe Puppet server runs on secrets (https://secrets:8200).\n"),
    "backup.yml": (b"# backup the hashicorp vault to a location duplicati picks up\n"
                   b"- name: Get token from the HashiCorp vault\n  ansible.builtin.uri: {url: \"https://vault:8200/\"}\n",
                   b"# backup the hashicorp vault to a location duplicati picks up\n"
                   b"- name: Get token from the HashiCorp vault\n  ansible.builtin.uri: {url: \"https://secrets:8200/\"}\n"),
    "notes.txt": (b"Caf\xe9: an nginx in front of it; ssh to nginx for the logs.\n",
                  b"Caf\xe9: an nginx in front of it; ssh to proxy01 for the logs.\n"),
}
REASONS = {"scheme", "software", "label-key", "api-group", "container-port", "prose-noun", "image", "package"}


def _parses(root: Path) -> None:
    """The swept files still parse where the tool that reads them is here."""
    for path in ("compose.yaml", "site.yml", "labels.yaml", "dash.yaml", "instance.yaml", "backup.yml"):
        if shutil.which("yq"):
            subprocess.run(["yq", ".", str(root / path)], check=True, capture_output=True)
    if shutil.which("node"):
        subprocess.run(["node", "--check", str(root / "client.js")], check=True, capture_output=True)
    subprocess.run(["bash", "-n", str(root / "ldap.sh")], check=True)
    subprocess.run([sys.executable, "-m", "py_compile", str(root / "cache.py")], check=True)


def test_round24_the_softwares_own_names_are_kept_the_hosts_follow(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({path: before for path, (before, _) in CASES.items()}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout
    for path, (_, after) in CASES.items():
        assert (root / path).read_bytes() == after, path
    _parses(root)
    verified = run(root, "verify")
    assert verified.exit_code == 0, verified.stdout
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = {(r["path"], r["reason"]) for r in audit["references"] if r["status"] == "kept"}
    for path, reason in [("compose.yaml", "scheme"), ("app.env", "scheme"), ("client.js", "scheme"),
                         ("site.yml", "software"), ("proxy.conf", "software"), ("www.conf", "software"),
                         ("pg_hba.conf", "software"), ("ldap.sh", "software"), ("site.pp", "software"),
                         ("Dockerfile", "software"), ("labels.yaml", "label-key"), ("main.go", "package"),
                         ("go.mod", "repository"), ("cache.py", "package"),  # (a Go module path: t36 20)
                         ("web.Dockerfile", "label-key"), ("dash.yaml", "api-group"),
                         ("instance.yaml", "container-port"), ("README.md", "prose-noun"),
                         ("backup.yml", "prose-noun"), ("notes.txt", "prose-noun")]:
        assert (path, reason) in kept, (path, reason, sorted(kept))
    assert {reason for _, reason in kept} <= REASONS | {"public-domain", "account", "repository"}


@pytest.mark.parametrize(("path", "text"), [
    ("ingress.yaml", "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: app\n  annotations:\n"
                     "    kubernetes.io/ingress.class: nginx\nspec:\n  rules:\n    - host: app.lab.example\n"),
    ("ingress2.yaml", "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: app\nspec:\n"
                      "  ingressClassName: traefik\n"),
    ("gw.yaml", "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: gw\nspec:\n"
                "  gatewayClassName: traefik\n"),
    # a chart's values (app-template's `ingress.main.className`, khuedoan/homelab's apps/*/values.yaml)
    ("apps/blog/values.yaml", "app-template:\n  ingress:\n    main:\n      enabled: true\n      className: nginx\n"),
])
def test_round24_a_class_an_ingress_is_served_by_is_an_identity(
        path: str, text: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Finding 25: `ingressClassName: traefik` renamed alone names no IngressClass: an `identity`
    residual as `storageClassName` is; verify fails, nothing written."""
    files = {path: text}
    if path.endswith("values.yaml"):  # a chart's values: its Chart.yaml beside it
        files[path.replace("values.yaml", "Chart.yaml")] = (
            "apiVersion: v2\nname: blog\nversion: 0.1.0\ndependencies:\n  - name: app-template\n"
            "    version: 3.0.0\n    repository: https://bjw-s.github.io/helm-charts\n")
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [(f["path"], f["reason"]) for f in found] == [(path, "identity")]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / path).read_text() == text


def test_round24_a_container_named_after_its_host_still_follows(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """A container or port named like a host that is no software's (`- name: web01` beside
    `image: busybox`) follows the host as before; only a software's name is kept."""
    text = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: web01\n"
            "      image: busybox\n      ports:\n        - name: web01\n          containerPort: 80\n")
    root = repo({"pod.yaml": text}, config="version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n",
                allowlist=ALLOW)
    run(root, "sweep", "--commit", "--allow-identity")
    assert (root / "pod.yaml").read_text() == text.replace("web01", "app01")


def test_a_dashboard_icon_is_the_softwares_the_hosts_url_beside_it_follows(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The lead's trial on zwolsman/homelab (`grafana -> dash01`): Glance's `glance/icon: di:grafana`
    became `di:dash01`, an icon no set has. The icon set's name stays `software`; the ingress host
    and the URL beside it follow."""
    app = ("apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: monitoring\n"
           "  annotations:\n    glance/icon: di:grafana\n    gethomepage.dev/icon: grafana.png\n"
           "    gethomepage.dev/href: https://grafana.lab.example\n"
           "spec:\n  source:\n    helm:\n      valuesObject:\n        ingress:\n          hosts:\n"
           "            - grafana.lab.example\n")
    dash = "- Monitoring:\r\n    icon: si-grafana\r\n    href: http://grafana:3000\r\n"
    root = repo({"app.yaml": app, "services.yaml": dash},
                config="version: 1\nrenames:\n  hosts: {grafana: dash01}\nallowlist: allow.yaml\n",
                allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    swept = (root / "app.yaml").read_text()
    assert "glance/icon: di:grafana\n" in swept and "gethomepage.dev/icon: grafana.png\n" in swept
    assert "https://dash01.lab.example" in swept and "- dash01.lab.example" in swept
    assert (root / "services.yaml").read_bytes() == dash.replace("http://grafana", "http://dash01").encode()
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = [(r["path"], r["line"]) for r in audit["references"] if r.get("reason") == "software"]
    assert kept == [("app.yaml", 6), ("app.yaml", 7)]  # `si-grafana` is one word: no host's at all
