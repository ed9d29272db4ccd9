#!/bin/bash
# Finding: t37-break 14's fix names the temporary files a stopped sweep leaves; a stopped `renamer init`
# leaves `allowlists/.renamer-XXXX.renamer-tmp` (its allowlist's atomic write) and says only
# "renamer: aborted". The next `renamer init` succeeds and leaves it; `git status` lists it untracked
# beside the new allowlist, and init's own advice ("commit renamer.yaml and the allowlist") with
# `git add -A` commits it. Timing-dependent: the script stops init as its allowlist's temp file appears.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
PY=${PY:-/work/t38-break/.venv/bin/python}
D=/tmp/t38-break/r14; rm -rf $D; mkdir -p $D/conf; cd $D; git init -q; git config user.email t@t; git config user.name t
for i in $(seq 1 3000); do printf 'server web01 port %d\n' $i > conf/f$i.conf; done
git add -A; git commit -qm init
RENAMER=$R $PY - <<'P'
import subprocess, time, os, signal
R = os.environ["RENAMER"]
for i in range(200):
    subprocess.run("rm -rf allowlists renamer.yaml", shell=True)
    p = subprocess.Popen([R, "init", "--from", "web01=app01"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    while p.poll() is None and not (os.path.isdir("allowlists") and os.listdir("allowlists")):
        time.sleep(0.0002)
    try: os.killpg(p.pid, signal.SIGTERM)
    except ProcessLookupError: pass
    _, se = p.communicate()
    if os.path.isdir("allowlists") and any(n.endswith(".renamer-tmp") for n in os.listdir("allowlists")):
        print(f"try {i}: exit {p.returncode}, it said: {se.decode().strip()!r}"); break
P
echo "--- left behind:"; ls -a allowlists
$R init --from web01=app01 2>&1 | tail -1; echo "second init rc=$?"
git status --short -uall
echo "expected: no temp file left, or one named by the abort message and removed by the next run"
