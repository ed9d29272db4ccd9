#!/bin/bash
# Finding: t37-break 13's fix sets the stop handlers in renamer/entry.py, but the console script's
# `from renamer.entry import main` first runs renamer/__init__.py, which imports typing and
# renamer.errors (~90 ms of the import: `python -X importtime -c "import renamer.entry"`). A SIGTERM in
# that window ends the process as 143 with nothing said, a Ctrl-C prints a KeyboardInterrupt traceback
# (exit -2 or 1). Expected: "renamer: aborted", exit 130, as 60 ms later.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
PY=${PY:-/work/t38-break/.venv/bin/python}
D=/tmp/t38-break/r08; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
printf 'version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n' > renamer.yaml
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml; echo 'server web01' > a.conf; git add -A; git commit -qm init
$PY -X importtime -c "import renamer.entry" 2>&1 | grep -E '\| +(typing|renamer|renamer.entry)$'
RENAMER=$R $PY - <<'P'
import subprocess, time, signal, os, collections
R = os.environ["RENAMER"]
for sig in (signal.SIGTERM, signal.SIGINT):
    seen = collections.Counter()
    for i in range(30):
        d = 0.03 + 0.09 * i / 29
        p = subprocess.Popen([R, "verify"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        time.sleep(d); os.killpg(p.pid, sig); _, se = p.communicate()
        last = (se.decode(errors="replace").strip().splitlines() or ["<nothing said>"])[-1][:60]
        seen[(p.returncode, last)] += 1
    print(sig.name, dict(seen))
P
echo "expected: every stop (130, 'renamer: aborted'); the first tens of ms give -15 '<nothing said>' and a KeyboardInterrupt traceback"
