"""The README's walkthrough, checked against what `renamer demo` prints.

Each claim ties a phrase of the walkthrough to what the demo's output must show
in one step: the README cannot change a claim without this table, and the demo
cannot change its output without failing it. The steps' commands must appear
in the demo, in the walkthrough's order.

    renamer demo | python -m tests.testing.walkthrough README.md
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Claim:
    readme: str  # the phrase, exactly as README.md's walkthrough says it
    command: str  # the demo step it is about: the command after `$ renamer `
    output: str  # a regular expression the step's output must match
    occurrence: int = 1  # which run of `command` (verify runs twice)


CLAIMS = (
    Claim("fails, listing 56 live references", "verify", r"\nverify: FAILED: 56 residual, "),
    Claim("`stacks/litellm/conf/config.yaml:112:22 ... [general_settings.pass_through_endpoints[0].target]`",
          "verify", r"\nstacks/litellm/conf/config.yaml:112:22: residual: .* "
                    r"\[general_settings\.pass_through_endpoints\[0\]\.target\]"),
    Claim("`Kept on purpose: archival-memory 5, persistent-memory 5, backups 3, incidents 3, "
          "dated-section 1, hand-test-site 1, inline 1`", "sweep --dry-run",
          r"\nKept on purpose: archival-memory 5, persistent-memory 5, backups 3, incidents 3, "
          r"dated-section 1, hand-test-site 1, inline 1\n"),
    Claim("the derived-name candidate `ana-ml2-ipmi` (not renamed: it has no key)", "sweep --dry-run",
          r"\nDerived-name candidates, not renamed \(1; add a key.*\n  ana-ml2-ipmi: 1 "),
    Claim("the binary `assets/rack-label.bin` (skipped, reported)", "sweep --dry-run",
          r"\nSkipped, holding old values \(1 file\):\n  assets/rack-label\.bin \(binary, 2\)\n"),
    Claim("the pure rename of\n   `playbooks/host_vars/ana-ml2.yml`", "sweep --commit",
          r"\n  rename playbooks/host_vars/ana-ml2\.yml -> playbooks/host_vars/fv-ml1\.yml\n"),
    # The demo prints the history after its last repo step (the audit).
    Claim("two commits, the pure rename of\n   `playbooks/host_vars/ana-ml2.yml` first", "audit",
          r"\nThe history now reads:\n[0-9a-f]+ fv-ml1-move: ana-ml2 -> fv-ml1, .*\n"
          r"[0-9a-f]+ fv-ml1-move: rename files \(.*\)\n[0-9a-f]+ Infra repo before the move"),
    Claim("`renamer verify`: exit 0; `ana-ml2-ipmi` is listed as a near-miss warning", "verify",
          r"(?s)warning: derived-name: 'ana-ml2-ipmi'.*\nverify: OK: 0 residual, 0 unclassified, 1 near-miss",
          occurrence=2),
    Claim("every kept reference, by reason, with the reason's text", "audit",
          r"\nKept on purpose: 19 references\n\narchival-memory \(5\): archived context"),
    Claim("the new site's dnsmasq snippet", "dns render --site fv", r"\nhost-record=fv-ml1\.fv\.lan,"),
    Claim("three real resolvers on loopback ports (a\n   mixed fleet where Unbound is installed too: ns-ana3 runs "
          "Unbound), and the\n   fv clients' forwarder (`manage: false`: "
          "renamer never writes it, only asks it)", "dns render --site fv",
          r"\nStarted 3 (?:dnsmasq resolvers|resolvers \(ns-ana, ns-ana2: dnsmasq; ns-ana3: Unbound\)) on "
          r"127\.0\.0\.1 ports \d+, \d+, \d+, and a forwarder renamer never "
          r"writes, only asks \(manage: false\), on port \d+, forwarding the sites' domains to them;"),
    Claim("`dns verify` (165 checks, on the forwarder too)", "dns verify --resolvers all",
          r"\ncheck +ns-ana +ns-ana2 +ns-ana3 +fv-gw\n(?s:.*)\ndns verify: OK: 165 checks on 4 resolvers\n"),
    Claim("a second `dns apply`\n   that touches nothing", "dns apply --resolvers all",
          r"(\n\S+ +local +unchanged +snippets identical: not touched; verify ok \(\d+ checks\)){3}\n"
          r"fv-gw +unmanaged +asked +manage: false: not written; verify ok \(\d+ checks\)\n"
          r"dns apply: OK\n", occurrence=2),
    Claim("the resolvers are stopped afterwards", "probe --no-system-resolver",
          r"\nStopped the resolvers\. "),
    Claim("`renamer probe`: every endpoint the current-state files now name", "probe --no-system-resolver",
          r"\nprobe: OK: 25 endpoints resolve and answer\n"),
)

STEP_COMMANDS = ("verify", "sweep --dry-run", "sweep --commit", "verify", "audit", "dns render --site fv",
                 "dns plan --resolvers all", "dns apply --resolvers all", "dns verify --resolvers all",
                 "dns apply --resolvers all", "probe --no-system-resolver")


def walkthrough(readme: str) -> str:
    """README.md's walkthrough section."""
    start = readme.index("## Walkthrough")
    end = readme.find("\n## ", start + 1)
    return readme[start:end if end != -1 else len(readme)]


def steps(output: str) -> list[tuple[str, str]]:
    """(command, what it printed up to the next command) for each `$ renamer ...` of the demo."""
    parts = re.split(r"^\$ renamer (.*)$", output, flags=re.MULTILINE)
    return [(re.sub(r" --(?:resolvers-file|connect-to) \S+", "", parts[i]), "\n" + parts[i + 1])
            for i in range(1, len(parts) - 1, 2)]


def problems(readme: str, output: str) -> list[str]:
    """What disagrees between the walkthrough and the demo's output (empty when they agree)."""
    text = walkthrough(readme)
    ran = steps(output)
    found = []
    if [command for command, _ in ran] != list(STEP_COMMANDS):
        found.append(f"the demo's steps are {[c for c, _ in ran]}, expected {list(STEP_COMMANDS)}")
    for claim in CLAIMS:
        if claim.readme not in text:
            found.append(f"README.md's walkthrough no longer says {claim.readme!r}: update "
                         "tests/testing/walkthrough.py with it")
            continue
        runs = [printed for command, printed in ran if command == claim.command]
        if len(runs) < claim.occurrence:
            found.append(f"the demo never ran `renamer {claim.command}` (run {claim.occurrence})")
        elif not re.search(claim.output, runs[claim.occurrence - 1]):
            found.append(f"README.md says {claim.readme!r}, but `renamer {claim.command}` "
                         f"(run {claim.occurrence}) printed no match for {claim.output!r}")
    return found


def main(argv: list[str]) -> int:
    readme = Path(argv[0] if argv else "README.md").read_text(encoding="utf-8")
    output = sys.stdin.buffer.read().decode("utf-8", "replace")  # the diff holds Latin-1 bytes
    found = problems(readme, output)
    for problem in found:
        print(f"walkthrough: {problem}", file=sys.stderr)
    if not found:
        print(f"walkthrough: the demo's output agrees with README.md ({len(CLAIMS)} claims)")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
