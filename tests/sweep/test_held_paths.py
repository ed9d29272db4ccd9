"""How a token is read as a repo path (sweep/held_paths.py); the behaviour end to end is in
tests/cli/test_held_paths.py."""

from __future__ import annotations

import pytest

from renamer.sweep.held_paths import Hold, _folder, _Resolver, _token
from renamer.sweep.model import KEPT, RESIDUAL

HELD = {"hosts/pug": Hold(RESIDUAL, "state-name", frozenset({"pug"})),
        "hosts/pug/compose.yaml": Hold(RESIDUAL, "state-name", frozenset({"pug"})),
        "roles/web/files/pug": Hold(KEPT, "keep-paths", frozenset({"pug"})),
        "roles/web/files/pug/app.conf": Hold(KEPT, "keep-paths", frozenset({"pug"})),
        "/mnt/pug": Hold(RESIDUAL, "the mount point of mnt-pug.mount, held unit-name", frozenset({"pug"}))}
LISTED = ["hosts/pug/compose.yaml", "roles/web/files/pug/app.conf", "stacks/pug/compose.yml", "deploy.sh"]


@pytest.mark.parametrize(("rel", "token", "target"), [
    ("deploy.sh", "hosts/pug/compose.yaml", "hosts/pug/compose.yaml"),
    ("deploy.sh", "./hosts/pug/", "hosts/pug"),
    ("docs/a.md", "../hosts/pug/compose.yaml", "hosts/pug/compose.yaml"),
    ("docs/a.md", "/srv/infra/hosts/pug/compose.yaml", "hosts/pug/compose.yaml"),  # a checkout elsewhere
    ("x.sh", "pug/compose.yaml", "hosts/pug/compose.yaml"),  # a tail of two components
    ("deploy.sh", "../../infra/hosts/pug", "hosts/pug"),  # out of the repo: another checkout of it
    ("roles/web/tasks/main.yml", "pug/app.conf", "roles/web/files/pug/app.conf"),  # a role's files/
    ("units/b.service", "/mnt/pug/", "/mnt/pug"),
    ("units/b.service", "/mnt/pug/data/x", "/mnt/pug"),
    # none: a path the sweep moves, no repo path, a bare word, a longer name
    ("deploy.sh", "stacks/pug/compose.yml", None),
    ("deploy.sh", "/opt/pug/data", None),
    ("deploy.sh", "pug", None),
    ("deploy.sh", "/srv/mnt/pug", None),
])
def test_a_token_names_a_held_path_only_where_it_reads_as_one(rel: str, token: str, target: str | None) -> None:
    assert _Resolver(HELD, LISTED).resolve(rel, token) == target


def test_the_token_and_the_folder_around_a_match() -> None:
    data = b"  - path_regex: hosts/pug/secrets.ya?ml$\n"
    start = data.index(b"pug")
    assert _token(data, start, start + 3) == "hosts/pug/secrets.ya?ml$"  # a glob's `?` stays in it
    assert _token(data, start, start + 3, b"wolf") == "hosts/wolf/secrets.ya?ml$"
    assert _folder(data, start, start + 3) == "hosts/pug"
    tail = b"cp hosts/pug x"
    assert _folder(tail, tail.index(b"pug"), tail.index(b"pug") + 3) is None  # the last component: no folder


@pytest.mark.parametrize(("line", "path"), [
    (b"xcopy hosts\\pug\\app.conf C:\\", "hosts/pug/app.conf"),
    (b"for f in hosts/{pug,rex}/app.conf; do", "hosts/pug/app.conf"),
    (b"for f in hosts/{rex,pug}/app.conf; do", "hosts/pug/app.conf"),
    (b"scp a.conf,hosts/pug/app.conf b:", "hosts/pug/app.conf"),
    (b"cat ${REPO}/hosts/pug/app.conf", "{}/hosts/pug/app.conf"),
    (b"cat $REPO/hosts/pug/app.conf", "{}/hosts/pug/app.conf"),
    (b"ssh pug.lab.lan true", None),  # the name alone: a host, never a path
    (b"ls pug/", "pug/"),
])
def test_the_path_a_token_spells(line: bytes, path: str | None) -> None:
    start = line.index(b"pug")
    end = start + (len(b"pug.lab.lan") if line[start:].startswith(b"pug.lab.lan") else 3)
    assert _token(line, start, end) == path
