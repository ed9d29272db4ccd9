"""The sweep tells the truth in every language, outside pass t30 (issue 27, round 23): findings 01,
02, 03 and 10, each end to end through the CLI on a real git repo (each failed on main).

10. A renamed key meeting a standing one in a map built by a call (Java `Map.of`, Kotlin `mapOf`
    with `to`, and the same class in other languages: `Map.ofEntries(entry(..))`, Scala `->`,
    Python `dict([(..)])`, JavaScript `new Map([[..]])`, Rust `HashMap::from`, Ruby `Hash[..]`)
    was only warned about, written, exit 0: now refused (exit 3), nothing written.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.testing.repos import CURRENT_ALL, Repo, Run


def _config(renames: str) -> str:
    return f"version: 1\nrenames: {{{renames}}}\nallowlist: allow.yaml\n"


# -- 10: keys of a map built by a call ----------------------------------------------------------------

@pytest.mark.parametrize(("path", "text"), [
    pytest.param("Hosts.java", 'class Hosts { static final java.util.Map<String, String> IPS = java.util.Map.of('
                 '"web01", "10.0.0.70", "app01", "10.0.0.90"); }\n', id="java-map-of"),
    pytest.param("hosts.kts", 'val ips = mapOf("web01" to "10.0.0.70", "app01" to "10.0.0.90")\n', id="kotlin-to"),
    pytest.param("Entries.java", 'class Entries { static final java.util.Map<String, String> M = java.util.Map.ofEntries('
                 'java.util.Map.entry("web01", "a"), java.util.Map.entry("app01", "b")); }\n', id="java-of-entries"),
    pytest.param("hosts.scala", 'val ips = Map("web01" -> "10.0.0.70", "app01" -> "10.0.0.90")\n', id="scala-arrow"),
    pytest.param("hosts.py", 'IPS = dict([("web01", "10.0.0.70"), ("app01", "10.0.0.90")])\n', id="python-dict-pairs"),
    pytest.param("hosts.js", 'const ips = new Map([["web01", "10.0.0.70"], ["app01", "10.0.0.90"]]);\n', id="js-map"),
    pytest.param("hosts.mjs", 'export const ips = Object.fromEntries([["web01", 1], ["app01", 2]]);\n',
                 id="js-from-entries"),
    pytest.param("hosts.rs", 'fn ips() -> std::collections::HashMap<&\'static str, &\'static str> {\n'
                 '    std::collections::HashMap::from([("web01", "10.0.0.70"), ("app01", "10.0.0.90")])\n}\n',
                 id="rust-hashmap-from"),
    pytest.param("hosts.rb", 'IPS = Hash["web01", "10.0.0.70", "app01", "10.0.0.90"]\n', id="ruby-hash-positional"),
    pytest.param("multi.kt", 'val ips = mapOf(\n    "web01" to "10.0.0.70",\n    "app01" to "10.0.0.90",\n)\n',
                 id="kotlin-multiline"),
])
def test_a_renamed_key_meeting_a_standing_one_in_a_map_call_is_refused(path: str, text: str, repo: Repo,
                                                                        run: Run) -> None:
    root = repo({path: text}, config=_config("hosts: {web01: app01}"), allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert (root / path).read_text() == text
    assert "'app01' would stand twice in one map built by a call" in done.stdout + done.stderr
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1 and f"{path}:" in checked.stdout and "residual (structure)" in checked.stdout, \
        checked.stdout


def test_java_itself_refuses_the_duplicate_the_sweep_refuses(repo: Repo, run: Run, tmp_path: object) -> None:
    """The refused edit is one Java rejects at run time: `Map.of` throws on a duplicate key."""
    java = shutil.which("java")
    assert java is not None, "java is installed on the test machine"
    text = ('public class Hosts { public static void main(String[] a) { System.out.println(java.util.Map.of('
            '"web01", "10.0.0.70", "app01", "10.0.0.90")); } }\n')
    root = repo({"Hosts.java": text}, config=_config("hosts: {web01: app01}"), allowlist=CURRENT_ALL)
    ran = subprocess.run([java, str(root / "Hosts.java")], capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0, ran.stderr
    after = root / "After.java"
    after.write_text(text.replace("web01", "app01").replace("class Hosts", "class After"))
    broken = subprocess.run([java, str(after)], capture_output=True, text=True, timeout=120, check=False)
    assert broken.returncode != 0 and "duplicate key" in broken.stderr, broken.stderr
    after.unlink()
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3 and (root / "Hosts.java").read_text() == text, done.stdout + done.stderr


@pytest.mark.parametrize(("path", "text", "expected"), [
    pytest.param("values.kt", 'val m = mapOf("a" to "web01", "b" to "app01")\n',
                 'val m = mapOf("a" to "app01", "b" to "app01")\n', id="kotlin-values-not-keys"),
    pytest.param("call.js", 'send("web01", "app01");\nconst m = new Map([["a", "web01"], ["b", "app01"]]);\n',
                 'send("app01", "app01");\nconst m = new Map([["a", "app01"], ["b", "app01"]]);\n', id="js-values"),
    pytest.param("Vals.java", 'class Vals { static final java.util.Map<String, String> M = java.util.Map.of('
                 '"a", "web01", "b", "app01"); }\n', 'class Vals { static final java.util.Map<String, String> M = '
                 'java.util.Map.of("a", "app01", "b", "app01"); }\n', id="java-values-odd-positions"),
    pytest.param("two.kt", 'val a = mapOf("web01" to 1)\nval b = mapOf("app01" to 2)\n',
                 'val a = mapOf("app01" to 1)\nval b = mapOf("app01" to 2)\n', id="kotlin-two-maps"),
    pytest.param("zip.py", 'M = dict(zip(["web01", "app01"], [1, 2]))\n', 'M = dict(zip(["app01", "app01"], [1, 2]))\n',
                 id="python-zip-not-pairs"),
])
def test_a_value_or_another_map_beside_the_new_name_is_rewritten(path: str, text: str, expected: str, repo: Repo,
                                                                  run: Run) -> None:
    root = repo({path: text}, config=_config("hosts: {web01: app01}"), allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / path).read_text() == expected
    if path.endswith(".js"):
        node = shutil.which("node")
        assert node is not None
        subprocess.run([node, "--check", str(root / path)], check=True, timeout=60)
    if path.endswith(".java"):
        javac = shutil.which("javac")
        assert javac is not None
        subprocess.run([javac, "-d", str(root / ".git" / "classes"), str(root / path)], check=True, timeout=120)
