"""Dotted module references to a file the sweep renames (break-it round 22, finding 02): the sweep
renamed `pws/web-vm.sls` and `hosts/web01.py` while `- pws.web-vm` (a Salt top file, `include:`),
`import hosts.web01`, `from hosts.web01 import`, `importlib.import_module('hosts.web01')` stayed
near-misses: Salt found no SLS, Python no module; sweep 0, verify OK. They now follow the file, or
are a `module-path` residual where that cannot be proved."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  hosts: {web-vm: websrv, web01: app01}\nallowlist: allow.yaml\n"
ALLOW = 'version: 1\ncurrent: ["**"]\n'

FILES = {
    "pillar/top.sls": "base:\n  'minion1':\n    - pws.web-vm\n    - pws.web-vm.extra\n",
    "pillar/pws/web-vm.sls": "port: 80\n",
    "pillar/pws/web-vm/extra.sls": "x: 1\n",
    "salt/site.sls": "include:\n  - pws.web-vm\n  - roles.web01\n",
    "salt/pws/web-vm.sls": "pkgs: [nginx]\n",
    "salt/roles/web01/init.sls": "pkgs: [php]\n",
    "hosts/__init__.py": "",
    "hosts/web01.py": "ADDR = 'db'\n",
    "deploy.py": ("import importlib\nimport hosts.web01\nfrom hosts.web01 import ADDR\n"
                  "m = importlib.import_module('hosts.web01')\nprint(hosts.web01.ADDR, ADDR, m.ADDR)\n"),
    "lua/hosts/web01.lua": "return {addr = 'db'}\n",
    "lua/main.lua": "local h = require(\"hosts.web01\")\nlocal g = require 'lua.hosts.web01'\n",
}


def test_dotted_references_follow_the_renamed_files(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(FILES, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert (root / "pillar/pws/websrv.sls").exists() and (root / "salt/roles/app01/init.sls").exists()
    top = (root / "pillar/top.sls").read_text()
    assert "- pws.websrv\n" in top and "- pws.websrv.extra\n" in top, top  # before: pws.web-vm stayed
    assert (root / "salt/site.sls").read_text() == "include:\n  - pws.websrv\n  - roles.app01\n"
    assert (root / "lua/main.lua").read_text() == (
        "local h = require(\"hosts.app01\")\nlocal g = require 'lua.hosts.app01'\n")
    ran = subprocess.run([sys.executable, "deploy.py"], cwd=root, capture_output=True, text=True, check=False)
    assert ran.returncode == 0 and ran.stdout == "db db db\n", ran.stderr  # Python imports the moved module
    verified = run(root, "verify", "--strict")
    assert verified.exit_code == 0, verified.stdout


def test_a_spelling_that_also_names_a_kept_file_is_a_residual(repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    """`pws.web-vm` names salt/pws/web-vm.sls and pillar/pws/web-vm.sls; one keeps its name: which one
    the line meant cannot be proved."""
    allow = 'version: 1\ncurrent: ["**"]\nkeep_paths: ["pillar/pws/web-vm.sls"]\n'
    root = repo({k: v for k, v in FILES.items() if k.endswith(".sls")}, config=CONFIG, allowlist=allow)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr
    assert "module-path" in swept.stdout and "pillar/pws/web-vm.sls, which keeps its name" in swept.stdout
    assert "- pws.web-vm\n" in (root / "salt/site.sls").read_text()
    assert run(root, "verify").exit_code == 1


def test_a_reference_left_by_a_hand_rename_fails_verify(repo: Callable[..., Path],
                                                        run: Callable[..., Result]) -> None:
    """After the fact: the file moved (by an earlier sweep or by hand), the dotted reference did not."""
    root = repo({"hosts/__init__.py": "", "hosts/app01.py": "ADDR = 1\n",
                 "deploy.py": "import hosts.web01\n"}, config=CONFIG, allowlist=ALLOW)
    verified = run(root, "verify")
    assert verified.exit_code == 1, verified.stdout  # before: OK, one near-miss
    assert "deploy.py:1:8" in verified.stdout and "module-path" in verified.stdout, verified.stdout
    assert "hosts/app01.py is spelled `hosts.app01`" in verified.stdout


def test_a_path_and_a_longer_module_are_left_alone(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """`hosts.web01x` is another module; `hosts.web01/` no module; a word `web01` follows as before."""
    root = repo({"hosts/__init__.py": "", "hosts/web01.py": "A = 1\n",
                 "notes.py": "import hosts.web01x\nX = 'hosts.web01/a'\nH = 'web01'\n"},
                config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code in (0, 1), swept.stdout + swept.stderr
    after = (root / "notes.py").read_text()
    assert "import hosts.web01x\n" in after and "H = 'app01'" in after, after
