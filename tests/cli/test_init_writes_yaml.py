"""init writes its YAML through an emitter and its patterns literally (issue 27, item 16d /
adversarial B-22, B-23): whatever a repo's folder and file names hold (a newline and a pattern
after it, `*`, `?`, `[`, `#`, `:`, quotes, a leading `-`), what init wrote loads, and its patterns
match back to the same files and to no others."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from renamer.classify import PathPatterns
from tests.conftest import Result
from tests.testing.repos import git, make_repo

HOSTILE = [
    "x\n  - '**'\n  - z", 'y\n- "**"', "cfg[1]", "a*b?", "#hash", "-lead", 'q"uo:te', "it's", "c: d",
    "[bracket", "back\\slash", "comma,s", "{brace}", "!bang", "trail ", "x\x1b]0;T\x07",
]
DECOYS = ["cfg1", "axb_", "ab", "zz", "z"]  # what a pattern read as a glob, or injected, would cover


@pytest.mark.parametrize("shape", ("folder", "root-file"))
def test_init_output_loads_and_matches_back_to_the_same_files(shape: str, tmp_path: Path,
                                                              run: Callable[..., Result]) -> None:
    names = [f"{name}/c.conf" if shape == "folder" else f"{name}.conf" for name in HOSTILE]
    files = {rel: "host ana-ml2\n" for rel in names}
    files.update({f"{decoy}/b.conf": "nothing old\n" for decoy in DECOYS})
    root = make_repo(tmp_path / "repo", files, config=None, allowlist=None)
    result = run(root, "init", "--from", "ana-ml2=fv-ml1")
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stdout and "\n  - '**'" not in result.stdout  # the summary: one line a name
    written = YAML(typ="safe").load((root / "allowlists" / "fv-ml1-move.yaml").read_text())
    current = PathPatterns(written["current"])
    assert [rel for rel in names if not current.match_file(rel)] == []
    for decoy in DECOYS:  # nothing init did not see is current by accident
        assert not current.match_file(f"{decoy}/b.conf") and not current.match_file(f"{decoy}/new.conf")
    assert "**" not in written["current"] and len(written["current"]) == len(HOSTILE)
    # and renamer itself reads it so: every file is current, a later file in a decoy is not
    for decoy in DECOYS:
        (root / decoy / "new.conf").write_text("host ana-ml2 later\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "later")
    found = json.loads(run(root, "verify", "--format", "json").stdout)
    status = {r["path"]: r["status"] for r in found["findings"]}
    assert status == {**dict.fromkeys(names, "residual"),
                      **{f"{decoy}/new.conf": "unclassified" for decoy in DECOYS}}


def test_a_record_folder_name_is_taken_literally(tmp_path: Path, run: Callable[..., Result]) -> None:
    files = {"ops[1]/minutes/a.md": "ana-ml2 then\n", "ops1/minutes/b.md": "nothing old\n",
             "runbook.md": "ana-ml2\n"}
    root = make_repo(tmp_path / "repo", files, config=None, allowlist=None)
    assert run(root, "init", "--from", "ana-ml2=fv-ml1").exit_code == 0
    written = YAML(typ="safe").load((root / "allowlists" / "fv-ml1-move.yaml").read_text())
    paths = [p for record in written["records"] for p in record["paths"]]
    assert PathPatterns(paths).match_file("ops[1]/minutes/a.md")
    assert not PathPatterns(paths).match_file("ops1/minutes/b.md")
