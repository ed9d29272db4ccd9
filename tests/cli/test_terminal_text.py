"""Untrusted text to a terminal (issue 27, item 16b / adversarial B-10): file names, file content,
YAML values and commit messages reach the terminal through one sanitiser, in every command that
prints repo text; what they held is shown escaped, never obeyed."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git, make_repo
from tests.testing.terminal import Terminal

# What a hostile repo puts in front of a terminal: a window title (OSC 0), a link (OSC 8), a screen
# clear (CSI), a bell, a C1 CSI, a CR that overwrites the line, bidi overrides and isolates.
HOSTILE = ["\x1b]0;PWNED\x07", "\x1b]8;;http://evil.invalid\x1b\\", "\x1b[2J", "\x07", "\x9b31m", "\r",
           "\u202e", "\u2066", "\u200f", "\x7f", "\x00"[:0] + "\x08"]
SHOWN_AS = ["\\x1b]0;PWNED\\x07", "\\x1b[2J", "\\x9b", "\\u202e", "\\r"]
TEXT = "host ana-ml2 " + " ".join(HOSTILE) + " fake OK\n"
ALLOW = """version: 1
current: [stacks/**, "*.yaml"]
records:
  - name: incidents
    paths: [incidents/**]
    reason: incident notes describe the system then
"""
CONFIG = "version: 1\nname: m\nrenames:\n  hosts: {ana-ml2: fv-ml1}\nallowlist: allow.yaml\n"
NAME = "stacks/x\x1b]0;PWNED\x07\u202eod.conf"
FILES = {
    NAME: "ssh ana-ml2\n",
    "stacks/run.sh": TEXT,
    "app.yaml": "name: \"ana-ml2 \\e]0;PWNED\\a \\u202e \\r fake\"\nother: 'ana-ml2 \x1b[2J'\n",
    "incidents/then.md": TEXT,
}


def _hostile_repo(root: Path) -> Path:
    make_repo(root, FILES, config=CONFIG, allowlist=ALLOW)
    message = "evil\n\nRenamer-Move: \x1b]0;PWNED\x07\x1b[2J\x1b[31mfake-move\u202e\nRenamer-Commit: rewrite\n" \
              "Renamer-Changed: 1\n"
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return root


def _unsafe(shown: str) -> list[str]:
    return sorted({repr(ch) for ch in shown if ch in "\x1b\x07\x9b\u202e\u2066\u200f\x7f\x08"
                   or (ch == "\r")})


COMMANDS = [
    pytest.param(("verify",), id="verify"),
    pytest.param(("verify", "--strict"), id="verify-strict"),
    pytest.param(("audit",), id="audit-table"),
    pytest.param(("audit", "--format", "markdown"), id="audit-markdown"),
    pytest.param(("explain", "stacks/run.sh"), id="explain"),
    pytest.param(("explain", "app.yaml"), id="explain-yaml"),
    pytest.param(("explain", NAME), id="explain-file-name"),
    pytest.param(("sweep", "--dry-run", "--format", "summary"), id="sweep-summary"),  # counts only
    pytest.param(("sweep", "--allow-dirty"), id="sweep-write"),  # counts only
    pytest.param(("log",), id="log"),
    pytest.param(("verify", "--color", "always"), id="verify-colour"),
    pytest.param(("explain", "--color", "always", "stacks/run.sh"), id="explain-colour"),
]


@pytest.mark.parametrize("args", COMMANDS)
def test_every_command_escapes_what_the_repo_holds(args: tuple[str, ...], tmp_path: Path,
                                                    run: Callable[..., Result]) -> None:
    root = _hostile_repo(tmp_path / "repo")
    result = run(root, *args)
    shown = result.stdout + result.stderr
    assert "Traceback" not in shown and result.exit_code in (0, 1), shown
    plain = shown.replace("\x1b[0m", "").replace("\x1b[1m", "")
    for code in ("\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[36m"):  # renamer's own colours, with --color
        plain = plain.replace(code, "")
    assert _unsafe(plain) == [], shown
    if args[0] != "sweep":  # the sweep's summary holds counts, no repo text
        assert any(escape in shown for escape in SHOWN_AS), shown  # the text was shown, escaped


@pytest.mark.parametrize("args", (
    pytest.param(("verify", "--format", "json"), id="verify-json"),
    pytest.param(("verify", "--format", "sarif"), id="verify-sarif"),
    pytest.param(("audit", "--format", "json"), id="audit-json"),
    pytest.param(("explain", "stacks/run.sh", "--format", "json"), id="explain-json"),
    pytest.param(("log", "--format", "json"), id="log-json"),
    pytest.param(("sweep", "--dry-run", "--format", "json"), id="sweep-json"),
))
def test_json_escapes_with_its_own_escapes(args: tuple[str, ...], tmp_path: Path,
                                           run: Callable[..., Result]) -> None:
    """JSON stays valid and means the same: DEL, C1 and bidi controls as \\uXXXX, not raw."""
    root = _hostile_repo(tmp_path / "repo")
    result = run(root, *args)
    assert _unsafe(result.stdout) == [], result.stdout
    document = json.loads(result.stdout)
    assert "PWNED" in json.dumps(document)  # the repo's text is there, as JSON says it


def test_init_escapes_folder_and_file_names(tmp_path: Path, run: Callable[..., Result]) -> None:
    root = make_repo(tmp_path / "repo", {"x\x1b]0;PWNED\x07/c.conf": "host ana-ml2\n",
                                         "notes\u202e/a.md": "ana-ml2\n"}, config=None, allowlist=None)
    result = run(root, "init", "--from", "ana-ml2=fv-ml1")
    assert result.exit_code == 0, result.stderr
    assert _unsafe(result.stdout + result.stderr) == [] and "PWNED" in result.stdout  # escaped, one line


def test_a_diff_on_a_terminal_is_escaped_and_exact_on_a_pipe(tmp_path: Path, run: Callable[..., Result]) -> None:
    root = _hostile_repo(tmp_path / "repo")
    piped = run(root, "sweep", "--dry-run")
    assert "\x1b]0;PWNED\x07" in piped.stdout  # a pipe gets the bytes `git apply` needs
    term = Terminal([str(Path(sys.executable).parent / "renamer"), "sweep", "--dry-run"], root)
    assert term.wait() == 0
    shown = term.output.decode("utf-8", "replace").replace("\r\n", "\n")
    assert "\\x1b]0;PWNED\\x07" in shown and _unsafe(shown) == [], shown
