"""Export a sample Ansible playbook (for ansible-lint in CI) from three loopback resolvers.

    python -m tests.testing.export_sample DIR

Starts the test lab's dnsmasq resolvers, runs `renamer dns export ansible --out DIR`
with a canary and batches, and stops them again.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from tests.testing.resolvers import start_lab


def main(argv: list[str]) -> int:
    out = Path(argv[0]).resolve()
    with tempfile.TemporaryDirectory(prefix="renamer-export-sample-") as scratch:
        lab = start_lab(Path(scratch) / "lab")
        try:
            subprocess.run(["git", "init", "-q", str(lab.root)], check=True)
            done = subprocess.run([sys.executable, "-m", "renamer", "dns", "export", "ansible", "--out", str(out),
                                   "--inventory", str(lab.inventory),
                                   "--canary", "1", "--batch-size", "10", "--max-fail-percent", "10"],
                                  cwd=lab.root, capture_output=True, text=True)
        finally:
            lab.stop()
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
