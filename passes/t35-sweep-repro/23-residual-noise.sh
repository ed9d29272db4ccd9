#!/bin/bash
# 23 (sev 3): every residual line repeats its class's whole explanation (~520 characters here,
# the same paragraph each time): 9 escaped spellings in 6 one-line files print ~5.4 KB of the
# same text, in the dry run, the sweep and verify alike. An operator reads the list of places
# once per class; the explanation belongs once under the class (verify already groups nothing).
. "$(dirname "$0")/lib.sh"
mkrepo 23; cfg '{web01.lab.example: app01.lab.example}' '{10.0.0.70: 10.0.1.90}'
printf '<config><host>web&#48;1.lab.example</host><alt>&#x77;eb01.lab.example</alt><ip>10.0.0.&#55;0</ip></config>\n' > a.xml
printf 'host: "web\\x301.lab.example"\nip: "10.0.0.\\x370"\n' > a.yaml
printf '[host]\nname = "web\\u00301.lab.example"\n' > a.toml
printf 'const h = "web\\x301.lab.example";\n' > a.js
printf 'host=web\\u00301.lab.example\n' > b.properties
printf '<a href="http://web01&#46;lab&#46;example/">x</a>\n' > a.html
commit
renamer --color never verify > ../23.out 2>&1
echo "verify printed $(wc -c < ../23.out) bytes for $(grep -c 'residual (' ../23.out) residuals"
echo "the same explanation printed: $(grep -o 'an old value spelled with escapes .*keep rule' ../23.out | sort | uniq -c)"
echo "its length: $(grep -o 'an old value spelled with escapes .*keep rule' ../23.out | head -1 | wc -c) characters"
head -c 1200 ../23.out; echo ...
