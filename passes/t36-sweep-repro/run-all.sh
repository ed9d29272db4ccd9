#!/bin/bash
# Runs every reproduction and prints its exit codes.
cd "$(dirname "$0")"
for s in [0-9][0-9]-*.sh; do echo "##### $s"; bash "$s" 2>&1 | grep -E '^rc\(|verify:' ; done
