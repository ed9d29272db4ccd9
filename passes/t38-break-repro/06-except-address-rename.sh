#!/bin/bash
# Finding: t37-break 10's fix (an except carried out of its cidr is refused) runs for network moves only.
# Under an ADDRESS rename 192.168.42.5 -> 10.20.42.5 a NetworkPolicy / CiliumNetworkPolicy
# `cidr: 192.168.0.0/16, except: [192.168.42.5/32]` is written with the except outside its cidr (the
# Kubernetes API rejects it: except must be a strict subset of cidr; Cilium likewise), and the cidr gets an
# `access-set` residual whose advice ("left it no longer admits the renamed host") inverts the rule: the
# host was EXCLUDED. Expected: refused (tool-refuses, exit 3, nothing written) as for the network move.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
D=/tmp/t38-break/r04; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  addresses: {192.168.42.5: 10.20.42.5}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
cat > np.yaml <<'Y'
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: runner
spec:
  podSelector: {}
  policyTypes: [Egress]
  egress:
    - to:
        - ipBlock:
            cidr: 192.168.0.0/16
            except:
              - 192.168.42.5/32
Y
cat > cnp.yaml <<'Y'
apiVersion: cilium.io/v2
kind: CiliumNetworkPolicy
metadata:
  name: runner
spec:
  endpointSelector: {}
  egress:
    - toCIDRSet:
        - cidr: 192.168.0.0/16
          except:
            - 192.168.42.5/32
Y
git add -A; git commit -qm init
$R sweep --verbose 2>&1 | sed -n '/^Summary/,$p'; echo "sweep rc=${PIPESTATUS[0]} (expected 3, nothing written)"
echo "--- written:"; grep -n -A2 'cidr:' np.yaml cnp.yaml
# control: the same policy under the network move 192.168.42.0/24 -> 10.20.42.0/24 is refused
