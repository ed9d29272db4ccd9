"""A renamed key meeting an existing one in a map spelled in a way round 23's reader did not know
(t31 sweep finding 03; issue 27 item 7, collisions): bash `declare -A`, Guava's builder `.put`,
Clojure `hash-map`, JavaScript `new Map().set()`, Tcl `dict create`, Erlang `maps:from_list`, Go
`m["k"] =` and Python `dict(zip([...]))` were written under `web01 -> app01` (two machines under one
key: the later silently wins), verify --strict OK. Each is refused now (exit 3, nothing written),
file:line and the key named, as Java's `Map.of` was."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.testing.repos import CURRENT_ALL, Repo, Run, snapshot

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n"

# path -> (text, a command that parses it or None)
MAPS: dict[str, tuple[bytes, list[str] | None]] = {
    # the tester's repro (t31 sweep repro/03.sh)
    "roles.sh": (b"declare -A ROLE=([web01]=frontend [app01]=backend)\n", ["bash", "-n"]),
    "Roles.java": (b'static final Map<String, String> ROLE = ImmutableMap.<String, String>builder()\n'
                   b'    .put("web01", "frontend")\n    .put("app01", "backend")\n    .build();\n', None),
    "roles.clj": (b'(def role (hash-map "web01" "frontend" "app01" "backend"))\n', None),
    "roles.js": (b'const role = new Map().set("web01", "frontend").set("app01", "backend");\n', ["node", "--check"]),
    "roles.tcl": (b"set role [dict create web01 frontend app01 backend]\n", None),
    "roles.erl": (b'Role = maps:from_list([{"web01", frontend}, {"app01", backend}]).\n', None),
    "roles.go": (b'func roles() map[string]string {\n\tm := make(map[string]string)\n\tm["web01"] = "frontend"\n'
                 b'\tm["app01"] = "backend"\n\treturn m\n}\n', None),
    "roles2.py": (b'ROLE = dict(zip(["web01", "app01"], ["frontend", "backend"]))\n', ["python3", "-m", "py_compile"]),
    # variants of our own: other languages and layouts, CRLF, a BOM, Latin-1
    "roles3.py": (b'ROLE = {}\r\nROLE["web01"] = "frontend"\r\nROLE["app01"] = "backend"\r\n',
                  ["python3", "-m", "py_compile"]),
    "roles.php": (b"<?php\n$role = [];\n$role['web01'] = 'frontend';\n$role['app01'] = 'backend';\n", None),
    "roles.pl": (b"# r\xf4les (Latin-1)\nmy %role;\n$role{web01} = 'frontend';\n$role{'app01'} = 'backend';\n",
                 ["perl", "-c"]),
    "roles.rs": (b'let mut m = HashMap::new();\nm.insert("web01", "frontend");\nm.insert("app01", "backend");\n',
                 None),
    "roles.ex": (b'role = Map.new([{"web01", :frontend}, {"app01", :backend}])\n', None),
    "roles2.tcl": (b"\xef\xbb\xbfarray set role {\n  web01 frontend\n  app01 backend\n}\n", None),
    "roles2.clj": (b'(def role\n  (sorted-map\n    "web01" [:frontend 1]\n    "app01" [:backend 2]))\n',
                   None),
    "roles4.py": (b'HOSTS = dict.fromkeys(["web01", "app01"], "up")\n', ["python3", "-m", "py_compile"]),
    "roles2.sh": (b'declare -A ROLE\nROLE[web01]=frontend\nROLE[app01]=backend\n', ["bash", "-n"]),
}


@pytest.mark.parametrize("rel", list(MAPS))
def test_a_renamed_key_meeting_an_existing_one_is_refused(rel: str, repo: Repo, run: Run) -> None:
    data, check = MAPS[rel]
    root = repo({rel: data, "hosts.txt": "web01 up\n"}, config=CONFIG, allowlist=CURRENT_ALL)
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert f"{rel}:" in done.stdout + done.stderr and "'app01' would stand twice" in done.stdout + done.stderr
    assert snapshot(root) == before  # nothing written
    if check is not None and shutil.which(check[0]):
        parsed = subprocess.run([*check, str(root / rel)], capture_output=True, cwd=root)
        assert parsed.returncode == 0, parsed.stderr


@pytest.mark.parametrize(("text", "after"), [
    pytest.param('a["web01"] = 1\nb["app01"] = 2\n', 'a["app01"] = 1\nb["app01"] = 2\n', id="two-maps"),
    pytest.param('if m["web01"] == "x":\n    m["app01"] = 1\n', 'if m["app01"] == "x":\n    m["app01"] = 1\n',
                 id="a-compare-is-no-key"),
    pytest.param('(hash-map :web "web01" :app "app01")\n', '(hash-map :web "app01" :app "app01")\n',
                 id="values-not-keys"),
    pytest.param('m.put("web01", 1);\nm.put("db01", 2);\n', 'm.put("app01", 1);\nm.put("db01", 2);\n',
                 id="no-existing-key"),
    pytest.param("set role [dict create web01 app01]\n", "set role [dict create app01 app01]\n",
                 id="tcl-a-value"),
])
def test_noop_what_meets_no_existing_key_is_rewritten(text: str, after: str, repo: Repo, run: Run) -> None:
    root = repo({"m.txt": text}, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "m.txt").read_text() == after
