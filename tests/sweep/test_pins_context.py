"""pins_context: which repo file a digest's surroundings name (pure logic; the CLI tests are
tests/cli/test_pins_that_still_hold.py)."""

from __future__ import annotations

import base64
import json

import pytest

from renamer.sweep.pins_context import Contexts, resolve, sidecar_of

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


@pytest.mark.parametrize(("holder", "data", "named"), [
    pytest.param("web/app.js.sha256", f"{H}\n".encode(), "web/app.js", id="beside-its-file"),
    pytest.param("web/app.js.SHA256", H.upper().encode(), "web/app.js", id="upper-case-no-newline"),
    pytest.param("app.yaml.md5", b"\xef\xbb\xbf" + H[:32].encode() + b"\r\n", "app.yaml", id="bom-crlf"),
    pytest.param("web/app.js.sha256", f"{H}  app.js\n".encode(), None, id="a-manifest-line-is-the-manifest-rule"),
    pytest.param("web/app.js.txt", f"{H}\n".encode(), None, id="not-a-digest-suffix"),
    pytest.param("gone.sh.sha256", f"{H}\n".encode(), None, id="no-such-file"),
])
def test_a_file_named_for_the_one_it_pins(holder: str, data: bytes, named: str | None) -> None:
    assert sidecar_of(holder, data, KNOWN) == named


def test_a_value_its_key_marks_pairs_with_its_context() -> None:
    """Unpadded base64 is read where its key says digest, in the text and in the parsed document
    alike, so the pin still pairs with the path beside it."""
    unpadded = base64.b64encode(bytes(range(48))).decode()  # 64 letters, no padding: a SHA-384's size
    text = f"app_path: backups/app.yaml\napp_sha384: {unpadded}\n"
    line = text.splitlines()[1]
    assert Contexts(KNOWN).named("l.yaml", text.encode(), bytes(range(48)).hex(), 0, line) == "backups/app.yaml"
