#!/bin/bash
# Finding: a move INTO a wide set's except (or a deny that comes first) is silent. 10.5.42.0/24 ->
# 10.20.42.0/24 beside a NetworkPolicy `cidr: 10.0.0.0/8, except: [10.20.0.0/16]`, the same Cilium
# fromCIDRSet, nginx `deny 10.20.0.0/16; allow 10.0.0.0/8;`, Postfix `mynetworks = !10.20.0.0/16
# 10.0.0.0/8`, ufw `deny from 10.20.0.0/16` before `allow from 10.0.0.0/8`: before the move the hosts were
# admitted, after it every rule shuts them out. Sweep 0, verify --strict OK. The mirror of t37-break 10's
# fix (an except the move carries OUT is refused), and of the ufw refusal where the allow spells the
# moved network itself (control below: refused).
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
D=/tmp/t38-break/r13; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  networks: {10.5.42.0/24: 10.20.42.0/24}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
cat > np.yaml <<'Y'
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: db-ingress
spec:
  podSelector: {matchLabels: {app: postgres}}
  policyTypes: [Ingress]
  ingress:
    - from:
        - ipBlock:
            cidr: 10.0.0.0/8
            except:
              - 10.20.0.0/16
Y
cat > cnp.yaml <<'Y'
apiVersion: cilium.io/v2
kind: CiliumNetworkPolicy
metadata:
  name: db
spec:
  endpointSelector: {}
  ingress:
    - fromCIDRSet:
        - cidr: 10.0.0.0/8
          except: [10.20.0.0/16]
Y
printf 'location / {\n    deny 10.20.0.0/16;\n    allow 10.0.0.0/8;\n    deny all;\n}\n' > nginx.conf
printf 'mynetworks = !10.20.0.0/16 10.0.0.0/8\n' > main.cf
printf 'ufw deny from 10.20.0.0/16\nufw allow from 10.0.0.0/8\n' > ufw.sh
printf 'db_client: 10.5.42.10\n' > app.yml
printf 'ufw deny from 10.20.0.0/16\nufw allow from 10.5.42.0/24\n' > control-ufw.sh
git add -A; git commit -qm init
$R sweep --dry-run 2>&1 | grep -E '^  control-ufw.sh:1: tool-refuses' | cut -c1-120 | sort -u
git rm -q control-ufw.sh; git commit -qm 'control seen'
$R sweep 2>&1 | grep -E '^Summary|^Residual|wide|except|refus'; echo "sweep rc=${PIPESTATUS[0]}"
$R verify --strict | tail -1; echo "verify --strict rc=${PIPESTATUS[0]}"
echo "expected: a refusal or residual on each of the five rules (the moved hosts land in what they exclude)"
