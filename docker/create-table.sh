#!/usr/bin/env bash
# Service "table" of docker-compose.yml (image maven:3.9-eclipse-temurin-17, after "build"):
# writes the demo Delta table with Spark, change data feed on, through ./demo.sh table. The
# worker sees ./delta-tables/customers as /tmp/delta-demo/customers, the table of
# config-examples/local-table-avro.json.
#
#   create-table.sh [create|mutate]   create (default) leaves an existing Delta table as it is;
#                                     mutate commits the demo's inserts, update and delete, e.g.
#                                     docker-compose run --rm --no-deps table mutate
# Environment: DEMO_TABLE=PATH (default: delta-tables/customers, relative to the clone)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

action=${1:-create}
table=${DEMO_TABLE:-delta-tables/customers}
case "$action" in
  create)
    if [ -d "$table/_delta_log" ]; then
      echo "A Delta table is already at $table: left as it is"
      exit 0
    fi
    mkdir -p "$(dirname "$table")" ;;
  mutate) ;;
  *) echo "usage: create-table.sh [create|mutate]" >&2; exit 2 ;;
esac
# demo.sh re-resolves its cached Spark classpath (target/) when the host's Maven repository wrote
# it, and the host's demo.sh does the same after this container.
echo "Writing the demo Delta table at $table with Spark ($action)"
exec ./demo.sh table "$action" "$table"
