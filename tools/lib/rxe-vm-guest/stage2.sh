#!/bin/sh
# rxe-vm stage 2: PID 1 of the guest, run from the host filesystem. Sets up the fabric (rxe, or
# siw from the module rxe-vm built), runs the command, records its status in the run share and
# powers off.
OUT=/run/rxe-out
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
. "$OUT/config"
finish() {
  echo "$1" > "$OUT/rc.tmp" && mv "$OUT/rc.tmp" "$OUT/rc"
  sync
  echo o > /proc/sysrq-trigger
  sleep 30
}
echo "stage2 $(cut -d' ' -f1 /proc/uptime)" > "$OUT/timing"
mkdir -p /dev/pts /dev/shm /tmp
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
hostname rxe-guest
# --deterministic boots with maxcpus=1 (SMP bring-up hangs under icount): online the rest now.
if [ -n "$ONLINE_CPUS" ]; then
  for cpu in /sys/devices/system/cpu/cpu[1-9]*; do
    [ -e "$cpu/online" ] && echo 1 > "$cpu/online"
  done
  echo "online cpus: $(cat /sys/devices/system/cpu/online)" >> "$OUT/setup.log"
fi
for share in $RW_SHARES; do
  tag=${share%%=*}; dir=${share#*=}
  mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 "$tag" "$dir" \
    || echo "rxe-vm: could not mount $dir read-write" >> "$OUT/setup.log"
done

# The fabric's device number $1 on netdev $2: rxe<i> or siw<i>.
add_link() {
  rdma link add "$FABRIC$1" type "$FABRIC" netdev "$2"
}

# The wire between the two hosts of the veth layout, written as a script of its own so that a
# test that took a link down (which deletes the link's routes and neighbour entries, permanent
# ones too) can put it back: each host's route to the other through its own veth, and each
# host's permanent neighbour entry for the other, as the mesh's hosts have. An entry learnt by
# ARP ages (REACHABLE for a random 15-45 s, then STALE, DELAY, PROBE; rxe's UDP never confirms
# it), and a timed window that met it out of REACHABLE sent by the slower path: 1.7 % slower in
# the deterministic guest, at a moment that moved with the random ageing from boot to boot
# (tests/rxe/test_guest_network.py).
VETH_WIRE=/run/rxe-vm-veth-wire
write_veth_wire() {
  cat > "$VETH_WIRE" <<'WIRE'
#!/bin/sh
set -e
ip route replace 10.99.0.1 dev veth1 src 10.99.0.2 table 101
ip route replace 10.99.0.2 dev veth0 src 10.99.0.1 table 102
ip neigh replace 10.99.0.2 dev veth0 nud permanent lladdr "$(cat /sys/class/net/veth1/address)"
ip neigh replace 10.99.0.1 dev veth1 nud permanent lladdr "$(cat /sys/class/net/veth0/address)"
WIRE
  chmod 755 "$VETH_WIRE"
}

# Two "hosts": rxe0 (siw0) on veth0 (10.99.0.1) and rxe1 (siw1) on veth1 (10.99.0.2).
setup_veth() {
  ip link add veth0 type veth peer name veth1
  ip link set veth0 mtu 9000
  ip link set veth1 mtu 9000
  ip addr add 10.99.0.1/24 dev veth0
  ip addr add 10.99.0.2/24 dev veth1
  ip link set veth0 up
  ip link set veth1 up
  # Both addresses are local, so by default packets between them go through lo, where
  # rxe finds no device and drops them. Force them over the veth instead.
  ip rule add pref 100 lookup local
  ip rule del pref 0 lookup local
  ip rule add pref 10 iif lo to 10.99.0.1 lookup 101
  ip rule add pref 10 iif lo to 10.99.0.2 lookup 102
  write_veth_wire
  "$VETH_WIRE"
  for dev in all veth0 veth1; do
    sysctl -qw net.ipv4.conf.$dev.accept_local=1 net.ipv4.conf.$dev.rp_filter=0
  done
  add_link 0 veth0
  add_link 1 veth1
}

# A veth hands what it receives to the backlog of the CPU that sent it, and two packets of
# one flow sent from the two vCPUs (a netem queue is drained from either) were taken out of
# order: 6-28 rxe requests out of sequence in every all-to-all run of the mesh guest, none
# lost, and rxe with its retry timer off (the mesh tests' --qp-timeout 0) once never recovered.
# A wire keeps each flow's order: every packet `dev` receives goes to CPU 0's backlog (RPS).
steer_to_one_cpu() {
  for queue in /sys/class/net/"$1"/queues/rx-*/rps_cpus; do
    echo 1 > "$queue"
  done
}

# mesh:N: N "hosts" on one bridge.
setup_mesh() {
  # N "hosts" h0..h(N-1): host i is a veth hi (10.99.1.(i+1), rxe device rxe<i>) whose
  # peer hi-br is a port of the bridge rxebr, so every pair's traffic crosses the "wire":
  # out of hi, through the bridge, into hj. All addresses are local to this kernel, so
  # policy routing sends what a host's address sources out of its own veth, and static
  # neighbour entries (with arp_ignore) keep the bridge's other ports from answering. The
  # devices are rxe<i> (siw<i>).
  n=$1
  modprobe bridge
  ip link add rxebr type bridge
  ip link set rxebr up
  ip rule add pref 100 lookup local
  ip rule del pref 0 lookup local
  i=0
  while [ $i -lt $n ]; do
    ip link add h$i type veth peer name h$i-br
    ip link set h$i mtu 9000
    ip link set h$i-br mtu 9000
    ip link set h$i-br master rxebr
    ip link set h$i-br up
    ip addr add 10.99.1.$((i + 1))/24 dev h$i
    ip link set h$i up
    sysctl -qw net.ipv4.conf.h$i.accept_local=1 net.ipv4.conf.h$i.rp_filter=0 \
      net.ipv4.conf.h$i.arp_ignore=1 net.ipv4.conf.h$i.arp_announce=2
    ip rule add pref 10 iif lo from 10.99.1.$((i + 1)) lookup $((200 + i))
    ip route add 10.99.1.0/24 dev h$i src 10.99.1.$((i + 1)) table $((200 + i))
    add_link $i h$i
    steer_to_one_cpu h$i
    steer_to_one_cpu h$i-br
    i=$((i + 1))
  done
  sysctl -qw net.ipv4.conf.all.accept_local=1 net.ipv4.conf.all.rp_filter=0
  i=0
  while [ $i -lt $n ]; do
    j=0
    while [ $j -lt $n ]; do
      [ $i -eq $j ] || ip neigh replace 10.99.1.$((j + 1)) dev h$i nud permanent \
        lladdr "$(cat /sys/class/net/h$j/address)"
      j=$((j + 1))
    done
    i=$((i + 1))
  done
}

# Wait (bounded) until every device's port is ACTIVE.
wait_active() {
  for path in /sys/class/infiniband/*; do
    [ -e "$path" ] || continue
    dev=${path##*/}
    i=0
    until grep -q ACTIVE "/sys/class/infiniband/$dev/ports/1/state"; do
      i=$((i + 1)); [ $i -le 50 ] || { echo "$dev port 1 not ACTIVE"; exit 1; }
      sleep 0.1
    done
  done
}

