#!/bin/bash
# Finding 03: a four-part version number inside a moved network is renumbered as an address under
# the keys and syntaxes that say "version": package.json "version", .NET AssemblyVersion /
# AssemblyFileVersion, MSBuild <Version>, pip `==`, prose "driver 10.0.0.7". Sweep 0, verify OK:
# builds now stamp/ask for versions that do not exist (foo==10.9.0.2). The version guard exists for
# three-part heads (`version: 10.0.0` is left, docs/matching.md) but not for a full dotted quad.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r09 "10.0.0.0/24: 10.9.0.0/24"
printf '{"name": "app", "version": "10.0.0.12", "server": "10.0.0.5"}\n' > package.json
printf '[assembly: AssemblyVersion("10.0.0.1")]\n[assembly: AssemblyFileVersion("10.0.0.1")]\n' > AssemblyInfo.cs
printf '<Project><PropertyGroup><Version>10.0.0.3</Version></PropertyGroup></Project>\n' > app.csproj
printf 'foo==10.0.0.2\n' > requirements.txt
printf 'server: 10.0.0.5\n' > s.yml
commit
$R sweep --commit --color never 2>&1 | grep -vE 'in-addr|^  10\.0\.0'
echo "--- verify:"; $R verify --color never 2>&1 | tail -1
git --no-pager diff HEAD~1 | grep '^[-+][^-+]'
