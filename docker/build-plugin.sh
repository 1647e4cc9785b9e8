#!/usr/bin/env bash
# Service "build" of docker-compose.yml (image maven:3.9-eclipse-temurin-17, the clone mounted at
# its working directory): builds the plugin folder ./connector, which the worker mounts, and
# target/test-classes, whose DemoTable the "table" service runs; then unpacks Debezium's JDBC
# sink connector into ./connect-plugins/ (the worker's /opt/extra-plugins) for the optional
# "postgres" profile. Files it writes belong to the container's user (root).
#
# Environment:
#   PLUGIN_BUILD=always|if-missing   if-missing skips `mvn package` when ./connector already holds
#                                    the connector jar and DemoTable is compiled (default: always)
#   SINK_PLUGIN_DIR=DIR              where the JDBC sink goes (default: connect-plugins)
#   MVN_FLAGS="..."                  extra Maven flags, e.g. -o
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JDBC_SINK=io.debezium:debezium-connector-jdbc:3.3.1.Final:tar.gz:plugin
PLUGIN_BUILD=${PLUGIN_BUILD:-always}
SINK_PLUGIN_DIR=${SINK_PLUGIN_DIR:-connect-plugins}
read -r -a MVN_FLAGS <<<"${MVN_FLAGS:-}"
mvn_plain() { MAVEN_OPTS="${MAVEN_OPTS:-} -Djansi.noreset=true" mvn -B -ntp -Dstyle.color=never "${MVN_FLAGS[@]}" "$@"; }

built() {
  compgen -G 'connector/lib/kafka-connect-delta-cdf-*.jar' >/dev/null \
    && [ -f target/test-classes/io/deltacdf/connect/demo/DemoTable.class ]
}

case "$PLUGIN_BUILD" in
  always) ;;
  if-missing) ;;
  *) echo "PLUGIN_BUILD must be always or if-missing, not '$PLUGIN_BUILD'" >&2; exit 2 ;;
esac
if [ "$PLUGIN_BUILD" = if-missing ] && built; then
  echo "The plugin folder ./connector is already built; not rebuilding (PLUGIN_BUILD=if-missing)"
else
  echo "Building the plugin folder ./connector (mvn -DskipTests package)"
  mvn_plain -DskipTests package
fi
built || { echo "mvn package left no connector jar in ./connector/lib" >&2; exit 1; }
echo "Plugin folder ./connector: $(ls connector/lib | wc -l) jars"

sink_dir="$SINK_PLUGIN_DIR/debezium-connector-jdbc"
if compgen -G "$sink_dir/debezium-connector-jdbc-*.jar" >/dev/null; then
  echo "Debezium JDBC sink already in $sink_dir"
else
  echo "Unpacking Debezium's JDBC sink ($JDBC_SINK) into $SINK_PLUGIN_DIR/"
  mkdir -p "$SINK_PLUGIN_DIR"
  # overWriteReleases: Maven's unpack marker in target/ must not skip a new SINK_PLUGIN_DIR.
  mvn_plain -q dependency:unpack -Dartifact="$JDBC_SINK" -DoutputDirectory="$SINK_PLUGIN_DIR" \
    -Dmdep.overWriteReleases=true
  compgen -G "$sink_dir/debezium-connector-jdbc-*.jar" >/dev/null \
    || { echo "the JDBC sink archive has no $sink_dir/debezium-connector-jdbc-*.jar" >&2; exit 1; }
fi
echo "Build done"
