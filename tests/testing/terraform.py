"""The terraform binary, where the tests that run it find it.

terraform is in neither Debian nor PyPI: the machines CI runs on have it in /usr/local/bin, and
.ci/run checks it is there (installing it from HashiCorp's apt repository where it is not) and stops
with a clear message otherwise. A test that runs terraform never skips for its absence: it fails,
saying so (issue 32 item 6), so a run without terraform can never pass for a run that checked.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

TERRAFORM = shutil.which("terraform")
MISSING = ("terraform is not installed: this test runs it (install it to /usr/local/bin, or run .ci/run, which "
           "installs it from HashiCorp's apt repository)")


def require_terraform() -> str:
    """The terraform binary; the calling test fails, never skips, where there is none."""
    if TERRAFORM is None:
        pytest.fail(MISSING, pytrace=False)
    return TERRAFORM


def applied_outputs(root: Path, tmp: Path) -> dict[str, object]:
    """terraform's own outputs of the module at `root` (locals and terraform_data only: no
    provider), applied into a state under `tmp` that is removed after: what terraform itself makes
    of a swept module's values."""
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1",
           "TF_DATA_DIR": str(tmp / "tf-data")}
    state = tmp / "state.tfstate"
    terraform = require_terraform()
    subprocess.run([terraform, "init", "-input=false", "-backend=false", "-no-color"], cwd=root, env=env,
                   capture_output=True, text=True, check=True)
    applied = subprocess.run([terraform, "apply", "-auto-approve", "-input=false", "-no-color", f"-state={state}"],
                             cwd=root, env=env, capture_output=True, text=True, check=False)
    assert applied.returncode == 0, applied.stdout + applied.stderr
    shown = subprocess.run([terraform, "output", "-json", f"-state={state}"], cwd=root, env=env,
                           capture_output=True, text=True, check=True)
    state.unlink()
    return {k: v["value"] for k, v in json.loads(shown.stdout).items()}


# The marker for a test that runs terraform: the fixture of the same name fails it where terraform
# is missing (tests/conftest.py).
needs_terraform = pytest.mark.usefixtures("terraform_binary")


def tagged(text: str, name: str = "repo", expires: dt.date | None = None) -> str:
    """`text` with the tag line the sweep writes above each `moved` block it adds (a blank line
    before it: a standing block written by hand has none in these tests), for a config with no
    cutover (today + 90 days) named after the repo's folder, `repo` (renamer/moved_tags.py)."""
    return re.sub(r"(\r?\n)(\r?\n)([ \t]*)moved \{",
                  lambda m: f"{m[1]}{m[2]}{m[3]}{tag(name, expires)}{m[1]}{m[3]}moved {{", text)


def tag(name: str = "repo", expires: dt.date | None = None) -> str:
    """The tag line of a `moved` block the sweep writes (by default: no cutover, the repo `repo`)."""
    return f"# renamer: move {name} expires {(expires or dt.date.today() + dt.timedelta(days=90)).isoformat()}"


# a tagged `moved` block as the sweep adds it after a block: a blank line, the tag, the block
_ADDED = re.compile(r"(\r?\n)\r?\n([ \t]*)# renamer: move [^\r\n]*\r?\n[ \t]*moved \{.*?\r?\n[ \t]*\}", re.S)


def in_moved_tf(tree: dict[str, str]) -> dict[str, str]:
    """`tree` (path -> text, written as if each tagged `moved` block stood after the block it
    moves) as the sweep writes it (issue 32, item 2; renamer/sweep/moved_files.py): each such block
    taken out of its file and appended to `moved.tf` in that file's folder, a blank line before it
    where the file holds anything, its own indentation dropped, in the `moved.tf`'s newlines."""
    out = dict(tree)
    blocks: dict[str, list[tuple[str, str]]] = {}  # folder -> (block, its newline)
    for rel in sorted(tree):
        text = tree[rel]
        for found in _ADDED.finditer(text):
            nl, indent = found[1], found[2]
            lines = found[0][2 * len(nl):].split(nl)
            block = "\n".join(line[len(indent):] if line.startswith(indent) else line for line in lines)
            have = blocks.setdefault(rel.rpartition("/")[0], [])
            if (block, nl) not in have:
                have.append((block, nl))
        out[rel] = _ADDED.sub("", text)
    for folder, found in blocks.items():
        rel = f"{folder}/moved.tf" if folder else "moved.tf"
        base = out.get(rel, "")
        nl = "\r\n" if "\r\n" in base else "\n" if "\n" in base else found[0][1]
        text = base if not base or base.endswith("\n") else base + nl
        for i, (block, _) in enumerate(found):
            text += (nl if base or i else "") + block.replace("\n", nl) + nl
        out[rel] = text
    return out
