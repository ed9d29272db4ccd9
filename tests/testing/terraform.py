"""The terraform binary, where the tests that run it find it.

terraform is in neither Debian nor PyPI: .ci/run installs it from HashiCorp's apt repository where
that is reachable. Where it is not, the tests that run terraform on the swept files skip with this
reason; the swept bytes themselves are asserted by tests that need no terraform.
"""

from __future__ import annotations

import shutil

import pytest

TERRAFORM = shutil.which("terraform")
needs_terraform = pytest.mark.skipif(TERRAFORM is None, reason="terraform is not installed (in neither Debian nor "
                                     "PyPI; .ci/run installs it from HashiCorp's apt repository where reachable)")
