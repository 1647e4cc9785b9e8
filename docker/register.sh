#!/bin/sh
# Services "register" and "register-postgres" of docker-compose.yml (image curlimages/curl): wait
# for the Connect worker, then register each NAME=CONFIG given with PUT
# /connectors/NAME/config, retrying while the worker rejects a config (e.g. its table does not
# exist yet).
#
#   register.sh NAME=CONFIG_FILE...
# Environment: CONNECT_URL (http://connect:8083), CONFIG_REPLACE ("FROM=TO": every FROM in each
# config becomes TO, e.g. a table path that differs inside the stack), ATTEMPTS (per connector,
# 5 s apart; 120)
set -u
CONNECT=${CONNECT_URL:-http://connect:8083}
ATTEMPTS=${ATTEMPTS:-120}
REPLACE=${CONFIG_REPLACE:-}
RESPONSE=$(mktemp)
BODY=$(mktemp)
trap 'rm -f "$RESPONSE" "$BODY"' EXIT

if [ $# -eq 0 ]; then
  echo "usage: register.sh NAME=CONFIG_FILE..." >&2
  exit 2
fi

# The config file as it is sent: with CONFIG_REPLACE applied (plain text, not a pattern).
body_of() {
  if [ -n "$REPLACE" ]; then
    awk -v from="${REPLACE%%=*}" -v to="${REPLACE#*=}" '{
      out = ""
      while ((i = index($0, from)) > 0) { out = out substr($0, 1, i - 1) to; $0 = substr($0, i + length(from)) }
      print out $0 }' "$1"
  else
    cat "$1"
  fi
}

register() {
  name=$1 config=$2
  body_of "$config" > "$BODY" || return 1
  attempt=0
  while :; do
    status=$(curl -s -o "$RESPONSE" -w '%{http_code}' -X PUT -H 'Content-Type: application/json' \
      "$CONNECT/connectors/$name/config" --data-binary "@$BODY")
    case "$status" in
      200|201)
        echo "Registered connector $name from $config:"
        cat "$RESPONSE"; echo
        return 0 ;;
    esac
    attempt=$((attempt + 1))
    if [ "$attempt" -ge "$ATTEMPTS" ]; then
      echo "Giving up on $name after $attempt attempts; last answer (HTTP $status):"
      cat "$RESPONSE"; echo
      return 1
    fi
    if [ $((attempt % 6)) -eq 1 ]; then
      echo "$name not registered yet (HTTP $status), retrying every 5 s. The worker's answer:"
      cat "$RESPONSE"; echo
    fi
    sleep 5
  done
}

echo "Waiting for Kafka Connect at $CONNECT ..."
until curl -sf "$CONNECT/health" > /dev/null; do sleep 2; done

for pair in "$@"; do
  case "$pair" in
    ?*=?*) register "${pair%%=*}" "${pair#*=}" || exit 1 ;;
    *) echo "not NAME=CONFIG_FILE: $pair" >&2; exit 2 ;;
  esac
done
