"""A key's file path is shown in every output, so that a rename of it can be reviewed (break-it
round 5, finding 8): `ssh_private_key_file: ~/.ssh/pug.pem` renamed to `wolf.pem` was `****` on both
sides of the dry run's diff. Inline key material under the same names (PEM armour, a base64 run,
an access key id) and any value of a name for the secret itself stay masked, in the diff, verify,
audit, explain and their JSON and SARIF alike; `--show-secrets` still prints the exact bytes."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import make_repo

Run = Callable[..., Result]
CONFIG = ("version: 1\nrenames:\n  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}\n"
          "  addresses: {10.0.0.5: 10.1.0.5}\nallowlist: allow.yaml\n")
ALLOW = "version: 1\ncurrent: ['**']\n"
# (file, line, its path): each path names the old host, so every output shows its line.
PATHS = [
    ("group_vars/all.yml", "ssh_private_key_file: ~/.ssh/pug.pem", "~/.ssh/pug.pem"),
    ("group_vars/all.yml", "private_key_path: /etc/ssl/private/pug.key", "/etc/ssl/private/pug.key"),
    ("group_vars/all.yml", "key_file: ./certs/pug.ana.lan.pem", "./certs/pug.ana.lan.pem"),
    ("group_vars/all.yml", "tls_key: ../tls/pug/server.key", "../tls/pug/server.key"),
    ("group_vars/all.yml", "vm: {private_key: /srv/keys/pug.pem, user: op}", "/srv/keys/pug.pem"),
    ("inventory.ini", "pug ansible_ssh_private_key_file=/home/op/.ssh/pug_ed25519.pem",
     "/home/op/.ssh/pug_ed25519.pem"),
    ("ssh/config", "  IdentityFile ~/.ssh/pug/id_ed25519", "~/.ssh/pug/id_ed25519"),
    (".env", "SSH_KEY=~/.ssh/pug.pem  # deploy key", "~/.ssh/pug.pem"),
    ("app.json", '{"tls_key_file": "/etc/tls/pug.key", "port": 443}', "/etc/tls/pug.key"),
    ("deploy.sh", "ansible-playbook --private-key ~/.ssh/pug.pem -l pug site.yml", "~/.ssh/pug.pem"),
]
# (file, line, the secret): key material and the secret itself, on lines naming the old host.
SECRETS = [
    ("group_vars/all.yml", "vault: {host: pug, private_key: MC4CAQAwBQYDK2VwBCIEIOe0Xq}", "MC4CAQAwBQYDK2VwBCIEIOe0Xq"),
    ("group_vars/all.yml", "aws: {host: pug.ana.lan, key: AKIAZQ7PUGEXAMPLE123}", "AKIAZQ7PUGEXAMPLE123"),
    ("group_vars/all.yml", "db: {host: pug, password: /Zq9pugpass}", "/Zq9pugpass"),
    (".env", "PUG_HOST=pug\nAPI_TOKEN=../Zq8tok # pug", "../Zq8tok"),
    ("deploy.sh", "sshpass -p Zq7sshpw ssh pug", "Zq7sshpw"),
]
OUTPUTS = [
    ("verify",), ("verify", "--format", "json"), ("verify", "--format", "sarif"), ("audit",),
    ("audit", "--format", "markdown"), ("audit", "--format", "json"), ("explain", "group_vars/all.yml"),
    ("explain", "group_vars/all.yml", "--format", "json"), ("sweep", "--dry-run"),
    ("sweep", "--dry-run", "--format", "json"),
]
# Outputs that name places without their lines (SARIF's locations, audit's markdown list, the
# dry run's edit list): nothing there to show or mask, only nothing to leak.
NO_LINES = {("verify", "--format", "sarif"), ("audit", "--format", "markdown"), ("sweep", "--dry-run", "--format", "json")}


def _repo(root: Path) -> Path:
    files: dict[str, str] = {}
    for name, line, _ in PATHS:
        files[name] = files.get(name, "") + line + "\n"
    for name, line, _ in SECRETS:
        files[name] = files.get(name, "") + line + "\n"
    return make_repo(root, files, config=CONFIG, allowlist=ALLOW)


@pytest.mark.parametrize("args", [pytest.param(args, id="-".join(args)) for args in OUTPUTS])
def test_every_output_shows_a_key_s_path_and_masks_the_material(tmp_path: Path, run: Run,
                                                                args: tuple[str, ...]) -> None:
    root = _repo(tmp_path / "repo")
    result = run(root, *args)
    shown = result.stdout + result.stderr
    if args[-1] == "json" or "sarif" in args:
        shown = json.dumps(json.loads(result.stdout))  # the same text, as a JSON string holds it
    for name, line, path in PATHS:
        if args not in NO_LINES and (args[0] != "explain" or name == "group_vars/all.yml"):
            assert path in shown, (args, line)
    assert [secret for _, _, secret in SECRETS if secret in shown] == [], args


def test_the_diff_shows_both_sides_of_a_path_and_counts_only_the_lines_it_masked(tmp_path: Path, run: Run) -> None:
    root = _repo(tmp_path / "repo")
    masked = run(root, "sweep", "--dry-run")
    assert masked.exit_code == 0
    for before, after in [("ssh_private_key_file: ~/.ssh/pug.pem", "ssh_private_key_file: ~/.ssh/wolf.pem"),
                          ("private_key_path: /etc/ssl/private/pug.key", "private_key_path: /etc/ssl/private/wolf.key"),
                          ("  IdentityFile ~/.ssh/pug/id_ed25519", "  IdentityFile ~/.ssh/wolf/id_ed25519"),
                          ("SSH_KEY=~/.ssh/pug.pem  # deploy key", "SSH_KEY=~/.ssh/wolf.pem  # deploy key"),
                          ("--private-key ~/.ssh/pug.pem -l pug", "--private-key ~/.ssh/wolf.pem -l wolf")]:
        assert any(x.startswith("-") and before in x for x in masked.stdout.splitlines()), before
        assert any(x.startswith("+") and after in x for x in masked.stdout.splitlines()), after
    exact = run(root, "sweep", "--dry-run", "--show-secrets")
    differ = [pair for pair in zip(masked.stdout.splitlines(), exact.stdout.splitlines(), strict=True)
              if pair[0] != pair[1]]
    assert all("****" in shown and "****" not in real for shown, real in differ)
    # every secret line names the old host: removed and added, each masked; no path line among them
    assert len(differ) == 2 * len(SECRETS)
    assert not any(path in shown for shown, _ in differ for _, _, path in PATHS)
    assert f"renamer: {len(differ)} diff lines hold secrets, masked (****)" in masked.stderr
    # --show-secrets: exact bytes, which git applies to a clone as the sweep writes them
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(root), str(clone)], check=True)
    subprocess.run(["git", "apply"], input=exact.stdout.encode(), cwd=clone, check=True)
    assert run(root, "sweep", "--commit").exit_code == 0
    for name in {name for name, _, _ in PATHS}:
        assert (clone / name).read_bytes() == (root / name).read_bytes(), name


def test_a_file_holding_only_key_paths_says_nothing_of_secrets(tmp_path: Path, run: Run) -> None:
    root = make_repo(tmp_path / "repo", {"group_vars/all.yml": "".join(
        f"{line}\n" for name, line, _ in PATHS if name == "group_vars/all.yml")}, config=CONFIG, allowlist=ALLOW)
    result = run(root, "sweep", "--dry-run")
    assert "****" not in result.stdout and "hold secrets" not in result.stderr
    assert "+ssh_private_key_file: ~/.ssh/wolf.pem" in result.stdout
