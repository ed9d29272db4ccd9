#!/bin/bash
# 09 (sev 1): a file with classic-Mac CR-only line endings is read as one line.
# CommonMark (and Python's universal newlines, which many config readers use) treat a lone CR
# as a line ending, so notes.md has a dated `## 2025-03-01` section (a record) and a
# `## Current` one: the sweep rewrites the dated record as well (it sees no heading).
# The reverse: an inline `renamer: keep` marker on the first line keeps every later line of a
# CR-only file ("Kept on purpose: inline 2"), live values included.
# Same class: YAML 1.1 (PyYAML, hence Ansible) breaks lines at NEL (U+0085, what a cp1252
# ellipsis becomes when mis-decoded): `legacy: ...  # renamer: keep<NEL>host: web01.lab.example`
# gives Ansible a live `host` key, and the marker keeps it.
# exit 0, verify --strict OK. (CRLF files are handled.)
. "$(dirname "$0")/lib.sh"
mkrepo 09; cfg '{web01.lab.example: app01.lab.example}' '{10.0.0.70: 10.0.1.90}'
printf '# Notes\r\r## 2025-03-01\rweb01.lab.example was rebuilt after the disk failure\r\r## Current\rssh web01.lab.example\r' > notes.md
printf '# old box, decommission ticket OPS-12  renamer: keep\rtarget_a=10.0.0.70\rtarget_b=web01.lab.example\r' > targets.txt
# the same two files with LF endings, for comparison
python3 -c "open('vars.yml','w',encoding='utf-8').write('legacy: web01.lab.example  # renamer: keep\u0085host: web01.lab.example\nip: 10.0.0.70\n')"
tr '\r' '\n' < notes.md > notes-lf.md; tr '\r' '\n' < targets.txt > targets-lf.txt
commit
run_all | tr '\r' '\n'
echo "== PyYAML (Ansible) reads vars.yml after the sweep:"
"$RENAMER_VENV/bin/python" -c "import yaml; print(yaml.safe_load(open('vars.yml', encoding='utf-8')))"
echo "== CommonMark's reading of notes.md (python-markdown splits on CR too):"
python3 -c "print(open('notes.md', newline=None).read())"
