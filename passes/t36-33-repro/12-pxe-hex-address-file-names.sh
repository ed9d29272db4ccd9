#!/bin/bash
# Finding 12: PXELINUX/GRUB netboot config files named by the client's address in upper-case hex
# (pxelinux.cfg/C0A82805 for 192.168.40.5, and the subnet-wide prefixes C0A828 = 192.168.40.0/24)
# are neither renamed nor said under a network move; a file named by the dotted address
# (host_vars/192.168.40.5.yml) is renamed (control). After the move 10.20.0.5 asks for 0A140005,
# 0A14000, ... and boots `default` instead of its own config.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r15 "192.168.40.0/24: 10.20.0.0/22"
mkdir -p host_vars tftpboot/pxelinux.cfg tftpboot/grub
printf 'role: nas\n' > host_vars/192.168.40.5.yml
printf 'DEFAULT install-nas\n' > tftpboot/pxelinux.cfg/C0A82805
printf 'DEFAULT lan-rescue\n' > tftpboot/pxelinux.cfg/C0A828
printf 'menuentry nas {}\n' > tftpboot/grub/grub.cfg-C0A82805
printf '[lan]\n192.168.40.5\n' > inventory.ini
commit
$R sweep --commit --color never 2>&1 | grep -vE 'in-addr' | cut -c1-160
echo "--- verify:"; $R verify --color never 2>&1 | tail -1
find . -path ./.git -prune -o -type f -print | sort
