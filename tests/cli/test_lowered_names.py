"""A mixed-case host name the repo lower-cases at run time, and its lower-case literals (break-it
round 25, finding 15; real repo xerhaxs/nixos).

Under `NixOS-Server1 -> NixOS-Store1`, `config.sops.secrets."syncthing/${lib.toLower
config.networking.hostName}/cert"` met a declared `"syncthing/nixos-server1/cert"`: the sweep renamed
hostName, the lookup became `nixos-store1`, declared nowhere, and the literal was only a `near-miss
(case)`: sweep 0, plain verify OK, the NixOS evaluation broken. Now, where the tree lower-cases a
host's name (Nix `toLower`, Jinja `| lower`, Terraform `lower()`, shell `${VAR,,}`), each whole
lower-case literal of the old name (text or path) is a residual `composed-name` naming the lowering,
nothing rewritten, sweep 1, verify fails; with no such lowering it stays the near-miss it was.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  hosts: {NixOS-Server1: NixOS-Store1}\nallowlist: allow.yaml\n"
ALLOW = 'version: 1\ncurrent: ["**"]\n'
SOPS = '{ ... }: {\n  sops.secrets = {\n    "syncthing/nixos-server1/cert" = { };\n  };\n}\n'

# name: (files, {(path, line) of each residual}); line 0 is the path
CASES: dict[str, tuple[dict[str, str | bytes], set[tuple[str, int]]]] = {
    "nix-tolower": ({
        "hosts/server/default.nix": '{ config, lib, ... }: {\n  networking.hostName = "NixOS-Server1";\n'
                                    '  services.syncthing.cert = config.sops.secrets."syncthing/${lib.toLower '
                                    'config.networking.hostName}/cert".path;\n}\n',
        "modules/sops.nix": SOPS,
        "secrets/secrets.yaml": b"nixos-server1:\r\n    cert: ENC[x]\r\n"}, {
        ("modules/sops.nix", 3), ("secrets/secrets.yaml", 1)}),
    "jinja-lower": ({
        "site.yml": '- hosts: all\n  tasks:\n    - ansible.builtin.copy:\n'
                    '        src: "certs/{{ inventory_hostname | lower }}.pem"\n        dest: /etc/ssl/host.pem\n',
        "inventory": "NixOS-Server1 ansible_host=10.75.0.21\n",
        "certs/nixos-server1.pem": "x\n"}, {("certs/nixos-server1.pem", 0)}),
    "terraform-lower": ({
        "main.tf": 'variable "hostname" { default = "NixOS-Server1" }\n'
                   'locals {\n  ips = { "nixos-server1" = "10.75.0.21" }\n'
                   '  ip  = local.ips[lower(var.hostname)]\n}\n'}, {("main.tf", 3)}),
    "shell-lowercase": ({
        "backup.sh": '#!/bin/bash\nHOST=NixOS-Server1\nrsync -a /etc "nas:/srv/${HOST,,}/"\n',
        "nas/paths.txt": "/srv/nixos-server1/\n"}, {("nas/paths.txt", 1)}),
}


def _residuals(root: Path, run: Callable[..., Result]) -> set[tuple[str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(str(f["path"]), int(f["line"])) for f in found if f.get("reason") == "composed-name"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_round25_a_lowered_names_literal_is_a_residual(case: str, repo: Callable[..., Path],
                                                       run: Callable[..., Result]) -> None:
    files, held = CASES[case]
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run) == held
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "composed-name" in done.stdout and "in lower case, as the repo computes" in done.stdout
    for path, line in held:  # nothing of the literal rewritten, the path kept
        data = (root / path).read_bytes()
        assert (line == 0 or b"nixos-server1" in data) and b"nixos-store1" not in data
    assert run(root, "verify").exit_code == 1  # never an OK
    for path in files:
        if path.endswith(".yml"):
            yaml.safe_load((root / path).read_text())
        if path.endswith(".sh"):
            subprocess.run(["bash", "-n", str(root / path)], check=True)


def test_round25_without_a_lowering_it_stays_a_near_miss(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    root = repo({"hosts/server/default.nix": '{\n  networking.hostName = "NixOS-Server1";\n  x = lib.toLower env;\n}\n',
                 "modules/sops.nix": SOPS}, config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run) == set()
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "modules/sops.nix").read_text() == SOPS
    verified = run(root, "verify")
    assert verified.exit_code == 0 and "near-miss (case)" in verified.stdout
