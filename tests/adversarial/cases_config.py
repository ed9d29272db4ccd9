"""Cases 15-22 and 74-81: renamer.yaml, the allowlist path, and `renamer init`."""

from __future__ import annotations

from tests.adversarial.harness import (
    Outcome,
    Scratch,
    case,
    clear_error,
    config,
    first_line,
    no_crash,
    ok,
    refused_config,
    require,
    require_none,
    succeeded,
    swept,
)
from tests.testing.repos import snapshot

# The tests' alias bomb: each anchor nine aliases of the one before, *i is 9**9 items.
LAUGHS = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))


@case(15, "config", "refused")
def case_15(s: Scratch) -> Outcome:
    """swap a↔b"""
    return refused_config(s, config(hosts={"ana-ml2": "fv-ml1", "fv-ml1": "ana-ml2"}), "swap")


@case(16, "config", "refused")
def case_16(s: Scratch) -> Outcome:
    """chain a→b→c"""
    return refused_config(s, config(hosts={"ana-ml2": "fv-ml1", "fv-ml1": "fv-ml9"}), "chain")


@case(17, "config", "refused")
def case_17(s: Scratch) -> Outcome:
    """chain via `derived_names`"""
    cfg = config(hosts={"ana-ml2": "fv-ml1", "fv-ml1-bmc": "x-y"}, options={"derived_names": True})
    return refused_config(s, cfg, "ana-ml2-bmc")


@case(18, "config", "refused")
def case_18(s: Scratch) -> Outcome:
    """chain via `variants`"""
    cfg = config(hosts={"ana-ml2": "fv-ml1", "FV-ML1": "x-y"}, options={"variants": True})
    return refused_config(s, cfg, "ANA-ML2")


@case(19, "config", "refused")
def case_19(s: Scratch) -> Outcome:
    """chain via FQDN context"""
    return refused_config(s, config(hosts={"ana-ml2": "fv-ml1", "fv-ml1.fv.lan": "fv-ml9.fv.lan"}),
                          "ana-ml2.fv.lan")


@case(20, "config", "refused")
def case_20(s: Scratch) -> Outcome:
    """variant of one key vs explicit other key"""
    cfg = config(hosts={"ana-ml2": "fv-ml1", "ANA-ML2": "fv-ml2"}, options={"variants": True})
    return refused_config(s, cfg, "ANA-ML2")


@case(21, "config", "idempotent")
def case_21(s: Scratch) -> Outcome:
    """`ana-ml2 → x.ana-ml2`"""
    root, _ = swept(s, {"a.txt": "ssh ana-ml2\n"}, cfg=config(hosts={"ana-ml2": "x.ana-ml2"}),
                    args=("sweep", "--commit"))
    text = (root / "a.txt").read_text()
    require(text == "ssh x.ana-ml2\n", f"first sweep wrote {text!r}")
    again = s.cli(root, "sweep", "--dry-run", "--format", "json")
    succeeded(again, "second sweep")
    edits = again.json()["edits"]
    require_none([f"{e['old']} -> {e['new']}" for e in edits], "a second sweep rewrites again")
    return ok("ana-ml2 -> x.ana-ml2 once; a second sweep changes nothing")


@case(22, "config", "refused")
def case_22(s: Scratch) -> Outcome:
    """`ana-ml2 → ana-ml2.fv.lan`"""
    return refused_config(s, config(hosts={"ana-ml2": "ana-ml2.fv.lan"}))


@case(74, "config", "seconds")
def case_74(s: Scratch) -> Outcome:
    """billion laughs via `cutover: *i`"""
    cfg = ("version: 1\n" + LAUGHS + "renames: {hosts: {ana-ml2: fv-ml1}}\ncutover: *i\n"
           "allowlist: allow.yaml\n")
    root = s.repo({"a.txt": "ana-ml2\n"}, config=cfg)
    result = s.cli(root, "verify")
    clear_error(result, 2)
    require(result.cpu < 10, f"took {result.cpu:.1f} s of CPU")
    longest = max(len(line) for line in result.stderr.splitlines())
    require(longest < 400, f"an error line of {longest} characters")
    lines = len(result.stderr.splitlines())
    return ok(f"refused in {result.cpu:.2f} s of CPU, {lines} lines, longest {longest} characters: "
              f"{first_line(result.stderr)[:100]}")


@case(75, "config", "refused")
def case_75(s: Scratch) -> Outcome:
    """duplicate keys"""
    cfg = "version: 1\nrenames:\n  hosts:\n    ana-ml2: fv-ml1\n    ana-ml2: fv-ml9\nallowlist: allow.yaml\n"
    return refused_config(s, cfg, "renamer.yaml:5")


