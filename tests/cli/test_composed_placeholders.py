"""Composed names in two more template syntaxes (break-it round 16, finding 17).

Caddy's `{$HOST}.ana.lan` (and `{env.HOST}`) read HOST from the environment its compose service's
`env_file` gives: with `pug.ana.lan -> wolf.fv.lan` the sweep rewrote `HOST=wolf` and left the
Caddyfile's `.ana.lan`, so Caddy served wolf.ana.lan. systemd's `%H.ana.lan` / `%l.ana.lan` (the
machine's own name, like `$(hostname).ana.lan`) and cloud-init's `{{ v1.local_hostname }}.ana.lan`
gave nothing or a near-miss. Now Caddy's placeholder is read like compose's `${HOST}` (the
domain follows where every value moves to one domain), and the machine's own name is a
`composed-name` residual wherever a host moves to another domain.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

SAME_DOMAIN = CONFIG.replace("pug.ana.lan: wolf.fv.lan", "pug.ana.lan: wolf.ana.lan")
COMPOSE = "services:\n  caddy:\n    image: caddy\n    env_file: .env\n"


def _residuals(root: Path, run: Callable[..., Result]) -> set[tuple[str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(str(f["path"]), int(f["line"])) for f in found if f.get("reason") == "composed-name"}


@pytest.mark.parametrize("site", ["{$HOST}.ana.lan", "{env.HOST}.ana.lan", "https://{$HOST}.ana.lan:8443"])
def test_round16_a_caddy_placeholder_follows_its_definition(site: str, repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    root = repo({"caddy/.env": "HOST=pug\n", "caddy/compose.yaml": COMPOSE,
                 "caddy/Caddyfile": site + " {\n  reverse_proxy localhost:8080\n}\n"},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "caddy/.env").read_text() == "HOST=wolf\n"
    assert (root / "caddy/Caddyfile").read_text().startswith(site.replace("ana.lan", "fv.lan") + " {")
    assert run(root, "verify").exit_code == 0


def test_round16_a_caddy_placeholder_over_hosts_moving_apart_is_held(repo: Callable[..., Path],
                                                                     run: Callable[..., Result]) -> None:
    root = repo({"caddy/.env": "HOST=pug\n", "caddy/compose.yaml": COMPOSE, "caddy/.env.rex": "HOST=rex\n",
                 "caddy/Caddyfile": "{$HOST}.ana.lan {\n  respond ok\n}\n"}, config=CONFIG, allowlist=ALLOW)
    assert ("caddy/Caddyfile", 1) in _residuals(root, run)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "caddy/Caddyfile").read_text().startswith("{$HOST}.ana.lan {")


def test_round16_a_caddy_default_word_follows_with_the_domain(repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    root = repo({"caddy/.env": "HOST=pug\n", "caddy/Caddyfile": "{$HOST:pug}.ana.lan {\n  respond ok\n}\n"},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "caddy/Caddyfile").read_text().startswith("{$HOST:wolf}.fv.lan {")


@pytest.mark.parametrize("spelling", ["%H.ana.lan", "%l.ana.lan", "%q.ana.lan", "https://%H.ana.lan/"])
def test_round16_the_machines_own_name_in_a_unit_is_held(spelling: str, repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    unit = f"[Service]\nExecStart=/usr/bin/register --name {spelling}\n"
    root = repo({"units/register.service": unit, "hosts": "10.0.0.5 pug\n"}, config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run) == {("units/register.service", 2)}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "units/register.service").read_text() == unit


def test_round16_cloud_inits_local_hostname_is_held(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    data = "## template: jinja\n#cloud-config\nhostname: pug\nfqdn: {{ v1.local_hostname }}.ana.lan\n"
    root = repo({"ci/user-data": data}, config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run) == {("ci/user-data", 4)}


@pytest.mark.parametrize("line", ["ExecStart=/bin/echo %%H.ana.lan", "ExecStart=/bin/date +%H.%M",
                                  "ExecStart=/bin/echo %Hx.ana.lan"])
def test_round16_no_specifier_of_the_machines_name_leaves_the_plain_rules(
        line: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"units/a.service": f"[Service]\n{line}\n", "hosts": "10.0.0.5 pug\n"},
                config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run) == set()


def test_round16_where_the_domain_stays_the_machines_name_is_no_residual(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"units/register.service": "[Service]\nExecStart=/usr/bin/register --name %H.ana.lan\n",
                 "caddy/.env": "HOST=pug\n", "caddy/Caddyfile": "{$HOST}.ana.lan {\n  respond ok\n}\n"},
                config=SAME_DOMAIN, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "caddy/Caddyfile").read_text().startswith("{$HOST}.ana.lan {")
    assert (root / "caddy/.env").read_text() == "HOST=wolf\n"
    assert run(root, "verify").exit_code == 0
