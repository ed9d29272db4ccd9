"""The lean first pass: its quick reject never drops a file the exact tests would keep."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from renamer.project import load_project
from renamer.sweep import parallel
from renamer.sweep.scan import ScanOptions
from tests.testing.repos import CONFIG, write_files

PIECES = ["ana-ml2", "ANA_ML2", "Ana.Ml2", "ana\\-ml2", "a[n]a-ml2", "ana-ml2-bmc", "ana-ml20", "10.250.50.54",
          "10\\.250\\.50\\.54", "10-250-50-54", "54.50.250.10.in-addr.arpa", "$ORIGIN 250.10.in-addr.arpa.",
          "ana-ml1-3", "ana-ml{1..3}", "10.250.50.50-60", "ana-ml*", "ana-ml?", "10.250.50.*", "fv-ml1",
          "10.251.50.54", "\xff\xfe", " ", "-", ".", "\n", "x", "ana", "ml2", "10.", "ANA"]
contents = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=20).map("".join)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    root = tmp_path_factory.mktemp("gate")
    write_files(root, {"renamer.yaml": CONFIG, "allow.yaml": "version: 1\ncurrent: ['**']\n"})
    return load_project(root, None, root)


def _chunk(project, name: str, options: ScanOptions, gated: bool):  # type: ignore[no-untyped-def]
    saved = parallel._gates
    if not gated:
        parallel._gates = lambda *args: (b"",)  # type: ignore[assignment]  # every file: the exact tests
    try:
        return parallel.scan_chunk(project, options, [name])
    finally:
        parallel._gates = saved


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=contents, loose=st.booleans())
def test_the_gate_rejects_only_what_the_exact_tests_reject(project, text: str, loose: bool) -> None:
    name = "file.txt"
    (Path(project.root) / name).write_bytes(text.encode("utf-8", "surrogateescape"))
    options = ScanOptions(loose=loose, present=(b"fv-ml1", b"10.251.50.54"))
    assert _chunk(project, name, options, gated=True) == _chunk(project, name, options, gated=False)
