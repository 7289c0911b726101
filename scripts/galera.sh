#!/usr/bin/env bash
# A three-node MariaDB Galera cluster on loopback, for the Galera e2e run (docs/decisions-galera.md).
#
#   scripts/galera.sh start    # bootstrap node 1, join nodes 2 and 3, wait until all are Synced
#   scripts/galera.sh stop     # stop the three nodes cleanly (node 1 last)
#   scripts/galera.sh status   # cluster size and state of each node
#
# Nodes listen on 127.0.0.1:3311-3313 (SQL), 4571-4573 (group communication), 4581-4583 (state
# snapshot transfer, rsync) and 4591-4593 (incremental state transfer). Each node has its own
# datadir and config under $GALERA_DIR (default /tmp/flagkeeper-galera); `start` wipes it so every
# run begins from an empty cluster. The system MariaDB on 3306 is never touched: the nodes read only
# their own config file (--defaults-file), never /etc/mysql.
set -euo pipefail

GALERA_DIR=${GALERA_DIR:-/tmp/flagkeeper-galera}
PROVIDER=${GALERA_PROVIDER:-}
NODES=(1 2 3)
RUN_AS=$(id -un)
if [[ $RUN_AS == root ]] && id mysql >/dev/null 2>&1; then RUN_AS=mysql; fi
sql_port() { echo $((3310 + $1)); }
gcomm_port() { echo $((4570 + $1)); }
sst_port() { echo $((4580 + $1)); }
ist_port() { echo $((4590 + $1)); }
CLUSTER_ADDRESS="gcomm://127.0.0.1:$(gcomm_port 1),127.0.0.1:$(gcomm_port 2),127.0.0.1:$(gcomm_port 3)"

find_provider() {
  if [[ -n $PROVIDER ]]; then echo "$PROVIDER"; return; fi
  for candidate in /usr/lib/galera/libgalera_smm.so /usr/lib/libgalera_smm.so \
    /usr/lib64/galera-4/libgalera_smm.so /usr/lib/galera-4/libgalera_smm.so; do
    if [[ -f $candidate ]]; then echo "$candidate"; return; fi
  done
  echo "galera.sh: no libgalera_smm.so found (install galera-4 or set GALERA_PROVIDER)" >&2
  exit 1
}

node_dir() { echo "$GALERA_DIR/node$1"; }

# Runs one statement on a node over its own socket; prints the bare value.
node_sql() {
  mariadb --no-defaults -uroot --socket="$(node_dir "$1")/mysqld.sock" -N -B -e "$2" 2>/dev/null
}

node_status() {
  node_sql "$1" "SELECT CONCAT(
    (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME='wsrep_cluster_size'), ' ',
    (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME='wsrep_local_state_comment'))"
}

write_config() {
  local n=$1 dir
  dir=$(node_dir "$n")
  mkdir -p "$dir/data" "$dir/tmp"
  cat >"$dir/my.cnf" <<CNF
[mysqld]
user=$RUN_AS
datadir=$dir/data
# A tmpdir of its own: a starting server deletes every #sql* file in its tmpdir, so a node
# starting with the default /tmp would delete the on-disk temporary tables that another server
# (the machine's MariaDB, another node) is using at that moment.
tmpdir=$dir/tmp
socket=$dir/mysqld.sock
pid-file=$dir/mysqld.pid
log-error=$dir/error.log
bind-address=127.0.0.1
port=$(sql_port "$n")
skip-name-resolve
# What Galera requires of every node.
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
# Refuse what Galera cannot replicate safely: tables without a primary key, non-InnoDB tables.
wsrep_mode=REQUIRED_PRIMARY_KEY,STRICT_REPLICATION
# Reads wait until the node has applied what the cluster committed before them, so a replica on
# one node reads what another replica just wrote on another node (Flagkeeper relies on it).
wsrep_sync_wait=1
innodb_buffer_pool_size=64M
innodb_log_file_size=16M
performance_schema=OFF
character-set-server=utf8mb4
collation-server=utf8mb4_nopad_bin
wsrep_on=ON
wsrep_provider=$(find_provider)
wsrep_cluster_name=flagkeeper
wsrep_cluster_address=$CLUSTER_ADDRESS
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:$(gcomm_port "$n")
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:$(gcomm_port "$n");ist.recv_addr=127.0.0.1:$(ist_port "$n");gcache.size=32M"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$(sst_port "$n")
wsrep_slave_threads=2
CNF
}

start_node() {
  local n=$1 dir
  shift
  dir=$(node_dir "$n")
  # Detached from this shell so that the cluster outlives it; stopped by `stop` through the pid file.
  setsid mariadbd --defaults-file="$dir/my.cnf" "$@" >>"$dir/console.log" 2>&1 </dev/null &
}

wait_for() {
  local what=$1 seconds=$2
  shift 2
  for ((i = 0; i < seconds * 2; i++)); do
    if "$@"; then return 0; fi
    sleep 0.5
  done
  echo "galera.sh: timed out waiting for $what" >&2
  return 1
}

node_synced() { [[ $(node_status "$1") == "$2 Synced" ]]; }

all_synced() {
  for n in "${NODES[@]}"; do node_synced "$n" 3 || return 1; done
}

start() {
  if [[ -f $(node_dir 1)/mysqld.pid ]] && node_status 1 >/dev/null; then
    echo "galera.sh: cluster already running under $GALERA_DIR" >&2
    exit 1
  fi
  rm -rf "$GALERA_DIR"
  for n in "${NODES[@]}"; do write_config "$n"; done
  # Nodes 2 and 3 get everything from node 1 by rsync state transfer. Under root, the joiner's rsync
  # daemon drops to user nobody and cannot write the datadir, so root runs the nodes as mysql.
  if [[ $RUN_AS != "$(id -un)" ]]; then chown -R "$RUN_AS" "$GALERA_DIR"; fi
  mariadb-install-db --defaults-file="$(node_dir 1)/my.cnf" --user="$RUN_AS" \
    --auth-root-authentication-method=normal --skip-test-db >"$(node_dir 1)/install.log" 2>&1
  start_node 1 --wsrep-new-cluster
  wait_for "node 1 to bootstrap" 60 node_synced 1 1
  # Tests connect as root over TCP from 127.0.0.1 without a password, as on the CI server.
  node_sql 1 "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';
    GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;"
  for n in 2 3; do
    start_node "$n"
    wait_for "node $n to join" 60 node_synced "$n" "$n"
  done
  wait_for "three Synced nodes" 60 all_synced
  status
}

stop_node() {
  local n=$1 pidfile pid
  pidfile="$(node_dir "$n")/mysqld.pid"
  [[ -f $pidfile ]] || return 0
  pid=$(cat "$pidfile")
  # SIGTERM is mariadbd's clean shutdown: it leaves the cluster and writes its state to grastate.dat.
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 120; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.5
  done
  echo "galera.sh: node $n (pid $pid) did not stop within 60 s" >&2
  return 1
}

stop() {
  # The last node to leave holds the newest state; stopping node 1 last keeps it the safe bootstrap.
  local failed=0
  for n in 3 2 1; do stop_node "$n" || failed=1; done
  return $failed
}

status() {
  local failed=0 line
  for n in "${NODES[@]}"; do
    if line=$(node_status "$n"); then
      echo "node$n 127.0.0.1:$(sql_port "$n") cluster_size=${line% *} state=${line#* }"
    else
      echo "node$n 127.0.0.1:$(sql_port "$n") down"
      failed=1
    fi
  done
  return $failed
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
