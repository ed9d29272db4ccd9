"""Literal names that key state outside the repo (break-it round 23, finding 13).

`RESTIC_REPOSITORY=sftp:nas:/srv/restic/pug`, `BORG_REPO=ssh://borg@nas/./pug`, `restic -r
.../pug backup` were rewritten to `.../wolf` silently (the next run opens or creates a new, empty
repository) while `.../$(hostname -s)` was a `state-name` residual; nginx's
`/etc/letsencrypt/live/pug.ana.lan/fullchain.pem` was rewritten though certbot keeps the lineage
under its old name. Now each is a `state-name` residual, nothing rewritten, while the host part of
a location (`borg@pug.ana.lan`) and the names beside it still move.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

# name: (path, text, the lines held)
CASES = {
    "restic-env": ("backup.env", "RESTIC_REPOSITORY=sftp:nas.lan:/srv/restic/pug\n", {1}),
    "borg-env": ("borg.env", "BORG_REPO=ssh://borg@nas.lan/./pug\n", {1}),
    "restic-flag": ("backup.sh", "#!/bin/sh\nrestic -r sftp:nas.lan:/srv/restic/pug backup /etc\n", {2}),
    "kopia-repo-path": ("kopia.env", "KOPIA_REPO_PATH=/mnt/nas/kopia/pug\n", {1}),
    # round 10's own spellings, which followed as file system paths before round 23
    "restic-sftp-user": ("check.sh", "restic -r sftp:backup@nas.lan:/srv/restic/pug check\n", {1}),
    "borg-create-archive": ("borg.sh", "borg create nas.lan:/srv/borg/pug::daily /etc\n", {1}),
    "nixos-borg-repo": ("hosts/borg.nix", "{\n  services.borgbackup.jobs.x.repo = \"borg@nas.lan:/./pug\";\n}\n", {2}),
    "certbot-nginx": ("site.conf", "server {\n  server_name pug.ana.lan;\n"
                      "  ssl_certificate /etc/letsencrypt/live/pug.ana.lan/fullchain.pem;\n"
                      "  ssl_certificate_key /etc/letsencrypt/live/pug.ana.lan/privkey.pem;\n}\n", {3, 4}),
    "certbot-apache": ("vhost.conf", "<VirtualHost *:443>\n  ServerName pug.ana.lan\n"
                       "  SSLCertificateFile /etc/letsencrypt/live/pug.ana.lan/cert.pem\n</VirtualHost>\n", {3}),
    "acme-sh-haproxy": ("haproxy.cfg", "frontend https\n  bind :443 ssl crt /root/.acme.sh/pug.ana.lan_ecc/pug.ana.lan.pem\n",
                        {2}),
    "caddy-storage": ("traefik.yml", "tls:\n  certificates:\n    - certFile: /data/caddy/certificates/"
                      "acme-v02.api.letsencrypt.org-directory/pug.ana.lan/pug.ana.lan.crt\n", {3}),
}
# a location's host part is a machine the text names anew: it moves
MOVES = {
    "borg-authority": ("borg.env", "BORG_REPO=ssh://borg@pug.ana.lan/./shared\n", "BORG_REPO=ssh://borg@wolf.fv.lan/./shared\n"),
    "restic-rest-authority": ("restic.env", "RESTIC_REPOSITORY=rest:http://pug:8000/shared\n",
                              "RESTIC_REPOSITORY=rest:http://wolf:8000/shared\n"),
    "rsync-source-host": ("pull.sh", "#!/bin/sh\nrsync -a pug:/etc/ /backups/etc/\n", "#!/bin/sh\nrsync -a wolf:/etc/ /backups/etc/\n"),
    # a copy tool's literal path is the operator's folder: it follows, as before round 23 (a path
    # built from the machine's own name is a residual: tests/cli/test_own_storage*)
    "rsync-source-folder": ("push.sh", "rsync -a /srv/backups/pug/ nas.lan:/b/\n",
                            "rsync -a /srv/backups/wolf/ nas.lan:/b/\n"),
    "rsync-destination": ("sync.sh", "#!/bin/sh\nrsync -a /srv/ nas.lan:/backups/pug/\n",
                          "#!/bin/sh\nrsync -a /srv/ nas.lan:/backups/wolf/\n"),
    "server-name": ("web.conf", "server {\n  server_name pug.ana.lan;\n}\n", "server {\n  server_name wolf.fv.lan;\n}\n"),
}

# the host part moves, the repository's path beside it on the same line is held
MIXED = ("restic -r sftp:backup@pug:/srv/restic/pug check\n", "restic -r sftp:backup@wolf:/srv/restic/pug check\n")


def _held(root: Path, run: Callable[..., Result]) -> set[tuple[str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(str(f["path"]), int(f["line"])) for f in found if f.get("reason") == "state-name"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_round23_a_literal_state_location_is_a_residual(case: str, repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    path, text, lines = CASES[case]
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    assert _held(root, run) == {(path, line) for line in lines}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1
    assert all(f"{path}:{line}:" in done.stdout for line in lines)
    after = (root / path).read_text()
    for line in lines:  # the held line is byte for byte as it was
        assert after.splitlines()[line - 1] == text.splitlines()[line - 1]
    assert run(root, "verify").exit_code == 1  # never an OK


def test_round23_the_server_name_beside_the_lineage_moves(repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    path, text, _ = CASES["certbot-nginx"]
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    run(root, "sweep", "--commit")
    after = (root / path).read_text()
    assert "server_name wolf.fv.lan;" in after and "/etc/letsencrypt/live/pug.ana.lan/fullchain.pem" in after


@pytest.mark.parametrize("case", sorted(MOVES))
def test_round23_the_host_part_of_a_location_moves(case: str, repo: Callable[..., Path],
                                                   run: Callable[..., Result]) -> None:
    path, text, after = MOVES[case]
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    assert _held(root, run) == set()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).read_text() == after
    assert run(root, "verify").exit_code == 0


def test_round23_kept_with_the_marker_after_the_move(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    text = "RESTIC_REPOSITORY=sftp:nas.lan:/srv/restic/pug  # renamer: keep (repository copied)\n"
    root = repo({"backup.env": text}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify").exit_code == 0
    assert (root / "backup.env").read_text() == text


def test_round23_one_line_the_host_moves_the_repository_path_stays(repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    before, after = MIXED
    root = repo({"check.sh": before}, config=CONFIG, allowlist=ALLOW)
    assert _held(root, run) == {("check.sh", 1)}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "check.sh").read_text() == after
