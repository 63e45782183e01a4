#!/usr/bin/env bash
# A real single-node Slurm cluster on this machine, for the Slurm integration test and for trying
# `starnuma sweep --executor slurm` without a cluster (docs/cluster.md). Debian 12's slurmctld,
# slurmd, slurm-client and munge are installed if missing. Everything lives in STATE_DIR:
# slurm.conf, its own munge key and munged socket, state and spool, logs, pid files (a STATE_DIR
# with a long path also gets a short link in /tmp for its sockets). No systemd, no /etc files:
# munged, slurmctld and slurmd run as background daemons on free TCP ports, one node (this host's
# short name, at 127.0.0.1) in one partition `starnuma` with all CPUs and most of the memory.
# Root only.
#
#   bash tools/slurm/local_cluster.sh start STATE_DIR   # prints export SLURM_CONF=.../slurm.conf
#   bash tools/slurm/local_cluster.sh status STATE_DIR  # its daemons, sinfo and squeue
#   bash tools/slurm/local_cluster.sh stop STATE_DIR    # cancels jobs, stops daemons; keeps logs
#
#   eval "$(bash tools/slurm/local_cluster.sh start /tmp/slurm)" && sbatch --wrap hostname
#
# Environment: START_TIMEOUT (seconds for the node to become idle, default 60).
set -euo pipefail

usage() { echo "usage: bash tools/slurm/local_cluster.sh start|stop|status STATE_DIR" >&2; exit 2; }
(($# == 2)) || usage
cmd=$1
case "$cmd" in start|stop|status) ;; *) usage ;; esac
[ -n "$2" ] || usage
if [ "$(id -u)" -ne 0 ]; then
  echo "error: local_cluster.sh supports only root (it runs slurmctld, slurmd, munged as root)" >&2
  exit 1
fi

PATH=$PATH:/usr/sbin:/usr/bin:/sbin:/bin   # the daemons are in /usr/sbin
state=$(realpath -m "$2")
conf=$state/slurm.conf
export SLURM_CONF=$conf
daemons=(slurmd slurmctld munged)   # stop order

log() { echo "local_cluster: $*" >&2; }

# Alive: the process exists, is not a zombie, is the named program and was started for this
# STATE_DIR (an argument names its slurm.conf or munge key), so a reused pid is not taken for ours.
alive() {
  local name=$1 pid=$2 arg=$conf
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  ! gone "$pid" || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ] || return 1
  [ "$name" = munged ] && arg=--key-file=$state/munge/munge.key
  tr '\0' '\n' 2>/dev/null <"/proc/$pid/cmdline" | grep -qxF -- "$arg"
}
# Gone: no such process, or a zombie.
gone() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
  [[ "${stat##*) }" == [ZX]* ]]
}
pid_of() { cat "$state/pid/$1.pid" 2>/dev/null || true; }
running() { alive "$1" "$(pid_of "$1")"; }

# Stops one daemon: SIGTERM, then SIGKILL after `grace` seconds; returns once it is gone. Processes
# left in its session's process group (start runs each daemon with setsid) are killed after it.
stop_daemon() {
  local name=$1 grace=$2 pid i m members
  pid=$(pid_of "$name")
  if alive "$name" "$pid"; then
    log "stopping $name (pid $pid)"
    members=$(pgrep -g "$pid" || true)
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < grace * 10; i++)); do alive "$name" "$pid" || break; sleep 0.1; done
    if alive "$name" "$pid"; then
      log "$name (pid $pid) still running after ${grace}s, killing it"
      kill -KILL "$pid" 2>/dev/null || true
      for ((i = 0; i < 50; i++)); do alive "$name" "$pid" || break; sleep 0.1; done
    fi
    for m in $members; do
      if [ "$m" != "$pid" ] && [ "$(ps -o pgid= -p "$m" 2>/dev/null | tr -d ' ')" = "$pid" ]; then
        kill -KILL "$m" 2>/dev/null || true
      fi
    done
  fi
  rm -f "$state/pid/$name.pid"
}

