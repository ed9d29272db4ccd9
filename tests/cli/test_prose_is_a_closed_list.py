"""Classification without guessing (issue 27, item 8 / adversarial A-2): a suffix-less configuration
file whose first line is a dated comment is not prose, so its live references are rewritten."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = "version: 1\ncutover: 2026-10-05\nrenames: {hosts: {ana-ml2: fv-ml1}}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\nextends: [records-common]\ncurrent: ['**']\n"


@pytest.mark.parametrize(("path", "text"), (
    pytest.param("Makefile", "# 2025-03-01 switched\nall:\n\tssh ana-ml2 true\n", id="makefile"),
    pytest.param("Dockerfile", "# 2025-03-01 base\nFROM debian\nENV H=ana-ml2\n", id="dockerfile"),
    pytest.param("Jenkinsfile", "// x\n# 2025-03-01 moved\nsh 'ssh ana-ml2'\n", id="jenkinsfile"),
    pytest.param("Caddyfile", "# 2025-03-01 proxy\nlab.example {\n  reverse_proxy ana-ml2:8000\n}\n", id="caddyfile"),
    pytest.param(".ssh/config", "# 2025-03-01 new key\nHost lab\n  HostName ana-ml2\n", id="ssh-config"),
    pytest.param("etc/hosts", "# 2025-03-01\n10.0.0.5 ana-ml2\n", id="hosts"),
    pytest.param("cron/backup", "# 2025-03-01 nightly\n0 3 * * * rsync ana-ml2:/data /backup\n", id="crontab"),
))
def test_suffix_less_configuration_is_current(path: str, text: str, repo: Callable[..., Path],
                                              run: Callable[..., Result]) -> None:
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1  # the live reference is found
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).read_text() == text.replace("ana-ml2", "fv-ml1")
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize("path", (
    pytest.param("NOTES", id="notes"), pytest.param("docs/CHANGELOG", id="changelog"),
    pytest.param("journal.md", id="markdown"), pytest.param("ops/log.txt", id="txt"),
))
def test_named_and_suffixed_notes_keep_their_dated_sections(path: str, repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    text = "# 2025-03-01 moved the gateway\nssh ana-ml2 was used then\n"
    root = repo({path: text, "live.conf": "host ana-ml2\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).read_text() == text  # a record: history keeps the old name


def test_section_paths_add_a_file(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    allow = ALLOW + "dated: {section_paths: ['ops/runlog']}\n"
    text = "# 2025-03-01 moved\nssh ana-ml2\n"
    root = repo({"ops/runlog": text, "NOTES": text}, config=CONFIG, allowlist=allow)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "ops" / "runlog").read_text() == text and (root / "NOTES").read_text() == text
