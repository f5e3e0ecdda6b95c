#!/usr/bin/env bash
# A throw-away S3 server for the tests and the benchmark: Ceph's RADOS Gateway from Debian's
# packages (one monitor, one OSD, one gateway, all on 127.0.0.1, no systemd, no containers).
#
#   scripts/s3-gateway.sh start [DIR]          install what is missing (apt, as root), start, print
#                                              TESSERA_TEST_S3_* lines:  eval "$(scripts/s3-gateway.sh start)"
#   scripts/s3-gateway.sh stop [--purge] [DIR] stop the daemons this script started in DIR (by the
#                                              PIDs it recorded); --purge also deletes DIR
#
# DIR defaults to $TESSERA_S3_GATEWAY_DIR or /tmp/tessera-s3-gateway. Settings (environment):
#   S3_GATEWAY_PORT=7480, S3_GATEWAY_MON_PORT=3300 (and 6789 for the v1 protocol),
#   S3_GATEWAY_ACCESS_KEY / S3_GATEWAY_SECRET_KEY (defaults below, which test/helpers/s3.ts also
#   assumes), S3_GATEWAY_STORE=memstore (objects in RAM, fastest start) or bluestore (a sparse
#   file in DIR, bounded RAM), S3_GATEWAY_BYTES=4 GiB of capacity.
# Starting again reuses a running gateway in DIR, or restarts the stopped daemons of DIR. A
# memstore OSD keeps its objects only across a clean `stop`: when it was killed instead (a
# session or a CI job ending, a crash), its cluster is empty and cannot serve again, so start
# makes a new one in DIR. A restart that still fails also falls back, once, to a new cluster.
# Known quirk of Ceph 16 (Debian 12), which the S3 engine handles: the gateway refuses the AWS
# SDK's streaming checksum trailer (411 MissingContentLength), so streamed bodies need
# requestChecksumCalculation 'WHEN_REQUIRED' and a ContentLength.
set -euo pipefail

ACTION=${1:-}
shift || true
PURGE=0
if [ "$ACTION" = stop ] && [ "${1:-}" = --purge ]; then PURGE=1; shift; fi
DIR=${1:-${TESSERA_S3_GATEWAY_DIR:-/tmp/tessera-s3-gateway}}
PORT=${S3_GATEWAY_PORT:-7480}
MON_PORT=${S3_GATEWAY_MON_PORT:-3300}
MON_PORT_V1=${S3_GATEWAY_MON_PORT_V1:-6789}
ACCESS_KEY=${S3_GATEWAY_ACCESS_KEY:-tesseratestaccess}
SECRET_KEY=${S3_GATEWAY_SECRET_KEY:-tesseratestsecret0123456789}
STORE=${S3_GATEWAY_STORE:-memstore}
BYTES=${S3_GATEWAY_BYTES:-4294967296}
ENDPOINT="http://127.0.0.1:$PORT"
DAEMONS=(client.rgw osd.0 mon.a) # stop order; start order is the reverse

say() { echo "[s3-gateway $(date +%T)] $*" >&2; }
fail() { say "ERROR: $*"; exit 1; }