# Step daemons (slurmstepd) of this cluster that outlived slurmd, found by their open slurmd log,
# with the job processes under them.
kill_leftover_steps() {
  local p fd pids=() all=() c
  for p in /proc/[0-9]*; do
    [ "$(cat "$p/comm" 2>/dev/null)" = slurmstepd ] || continue
    for fd in "$p"/fd/*; do
      if [[ "$(readlink "$fd" 2>/dev/null)" == "$state/"* ]]; then pids+=("${p#/proc/}"); break; fi
    done
  done
  ((${#pids[@]})) || return 0
  all=("${pids[@]}")
  for ((c = 0; c < ${#all[@]}; c++)); do   # descendants, breadth first
    for p in $(pgrep -P "${all[$c]}" 2>/dev/null || true); do all+=("$p"); done
  done
  log "killing leftover step processes: ${all[*]}"
  kill -KILL "${all[@]}" 2>/dev/null || true
}

do_stop() {
  local i
  # Jobs first, so that no slurmstepd or job process outlives the cluster. This needs all three
  # daemons (without munged the Slurm commands hang, without slurmd jobs stay listed); when one has
  # died, the step processes left are killed below instead.
  if running slurmctld && running munged && running slurmd; then
    if [ -n "$(timeout 5 squeue -h -o %i 2>/dev/null || true)" ]; then
      log "cancelling jobs"
      timeout 5 scancel --partition=starnuma 2>/dev/null || true
      for ((i = 0; i < 100; i++)); do
        [ -z "$(timeout 5 squeue -h -o %i 2>/dev/null || true)" ] && break
        sleep 0.1
      done
    fi
  fi
  stop_daemon slurmd 10
  stop_daemon slurmctld 10
  kill_leftover_steps
  stop_daemon munged 5
  rm -f "$state/run/munge.socket" "$state/run/munge.socket.lock"
  remove_short
}

# The short path for sockets in /tmp (see start) and its record STATE_DIR/short.
remove_short() {
  local link
  [ -L "$state/short" ] || return 0
  link=$(readlink "$state/short")
  if [[ "$link" == /tmp/slurm-*/s ]]; then rm -f "$link"; rmdir "${link%/s}" 2>/dev/null || true; fi
  rm -f "$state/short"
}

tail_log() {
  local f=$1
  [ -s "$f" ] || return 0
  echo "---- last lines of $f" >&2
  tail -n 20 "$f" >&2
}

if [ "$cmd" = stop ]; then
  [ -d "$state" ] || exit 0
  do_stop
  log "stopped ($state)"
  exit 0
fi

if [ "$cmd" = status ]; then
  status=0
  for d in munged slurmctld slurmd; do
    if running "$d"; then
      echo "$d: running (pid $(pid_of "$d"))"
    else
      echo "$d: not running"
      status=1
    fi
  done
  if running slurmctld; then
    echo "SLURM_CONF=$conf"
    timeout 15 sinfo -N -o '%N %P %t %c %m' || status=1
    timeout 15 squeue -o '%.12i %.9P %.20j %.8u %.2t %.10M %R' || status=1
  fi
  exit $status
fi

# ---- start
for d in "${daemons[@]}"; do
  if running "$d"; then
    echo "error: a cluster is already running in $state ($d, pid $(pid_of "$d")); stop it first" >&2
    exit 1
  fi
done

missing=()
for p in slurmctld slurmd slurm-client munge; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2; then
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  fi
fi

on_exit() {
  local rc=$?
  if ((rc != 0)); then
    log "start failed; stopping what it started"
    do_stop || true
  fi
}
trap on_exit EXIT
trap "exit 130" INT TERM
fail() {
  echo "error: local_cluster.sh start: $1" >&2
  shift
  for f in "$@"; do tail_log "$f"; done
  exit 1
}

mkdir -p "$state"/{munge,run,pid,log,spool}
chmod 700 "$state/munge"   # the key; munged refuses a key others can read
chmod 755 "$state/run"     # the munged socket; munged wants it reachable by all
# A fresh queue on every start: job ids restart at 1.
rm -rf "$state/spool/ctld" "$state/spool/slurmd"
mkdir -p "$state/spool/ctld" "$state/spool/slurmd"
[ -s "$state/munge/munge.key" ] || mungekey --create --keyfile="$state/munge/munge.key"
chmod 600 "$state/munge/munge.key"

