"""Docs that cannot drift: the CLI reference is regenerated and compared."""

from __future__ import annotations

from pathlib import Path

from renamer.cli.reference import reference

DOCS = Path(__file__).resolve().parent.parent.parent / "docs"


def test_cli_reference_matches_the_tool() -> None:
    assert (DOCS / "cli.md").read_text() == reference(), (
        "docs/cli.md is stale: python -m renamer.cli.reference > docs/cli.md")


def test_every_command_has_examples_in_its_help() -> None:
    text = reference()
    sections = text.split("\n## ")[1:]
    assert len(sections) >= 11
    for section in sections:
        assert "Examples:" in section, section.splitlines()[0]


def test_docs_pages_exist_and_link() -> None:
    for page in ("user-guide.md", "configuration.md", "cli.md", "matching.md", "troubleshooting.md"):
        assert (DOCS / page).stat().st_size > 500, page


def test_no_instruction_installs_renamer_by_its_bare_name() -> None:
    """`renamer` on the package index is not this project: every install names this repository."""
    import re

    root = Path(__file__).resolve().parents[2]
    texts = [root / "README.md", *sorted((root / "docs").glob("*.md")), *sorted((root / "examples").rglob("*.yml"))]
    bare = re.compile(r"(?:pip|pipx|uv pip)\s+install\s+(?:-U\s+|--upgrade\s+)?['\"]?renamer\b(?!\s*@)")
    found = [(path.name, line) for path in texts for line in path.read_text().splitlines()
             if bare.search(line) and not line.lstrip().startswith("#")]  # a comment may warn of it
    assert found == []
