#!/bin/bash
# 03 (sev 1): the Debian/Ubuntu installer names the volume group after the host
# (`web01-vg`; device-mapper doubles the dash: /dev/mapper/web01--vg-root). The VG on disk
# keeps its name when the host is renamed. The sweep rewrites /dev/mapper/web01--vg-root to
# app01--vg-root in fstab and the kernel command line (the machine no longer finds its root
# or resume device), while /dev/web01-vg/swap_1 - the same VG - is only a "derived-name
# candidate": one VG, two spellings, one rewritten. exit 0, verify --strict OK.
# (ZFS datasets get the `storage` keep; LVM, mdadm `name=HOST:0` and LUKS names do not.)
. "$(dirname "$0")/lib.sh"
mkrepo 03; cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
mkdir -p host_vars/web01
printf 'UUID=1234-ABCD /boot/efi vfat umask=0077 0 1\n/dev/mapper/web01--vg-root / ext4 errors=remount-ro 0 1\n/dev/web01-vg/swap_1 none swap sw 0 0\n' > host_vars/web01/fstab
printf 'GRUB_CMDLINE_LINUX="root=/dev/mapper/web01--vg-root resume=/dev/mapper/web01--vg-swap_1"\n' > host_vars/web01/grub
printf 'web01--vg-root_crypt UUID=5678 none luks,discard\n' > host_vars/web01/crypttab
printf 'ARRAY /dev/md/0 metadata=1.2 name=web01:0 UUID=3aaa0122:29827cfa:5331ad66:ca767371\n' > host_vars/web01/mdadm.conf
commit
run_all
