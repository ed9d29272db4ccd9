"""pins_context: which repo file a digest's surroundings name (pure logic; the CLI tests are
tests/cli/test_pins_that_still_hold.py)."""

from __future__ import annotations

import json

import pytest

from renamer.sweep.pins_context import Contexts, resolve

H = "ab" * 32
KNOWN = {"app.yaml", "backups/app.yaml", "web/app.js"}


@pytest.mark.parametrize(("holder", "text", "occurrence", "named"), [
    ("m.json", json.dumps({"files": {"backups/app.yaml": {"sha256": H}}}), 0, "backups/app.yaml"),
    ("m.json", json.dumps({"files": [{"path": "./app.yaml", "sha256": H}]}), 0, "app.yaml"),
    ("m.json", json.dumps({"a": {"file": "app.yaml", "md5": H}, "b": {"file": "backups/app.yaml", "md5": H}}),
     1, "backups/app.yaml"),
    ("m.json", json.dumps({"files": [{"name": "app", "sha256": H}]}), 0, None),  # no such file
    ("m.json", json.dumps({"installed": {"/etc/app.yaml": H}}), 0, None),  # an installed path
    ("web/lock.yaml", f"app.js:\n  integrity: {H}\n", 0, "web/app.js"),  # from the holder's folder
    ("l.yaml", f"app_path: app.yaml\napp_sha256: {H}\n", 0, "app.yaml"),
    ("l.yaml", f"# old: {H}\napp_path: app.yaml\napp_sha256: {H}\n", 1, None),  # a comment: unpaired
    ("p.toml", f'[files."backups/app.yaml"]\nsha256 = "{H}"\n', 0, "backups/app.yaml"),
    ("broken.json", f'{{"backups/app.yaml": "{H}"', 0, None),  # does not parse: nothing named
])
def test_structured_contexts(holder: str, text: str, occurrence: int, named: str | None) -> None:
    line = next(li for li in text.splitlines() if H in li)
    assert Contexts(KNOWN).named(holder, text.encode(), H, occurrence, line) == named


@pytest.mark.parametrize(("text", "line", "named"), [
    (f"backup_file=backups/app.yaml\nbackup_sha256={H}\n", f"backup_sha256={H}", "backups/app.yaml"),
    (f"export APP=app.yaml\nexport APP_SHA256={H}\n", f"export APP_SHA256={H}", "app.yaml"),
    (f"backup_sha256={H}\n", f"backup_sha256={H}", None),
    (f"other_path=app.yaml\nbackup_sha256={H}\n", f"backup_sha256={H}", None),  # another stem's path
])
def test_assignment_contexts(text: str, line: str, named: str | None) -> None:
    assert Contexts(KNOWN).named("x.env", text.encode(), H, 0, line) == named


def test_resolve_keeps_inside_the_repo() -> None:
    assert resolve("ops/sums", "../app.yaml", KNOWN) == "app.yaml"
    assert resolve("sums", "../app.yaml", KNOWN) is None
    assert resolve("sums", 42, KNOWN) is None
