"""A campaign's world on the local disk: bare repositories as the remotes, a user's checkout cloned
from one of them, and a campaign.yaml naming them (renamer campaign's tests)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from tests.testing.repos import ALLOWLIST, CONFIG, Files, git, make_repo

CAMPAIGN = """\
version: 1
name: fv-ml1-move
renames:
  hosts: {ana-ml2: fv-ml1}
  addresses: {10.250.50.54: 10.251.50.54}
allowlist: shared-allow.yaml
work_dir: .campaign
repos:
  - name: infra
    url: ../checkouts/infra
  - name: gateway
    url: ../remotes/gateway.git
  - name: apps
    url: ../remotes/apps.git
    depends_on: [infra]
"""
SHARED_ALLOW = 'version: 1\ncurrent: ["stacks/**"]\n'
BRANCH = "renamer/fv-ml1-move"

INFRA: Files = {
    "runbook.md": "ssh root@ana-ml2\n",
    "stacks/ana-ml2.env": "HOST=ana-ml2\nADDR=10.250.50.54\n",
    "persistent-memory.d/2026-09-01-kv.md": "moved kv cache off ana-ml2\n",
}
GATEWAY: Files = {"litellm/config.yaml": "api_base: http://10.250.50.54:8016/v1\n"}
APPS: Files = {"stacks/web/app.env": "API=http://ana-ml2:8000\n"}  # no renamer.yaml: the shared allowlist


@dataclass(frozen=True)
class World:
    root: Path
    campaign: Path  # campaign.yaml
    checkout: Path  # the user's checkout of infra (its origin: remotes/infra.git)

    def remote(self, name: str) -> Path:
        return self.root / "remotes" / f"{name}.git"

    def clone(self, name: str) -> Path:
        return self.campaign.parent / ".campaign" / name

    def refs(self, name: str) -> dict[str, str]:
        """Every ref of the bare remote `name`: ref -> sha."""
        out = git(self.remote(name), "for-each-ref", "--format=%(refname) %(objectname)")
        return dict(tuple(line.split(" ", 1)) for line in out.split("\n") if line)  # type: ignore[misc]


def build_world(root: Path, *, gateway: Files | None = None, infra: Files | None = None,
                campaign: str = CAMPAIGN) -> World:
    """Three remotes (infra, gateway, apps) as bare repositories, a checkout of infra, campaign.yaml."""
    sources = {"infra": (INFRA if infra is None else infra, True), "gateway": (gateway or GATEWAY, True),
               "apps": (APPS, False)}
    for name, (files, own_config) in sources.items():
        seed = make_repo(root / "seeds" / name, files, config=CONFIG if own_config else None,
                         allowlist=ALLOWLIST if own_config else None)
        (root / "remotes").mkdir(exist_ok=True)
        git(root, "clone", "-q", "--bare", str(seed), str(root / "remotes" / f"{name}.git"))
    (root / "checkouts").mkdir()
    checkout = root / "checkouts" / "infra"
    git(root, "clone", "-q", str(root / "remotes" / "infra.git"), str(checkout))
    folder = root / "campaign"
    folder.mkdir()
    (folder / "campaign.yaml").write_text(campaign)
    (folder / "shared-allow.yaml").write_text(SHARED_ALLOW)
    return World(root, folder / "campaign.yaml", checkout)


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under `folder`, .git included, by its bytes' digest (links by their target):
    a checkout byte-for-byte as it was."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out
