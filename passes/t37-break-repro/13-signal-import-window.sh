#!/bin/bash
# Finding: a stop sent while renamer is still importing (the first ~0.2-0.4 s of every command on this
# 2-core box) is not the documented one: Ctrl-C prints a Python KeyboardInterrupt traceback (exit 130,
# or exit 1 "Could not import runpy module" for `python -m renamer` very early), SIGTERM exits 143 and
# SIGHUP 129 without "renamer: aborted". Nothing is written in any case.
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r07; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
printf 'version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n' > renamer.yaml
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
echo 'host: web01' > a.yaml; git add -A; git commit -qm init
set -m   # background jobs get their own process group and SIGINT at its default, as a terminal's Ctrl-C sees
for sig in INT TERM HUP; do for delay in 0.15 0.25; do
  $R sweep >/dev/null 2>/tmp/t37-break/r07.err & pid=$!; sleep $delay; kill -$sig -- -$pid; wait $pid; rc=$?
  echo "SIG$sig at ${delay}s: exit $rc (expected 130), stderr: $(grep -c Traceback /tmp/t37-break/r07.err) traceback(s), last line: $(tail -1 /tmp/t37-break/r07.err)"
done; done
echo "tree: $(git status --porcelain | wc -l) changed (nothing written: right)"
