#!/bin/bash
# Runs every reproduction from scratch (repos under /tmp/t35-repro/) and prints each one's
# exit codes; the full output of each goes to /tmp/t35-repro/out/NN.txt.
cd "$(dirname "$0")"; mkdir -p /tmp/t35-repro/out
for f in [0-9][0-9]-*.sh; do
  bash "$f" > "/tmp/t35-repro/out/${f%.sh}.txt" 2>&1
  echo "$f: $(grep -E 'rc\(' "/tmp/t35-repro/out/${f%.sh}.txt" | tr '\n' ' ')"
done
