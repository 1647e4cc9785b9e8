#!/usr/bin/env bash
# The performance benchmark (issue #6), on this machine, no Docker: our connector (packaged
# plugin in a separate Kafka Connect worker JVM) against a Spark Structured Streaming
# readChangeFeed -> Kafka job on the same Delta table and broker, plus the ceilings, latency,
# idle-poll cost, bounded memory and the parallel snapshot. Prints a table of figures; exits
# non-zero only when something failed (e.g. a record count did not match). See
# docs/benchmark.md.
#
#   ./benchmark.sh [all|throughput|latency|idle-poll|memory|snapshot|derived|rate-limit|shards|sink] [--rows N] [--variant plain|dv|both] ...
#   ./benchmark.sh soak --minutes N        (random commits and faults for N minutes; not part of "all")
#   ./benchmark.sh --help
#
# Builds the plugin folder ./connector and the test classes first (mvn -DskipTests package);
# --no-build skips that. Needs Java 17+ and Maven.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$REPO"

BUILD=true
ARGS=()
for arg in "$@"; do
  case "$arg" in
    --no-build) BUILD=false ;;
    *) ARGS+=("$arg") ;;
  esac
done

log() { printf '==> %s\n' "$*" >&2; }

# Maven resolves each classpath once; again when its pom changes.
stale() { [ ! -s "$1" ] || [ "$2" -nt "$1" ]; }
classpath() {
  local file=$1 pom=$2; shift 2
  if stale "$file" "$pom"; then
    log "Resolving the classpath of $pom"
    mkdir -p target
    mvn -q -B -f "$pom" dependency:build-classpath "$@" -Dmdep.outputFile="$REPO/$file.tmp" >&2
    mv "$file.tmp" "$file"
  fi
  cat "$file"
}

if $BUILD; then
  log "Building ./connector and the test classes (mvn -q -DskipTests package)"
  mvn -q -B -DskipTests package >&2
fi
[ -f target/test-classes/io/deltacdf/connect/bench/Benchmark.class ] \
  || { echo "benchmark.sh: no compiled benchmark: run without --no-build" >&2; exit 2; }

TEST_CP=$(classpath target/benchmark-test.classpath pom.xml -Dmdep.includeScope=test)
SPARK_CP=$(classpath target/benchmark-spark.classpath benchmark/spark-runtime/pom.xml)

# The driver JVM (normal JIT) starts every measured JVM itself.
# Spark's JVM options: the soak part writes its tables with Spark in this JVM.
exec java -Xmx1g "@$REPO/spark-java17.args" -Dbench.spark.classpath="$SPARK_CP" \
  -Dlog4j2.configurationFile="$REPO/benchmark/log4j2.xml" \
  -cp "$REPO/target/test-classes:$REPO/target/classes:$TEST_CP" \
  io.deltacdf.connect.bench.Benchmark "${ARGS[@]}"