# The pid of one of OUR daemons, if it runs (its command line must name our ceph.conf, so a
# recycled pid is never mistaken for it).
ours() {
  local file="$DIR/run/$1.pid" pid
  [ -s "$file" ] || return 1
  pid=$(cat "$file")
  [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$DIR/ceph.conf" || return 1
  echo "$pid"
}

# The OSD was stopped cleanly (its objects are in DIR) when this file exists; start removes it.
CLEAN_STOP=.osd-stopped-cleanly

stop() {
  [ -d "$DIR" ] || { say "$DIR does not exist: nothing to stop"; return 0; }
  DIR=$(cd "$DIR" && pwd)
  local daemon pid clean=1
  for daemon in "${DAEMONS[@]}"; do
    pid=$(ours "$daemon") || continue
    if [ "$PURGE" = 1 ]; then kill -KILL "$pid" 2>/dev/null || true; else kill -TERM "$pid" 2>/dev/null || true; fi
    # A clean stop lets a memstore OSD write its objects to DIR (takes a few seconds).
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      say "$daemon ($pid) did not stop: killing it"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.2
      [ "$daemon" = osd.0 ] && clean=0
    fi
    rm -f "$DIR/run/$daemon.pid"
  done
  if [ "$PURGE" = 1 ]; then rm -rf -- "$DIR"; say "stopped and removed $DIR"; return 0; fi
  [ "$clean" = 1 ] && [ -f "$DIR/.ready" ] && touch "$DIR/$CLEAN_STOP"
  say "stopped"
}

# Whether the cluster in DIR can serve again: a memstore OSD that is gone without a clean stop
# took every object with it, the gateway's own pools included.
restartable() {
  [ -f "$DIR/.ready" ] || return 1
  [ "$STORE" = memstore ] || return 0
  ours osd.0 >/dev/null || [ -f "$DIR/$CLEAN_STOP" ]
}

signed() { # a signed S3 request as the test user
  curl -sf -o /dev/null --max-time "${TIMEOUT:-5}" --aws-sigv4 "aws:amz:us-east-1:s3" \
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" --user "$ACCESS_KEY:$SECRET_KEY" "$@"
}

print_settings() {
  echo "TESSERA_TEST_S3_ENDPOINT=$ENDPOINT"
  echo "TESSERA_TEST_S3_ACCESS_KEY_ID=$ACCESS_KEY"
  echo "TESSERA_TEST_S3_SECRET_ACCESS_KEY=$SECRET_KEY"
  echo "TESSERA_TEST_S3_REGION=us-east-1"
}

install_packages() {
  local missing=0 bin
  for bin in ceph-mon ceph-osd radosgw radosgw-admin ceph monmaptool ceph-authtool curl; do command -v "$bin" >/dev/null || missing=1; done
  [ "$missing" = 0 ] && return 0
  [ "$(id -u)" = 0 ] || fail "Ceph is not installed and installing it needs root: apt-get install ceph-mon ceph-osd radosgw ceph-common curl"
  say "installing ceph-mon ceph-osd radosgw ceph-common curl from apt (about 60 MB)"
  export DEBIAN_FRONTEND=noninteractive
  local packages=(ceph-mon ceph-osd radosgw ceph-common curl)
  apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends "${packages[@]}" >/dev/null 2>&1 || {
    apt-get update -q -o DPkg::Lock::Timeout=300 >/dev/null
    apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends "${packages[@]}" >/dev/null
  }
}

write_config() {
  local fsid=$1
  cat >"$DIR/ceph.conf" <<EOF
[global]
fsid = $fsid
mon host = [v2:127.0.0.1:$MON_PORT,v1:127.0.0.1:$MON_PORT_V1]
public addr = 127.0.0.1
public network = 127.0.0.0/8
ms bind ipv6 = false
# loopback only: no authentication between the daemons
auth cluster required = none
auth service required = none
auth client required = none
keyring = $DIR/keyring
run dir = $DIR/run
admin socket = $DIR/run/\$name.asok
log file = $DIR/log/\$name.log
crash dir = $DIR/crash
log to syslog = false
err to syslog = false
mon cluster log to syslog = false
mon cluster log file = $DIR/log/cluster.log
# one OSD: one copy of everything, small placement groups
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon max pg per osd = 1000
mon data avail warn = 2
mon data avail crit = 1
mon warn on insecure global id reclaim = false
mon warn on insecure global id reclaim allowed = false
# one monitor: commit at once rather than batching for a second (the gateway's first start
# creates its pools one round trip at a time)
paxos propose interval = 0.01
osd objectstore = $STORE

[mon]
mon data = $DIR/mon.\$id

[osd]
osd data = $DIR/osd.\$id
memstore device bytes = $BYTES
# memstore's own used-bytes counter can underflow and report the OSD full: use PG stats instead
fake statfs for testing = $BYTES
# a full unmount on SIGTERM, so memstore writes its objects to disk on a clean stop
osd fast shutdown = false
bluestore block path = $DIR/osd.\$id/block.img
bluestore block size = $BYTES
bluestore block create = true
osd memory target = 939524096
osd max object name len = 460
osd max object namespace len = 64

[client.rgw]
# the gateway defaults to cephx and a secure monitor connection; allow crc without auth
ms mon client mode = crc secure
auth client required = none
# tcp_nodelay: without it every small request waits ~40 ms (Nagle and delayed ACKs)
rgw frontends = beast endpoint=127.0.0.1:$PORT tcp_nodelay=1
rgw data = $DIR/rgw
rgw thread pool size = 64
# give back the space of deleted objects after 30 s instead of 2 h (with memstore it is RAM)
rgw gc obj min wait = 30
rgw gc processor period = 30
EOF
}

# Daemons run in the foreground in their own session; this script keeps their pids.
launch() {
  local name=$1; shift
  setsid "$@" -f </dev/null >>"$DIR/log/$name.out" 2>&1 &
  echo $! >"$DIR/run/$name.pid"
}

wait_for() { # seconds, description, command...
  local seconds=$1 what=$2 t0=$SECONDS; shift 2
  until "$@" >/dev/null 2>&1; do
    [ $((SECONDS - t0)) -lt "$seconds" ] || fail "$what within ${seconds}s; logs in $DIR/log"
    sleep 0.25
  done
}

# A new, empty cluster in DIR (whatever was there is stopped and wiped).
new_cluster() {
  local daemon pid
  for daemon in "${DAEMONS[@]}"; do
    pid=$(ours "$daemon") || continue
    kill -KILL "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  if [ -n "$(ls -A "$DIR")" ]; then
    [ -f "$DIR/ceph.conf" ] || fail "$DIR is not empty and is not a gateway directory"
    find "$DIR" -mindepth 1 -delete
  fi
  mkdir -p "$DIR"/{run,log,crash,mon.a,osd.0,rgw}
  local fsid
  fsid=$(cat /proc/sys/kernel/random/uuid)
  write_config "$fsid"
  ceph-authtool --create-keyring "$DIR/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$MON_PORT,v1:127.0.0.1:$MON_PORT_V1]" "$DIR/monmap" >/dev/null
  ceph-mon -c "$DIR/ceph.conf" --mkfs -i a --monmap "$DIR/monmap" --keyring "$DIR/keyring"
}

# Starts whichever daemons of DIR are not running and waits until S3 answers signed requests.
run_daemons() {
  local ceph=(ceph -c "$DIR/ceph.conf" --connect-timeout 10)
  ours mon.a >/dev/null || launch mon.a ceph-mon -c "$DIR/ceph.conf" -i a
  wait_for 30 "the monitor did not answer" "${ceph[@]}" mon stat
  if [ ! -f "$DIR/.ready" ] && [ ! -f "$DIR/osd.0/fsid" ]; then
    local uuid id
    uuid=$(cat /proc/sys/kernel/random/uuid)
    id=$("${ceph[@]}" osd new "$uuid")
    [ "$id" = 0 ] || fail "expected osd 0, got $id"
    ceph-osd -c "$DIR/ceph.conf" -i 0 --mkfs --osd-uuid "$uuid" >"$DIR/log/osd-mkfs.log" 2>&1 || fail "ceph-osd --mkfs failed; see $DIR/log/osd-mkfs.log"
  fi
  if ! ours osd.0 >/dev/null; then
    rm -f "$DIR/$CLEAN_STOP" # from here on, only a clean stop keeps the objects again
    launch osd.0 ceph-osd -c "$DIR/ceph.conf" -i 0
  fi
  osd_up() { "${ceph[@]}" osd stat -f json | grep -q '"num_up_osds":1'; }
  wait_for 60 "the OSD did not come up" osd_up
  ours client.rgw >/dev/null || launch client.rgw radosgw -c "$DIR/ceph.conf" -n client.rgw
  wait_for "${HTTP_WAIT:-120}" "the gateway did not answer HTTP" curl -s -o /dev/null --max-time 2 "$ENDPOINT/"

  if ! radosgw-admin -c "$DIR/ceph.conf" -n client.admin user info --uid=tessera >/dev/null 2>&1; then
    radosgw-admin -c "$DIR/ceph.conf" -n client.admin user create --uid=tessera --display-name="Tessera tests" \
      --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY" >/dev/null
  fi
  wait_for 60 "signed S3 requests were still refused" signed "$ENDPOINT/"
  if [ ! -f "$DIR/.ready" ]; then
    # one write and read now, so the gateway creates its data pools before the first test
    TIMEOUT=60 signed -X PUT "$ENDPOINT/tessera-warmup" && TIMEOUT=60 signed -X PUT --data-binary warm "$ENDPOINT/tessera-warmup/o" &&
      signed "$ENDPOINT/tessera-warmup/o" && signed -X DELETE "$ENDPOINT/tessera-warmup/o" && signed -X DELETE "$ENDPOINT/tessera-warmup" ||
      fail "the first write failed; see $DIR/log/client.rgw.log"
    touch "$DIR/.ready"
  fi
}

start() {
  install_packages
  mkdir -p "$DIR"
  DIR=$(cd "$DIR" && pwd)
  export CEPH_CONF="$DIR/ceph.conf"
  if ours client.rgw >/dev/null && ours osd.0 >/dev/null && ours mon.a >/dev/null && signed "$ENDPOINT/"; then
    say "already running in $DIR"
    print_settings
    return 0
  fi
  if restartable; then
    # A restart that hangs (a daemon's state damaged in some way not foreseen here) is given a
    # shorter wait, then the cluster is made anew rather than failing the run.
    if (HTTP_WAIT=45 run_daemons); then
      say "S3 answers at $ENDPOINT (data in $DIR, restarted)"
      print_settings
      return 0
    fi
    say "the restart failed: making a new cluster in $DIR"
  elif [ -f "$DIR/.ready" ]; then
    say "the OSD in $DIR was not stopped cleanly and memstore lost its objects: making a new cluster"
  fi
  new_cluster
  run_daemons
  say "S3 answers at $ENDPOINT (data in $DIR)"
  print_settings
}

case "$ACTION" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start [DIR] | stop [--purge] [DIR]" >&2; exit 2 ;;
esac
