"""Names built by joining literals, end to end through the CLI (break-it round 21, finding 08; issue
27 item 3).

Python `"ana-" + "ml2"` and `("ana-"` newline `"ml2")`, `"10.250." + "50.54"`, an f-string's
`{'ml2'}`, HCL `"ana-${"ml2"}"`, JavaScript `+` and `${"ml2"}`, Jinja `{{ 'ana-' ~ 'ml2' }}`: the
program reads the old value, the bytes never spell it. Before this, verify --strict said OK; now
each is a `split` residual (JSON, exit 1, the file left byte for byte). What the real python3 and
terraform make of the files is asserted first, so the test states what the consumer reads; a
shell's two words, a JSON list and a comma are no join and stay silent.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = """\
version: 1
renames:
  hosts: {ana-ml2: fv-ml1}
  addresses: {10.250.50.54: 10.251.50.54}
allowlist: allow.yaml
"""

FILES = {
    "c.py": 'a = "ana-" + "ml2"\nb = ("ana-"\n     "ml2")\nd = "10.250." + "50.54"\ne = f"ana-{\'ml2\'}"\n'
            "print(a, b, d, e)\n",
    "c.tf": 'locals {\n  a = "ana-${"ml2"}"\n}\noutput "a" { value = local.a }\n',
    "c.js": 'const a = "ana-" + "ml2";\nconst b = `ana-${"ml2"}`;\n',
    "c.yaml": "a: \"{{ 'ana-' ~ 'ml2' }}\"\n",
    "c.lua": 'local h = "ana-" .. "ml2"\n',
}
QUIET = {
    "q.sh": 'echo "ana-" "ml2"\nprintf "%s" "ana-"\n',  # two words: `ana- ml2`
    "q.json": '{"parts": ["ana-", "ml2"]}\n',
    "q.py": 'print("ana-", "ml2")\nx = "ana-" + suffix\n',
}


def test_round21_08_a_name_joined_from_literals_is_a_split_residual(repo: Repo, run: Run) -> None:
    root = repo({**FILES, **QUIET}, config=CONFIG, allowlist=CURRENT_ALL)
    printed = subprocess.run([sys.executable, "c.py"], cwd=root, capture_output=True, text=True, check=True)
    assert printed.stdout == "ana-ml2 ana-ml2 10.250.50.54 ana-ml2\n"
    done = run(root, "verify", "--strict", "--format", "json")
    assert done.exit_code == 1
    found = {(f["path"], f["line"], f["reason"], f["old"]) for f in json.loads(done.stdout)["findings"]}
    assert found == {("c.py", 1, "split", "ana-ml2"), ("c.py", 2, "split", "ana-ml2"),
                     ("c.py", 4, "split", "10.250.50.54"), ("c.py", 5, "split", "ana-ml2"),
                     ("c.tf", 2, "split", "ana-ml2"), ("c.js", 1, "split", "ana-ml2"),
                     ("c.js", 2, "split", "ana-ml2"), ("c.yaml", 1, "split", "ana-ml2"),
                     ("c.lua", 1, "split", "ana-ml2")}
    before = {path: (root / path).read_bytes() for path in (*FILES, *QUIET)}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert {path: (root / path).read_bytes() for path in before} == before


def test_terraform_and_node_read_the_joined_name(tmp_path: Path) -> None:
    """What the consumers of c.tf and c.js read: the old name (terraform and node are installed)."""
    (tmp_path / "main.tf").write_text(FILES["c.tf"])
    done = subprocess.run([shutil.which("terraform") or "terraform", "console"], cwd=tmp_path, input="local.a\n",
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == '"ana-ml2"'
    script = FILES["c.js"] + "console.log(a, b);\n"
    done = subprocess.run([shutil.which("node") or "node", "-e", script], capture_output=True, text=True,
                          check=True)
    assert done.stdout == "ana-ml2 ana-ml2\n"
