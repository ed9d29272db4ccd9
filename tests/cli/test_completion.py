"""Shell completion of values (newcomer pass 2 C11): `--resolvers` (a comma list), `--resolver`
and `--site` from the DNS inventory as renamer itself finds it (or `--inventory`), and file
completion for `explain PATH[:LINE]`; a broken inventory completes nothing, never a traceback.
Through click's real bash protocol, in a process of its own, in a real git repo."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.testing.repos import make_repo

INVENTORY = Path(__file__).resolve().parents[2] / "dns"  # the bundled example's inventory


def _complete(cwd: Path, line: str) -> list[str]:
    words = line.split()
    cword = len(words) if line.endswith(" ") else len(words) - 1
    env = {**os.environ, "_RENAMER_COMPLETE": "bash_complete", "COMP_WORDS": line, "COMP_CWORD": str(cword)}
    done = subprocess.run([sys.executable, "-m", "renamer"], cwd=cwd, env=env, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.split()


@pytest.fixture
def infra(tmp_path: Path) -> Path:
    root = make_repo(tmp_path / "infra", {"runbook.md": "ssh ana-ml2\n"})
    shutil.copytree(INVENTORY, root / "dns")
    return root


@pytest.mark.parametrize(("line", "offered"), [
    pytest.param("renamer dns plan --resolvers ", ["plain,all", "plain,ns-ana", "plain,ns-ana2", "plain,ns-ana3",
                                                   "plain,fv-gw"], id="all-and-each"),
    pytest.param("renamer dns apply --resolvers ns-ana", ["plain,ns-ana", "plain,ns-ana2", "plain,ns-ana3"],
                 id="prefix"),
    pytest.param("renamer dns verify --resolvers ns-ana,ns-ana3,", ["plain,ns-ana,ns-ana3,ns-ana2",
                                                                   "plain,ns-ana,ns-ana3,fv-gw"],
                 id="after-a-comma-the-rest"),
    pytest.param("renamer dns export ansible --out x --resolvers fv", ["plain,fv-gw"], id="export"),
    pytest.param("renamer dns render --site ", ["plain,ana", "plain,fv"], id="site"),
    pytest.param("renamer dns render --resolver ns-ana3", ["plain,ns-ana3"], id="one-resolver"),
    pytest.param("renamer explain run", ["file,run"], id="explain-path"),
])
def test_values_complete_from_the_inventory(infra: Path, line: str, offered: list[str]) -> None:
    assert _complete(infra, line) == offered


def test_inventory_given_on_the_line_is_the_one_completed_from(infra: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "lab-dns"
    shutil.copytree(INVENTORY, elsewhere)
    resolvers = elsewhere / "resolvers.yaml"
    resolvers.write_text(resolvers.read_text().replace("name: fv-gw", "name: lab-gw"))
    assert _complete(infra, f"renamer dns plan --inventory {elsewhere} --resolvers l") == ["plain,lab-gw"]


def test_a_broken_inventory_completes_nothing(infra: Path) -> None:
    (infra / "dns/resolvers.yaml").write_text("resolvers: [\n")
    assert _complete(infra, "renamer dns plan --resolvers ") == []
    shutil.rmtree(infra / "dns")
    assert _complete(infra, "renamer dns render --site ") == []


def test_undo_completes_the_moves_on_record(infra: Path, tmp_path: Path) -> None:
    root = make_repo(tmp_path / "moved", {"runbook.md": "ssh ana-ml2\n"}, allowlist="version: 1\ncurrent: ['**']\n")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    for argv in (["sweep", "--commit"], ["undo", "fv-ml1-move"]):
        subprocess.run([sys.executable, "-m", "renamer", *argv], cwd=root, env=env, check=True, capture_output=True)
    assert _complete(root, "renamer undo ") == ["plain,fv-ml1-move"]  # its undo is never offered
    assert _complete(root, "renamer undo x") == []
    assert _complete(tmp_path, "renamer undo ") == []  # no repository: nothing, no traceback
    assert _complete(infra, "renamer undo fv-ml1-move --dns --resolvers ns-ana2") == ["plain,ns-ana2"]
