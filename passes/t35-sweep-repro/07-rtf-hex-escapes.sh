#!/bin/bash
# 07 (sev 1): RTF writes characters as \'hh escapes (Word and WordPad do this for any
# character, LibreOffice for non-ASCII). `web\'30\'31.lab.example` is web01.lab.example to
# every RTF reader; the sweep rewrites the plain spelling on the line before, leaves this one,
# says nothing: exit 0, verify --strict OK. (JSON \u, XML &#..;, YAML \x are residuals.)
. "$(dirname "$0")/lib.sh"
mkrepo 07; cfg '{web01.lab.example: app01.example.net}' '{10.0.0.70: 10.0.1.90}'
printf '{\\rtf1\\ansi {\\fonttbl\\f0 Helvetica;}\\f0 Primary: web01.lab.example at 10.0.0.70.\\par\nFailover runbook: ssh web\\'"'"'30\\'"'"'31.lab.example, then ping 10.0.0.\\'"'"'37\\'"'"'30\\par\n}\n' > runbook.rtf
commit
run_all
echo "== what an RTF reader sees in the swept file (\\'hh decoded):"
python3 -c "import re;print(re.sub(r\"\\\\'([0-9a-f]{2})\", lambda m: chr(int(m.group(1),16)), open('runbook.rtf').read()))"
