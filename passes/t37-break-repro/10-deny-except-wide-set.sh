#!/bin/bash
# Finding: a deny rule whose wide network EXCEPTS the moved network (onedr0p/home-ops' runner policy):
# the sweep moves the except out of its cidr (Cilium/k8s reject an except outside its cidr), calls the
# wide network a lost admission ("add the new network beside it"), and says nothing about the new network
# landing inside the 10.0.0.0/8 egressDeny (the runners lose the servers they were allowed to reach).
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r01; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  networks: {192.168.42.0/24: 10.20.42.0/24}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
cat > runner-policy.yaml <<'Y'
apiVersion: cilium.io/v2
kind: CiliumNetworkPolicy
metadata:
  name: home-ops-runner
spec:
  endpointSelector:
    matchLabels:
      runner: home-ops-runner
  egressDeny:
    - toCIDRSet:
        - cidr: 10.0.0.0/8
          except:
            - 10.42.0.0/16
            - 10.43.0.0/16
    - toCIDRSet:
        - cidr: 192.168.0.0/16
          except:
            - 192.168.42.0/24
Y
cat > netpol.yaml <<'Y'
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: lan-egress}
spec:
  podSelector: {}
  policyTypes: [Egress]
  egress:
    - to:
        - ipBlock:
            cidr: 192.168.0.0/16
            except:
              - 192.168.42.0/24
Y
git add -A; git commit -qm init
$R sweep; echo "sweep rc=$?"
git diff -U0 | grep '^[-+][^-+]'
$R verify --strict; echo "verify --strict rc=$?"
echo "--- expected: the except 10.20.42.0/24 now lies outside cidr 192.168.0.0/16 (invalid: k8s 'must be a strict subset of cidr', Cilium refuses) is said at the except; 10.0.0.0/8 egressDeny now holds the moved network (a captured/wide residual);"
echo "    the deny rule that excepted the old network is no 'lost admission' and 'add the new network beside it' must not be advised"
