"""A short host name followed into public domains (break-it round 23, findings 18 and 17's URLs).

Under `debian -> srv01`, chrony's `pool debian.pool.ntp.org iburst` became the NXDOMAIN
`srv01.pool.ntp.org`; `https://proxmox.com/en/downloads` became `https://pve01.com/...`;
`https://grafana.com/grafana/dashboards/1860` became `https://metrics.com/metrics/...`; sweep 0,
verify OK. Now another organisation's registrable name (and the path of a URL on it) is kept
`public-domain`, a name deeper under a public domain the renames do not show as the repo's own is
a `public-domain` residual, and the lab's names (`debian.lab.example`, `nas.lan`) still follow.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'
SHORT = "version: 1\nrenames:\n  hosts: {debian: srv01, proxmox: pve01, nas: storage01, grafana: metrics}\n" \
        "allowlist: allow.yaml\n"
# (path, text): nothing in it may change
KEPT = {
    "chrony.conf": "pool debian.pool.ntp.org iburst\npool 2.debian.pool.ntp.org iburst\n",
    "site.yml": "# ISO: https://proxmox.com/en/downloads\n# forum: https://forum.proxmox.com/threads/1\n",
    "README.md": "See nas.github.io, https://nas.co.uk/ and https://grafana.com/grafana/dashboards/1860.\n",
    "Chart.yaml": "apiVersion: v2\nname: mon\ndependencies:\n  - name: x\n    repository: https://grafana.github.io/helm-charts\n",
}
# (path, text, after): the lab's own names follow
FOLLOWS = {
    "chrony-lab.conf": ("server debian.lab.example iburst\nserver nas.lan iburst\n",
                        "server srv01.lab.example iburst\nserver storage01.lan iburst\n"),
    "inventory.ini": ("[pve]\nproxmox ansible_host=proxmox.home.arpa\n[mon]\ngrafana\n",
                      "[pve]\npve01 ansible_host=pve01.home.arpa\n[mon]\nmetrics\n"),
    "hosts.md": ("Run `debian.sh` on debian; its vars are in host_vars/debian.yml.\n",
                 "Run `srv01.sh` on srv01; its vars are in host_vars/srv01.yml.\n"),
    "notify.sh": ("curl -X POST http://grafana:3000/api/annotations\n",
                  "curl -X POST http://metrics:3000/api/annotations\n"),
}


def _findings(root: Path, run: Callable[..., Result]) -> list[dict[str, object]]:
    return list(json.loads(run(root, "verify", "--format", "json").stdout)["findings"])


def test_round23_public_domains_are_kept_the_lab_names_follow(repo: Callable[..., Path],
                                                               run: Callable[..., Result]) -> None:
    files = {**KEPT, **{path: before for path, (before, _) in FOLLOWS.items()}}
    root = repo(files, config=SHORT, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout
    for path, text in KEPT.items():
        assert (root / path).read_text() == text, path
    for path, (_, after) in FOLLOWS.items():
        assert (root / path).read_text() == after, path
    assert run(root, "verify").exit_code == 0
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = {(r["path"], r["line"]) for r in audit["references"]
            if r["status"] == "kept" and r["reason"] == "public-domain"}
    # (`2.debian.pool.ntp.org`, `forum.proxmox.com`: a name inside a longer one, never a match)
    assert kept == {("chrony.conf", 1), ("site.yml", 1), ("README.md", 1), ("Chart.yaml", 5)}


@pytest.mark.parametrize(("text", "line"), [
    ("server debian.mycorp.de iburst\n", 1),  # a company domain the renames never name
    ("api: https://proxmox.tailnet-abc.ts.net:8006\n", 1),
])
def test_round23_deeper_under_a_public_domain_not_shown_as_own_is_a_residual(
        text: str, line: int, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"a.conf": text}, config=SHORT, allowlist=ALLOW)
    found = [f for f in _findings(root, run) if f.get("reason") == "public-domain"]
    assert [(f["path"], f["line"]) for f in found] == [("a.conf", line)]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1
    assert (root / "a.conf").read_text() == text
    assert run(root, "verify").exit_code == 1


def test_round23_a_domain_the_renames_name_is_the_repos_own(repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    config = SHORT.replace("grafana: metrics}", "grafana: metrics, web01.mycorp.de: app01.mycorp.de}")
    root = repo({"a.conf": "server debian.mycorp.de iburst\nserver web01.mycorp.de\n"}, config=config,
                allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "a.conf").read_text() == "server srv01.mycorp.de iburst\nserver app01.mycorp.de\n"
    assert run(root, "verify").exit_code == 0


# Break-it round 24, findings 04, 21, 29: a URL's host under a TLD outside the bare-name list, an
# npm scope, a path on a distribution's mirror, an owned domain that climbed into a public suffix.
R24 = ("version: 1\nrenames:\n  hosts: {ntfy: push01, linkding: links01, grafana: metrics, debian: srv01, "
       "ubuntu: box01, proxmox: pve01, nas: store01, \"docs.mycorp.co.uk\": \"wiki.mycorp.co.uk\", "
       "\"git.acme.com.au\": \"code.acme.com.au\"}\nallowlist: allow.yaml\n")
R24_KEPT: dict[str, bytes] = {
    "alert.sh": b"#!/bin/sh\ncurl -d 'backup failed' https://ntfy.sh/homelab-alerts\n",
    "links.md": b"Bookmarks: <https://linkding.link/> and https://grafana.video/x\n",
    "package.json": b'{\n  "dependencies": {"@grafana/ui": "^10.0.0", "@grafana/data": "10.0.0"}\n}\n',
    "deps.sh": b"#!/bin/sh\nnpm install @grafana/ui\nyarn add @grafana/data\n",
    "sources.list": (b"deb http://deb.debian.org/debian bookworm main\r\n"
                     b"deb http://download.proxmox.com/debian/pve bookworm pve-no-subscription\r\n"
                     b"deb http://archive.ubuntu.com/ubuntu jammy main\r\n"),
    "bookworm.sources": b"Types: deb\nURIs: https://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n",
    "apt.yml": b'- ansible.builtin.apt_repository:\n    repo: "deb http://deb.debian.org/debian bookworm-backports main"\n',
    "mirrors.md": (b"mirror: https://nas.co.uk/pub, https://grafana.co.uk/ and https://nas.com.au/\n"
                   b"also http://ftp.uk.debian.org/debian/ and https://nas.co.za/x\n"),
}
R24_FOLLOWS: dict[str, tuple[bytes, bytes]] = {
    "hosts.txt": (b"metrics host: grafana:3000\nssh root@debian\nlinkding:9090\n",
                  b"metrics host: metrics:3000\nssh root@srv01\nlinks01:9090\n"),
    "local.md": (b"local: https://nas.mycorp.co.uk/ and https://nas.acme.com.au/debian/\n"
                 b"proxy: http://proxy.lab.example/grafana/ and http://pug.db:5432/debian\n",
                 b"local: https://store01.mycorp.co.uk/ and https://store01.acme.com.au/srv01/\n"
                 b"proxy: http://proxy.lab.example/metrics/ and http://pug.db:5432/srv01\n"),
}


def test_round24_urls_npm_scopes_mirror_paths_and_public_suffixes_are_kept(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files: dict[str, str | bytes] = {**R24_KEPT, **{path: before for path, (before, _) in R24_FOLLOWS.items()}}
    root = repo(files, config=R24, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout
    for path, text in R24_KEPT.items():
        assert (root / path).read_bytes() == text, path
    for path, (_, after) in R24_FOLLOWS.items():
        assert (root / path).read_bytes() == after, path
    subprocess.run(["jq", ".", str(root / "package.json")], check=True, capture_output=True)
    assert run(root, "verify").exit_code == 0
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = {(r["path"], r["reason"]) for r in audit["references"] if r["status"] == "kept"}
    assert {("alert.sh", "public-domain"), ("links.md", "public-domain"), ("package.json", "package"),
            ("deps.sh", "package"), ("sources.list", "public-domain"), ("bookworm.sources", "public-domain"),
            ("apt.yml", "public-domain"), ("mirrors.md", "public-domain")} <= kept, sorted(kept)


def test_round24_a_public_suffix_is_nobodys_own() -> None:
    """`docs.mycorp.co.uk` owns `mycorp.co.uk`, never `co.uk` (finding 29)."""
    from renamer import public_domains

    own = public_domains.own_domains([("docs.mycorp.co.uk", "wiki.mycorp.co.uk"), ("a.b.acme.com.au", "c")])
    assert own == frozenset({"mycorp.co.uk", "b.acme.com.au", "acme.com.au"})
