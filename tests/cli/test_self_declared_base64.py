"""Base64 that declares itself, end to end through the CLI (issue 27 item 3, round 23 finding 16).

Round 21 finding 13's fix read a list of formats (a Secret's `data:`, cloud-init `encoding: b64`,
`!!binary`, `base64decode()`); an Ignition config's data URL, a Butane file's, a property list's
`<data>`, Terraform's `user_data_base64` were "nothing to change", verify --strict OK. Now base64
is recognised by its own syntax (an RFC 2397 data URL wherever it stands: JSON, YAML, HTML, CSS), by
a plist's `<data>`, and by a key whose name says base64 (HCL, JSON, YAML, INI): rewritten re-encoded
where certain (each file still parses with its own reader: json, yaml, plistlib, `terraform fmt`),
an `encoded` residual where not (gzip inside, wrapped over lines); base64 under a key that says
nothing, and a data URL holding no old value, stay as they are.
"""

from __future__ import annotations

import base64
import gzip
import json
import plistlib
import subprocess

import yaml

from tests.testing.repos import CURRENT_ALL, Repo, Run
from tests.testing.terraform import require_terraform

CONFIG = """\
version: 1
renames:
  hosts: {web01.lab.example: app01.lab.example}
  addresses: {10.0.0.70: 10.0.1.70}
allowlist: allow.yaml
"""
TEXT = "upstream web01.lab.example:8080;\n"
NEW = "upstream app01.lab.example:8080;\n"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


B = _b64(TEXT)
GZ = base64.b64encode(gzip.compress(b"server 10.0.0.70\n", mtime=0)).decode()
WRAPPED = "\n".join(_b64(TEXT * 3)[i:i + 24] for i in range(0, len(_b64(TEXT * 3)), 24))
FILES: dict[str, str | bytes] = {
    "node.ign": json.dumps({"ignition": {"version": "3.3.0"}, "storage": {"files": [
        {"path": "/etc/nginx/conf.d/up.conf", "contents": {"source": f"data:;base64,{B}"}},
        {"path": "/etc/hosts.d/a", "contents": {"compression": "gzip", "source": f"data:;base64,{GZ}"}}]}}) + "\n",
    "node.bu": ("variant: fcos\nversion: 1.5.0\nstorage:\n  files:\n    - path: /etc/up.conf\n      contents:\n"
                f"        source: \"data:text/plain;charset=utf-8;base64,{B}\"\n"),
    "vpn.mobileconfig": ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict>'
                         f"<key>PayloadContent</key><data>{B}</data>\n<key>Wrapped</key><data>\n{WRAPPED}\n"
                         "</data></dict></plist>\n"),
    "main.tf": f'resource "aws_instance" "web" {{\n  user_data_base64 = "{B}"\n}}\n',
    "page.html": f'<a download="up.conf" href="data:text/plain;base64,{B}">config</a>\n',
    "app.json": json.dumps({"contentBase64": _b64("10.0.0.70 web01.lab.example\n")}) + "\n",
    "app.ini": f"[boot]\nscript_b64 = {B}\n",
    "values.yaml": f"proxy:\n  configBASE64: '{B}'\n",
}
QUIET = {
    "notes.yaml": f"comment: {B}\n",  # a key that says nothing: not declared
    "logo.css": "a { background: url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==); }\n",
}


def test_round23_16_base64_declared_by_its_own_syntax(repo: Repo, run: Run, tmp_path: object) -> None:
    root = repo({**FILES, **QUIET}, config=CONFIG, allowlist=CURRENT_ALL)
    done = run(root, "verify", "--strict", "--format", "json")
    assert done.exit_code == 1
    found = {(f["path"], f["line"], f["reason"]) for f in json.loads(done.stdout)["findings"]}
    assert found == {("node.ign", 1, None), ("node.ign", 1, "encoded"), ("node.bu", 7, None),
                     ("vpn.mobileconfig", 2, None), ("vpn.mobileconfig", 3, "encoded"), ("main.tf", 2, None),
                     ("page.html", 1, None), ("app.json", 1, None), ("app.ini", 2, None), ("values.yaml", 2, None)}
    quiet = {path: (root / path).read_bytes() for path in QUIET}
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr  # two encoded residuals left
    ign = json.loads((root / "node.ign").read_text())["storage"]["files"]
    assert base64.b64decode(ign[0]["contents"]["source"].split(",", 1)[1]).decode() == NEW
    assert ign[1]["contents"]["source"] == f"data:;base64,{GZ}"  # gzip inside: left for a person
    bu = yaml.safe_load((root / "node.bu").read_text())["storage"]["files"][0]["contents"]["source"]
    assert bu.startswith("data:text/plain;charset=utf-8;base64,")
    assert base64.b64decode(bu.split(",", 1)[1]).decode() == NEW
    plist = plistlib.loads((root / "vpn.mobileconfig").read_bytes())
    assert plist["PayloadContent"] == NEW.encode() and plist["Wrapped"] == (TEXT * 3).encode()
    tf = (root / "main.tf").read_text()
    assert f'user_data_base64 = "{_b64(NEW)}"' in tf
    assert subprocess.run([require_terraform(), "fmt", "-check", "-"], input=tf.encode(),
                          capture_output=True).returncode == 0  # terraform reads it as written
    assert f"base64,{_b64(NEW)}\"" in (root / "page.html").read_text()
    assert base64.b64decode(json.loads((root / "app.json").read_text())["contentBase64"]) == \
        b"10.0.1.70 app01.lab.example\n"
    assert (root / "app.ini").read_text() == f"[boot]\nscript_b64 = {_b64(NEW)}\n"
    assert yaml.safe_load((root / "values.yaml").read_text()) == {"proxy": {"configBASE64": _b64(NEW)}}
    assert {path: (root / path).read_bytes() for path in QUIET} == quiet
    after = run(root, "verify", "--strict", "--format", "json")
    assert after.exit_code == 1
    left = {(f["path"], f["line"], f["reason"]) for f in json.loads(after.stdout)["findings"]}
    assert left == {("node.ign", 1, "encoded"), ("vpn.mobileconfig", 3, "encoded")}
