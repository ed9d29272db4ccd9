"""A Makefile recipe continued with a backslash, end to end through the CLI (break-it round 21,
finding 07; issue 27 item 3).

make drops the continuation line's recipe prefix (its tab) and hands the shell `ana-\\` + newline +
`ml2`, which the shell joins: the recipe runs `ssh ana-ml2`. Before this, the bytes spelled no old
value and verify --strict said OK. Now each is a `split` residual, as the same lines in a `.sh`
file are; a variable's continuation (make joins it with a space) stays silent. The real make says
what it runs.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = """\
version: 1
renames:
  hosts: {ana-ml2: fv-ml1}
  addresses: {10.250.50.54: 10.251.50.54}
allowlist: allow.yaml
"""

MAKEFILE = ("HOSTS = ana-\\\n\tml2\n"  # make: `ana- ml2`, two words
            "all:\n\t@echo ssh ana-\\\n\tml2 true\n\t@echo ping 10.250.\\\n\t50.54\n"
            "\t@echo $(HOSTS)\n")


def _make(root: Path, name: str) -> str:
    make = shutil.which("make") or "/usr/bin/make"
    done = subprocess.run([make, "-s", "-f", name, "all"], cwd=root, capture_output=True, text=True,
                          check=True)
    return done.stdout


def test_round21_07_a_recipe_continued_with_a_backslash_is_a_split_residual(repo: Repo, run: Run) -> None:
    root = repo({"Makefile": MAKEFILE, "rules.mk": MAKEFILE}, config=CONFIG, allowlist=CURRENT_ALL)
    assert _make(root, "Makefile") == "ssh ana-ml2 true\nping 10.250.50.54\nana- ml2\n"
    done = run(root, "verify", "--strict", "--format", "json")
    assert done.exit_code == 1
    found = {(f["path"], f["line"], f["reason"], f["old"]) for f in json.loads(done.stdout)["findings"]}
    assert found == {(name, line, "split", old) for name in ("Makefile", "rules.mk")
                     for line, old in ((4, "ana-ml2"), (6, "10.250.50.54"))}
    before = (root / "Makefile").read_bytes()
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "Makefile").read_bytes() == before


def test_a_variable_continued_in_a_makefile_is_no_name(repo: Repo, run: Run) -> None:
    root = repo({"Makefile": "HOSTS = ana-\\\n\tml2\nall:\n\t@echo $(HOSTS)\n"}, config=CONFIG,
                allowlist=CURRENT_ALL)
    assert _make(root, "Makefile") == "ana- ml2\n"
    assert run(root, "verify", "--strict").exit_code == 0
