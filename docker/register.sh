#!/bin/sh
# One-shot: waits for the Connect worker, then registers config-examples/local-table-avro.json as
# connector "customers" (retrying while its table, ./delta-tables/customers, does not exist yet).
set -u
CONNECT=${CONNECT_URL:-http://connect:8083}
CONFIG=${CONNECTOR_CONFIG:-/config-examples/local-table-avro.json}
NAME=${CONNECTOR_NAME:-customers}

echo "Waiting for Kafka Connect at $CONNECT ..."
until curl -sf "$CONNECT/health" > /dev/null; do sleep 2; done

attempt=0
while :; do
  status=$(curl -s -o /tmp/response -w '%{http_code}' -X PUT -H 'Content-Type: application/json' \
    "$CONNECT/connectors/$NAME/config" --data-binary "@$CONFIG")
  case "$status" in
    200|201)
      echo "Registered connector $NAME from $CONFIG:"
      cat /tmp/response; echo
      exit 0 ;;
  esac
  attempt=$((attempt + 1))
  if [ "$attempt" -ge 120 ]; then
    echo "Giving up after $attempt attempts; last answer (HTTP $status):"; cat /tmp/response; echo
    exit 1
  fi
  if [ $((attempt % 6)) -eq 1 ]; then
    echo "Not registered yet (HTTP $status), retrying every 5 s. Create the table first, e.g."
    echo "  ./demo.sh table create ./delta-tables/customers   (on the host). Answer:"
    cat /tmp/response; echo
  fi
  sleep 5
done
