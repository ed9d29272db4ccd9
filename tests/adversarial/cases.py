"""The registry of the 95 cases of shared/reports/adversarial-pass-1.md's "All cases" table.

Each case is one small function in an area module (`cases_<area>.py`), registered
with its number, area and the table's expected column; its docstring is the
table's case text. Importing this module imports them all and builds CASES.
"""

from __future__ import annotations

from tests.adversarial import (  # noqa: F401 - imported to register their cases
    cases_config,
    cases_dns,
    cases_files,
    cases_git,
    cases_match,
    cases_net,
    cases_runtime,
    cases_secrets,
    cases_struct,
)
from tests.adversarial.harness import REGISTRY, Case

TABLE_SIZE = 95
CASES: dict[int, Case] = dict(sorted(REGISTRY.items()))

_missing = sorted(set(range(1, TABLE_SIZE + 1)) - set(CASES))
if _missing or len(CASES) != TABLE_SIZE:
    raise RuntimeError(f"the registry must hold cases 1..{TABLE_SIZE}; missing: {_missing}")
