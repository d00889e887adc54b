#!/bin/busybox sh
# shellcheck shell=dash
# rxe-vm stage 1 (initramfs /init): mount the host root read-only with a tmpfs overlay,
# mount the per-run share, then switch_root into the stage-2 script on the host filesystem.
/bin/busybox mkdir -p /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
fail() { echo "rxe-vm stage1: $*"; poweroff -f; }
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules.order); do insmod "/modules/$m.ko" || fail "insmod $m"; done
stage2=$(sed -n 's/.*rxe_stage2=\([^ ]*\).*/\1/p' /proc/cmdline)
mkdir -p /lower /rw /newroot /out
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 hostroot /lower \
  || fail "mount of the host root over 9p"
mount -t tmpfs -o mode=0755 tmpfs /rw && mkdir -p /rw/upper /rw/work || fail "tmpfs"
mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work overlay /newroot \
  || fail "overlay mount"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out /out || fail "mount of the run share"
mount -t tmpfs -o mode=0755 tmpfs /newroot/run || fail "tmpfs /run"
mkdir -p /newroot/run/rxe-out
mount --move /out /newroot/run/rxe-out || fail "move run share"
mount --move /proc /newroot/proc && mount --move /sys /newroot/sys && mount --move /dev /newroot/dev \
  || fail "move /proc /sys /dev"
# A failed exec ends this shell, PID 1, and the kernel panics without a word: check first.
[ -x /newroot/bin/sh ] && [ -f "/newroot$stage2" ] || fail "no /bin/sh or $stage2 under the host root"
exec switch_root /newroot /bin/sh "$stage2"
