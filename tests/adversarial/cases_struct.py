"""Cases 33-41: structured files (YAML, JSON, TOML, Python, shell) and dated sections."""

from __future__ import annotations

import json
import tomllib

from tests.adversarial.harness import (
    ALL_CURRENT,
    MK_CONFIG,
    Outcome,
    Scratch,
    case,
    config,
    decided,
    documented,
    doubtful,
    fates,
    ok,
    require,
    swept,
)
from tests.testing.repos import snapshot

ANCHORED = ("base: &b\n  ana-ml2: {gpu: 4}\n  fv-ml1: {gpu: 8}\nother: *b\n"
            "---\nhosts:\n  ana-ml2: 1\n  fv-ml1: 2\n")


@case(33, "struct", "refused")
def case_33(s: Scratch) -> Outcome:
    """YAML anchors/aliases/multi-doc with collision"""
    root = s.repo({"anchored.yaml": ANCHORED, "aliased.yaml": "x: &h ana-ml2\ny: *h\n---\nz: ana-ml2\n"},
                  config=MK_CONFIG, allowlist=ALL_CURRENT)
    refused = s.cli(root, "sweep")
    require(refused.exit_code == 3 and "anchored.yaml:3:" in refused.stderr,
            f"the sweep does not refuse the colliding keys: {refused.brief()}")
    after = (root / "anchored.yaml").read_text()
    require(after == ANCHORED, f"the colliding keys were rewritten: {after!r}")
    verify = s.cli(root, "verify")
    require(verify.exit_code == 1 and "residual (structure)" in verify.stdout,
            f"verify does not report the refused keys: {verify.brief()}")
    # The sweep refuses as a whole (issue 27 item 7); once the keys are decided, the rest follows.
    (root / "anchored.yaml").write_text(ANCHORED.replace("  ana-ml2: {gpu: 4}\n", "").replace("  ana-ml2: 1\n", ""))
    s.cli(root, "sweep", "--allow-dirty")
    aliased = (root / "aliased.yaml").read_text()
    require(aliased == "x: &h fv-ml1\ny: *h\n---\nz: fv-ml1\n", f"plain values not rewritten: {aliased!r}")
    return ok("colliding keys refused (residual structure, the sweep refuses), other values rewritten once decided")


@doubtful(34, "struct", "refused")
def case_34(s: Scratch) -> Outcome:
    """YAML tag `!ana-ml2`"""
    _, found = fates(s, ["x: !ana-ml2 tagged", "y: ana-ml2"], name="t.yaml")
    return decided(f"{'; '.join(found)}; YAML tags are {documented('YAML tag')}")


BLOCKS = ("# ana-ml2 is the box\nhost: ana-ml2  # on ana-ml2\nscript: |\n  ssh ana-ml2 uptime\n"
          "folded: >\n  ana-ml2 runs\n  the jobs\n")


@case(35, "struct", "renamed")
def case_35(s: Scratch) -> Outcome:
    """YAML comments, block scalars"""
    root, _ = swept(s, {"c.yaml": BLOCKS})
    after = (root / "c.yaml").read_text()
    require(after == BLOCKS.replace("ana-ml2", "fv-ml1"), f"wrote {after!r}")
    return ok("comments, literal and folded scalars rewritten")


@case(36, "struct", "strings only")
def case_36(s: Scratch) -> Outcome:
    """JSON with duplicate keys"""
    text = '{"host": "ana-ml2", "host": "ana-ml2.ana.lan", "n": 1, "ana-ml2": [1, 2]}\n'
    root, _ = swept(s, {"d.json": text})
    after = (root / "d.json").read_text()
    wanted = text.replace("ana-ml2.ana.lan", "fv-ml1.fv.lan").replace("ana-ml2", "fv-ml1")
    require(after == wanted, f"wrote {after!r}")
    pairs = json.loads(after, object_pairs_hook=lambda p: p)
    require(len(pairs) == 4, f"{len(pairs)} keys left of 4")
    return ok("only the strings changed; both duplicate keys kept")


@doubtful(37, "struct", "renamed?")
def case_37(s: Scratch) -> Outcome:
    """TOML `[servers.ana-ml2]`"""
    _, found = fates(s, ["[servers.ana-ml2]", "x = 1"], name="c.toml")
    return decided(f"{found[0]}; the 'no `.` on the left' host rule is "
                   f"{documented('On the left: the start of the text or a character outside')}")


PYTHON = ('"""Talk to ana-ml2."""\nport = 1\nHOST = "ana-ml2"  # ana-ml2\nURL = f"http://ana-ml2:{port}/"\n'
          'RAW = b"ana-ml2"\nANA_ML2_URL = URL\nvalue = ana-ml2\n')
