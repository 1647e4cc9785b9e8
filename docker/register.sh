#!/bin/sh
# Service "register" of docker-compose.yml (image curlimages/curl): waits for the Connect worker,
# then registers a connector config with PUT /connectors/NAME/config, retrying while the worker
# rejects it (e.g. its table does not exist yet).
#
# Environment: CONNECT_URL (http://connect:8083), CONNECTOR_NAME (customers), CONNECTOR_CONFIG
# (/config-examples/local-table-avro.json), CONFIG_REPLACE ("FROM=TO": every FROM in the config
# becomes TO, e.g. a database address that differs inside the stack), ATTEMPTS (120, 5 s apart)
set -u
CONNECT=${CONNECT_URL:-http://connect:8083}
CONFIG=${CONNECTOR_CONFIG:-/config-examples/local-table-avro.json}
NAME=${CONNECTOR_NAME:-customers}
ATTEMPTS=${ATTEMPTS:-120}
REPLACE=${CONFIG_REPLACE:-}
RESPONSE=$(mktemp)
BODY=$(mktemp)
trap 'rm -f "$RESPONSE" "$BODY"' EXIT

if [ -n "$REPLACE" ]; then
  from=${REPLACE%%=*}
  to=${REPLACE#*=}
  awk -v from="$from" -v to="$to" \
    '{ out = ""; while ((i = index($0, from)) > 0) { out = out substr($0, 1, i - 1) to; $0 = substr($0, i + length(from)) } print out $0 }' \
    "$CONFIG" > "$BODY"
else
  cat "$CONFIG" > "$BODY"
fi

echo "Waiting for Kafka Connect at $CONNECT ..."
until curl -sf "$CONNECT/health" > /dev/null; do sleep 2; done

attempt=0
while :; do
  status=$(curl -s -o "$RESPONSE" -w '%{http_code}' -X PUT -H 'Content-Type: application/json' \
    "$CONNECT/connectors/$NAME/config" --data-binary "@$BODY")
  case "$status" in
    200|201)
      echo "Registered connector $NAME from $CONFIG:"
      cat "$RESPONSE"; echo
      exit 0 ;;
  esac
  attempt=$((attempt + 1))
  if [ "$attempt" -ge "$ATTEMPTS" ]; then
    echo "Giving up after $attempt attempts; last answer (HTTP $status):"; cat "$RESPONSE"; echo
    exit 1
  fi
  if [ $((attempt % 6)) -eq 1 ]; then
    echo "Not registered yet (HTTP $status), retrying every 5 s. The worker's answer:"
    cat "$RESPONSE"; echo
  fi
  sleep 5
done
