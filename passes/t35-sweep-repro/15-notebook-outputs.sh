#!/bin/bash
# 15 (sev 1): a Jupyter notebook's outputs are what a past run printed, and
# .ipynb_checkpoints/ holds Jupyter's own copies; `init` proposes both as current and the sweep
# rewrites the output of `ping web01` into "PING app01 (10.0.1.90)": a result that never happened.
# The cell's source (current) should follow; its output (record) should not.
. "$(dirname "$0")/lib.sh"
mkrepo 15
mkdir -p .ipynb_checkpoints
cat > check.ipynb <<'NB'
{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": 1,
   "metadata": {},
   "source": ["!ping -c1 web01\n"],
   "outputs": [
    {"output_type": "stream", "name": "stdout",
     "text": ["PING web01 (10.0.0.70) 56(84) bytes of data.\n", "64 bytes from web01 (10.0.0.70): icmp_seq=1 ttl=64 time=0.31 ms\n"]}
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
NB
cp check.ipynb .ipynb_checkpoints/check-checkpoint.ipynb
commit
echo "== renamer init"; renamer --color never init --from web01=app01 --from 10.0.0.70=10.0.1.90
commit cfg
run_all
