#!/usr/bin/env bash
# The connector end to end on this machine, no Docker: builds the plugin folder ./connector,
# starts a Kafka broker (KRaft) and a Kafka Connect worker as separate JVMs from plain Kafka
# 4.4.0 jars (kafka-runtime/pom.xml), creates a CDF-enabled demo Delta table, registers the
# connector with config-examples/local-table.json, changes the table, and prints every record
# (headers | key | value) as it lands in Kafka. Ctrl-C stops everything it started.
#
#   ./demo.sh [--table PATH] [--key-columns COLS] [--no-build] [--timeout SECONDS]
#   ./demo.sh table create|mutate PATH      only write the demo table (e.g. for docker-compose)
#
# Needs Java 17+, Maven and curl.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$REPO"

BROKER_PORT=${BROKER_PORT:-9092}
CONTROLLER_PORT=${CONTROLLER_PORT:-9093}
CONNECT_PORT=${CONNECT_PORT:-8083}
DEMO_TABLE=/tmp/delta-demo/customers
CONNECTOR_NAME=customers
# 3 snapshot inserts, then the mutate step: 2 + 1 inserts, an update (pre + post image), a delete
# and its tombstone.
DEMO_RECORDS=10

JVM_LEAN=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC)
# The options Spark needs on Java 17, from the argument file the tests and the benchmark use too.
SPARK_OPENS=("@$REPO/spark-java17.args")

usage() {
  cat <<EOF
Usage: ./demo.sh [options]
       ./demo.sh table create|mutate PATH

Streams the change data feed of a Delta table into a local Kafka and prints each record.

Options:
  --table PATH          stream this existing CDF-enabled Delta table instead of creating the
                        demo table at $DEMO_TABLE (it is not modified; the topic is its folder name)
  --key-columns COLS    key columns for --table (default: id, as in local-table.json; '' = no key)
  --no-build            skip 'mvn -q -DskipTests package' (./connector and target/ must exist)
  --timeout SECONDS     stop everything and exit as soon as the demo's records all arrived, or
                        after SECONDS (counted from the start), then non-zero unless they had
                        (for tests and CI); with --table it runs the whole SECONDS
  -h, --help            this help

Ports (environment): BROKER_PORT=$BROKER_PORT CONTROLLER_PORT=$CONTROLLER_PORT CONNECT_PORT=$CONNECT_PORT
EOF
}

# Maven without terminal escape codes: -B and style.color=never turn colours off, and
# jansi.noreset stops the reset codes Maven 3.8's console library prints around every run.
maven() {
  MAVEN_OPTS="${MAVEN_OPTS:-} -Djansi.noreset=true" mvn -B -Dstyle.color=never "$@"
}