# Unix socket paths (munged's, and slurmd's per-step sockets in its spool) are limited to 107 bytes:
# for a long STATE_DIR they go through a short symbolic link in /tmp, removed by stop.
sockdir=$state
remove_short
if ((${#state} > 48)); then
  short=$(mktemp -d /tmp/slurm-XXXXXX)/s
  ln -s "$state" "$short"
  ln -s "$short" "$state/short"
  sockdir=$short
fi
socket=$sockdir/run/munge.socket

# Free TCP ports below the ephemeral range (32768-60999 on Linux), probed by binding them.
port_free() {
  if command -v python3 >/dev/null; then
    python3 -c 'import socket,sys
s = socket.socket()
try: s.bind(("", int(sys.argv[1])))
except OSError: sys.exit(1)' "$1"
  else
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 1; fi   # something listens
  fi
}
pick_port() {
  local p i
  for ((i = 0; i < 200; i++)); do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 12000))
    [ "$p" != "${1:-}" ] && port_free "$p" && { echo "$p"; return 0; }
  done
  fail "no free TCP port found in 20000-31999"
}
ctld_port=$(pick_port)
slurmd_port=$(pick_port "$ctld_port")

host=$(hostname -s)
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
mem_mib=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
real_mem=$((mem_mib * 9 / 10))         # leave some for the OS and the daemons
def_mem=$((real_mem / cpus))           # a job without --mem takes a share, not the whole node

cat >"$conf" <<EOF
# Written by tools/slurm/local_cluster.sh start; rewritten on every start.
ClusterName=starnuma
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$state/spool/ctld
SlurmdSpoolDir=$sockdir/spool/slurmd
SlurmctldPidFile=$state/run/slurmctld.pid
SlurmdPidFile=$state/run/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups, no systemd: plain /proc process tracking, no task containment or accounting.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
# No slurmdbd, so no sacct; finished jobs are appended to this file instead.
JobCompType=jobcomp/filetxt
JobCompLoc=$state/log/jobcomp.txt
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
# Start batch jobs at once (the default waits up to 3 s to batch up submissions).
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=$def_mem
ReturnToService=2
SlurmdParameters=config_overrides
KillWait=5
InactiveLimit=0
NodeName=$host NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$real_mem State=UNKNOWN
PartitionName=starnuma Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

deadline=$((SECONDS + ${START_TIMEOUT:-60}))

# Starts a daemon in the foreground of its own session, detached from our stdin/stdout/stderr, and
# returns once its pid is the daemon: until the fork has exec'd (through setsid) the pid's name is
# still ours, and on a loaded machine that takes long enough for `running` to take it for dead.
launch() {
  local name=$1 out=$2 pid
  shift 2
  setsid "$@" </dev/null >>"$out" 2>&1 &
  pid=$!
  echo "$pid" >"$state/pid/$name.pid"
  until alive "$name" "$pid"; do
    ! gone "$pid" || return 0   # wait_for reports it, with its log
    ((SECONDS < deadline)) || fail "$name did not start after ${START_TIMEOUT:-60} s" "$out"
    sleep 0.05
  done
}

# Waits until `check` (evaluated) succeeds; fails if the daemon dies or the time runs out.
wait_for() {
  local what=$1 daemon=$2 logfile=$3 check=$4
  until eval "$check" >/dev/null 2>&1; do
    running "$daemon" || fail "$daemon exited before $what" "$logfile"
    ((SECONDS < deadline)) || fail "no $what after ${START_TIMEOUT:-60} s" "$logfile"
    sleep 0.2
  done
}

log "starting munged, slurmctld (port $ctld_port), slurmd (port $slurmd_port), node $host: $state"
launch munged "$state/log/munged.log" munged -F --socket="$socket" \
  --key-file="$state/munge/munge.key" --pid-file="$state/run/munged.pid" \
  --seed-file="$state/munge/munged.seed" --origin=127.0.0.1
# shellcheck disable=SC2016
wait_for "munge credential" munged "$state/log/munged.log" \
  'munge -n -S "$socket" | unmunge -S "$socket"'

launch slurmctld "$state/log/slurmctld.out" slurmctld -D -f "$conf"
wait_for "answer from slurmctld" slurmctld "$state/log/slurmctld.log" \
  'timeout 5 scontrol ping | grep -q "is UP"'

launch slurmd "$state/log/slurmd.out" slurmd -D -f "$conf" -N "$host"
node_state() { timeout 5 sinfo -h -N -n "$host" -o %t 2>/dev/null || true; }
until [ "$(node_state)" = idle ]; do
  for d in munged slurmctld slurmd; do
    running "$d" || fail "$d exited before node $host became idle" \
      "$state/log/$d.log" "$state/log/$d.out"
  done
  ((SECONDS < deadline)) ||
    fail "node $host not idle after ${START_TIMEOUT:-60} s (state: $(node_state))" \
    "$state/log/slurmd.log" "$state/log/slurmd.out" "$state/log/slurmctld.log"
  sleep 0.2
done

log "node $host idle: $cpus CPUs, ${real_mem} MiB, partition starnuma"
echo "export SLURM_CONF=$conf"
