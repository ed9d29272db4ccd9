"""The terraform binary, where the tests that run it find it.

terraform is in neither Debian nor PyPI: the machines CI runs on have it in /usr/local/bin, and
.ci/run checks it is there (installing it from HashiCorp's apt repository where it is not) and stops
with a clear message otherwise. A test that runs terraform never skips for its absence: it fails,
saying so (issue 32 item 6), so a run without terraform can never pass for a run that checked.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil

import pytest

TERRAFORM = shutil.which("terraform")
MISSING = ("terraform is not installed: this test runs it (install it to /usr/local/bin, or run .ci/run, which "
           "installs it from HashiCorp's apt repository)")


def require_terraform() -> str:
    """The terraform binary; the calling test fails, never skips, where there is none."""
    if TERRAFORM is None:
        pytest.fail(MISSING, pytrace=False)
    return TERRAFORM


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
