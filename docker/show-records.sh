#!/usr/bin/env bash
# Service "records" of docker-compose.yml (image confluentinc/cp-schema-registry, after
# "register"): prints the connector's records, keys and values decoded from Avro with the schemas
# in Schema Registry, from the first one on, and keeps following the topic.
#
# Environment: BOOTSTRAP_SERVERS (broker:29092), TOPIC (customers), SCHEMA_REGISTRY_URL
# (http://schema-registry:8081), MAX_RECORDS (stop after that many; default: follow forever),
# CONSOLE_CONSUMER (the consumer command; default kafka-avro-console-consumer)
set -euo pipefail

BOOTSTRAP_SERVERS=${BOOTSTRAP_SERVERS:-broker:29092}
TOPIC=${TOPIC:-customers}
SCHEMA_REGISTRY_URL=${SCHEMA_REGISTRY_URL:-http://schema-registry:8081}
read -r -a consumer <<<"${CONSOLE_CONSUMER:-kafka-avro-console-consumer}"

limit=()
if [ -n "${MAX_RECORDS:-}" ]; then
  limit=(--max-messages "$MAX_RECORDS")
fi
echo "Records of topic $TOPIC, keys and values decoded from Avro with $SCHEMA_REGISTRY_URL:"
exec "${consumer[@]}" --bootstrap-server "$BOOTSTRAP_SERVERS" --topic "$TOPIC" --from-beginning \
  "${limit[@]}" --property "schema.registry.url=$SCHEMA_REGISTRY_URL" \
  --property print.key=true --property key.separator=' | '