PYTHON_SWEPT = PYTHON.replace('"ana-ml2"', '"fv-ml1"').replace("# ana-ml2", "# fv-ml1").replace(
    "Talk to ana-ml2", "Talk to fv-ml1").replace("//ana-ml2:", "//fv-ml1:")
PEP_701 = 'x = f"{"ana-ml2"}"\n'


@case(38, "struct", "as documented")
def case_38(s: Scratch) -> Outcome:
    """Python f-string, bytes, code, 3.12 syntax"""
    root, _ = swept(s, {"app.py": PYTHON, "new.py": PEP_701})
    after = (root / "app.py").read_text()
    require(after == PYTHON_SWEPT, f"app.py became {after!r}")
    newer = (root / "new.py").read_text()
    require(newer == PEP_701.replace("ana-ml2", "fv-ml1"), f"the 3.12 f-string became {newer!r}")
    verify = s.cli(root, "verify")
    require(verify.exit_code == 1 and "residual (code)" in verify.stdout,
            f"the match in code is not reported: {verify.brief()}")
    return ok("strings, f-strings, bytes, docstring and comment rewritten; code left as residual (code); "
              "the 3.12 f-string rewritten")


HEREDOC = "cat <<EOF\nhost ana-ml2\nEOF\nssh ana-ml2 <<'X'\nuptime ana-ml2\nX\n"


@case(39, "struct", "renamed")
def case_39(s: Scratch) -> Outcome:
    """shell heredoc"""
    root, _ = swept(s, {"run.sh": HEREDOC})
    after = (root / "run.sh").read_text()
    require(after == HEREDOC.replace("ana-ml2", "fv-ml1"), f"wrote {after!r}")
    return ok("both heredocs and the command line rewritten")


MANY_TO_ONE = config(hosts={"ana-ml2": "fv-ml1", "ana-ml3": "fv-ml1"},
                     addresses={"10.250.50.54": "10.251.50.54", "10.250.50.55": "10.251.50.54"}).replace(
    "}}\n", "}, \"merges\": {\"fv-ml1\": [\"ana-ml2\", \"ana-ml3\"], "
    "\"10.251.50.54\": [\"10.250.50.54\", \"10.250.50.55\"]}}\n", 1)  # intended merges (issue 27 item 18)
COLLIDING = {
    "a.json": '{"ana-ml2": {"gpu": 4}, "ana-ml3": {"gpu": 8}}\n',
    "b.yaml": "hosts:\n  10.250.50.54: {role: web}\n  10.250.50.55: {role: db}\n",
    "c.toml": "[hosts]\nana-ml2 = 1\nana-ml3 = 2\n",
}


@case(40, "struct", "refused")
def case_40(s: Scratch) -> Outcome:
    """many-to-one → duplicate keys JSON/YAML/TOML"""
    root = s.repo(COLLIDING, config=MANY_TO_ONE, allowlist=ALL_CURRENT)
    refused = s.cli(root, "sweep", "--commit")
    require(refused.exit_code == 3 and "3 files would no longer parse, would collide or would dangle" in refused.stderr,
            f"the sweep does not refuse the duplicate keys: {refused.brief()}")
    now = snapshot(root)
    broken = [rel for rel, text in COLLIDING.items() if now[rel] != text.encode()]
    require(not broken, f"rewritten into duplicate keys: {', '.join(broken)}")
    require(len(json.loads(now["a.json"])) == 2, "a.json lost an entry")
    tomllib.loads(now["c.toml"].decode())
    verify = s.cli(root, "verify")
    require(verify.exit_code == 1 and verify.stdout.count("residual (structure)") >= 3,
            f"verify does not fail on the refused keys: {verify.brief()}")
    return ok("the colliding keys refused (nothing written), verify fails with residual (structure)")


DATED = {
    "config.yaml": "# 2025-03-01 switched the gateway\nlitellm:\n  api_base: http://ana-ml2:8000\n",
    "deploy.sh": "#!/bin/sh\n# 2024-11-02 initial version\nssh root@ana-ml2 systemctl restart x\n",
    "app.env": "# 2025-01-01 moved\nHOST=ana-ml2\n",
}


@case(41, "classify", "swept")
def case_41(s: Scratch) -> Outcome:
    """dated `#` comment in YAML/sh/.env"""
    cfg = config(hosts={"ana-ml2": "fv-ml1"}, extra="cutover: 2026-10-05\n")
    allowlist = "version: 1\nextends: [records-common]\ncurrent: ['**']\n"
    root, _ = swept(s, DATED, cfg=cfg, allowlist=allowlist)
    left = [rel for rel in DATED if "ana-ml2" in (root / rel).read_text()]
    require(not left, f"kept as a dated section: {', '.join(left)}")
    return ok("YAML, shell and .env files swept despite their dated comments")
