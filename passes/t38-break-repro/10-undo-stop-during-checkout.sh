#!/bin/bash
# Finding: the stop handling (CHANGELOG "a stop ... recorded and raised ... `undo` before its checkout")
# does not cover a stop DURING undo's checkout (`git read-tree -m -u`, seconds on a 3,000-file move) or
# after its commit. (a) SIGTERM to the process group (what CI, systemd and Ctrl-C send) while read-tree
# runs: git dies, renamer exits 2 with "renamer: error: git read-tree failed: unknown error", the work tree
# is left HALF reverted (hundreds of files modified, HEAD unchanged), no word on how to recover.
# (b) a stop after the undo's commit (during its verify of the inverse): exit 130 "renamer: aborted",
# although the undo IS committed. Expected: (a) nothing half-written (the checkout finished or rolled
# back) and 130; (b) the commit said.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
PY=${PY:-/work/t38-break/.venv/bin/python}
D=/tmp/t38-break/r17; rm -rf $D; mkdir -p $D/conf; cd $D; git init -q; git config user.email t@t; git config user.name t
for i in $(seq 1 3000); do printf 'server web01 port %d\nupstream web01.lab\n' $i > conf/f$i.conf; done
printf 'version: 1\nname: m1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n' > renamer.yaml
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
git add -A; git commit -qm init
$R sweep --commit >/dev/null 2>&1; MOVE=$(git rev-parse HEAD); echo "swept: $(git log --oneline -1)"
RENAMER=$R MOVE=$MOVE $PY - <<'P'
import subprocess, time, os, signal
R, MOVE = os.environ["RENAMER"], os.environ["MOVE"]
def session_has(pgid, word):
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.getsid(int(pid)) == pgid and word in open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="replace"):
                return True
        except Exception: pass
    return False
for case in ("during read-tree", "after the commit"):
    subprocess.run(f"git reset -q --hard {MOVE} && git clean -qfdx && git worktree prune", shell=True)
    p = subprocess.Popen([R, "undo", "m1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    while p.poll() is None:
        if case == "during read-tree" and session_has(p.pid, "read-tree"):
            time.sleep(1.0); break
        if case == "after the commit" and subprocess.run("git rev-parse HEAD", shell=True, capture_output=True, text=True).stdout.strip() != MOVE:
            time.sleep(0.5); break
        time.sleep(0.01)
    try: os.killpg(p.pid, signal.SIGTERM)
    except ProcessLookupError: pass
    _, se = p.communicate()
    head = subprocess.run("git log --oneline -1", shell=True, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run("git status --porcelain | wc -l", shell=True, capture_output=True, text=True).stdout.strip()
    print(f"[{case}] exit {p.returncode}; said: {se.decode().strip()[-160:]!r}\n   HEAD: {head}; files modified in the work tree: {dirty}")
P
