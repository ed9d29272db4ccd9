"""Composed names through a template's environment lookup (break-it round 17, finding 11): Traefik's
file-provider rule ``Host(`{{ env "HOST" }}.ana.lan`)`` and gomplate's `{{ getenv "HOST" }}.ana.lan`
over `HOST=pug` in the `.env` the service reads kept `.ana.lan` while `HOST=wolf` was written:
both made wolf.ana.lan, verify OK. Now the lookup reads as `${HOST}` does: the literal domain
follows where one domain is right for every value, else a `composed-name` residual."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.findings import places

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\ncurrent: ["**"]\n'
COMPOSE = "services:\n  app:\n    image: x\n    env_file: .env\n"


def _composed(root: Path, run: Callable[..., Result]) -> list[tuple[str, int]]:
    return places(root, run, "composed-name")


LOOKUPS = [
    pytest.param("dynamic/routers.yml", 'http:\n  routers:\n    r:\n      rule: Host(`{{ env "HOST" }}.ana.lan`)\n',
                 'rule: Host(`{{ env "HOST" }}.fv.lan`)', id="traefik-env"),
    pytest.param("site.conf.tmpl", 'upstream {{ getenv "HOST" }}.ana.lan:8080;\n',
                 'upstream {{ getenv "HOST" }}.fv.lan:8080;', id="gomplate-getenv"),
    pytest.param("site.conf.tmpl", 'upstream {{ getenv "HOST" "pug" }}.ana.lan;\n',
                 'upstream {{ getenv "HOST" "wolf" }}.fv.lan;', id="gomplate-getenv-default-word-follows"),
    pytest.param("site.conf.tmpl", 'server {{- env.Getenv "HOST" -}}.ana.lan\n',
                 'server {{- env.Getenv "HOST" -}}.fv.lan', id="gomplate-namespace-trimmed"),
    pytest.param("consul.ctmpl", 'address = "{{ env "HOST" | default "pug" }}.ana.lan"\n',
                 'address = "{{ env "HOST" | default "wolf" }}.fv.lan"', id="sprig-default"),
    pytest.param("tasks.yml", "- debug: {msg: \"{{ lookup('ansible.builtin.env', 'HOST') }}.ana.lan\"}\n",
                 "- debug: {msg: \"{{ lookup('ansible.builtin.env', 'HOST') }}.fv.lan\"}", id="ansible-env-lookup"),
]


@pytest.mark.parametrize(("path", "text", "after"), LOOKUPS)
def test_an_env_lookup_before_a_literal_domain_follows_its_one_value(path: str, text: str, after: str,
                                                                     repo: Callable[..., Path],
                                                                     run: Callable[..., Result]) -> None:
    root = repo({"svc/.env": "HOST=pug\n", "svc/compose.yaml": COMPOSE, f"svc/{path}": text},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "svc/.env").read_text() == "HOST=wolf\n"
    assert after in (root / f"svc/{path}").read_text()  # wolf joined to its new domain, as the tool renders it
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("text", [
    pytest.param('rule: Host(`{{ env "HOST" }}.ana.lan`)\n', id="traefik-env"),
    pytest.param('upstream {{ getenv "HOST" }}.ana.lan;\n', id="gomplate-getenv"),
])
def test_an_env_lookup_over_a_moving_and_a_staying_value_is_a_residual(text: str, repo: Callable[..., Path],
                                                                        run: Callable[..., Result]) -> None:
    files = {"svc/.env": "HOST=pug\n", "svc/other.env": "HOST=rex\n", "svc/compose.yaml": COMPOSE, "svc/t.tmpl": text}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert ("svc/t.tmpl", 1) in _composed(root, run)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "svc/t.tmpl").read_text() == text
