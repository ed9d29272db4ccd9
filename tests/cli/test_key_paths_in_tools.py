"""Key paths a jq or yq filter reads, and Traefik's names joined by reference (break-it round 8,
finding 9).

`jq -r ".hosts.pug.ip" inventory.json` stayed while the JSON key became `wolf` (jq then read
null; a near-miss, verify OK). A filter's path is a key reference now: it follows a renamed key,
is kept with a kept one, else a `key-reference`. Traefik's `routers.pug.service=pug` became
`=wolf` while the service stayed defined as `traefik.http.services.pug`: a name a label key
defines keeps its readers. jq and yq read the swept files.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

KEEP = "  # renamer: keep until cutover"
SCRIPT = """\
#!/bin/sh
IP=$(jq -r ".hosts.pug.ip" inventory.json)
IP2=$(jq -r '.hosts["pug"].ip' inventory.json)
IP3=$(yq '.hosts.pug.ip' hosts.yaml)
ssh "$IP" uptime
"""


def _run_script_reads(root: Path) -> list[str]:
    out = []
    for tool, query, data in (("jq", ".hosts.{}.ip", "inventory.json"), ("yq", ".hosts.{}.ip", "hosts.yaml")):
        text = (root / "deploy.sh").read_text()
        name = "wolf" if ".hosts.wolf" in text else "pug"
        done = subprocess.run([tool, "-r", query.format(name), data], cwd=root, capture_output=True, text=True,
                              check=True)
        out.append(done.stdout.strip())
    return out


@pytest.mark.parametrize("keep", [pytest.param("", id="renamed"), pytest.param(KEEP, id="kept")])
def test_a_jq_or_yq_path_follows_the_key(keep: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"inventory.json": '{"hosts": {"pug": {"ip": "10.0.0.9"}, "pom": {"ip": "10.0.0.12"}}}\n',
             "hosts.yaml": f"hosts:\n  pug:{keep}\n    ip: 10.0.0.9\n",
             "deploy.sh": SCRIPT}
    if keep:
        files.pop("inventory.json")
        files["deploy.sh"] = SCRIPT.replace('IP=$(jq -r ".hosts.pug.ip" inventory.json)\n', "").replace(
            "IP2=$(jq -r '.hosts[\"pug\"].ip' inventory.json)\n", "")
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    expected = files["deploy.sh"] if keep else files["deploy.sh"].replace("pug", "wolf")
    assert (root / "deploy.sh").read_text() == expected
    assert run(root, "verify").exit_code == 0
    if not keep:
        assert shutil.which("jq") and shutil.which("yq")
        assert _run_script_reads(root) == ["10.0.0.9", "10.0.0.9"]


def test_a_jq_path_no_key_has_beside_a_renamed_key_is_a_residual(repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    files = {"inventory.json": '{"net": {"hosts": {"pug": {"ip": "10.0.0.9"}}}}\n',
             "deploy.sh": "#!/bin/sh\njq -r '.hosts.pug.ip' other.json\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert ("key-reference", "deploy.sh", 2) in [(f["reason"], f["path"], f["line"]) for f in found]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "deploy.sh").read_text() == files["deploy.sh"]


TRAEFIK = """\
services:
  app:
    image: x
    labels:
      - "traefik.http.routers.pug.rule=Host(`pug.ana.lan`)"
      - "traefik.http.routers.pug.service=pug"
      - "traefik.http.routers.pug.middlewares=auth,pug@docker"
      - "traefik.http.services.pug.loadbalancer.server.port=80"
      - "traefik.http.middlewares.pug.basicauth.users=x"
      - "traefik.tcp.routers.db.service=pug"
"""


def test_traefik_names_keep_their_readers(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"compose.yaml": TRAEFIK}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    # the rule's host follows; the router's service and middleware keep the names their labels define;
    # the TCP router's `pug` names no TCP service of the file: the host, as ever
    assert (root / "compose.yaml").read_text() == TRAEFIK.replace("pug.ana.lan", "wolf.fv.lan").replace(
        "db.service=pug", "db.service=wolf")
    assert run(root, "verify").exit_code == 0