@case(76, "config", "clear")
def case_76(s: Scratch) -> Outcome:
    """complex key"""
    root = s.repo({"a.txt": "ana-ml2\n"}, config="version: 1\nrenames:\n  hosts:\n    ? [a, b]\n    : c\n")
    result = s.cli(root, "verify")
    clear_error(result, 2)
    require("got a string" not in result.stderr, f"names the value's type: {first_line(result.stderr)}")
    require("list" in result.stderr, f"does not say the key is a list: {first_line(result.stderr)}")
    return ok(f"refused: {first_line(result.stderr)}")


NUMBERS = {
    "NaN size": ("options: {max_file_size: .nan}\n", True),
    "bad date": ("cutover: 2026-02-30\n", True),
    "huge size": ("options: {max_file_size: 99999999999999999999999999TiB}\n", False),
    "version 1.0": ("", False),
}


@case(77, "config", "handled")
def case_77(s: Scratch) -> Outcome:
    """NaN / huge `max_file_size`, `version: 1.0`, bad date"""
    said = []
    for label, (line, must_refuse) in NUMBERS.items():
        cfg = "version: 1.0\n" if label == "version 1.0" else "version: 1\n"
        cfg += "renames: {hosts: {ana-ml2: fv-ml1}}\n" + line + "allowlist: allow.yaml\n"
        root = s.repo({"a.txt": "ana-ml2\n"}, config=cfg, name=label.replace(" ", "-").replace(".", ""))
        result = s.cli(root, "verify")
        no_crash(result)
        if must_refuse or result.exit_code == 2:
            clear_error(result, 2)
            require(result.stderr.startswith("renamer: error: renamer.yaml:"),
                    f"{label}: the error names no line: {first_line(result.stderr)}")
            message = first_line(result.stderr).removeprefix("renamer: error: ")
            said.append(f"{label}: refused ({message[:70]})")
        else:
            require(result.exit_code in (0, 1), f"{label}: {result.brief()}")
            said.append(f"{label}: accepted")
    return ok("; ".join(said))


@case(78, "config", "one line")
def case_78(s: Scratch) -> Outcome:
    """newline in host key"""
    root = s.repo({"a.txt": "ana-ml2\n"}, config='version: 1\nrenames: {hosts: {"ana-ml2\\n": fv-ml1}}\n')
    result = s.cli(root, "verify")
    clear_error(result, 2)
    lines = result.stderr.splitlines()
    require(len(lines) == 1, f"{len(lines)} lines: {lines}")
    return ok(f"one line: {lines[0]}")


@case(79, "config", "one line")
def case_79(s: Scratch) -> Outcome:
    """`allowlist: /proc/self/environ`, `/dev/zero`"""
    said = []
    for target in ("/proc/self/environ", "/dev/zero"):
        cfg = f"version: 1\nrenames: {{hosts: {{ana-ml2: fv-ml1}}}}\nallowlist: {target}\n"
        root = s.repo({"a.txt": "ana-ml2\n"}, config=cfg, allowlist=None, name=target.replace("/", "-"))
        result = s.cli(root, "verify")
        clear_error(result, 2)
        lines = result.stderr.splitlines()
        require(len(lines) == 1, f"{target}: {len(lines)} lines: {lines}")
        require(result.cpu < 10, f"{target}: took {result.cpu:.1f} s of CPU")
        said.append(lines[0].removeprefix("renamer: error: ")[:80])
    return ok("; ".join(said))


@case(80, "init", "refused")
def case_80(s: Scratch) -> Outcome:
    """`--name 'fv: move'`, `--name ../../x`"""
    said = []
    for name in ("fv: move", "../../x"):
        root = s.repo({"stacks/a.env": "HOST=ana-ml2\n"}, config=None, allowlist=None,
                      name="repo-" + name[:2])
        before = snapshot(root)
        result = s.cli(root, "init", "--from", "ana-ml2=fv-ml1", "--name", name)
        clear_error(result, 2)
        require(snapshot(root) == before, f"--name {name!r}: refused, but files were written")
        said.append(first_line(result.stderr))
    outside = sorted(p.name for p in s.root.glob("x*"))
    require(not outside, f"wrote outside the repo: {outside}")
    return ok("; ".join(said))


@case(81, "init", "works")
def case_81(s: Scratch) -> Outcome:
    """IPv6 and v4-mapped `--from`"""
    root = s.repo({"stacks/a.txt": "addr fd00:250::54\nmapped ::ffff:10.250.50.54\n"}, config=None,
                  allowlist=None)
    init = s.cli(root, "init", "--from", "fd00:250::54=fd00:251::54",
                 "--from", "::ffff:10.250.50.54=::ffff:10.251.50.54")
    succeeded(init, "init")
    result = s.cli(root, "sweep", "--allow-dirty")
    succeeded(result, "sweep after init")
    text = (root / "stacks/a.txt").read_text()
    require(text == "addr fd00:251::54\nmapped ::ffff:10.251.50.54\n", f"the sweep wrote {text!r}")
    return ok("init wrote a config the sweep applies: both addresses renamed")

