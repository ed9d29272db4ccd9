"""The sweep tells the truth, outside pass t28 (issue 27), structure and sets: findings 05, 06, 07,
11, 14, 18, 19 and 23, each end to end through the CLI on a real git repo (each failed on main).

14. A shell default after a positional or special parameter or an array element (`${1:-web01}`,
    `${@:-web01}`, `${HOSTS[0]:-web01}`) was a near-miss "'web01' looks like 'web01'", never
    rewritten: the script still defaulted to the old host. Bash itself reads the result.
"""

from __future__ import annotations

import subprocess

import pytest

from tests.testing.repos import CURRENT_ALL, Repo, Run


def _config(renames: str, options: str = "") -> str:
    extra = f"options: {{{options}}}\n" if options else ""
    return f"version: 1\nrenames: {{{renames}}}\n{extra}allowlist: allow.yaml\n"


# -- 14: shell defaults after positional and special parameters -----------------------------------

@pytest.mark.parametrize(("line", "args"), [
    pytest.param('H=${1:-web01}; echo "$H"', [], id="positional"),
    pytest.param('echo "${2:-web01.lab}"', [], id="positional-fqdn"),
    pytest.param('echo "${10:-web01}"', [], id="two-digits"),
    pytest.param('A=("$@"); echo "${A[0]:-web01}"', [], id="array-element"),
    pytest.param('A=("$@"); echo "${A[@]:-web01}"', [], id="array-all"),
    pytest.param('for h in "${@:-web01}"; do echo "$h"; done', [], id="at"),
    pytest.param('echo "${*:-web01}"', [], id="star"),
    pytest.param('echo "${1-web01}"', [], id="positional-no-colon"),
    pytest.param('A=(); echo "${A[0]-web01}"', [], id="array-no-colon"),
])
def test_a_default_after_a_special_parameter_is_rewritten(line: str, args: list[str], repo: Repo, run: Run) -> None:
    root = repo({"run.bash": f"#!/bin/bash\n{line}\n"}, config=_config("hosts: {web01: app01, web01.lab: app01.lab}"),
                allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    printed = subprocess.run(["bash", str(root / "run.bash"), *args], capture_output=True, text=True,
                             check=True, timeout=30).stdout
    assert "app01" in printed and "web01" not in printed, (printed, (root / "run.bash").read_text())
    checked = run(root, "verify")
    assert checked.exit_code == 0 and "0 near-misses" in checked.stdout, checked.stdout