# The fabric's kernel driver: rdma_rxe from the kernel's modules, or the siw.ko rxe-vm built
# out of tree (Debian leaves siw out) with what it needs.
load_driver() {
  case "$FABRIC" in
    siw) modprobe libcrc32c
         modprobe ib_core
         insmod "$SIW_MODULE" ;;
    *) modprobe rdma_rxe ;;
  esac
}

setup() {
  set -ex
  load_driver
  modprobe rdma_ucm
  ip link set lo up
  case "$MODE" in
    lo) add_link 0 lo ;;
    veth) setup_veth ;;
    mesh:*) setup_mesh "${MODE#mesh:}" ;;
    none) ;;
  esac
  wait_active
  rdma link show
}
( setup ) >> "$OUT/setup.log" 2>&1
if [ $? -ne 0 ]; then
  : > "$OUT/setup-failed"
  finish 126
fi
# A deterministic guest's clock jumps over a wait for the host (9p): what COMMAND runs is read
# into the guest's memory first (tools/rxe-vm wrote the lists), and the build's rdmabench and the
# checkout's tools, tests and docs, on an uncached share, are copied into memory and bound over
# themselves.
preload() {
  t0=$(cut -d' ' -f1 /proc/uptime)
  xargs -d '\n' -a "$OUT/preload" cat > /dev/null 2>&1
  mkdir -p /run/rxe-pinned
  n=0
  while IFS= read -r f; do
    n=$((n + 1))
    cp "$f" "/run/rxe-pinned/$n" && mount --bind "/run/rxe-pinned/$n" "$f" ||
      echo "rxe-vm: could not pin $f in memory" >> "$OUT/setup.log"
  done < "$OUT/pinned"
  # Folders of the checkout (tools, tests, docs), copied whole and bound over themselves.
  folders=0
  while IFS= read -r d; do
    folders=$((folders + 1))
    cp -a "$d" "/run/rxe-pinned/folder-$folders" && mount --bind "/run/rxe-pinned/folder-$folders" "$d" ||
      echo "rxe-vm: could not copy $d into memory" >> "$OUT/setup.log"
  done < "$OUT/private"
  # The build's test-reports folder, where tests write their logs and results as they run:
  # an overlay on itself, its upper layer in memory, so that a write never waits for the host,
  # and a read of what was there before reaches the share only for the file read (however much
  # the folder holds: the lane's fuzzers fill it beside the guest). What the guest writes there
  # is carried back when COMMAND ends (carry_back).
  kept=0
  while IFS= read -r d; do
    kept=$((kept + 1))
    mkdir -p "/run/rxe-pinned/kept-$kept/upper" "/run/rxe-pinned/kept-$kept/work"
    mount -t overlay "kept-$kept" -o "lowerdir=$d,upperdir=/run/rxe-pinned/kept-$kept/upper,workdir=/run/rxe-pinned/kept-$kept/work" "$d" ||
      echo "rxe-vm: could not keep $d in memory" >> "$OUT/setup.log"
  done < "$OUT/kept"
  # The traffic control modules the tests' tc loads on demand (modprobe reads the host root).
  xargs -a "$OUT/modules" modprobe -a >> "$OUT/setup.log" 2>&1 ||
    echo "rxe-vm: could not load the modules $(tr '\n' ' ' < "$OUT/modules")" >> "$OUT/setup.log"
  echo "rxe-vm: read $(wc -l < "$OUT/preload") files into memory, pinned $n files and $folders folders, kept $kept in memory, from $t0 s to $(cut -d' ' -f1 /proc/uptime) s of guest time" >> "$OUT/setup.log"
}
# What COMMAND wrote in each kept folder (the files of its overlay's upper layer; a removal
# is not carried), to the share beneath it.
carry_back() {
  k=0
  while IFS= read -r d; do
    k=$((k + 1))
    mountpoint -q "$d" && umount "$d" || continue
    ( cd "/run/rxe-pinned/kept-$k/upper" && find . -type f -exec cp --parents {} "$d" \; ) ||
      echo "rxe-vm: could not carry back what was written in $d" >> "$OUT/setup.log"
    echo "rxe-vm: carried back $(find "/run/rxe-pinned/kept-$k/upper" -type f | wc -l) files written in $d" >> "$OUT/setup.log"
  done < "$OUT/kept"
}
if [ -s "$OUT/preload" ]; then preload; fi
echo "command $(cut -d' ' -f1 /proc/uptime)" >> "$OUT/timing"
cd "$CWD" 2>/dev/null || cd /
bash "$OUT/cmd" > "$OUT/stdout" 2> "$OUT/stderr" < /dev/null
rc=$?
if [ -s "$OUT/kept" ]; then carry_back; fi
echo "done $(cut -d' ' -f1 /proc/uptime)" >> "$OUT/timing"
finish $rc
