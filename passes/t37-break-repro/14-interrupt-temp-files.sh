#!/bin/bash
# Finding: SIGTERM in the middle of the write loop of `sweep --commit` says "interrupted after writing N of M
# files: `renamer sweep --commit` writes the other M-N", but leaves M-N `.renamer-*.renamer-tmp` files in
# the work tree, untracked and not ignored, with no word: `git status` lists them, `git add -A` commits
# them, `git stash -u`/`git clean` decides the resume for the operator. (Timing: the script retries with
# growing delays after the journal appears until it lands mid-write.)
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r13; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
printf 'version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n' > renamer.yaml
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
for i in $(seq 1 300); do mkdir -p d$((i%10)); printf 'host: web01\nother: x%s\n' $i > d$((i%10))/f$i.yaml; done
git add -A; git commit -qm init; base=$(git rev-parse HEAD)
for extra in ${EXTRAS:-0.05 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0 1.2 1.4 1.7 2.0 2.5 3.0}; do
  git reset -q --hard $base; git clean -qfdx; rm -f .git/renamer-journal.json
  $R sweep --commit >/dev/null 2>/tmp/t37-break/r13.err & pid=$!
  while [ ! -e .git/renamer-journal.json ] && kill -0 $pid 2>/dev/null; do sleep 0.005; done
  sleep $extra; kill -TERM $pid 2>/dev/null; wait $pid; rc=$?; echo "  after +${extra}s: $(head -c 90 /tmp/t37-break/r13.err)"
  if grep -q 'after writing' /tmp/t37-break/r13.err; then
    echo "exit $rc: $(cat /tmp/t37-break/r13.err)"
    echo "untracked temp files left in the work tree: $(git status --porcelain | grep -c '^?? .*renamer-tmp')"
    git status --porcelain | grep '^??' | head -3
    exit 0
  fi
done
echo "did not land mid-write this time; rerun"