log() {
  if [ -t 2 ]; then printf '\033[1m==> %s\033[0m\n' "$*" >&2; else printf '==> %s\n' "$*" >&2; fi
}
die() { printf 'demo.sh: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------- classpaths
KAFKA_CP_FILE=$REPO/target/kafka-runtime.classpath
DEMO_CP_FILE=$REPO/target/demo-table.classpath

# Maven resolves each classpath once; it is resolved again when its pom changes, or when its
# first jar is not there (written in a container whose Maven repository lies elsewhere: the
# "table" service of docker-compose.yml shares target/ with the host).
stale() { [ ! -s "$1" ] || [ "$2" -nt "$1" ] || [ ! -e "$(cut -d: -f1 "$1")" ]; }

kafka_classpath() {
  if stale "$KAFKA_CP_FILE" kafka-runtime/pom.xml; then
    log "Resolving the Kafka 4.4.0 runtime (kafka-runtime/pom.xml)"
    mkdir -p target
    maven -q -f kafka-runtime/pom.xml dependency:build-classpath \
      -Dmdep.outputFile="$KAFKA_CP_FILE.tmp" >&2
    mv "$KAFKA_CP_FILE.tmp" "$KAFKA_CP_FILE"
  fi
  cat "$KAFKA_CP_FILE"
}

demo_table_classpath() {
  [ -f target/test-classes/io/deltacdf/connect/demo/DemoTable.class ] \
    || die "target/test-classes has no DemoTable: run without --no-build (or mvn -DskipTests package)"
  if stale "$DEMO_CP_FILE" pom.xml; then
    log "Resolving the test classpath (Spark + Delta, to write the demo table)"
    mkdir -p target
    maven -q dependency:build-classpath -Dmdep.includeScope=test \
      -Dmdep.outputFile="$DEMO_CP_FILE.tmp" >&2
    mv "$DEMO_CP_FILE.tmp" "$DEMO_CP_FILE"
  fi
  printf '%s:%s:%s' "$REPO/target/test-classes" "$REPO/target/classes" "$(cat "$DEMO_CP_FILE")"
}

# Becomes DemoTable (create|mutate PATH), output into $3, working directory $4 (Spark writes
# scratch files there). It execs: call it only in the background (&) or in a ( subshell ), so
# that the pid the caller holds is the JVM's own.
demo_table() {
  local action=$1 path=$2 out=$3 workdir=$4
  cd "$workdir" || exit 1
  exec java -Xmx1g "${JVM_LEAN[@]}" "${SPARK_OPENS[@]}" \
    -cp "$DEMO_CP" io.deltacdf.connect.demo.DemoTable "$action" "$path" >"$out" 2>&1
}

# ---------------------------------------------------------------- `table` subcommand
if [ "${1:-}" = "table" ]; then
  if [ $# -ne 3 ] || { [ "$2" != create ] && [ "$2" != mutate ]; }; then
    usage >&2
    exit 2
  fi
  command -v java >/dev/null || die "Java 17+ is required"
  path=$(realpath -m "$3")
  DEMO_CP=$(demo_table_classpath)
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/delta-cdf-table.XXXXXX")
  trap 'rm -rf "$scratch"' EXIT
  if (demo_table "$2" "$path" "$scratch/table.log" "$scratch"); then
    tail -n 1 "$scratch/table.log"
    exit 0
  fi
  cat "$scratch/table.log" >&2
  exit 1
fi

# ---------------------------------------------------------------- options
TABLE=""
KEY_COLUMNS=""
KEY_COLUMNS_SET=false
BUILD=true
TIMEOUT=0
while [ $# -gt 0 ]; do
  case "$1" in
    --table) [ $# -ge 2 ] || die "--table needs a PATH"; TABLE=$2; shift 2 ;;
    --key-columns) [ $# -ge 2 ] || die "--key-columns needs a value"
      KEY_COLUMNS=$2; KEY_COLUMNS_SET=true; shift 2 ;;
    --no-build) BUILD=false; shift ;;
    --timeout)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
        die "--timeout needs a positive number of seconds"
      fi
      TIMEOUT=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
done

OWN_TABLE=true
if [ -n "$TABLE" ]; then
  OWN_TABLE=false
  TABLE=$(realpath -m "$TABLE")
  [ -d "$TABLE/_delta_log" ] || die "$TABLE is not a Delta table (no _delta_log folder)"
else
  TABLE=$DEMO_TABLE
  $KEY_COLUMNS_SET && die "--key-columns goes with --table (the demo table's key is id)"
fi
TOPIC=$(basename "$TABLE")

for tool in java mvn curl; do
  command -v "$tool" >/dev/null || die "$tool is required"
done

# ---------------------------------------------------------------- ports
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
busy=()
for spec in "broker:$BROKER_PORT" "controller:$CONTROLLER_PORT" "Kafka Connect:$CONNECT_PORT"; do
  port_busy "${spec##*:}" && busy+=("${spec##*:} (${spec%:*})")
done
if [ ${#busy[@]} -gt 0 ]; then
  die "port(s) already in use: ${busy[*]}. Stop what listens there (another demo, a local Kafka,
docker-compose up?) or choose other ports, e.g. BROKER_PORT=19092 CONTROLLER_PORT=19093 CONNECT_PORT=18083 ./demo.sh"
fi

# ---------------------------------------------------------------- cleanup
WORK=$(mktemp -d "${TMPDIR:-/tmp}/delta-cdf-demo.XXXXXX")
PIDS=()          # everything started in the background, stopped in reverse order
WORKER_PID=""
BROKER_PID=""
KEEP_WORK=false

stop_pid() {
  local pid=$1 grace=$2
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq $((grace * 5))); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.2
  done
  kill -KILL "$pid" 2>/dev/null || true
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  set +e
  if [ ${#PIDS[@]} -gt 0 ]; then
    log "Stopping the processes the demo started"
    # Consumer, printer and table writer first; the worker before the broker it depends on.
    for pid in "${PIDS[@]}"; do
      [ "$pid" = "$WORKER_PID" ] || [ "$pid" = "$BROKER_PID" ] || stop_pid "$pid" 10
    done
    # Without its broker, a worker's graceful stop only waits for timeouts.
    if [ -n "$BROKER_PID" ] && kill -0 "$BROKER_PID" 2>/dev/null; then
      [ -n "$WORKER_PID" ] && stop_pid "$WORKER_PID" 30
    else
      [ -n "$WORKER_PID" ] && stop_pid "$WORKER_PID" 5
    fi
    [ -n "$BROKER_PID" ] && stop_pid "$BROKER_PID" 30
  fi
  # Ctrl-C (130) and SIGTERM (143) are the normal way to end the demo.
  if { [ "$status" -ne 0 ] && [ "$status" -ne 130 ] && [ "$status" -ne 143 ]; } || $KEEP_WORK; then
    echo "Logs: $WORK (broker.log, worker.log, consumer.log, table-*.log)" >&2
  else
    rm -rf "$WORK"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

started() { PIDS+=("$1"); }

tail_of() { echo "--- last lines of $1:" >&2; tail -n 40 "$1" >&2 || true; }

require_alive() {
  local pid=$1 what=$2 logfile=$3
  if ! kill -0 "$pid" 2>/dev/null; then
    tail_of "$logfile"
    die "the $what stopped unexpectedly (log: $logfile)"
  fi
}

time_left() { [ "$TIMEOUT" -eq 0 ] || [ "$SECONDS" -lt "$TIMEOUT" ]; }

# ---------------------------------------------------------------- build
if $BUILD; then
  log "Building the connector plugin folder ./connector (mvn -q -DskipTests package)"
  maven -q -DskipTests package >&2
fi
ls connector/lib/kafka-connect-delta-cdf-*.jar >/dev/null 2>&1 \
  || die "no plugin in ./connector: run without --no-build (or mvn -DskipTests package)"
KAFKA_CP=$(kafka_classpath)
$OWN_TABLE && DEMO_CP=$(demo_table_classpath)

# ---------------------------------------------------------------- broker
log "Starting a Kafka broker (KRaft) on localhost:$BROKER_PORT"
cat >"$WORK/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@localhost:$CONTROLLER_PORT
listeners=PLAINTEXT://localhost:$BROKER_PORT,CONTROLLER://localhost:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://localhost:$BROKER_PORT
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=$WORK/kafka-data
num.partitions=1
# As managed Kafka services run: no topic is created on first use (the connector's config asks
# Connect to create the topics it writes).
auto.create.topics.enable=false
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
log.cleaner.dedupe.buffer.size=2097152
EOF
KAFKA_LOG4J=-Dlog4j2.configurationFile=$REPO/kafka-runtime/log4j2.xml
CLI_LOG4J=-Dlog4j2.configurationFile=$REPO/kafka-runtime/log4j2-cli.xml
cluster_id=$(java -cp "$KAFKA_CP" "$CLI_LOG4J" kafka.tools.StorageTool random-uuid)
java -Xmx256m "${JVM_LEAN[@]}" -cp "$KAFKA_CP" "$KAFKA_LOG4J" kafka.tools.StorageTool format \
  -t "$cluster_id" -c "$WORK/server.properties" >"$WORK/format.log" 2>&1 \
  || { tail_of "$WORK/format.log"; die "formatting the broker's storage failed"; }
java -Xmx512m "${JVM_LEAN[@]}" -cp "$KAFKA_CP" "$KAFKA_LOG4J" kafka.Kafka "$WORK/server.properties" \
  >"$WORK/broker.log" 2>&1 &
BROKER_PID=$!
started "$BROKER_PID"

# The demo table is written while the broker starts.
TABLE_PID=""
if $OWN_TABLE; then
  log "Creating the demo Delta table $TABLE with Spark (change data feed on)"
  mkdir -p "$WORK/spark"
  demo_table create "$TABLE" "$WORK/table-create.log" "$WORK/spark" &
  TABLE_PID=$!
  started "$TABLE_PID"
fi

until port_busy "$BROKER_PORT" && grep -q "Kafka Server started" "$WORK/broker.log"; do
  require_alive "$BROKER_PID" broker "$WORK/broker.log"
  time_left || die "timed out waiting for the broker"
  sleep 0.3
done
log "Broker up after ${SECONDS}s"

# ---------------------------------------------------------------- worker
log "Starting a Kafka Connect worker on http://localhost:$CONNECT_PORT (plugin.path=./connector)"
cat >"$WORK/worker.properties" <<EOF
bootstrap.servers=localhost:$BROKER_PORT
group.id=delta-cdf-demo
listeners=http://localhost:$CONNECT_PORT
plugin.path=$REPO/connector
plugin.discovery=service_load
key.converter=org.apache.kafka.connect.json.JsonConverter
value.converter=org.apache.kafka.connect.json.JsonConverter
config.storage.topic=connect-configs
offset.storage.topic=connect-offsets
status.storage.topic=connect-status
config.storage.replication.factor=1
offset.storage.replication.factor=1
status.storage.replication.factor=1
offset.storage.partitions=1
status.storage.partitions=1
offset.flush.interval.ms=1000
EOF
# The worker's classpath is Kafka only: the connector comes from plugin.path, as for any user.
java -Xmx512m "${JVM_LEAN[@]}" -cp "$KAFKA_CP" "$KAFKA_LOG4J" \
  org.apache.kafka.connect.cli.ConnectDistributed "$WORK/worker.properties" \
  >"$WORK/worker.log" 2>&1 &
WORKER_PID=$!
started "$WORKER_PID"

CONNECT=http://localhost:$CONNECT_PORT
until curl -sf "$CONNECT/health" >/dev/null 2>&1; do
  require_alive "$WORKER_PID" "Connect worker" "$WORK/worker.log"
  time_left || die "timed out waiting for the Connect worker"
  sleep 0.5
done
log "Connect worker up after ${SECONDS}s; plugins: $(curl -sf "$CONNECT/connector-plugins")"
curl -sf "$CONNECT/connector-plugins" | grep -q '"io.deltacdf.connect.DeltaCdfSourceConnector"' \
  || { tail_of "$WORK/worker.log"; die "the worker does not list the connector (plugin.path=$REPO/connector)"; }

if [ -n "$TABLE_PID" ]; then
  wait "$TABLE_PID" \
    || { tail_of "$WORK/table-create.log"; die "creating the demo table failed"; }
  tail -n 1 "$WORK/table-create.log" >&2
fi

# ---------------------------------------------------------------- connector
json_string() {
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  printf '"%s"' "$s"
}
config=$(<config-examples/local-table.json)
if [ "$TABLE" != "$DEMO_TABLE" ]; then
  [[ $config == *'"/tmp/delta-demo/customers"'* ]] \
    || die "config-examples/local-table.json no longer names /tmp/delta-demo/customers: update demo.sh"
  config=${config//"\"/tmp/delta-demo/customers\""/"$(json_string "$TABLE")"}
fi
if $KEY_COLUMNS_SET; then
  [[ $config == *'"key.columns": "id"'* ]] \
    || die "config-examples/local-table.json no longer has \"key.columns\": \"id\": update demo.sh"
  config=${config//"\"key.columns\": \"id\""/"\"key.columns\": $(json_string "$KEY_COLUMNS")"}
fi
log "Registering connector '$CONNECTOR_NAME' (config-examples/local-table.json, table $TABLE)"
status=$(curl -s -o "$WORK/register.json" -w '%{http_code}' -X PUT \
  -H 'Content-Type: application/json' --data-binary "$config" \
  "$CONNECT/connectors/$CONNECTOR_NAME/config")
case "$status" in
  200|201) ;;
  *) cat "$WORK/register.json" >&2; echo >&2
     die "the worker rejected the connector config (HTTP $status)" ;;
esac

# ---------------------------------------------------------------- records
log "Records of topic '$TOPIC' as they land (headers | key | value):"
RECORDS=$WORK/records.txt
: >"$RECORDS"
java -Xmx256m "${JVM_LEAN[@]}" -cp "$KAFKA_CP" "$CLI_LOG4J" \
  org.apache.kafka.tools.consumer.ConsoleConsumer \
  --bootstrap-server "localhost:$BROKER_PORT" --topic "$TOPIC" --from-beginning \
  --formatter-property print.key=true --formatter-property print.headers=true \
  --formatter-property key.separator=' | ' --formatter-property headers.separator=', ' \
  >"$RECORDS" 2>"$WORK/consumer.log" &
CONSUMER_PID=$!
started "$CONSUMER_PID"
tail -n +1 -F "$RECORDS" 2>/dev/null &
started $!

record_count() { wc -l <"$RECORDS" | tr -d ' '; }

connector_failed() {
  local s
  s=$(curl -sf "$CONNECT/connectors/$CONNECTOR_NAME/status" 2>/dev/null) || return 1
  case "$s" in
    *'"state":"FAILED"'*) echo "$s" >&2; return 0 ;;
  esac
  return 1
}

MUTATE_PID=""
MUTATED=false
[ "$TIMEOUT" -eq 0 ] && ! $OWN_TABLE \
  && log "Streaming; change $TABLE with any Delta writer to see more records. Ctrl-C stops."
while :; do
  require_alive "$BROKER_PID" broker "$WORK/broker.log"
  require_alive "$WORKER_PID" "Connect worker" "$WORK/worker.log"
  require_alive "$CONSUMER_PID" "console consumer" "$WORK/consumer.log"
  if connector_failed; then
    tail_of "$WORK/worker.log"
    die "the connector failed (status above)"
  fi
  if $OWN_TABLE && ! $MUTATED && [ "$(record_count)" -gt 0 ]; then
    sleep 1
    log "First records arrived after ${SECONDS}s; now changing the table: inserts 4, 5, 6, update 1, delete 2"
    demo_table mutate "$TABLE" "$WORK/table-mutate.log" "$WORK/spark" &
    MUTATE_PID=$!
    started "$MUTATE_PID"
    MUTATED=true
  fi
  if [ -n "$MUTATE_PID" ] && ! kill -0 "$MUTATE_PID" 2>/dev/null; then
    wait "$MUTATE_PID" || { tail_of "$WORK/table-mutate.log"; die "changing the demo table failed"; }
    MUTATE_PID=""
    log "$(tail -n 1 "$WORK/table-mutate.log")"
    [ "$TIMEOUT" -eq 0 ] && log "Streaming; './demo.sh table mutate $TABLE' changes it again. Ctrl-C stops."
  fi
  if [ "$TIMEOUT" -gt 0 ] && $OWN_TABLE && $MUTATED && [ -z "$MUTATE_PID" ] \
     && [ "$(record_count)" -ge "$DEMO_RECORDS" ]; then
    sleep 1
    log "All $DEMO_RECORDS demo records arrived after ${SECONDS}s; stopping early (--timeout ${TIMEOUT}s not needed)"
    exit 0
  fi
  if ! time_left; then
    count=$(record_count)
    if $OWN_TABLE && [ "$count" -lt "$DEMO_RECORDS" ]; then
      KEEP_WORK=true
      die "timeout after ${TIMEOUT}s with $count of the $DEMO_RECORDS demo records"
    fi
    log "Timeout (${TIMEOUT}s): $count record(s) received"
    exit 0
  fi
  sleep 1
done
