"""The terraform binary, where the tests that run it find it.

terraform is in neither Debian nor PyPI: .ci/run installs it from HashiCorp's apt repository where
that is reachable. Where it is not, the tests that run terraform on the swept files skip with this
reason; the swept bytes themselves are asserted by tests that need no terraform.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil

import pytest

TERRAFORM = shutil.which("terraform")
needs_terraform = pytest.mark.skipif(TERRAFORM is None, reason="terraform is not installed (in neither Debian nor "
                                     "PyPI; .ci/run installs it from HashiCorp's apt repository where reachable)")


def tagged(text: str, name: str = "repo", expires: dt.date | None = None) -> str:
    """`text` with the tag line the sweep writes above each `moved` block it adds (a blank line
    before it: a standing block written by hand has none in these tests), for a config with no
    cutover (today + 90 days) named after the repo's folder, `repo` (renamer/moved_tags.py)."""
    return re.sub(r"(\r?\n)(\r?\n)([ \t]*)moved \{",
                  lambda m: f"{m[1]}{m[2]}{m[3]}{tag(name, expires)}{m[1]}{m[3]}moved {{", text)


def tag(name: str = "repo", expires: dt.date | None = None) -> str:
    """The tag line of a `moved` block the sweep writes (by default: no cutover, the repo `repo`)."""
    return f"# renamer: move {name} expires {(expires or dt.date.today() + dt.timedelta(days=90)).isoformat()}"
