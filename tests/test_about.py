"""What renamer says about itself comes from the package metadata, so pyproject.toml is the one place."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

from renamer.about import home_page, version
from tests.conftest import Result

PYPROJECT = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())


def test_the_version_is_pyproject_s() -> None:
    assert version() == PYPROJECT["project"]["version"]
    done = subprocess.run([sys.executable, "-m", "renamer", "--version"], capture_output=True, text=True)
    assert done.stdout == f"renamer, version {PYPROJECT['project']['version']}\n"


def test_the_home_page_is_pyproject_s_or_none() -> None:
    urls = PYPROJECT["project"].get("urls", {})
    expected = urls.get("Homepage") or urls.get("Repository") or urls.get("Source") or None
    assert home_page() == expected


def test_sarif_names_no_page_that_is_not_ours(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """informationUri is the project's own URL, or left out while pyproject.toml names none."""
    root = repo({"runbook.md": "ssh ana-ml2\n"})
    driver = json.loads(run(root, "verify", "--format", "sarif").stdout)["runs"][0]["tool"]["driver"]
    assert driver["version"] == version()
    assert driver.get("informationUri") == home_page()
    assert "pypi.org" not in json.dumps(driver)
