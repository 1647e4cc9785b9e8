package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import java.util.EnumMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.header.Headers;

/**
 * The three metadata headers of a change record: {@code _change_type}, {@code _commit_version} and
 * {@code _commit_timestamp}. Header objects are immutable, so the records of a version share them:
 * a record then costs one header list rather than six objects and three validations.
 */
final class RecordHeaders {

  static final String COMMIT_VERSION = "_commit_version";
  static final String COMMIT_TIMESTAMP = "_commit_timestamp";

  private static final Map<ChangeType, Header> CHANGE_TYPES = new EnumMap<>(ChangeType.class);

  static {
    for (ChangeType type : ChangeType.STANDARD) {
      CHANGE_TYPES.put(type, header(ChangeType.COLUMN, Schema.STRING_SCHEMA, type.label()));
    }
  }

  /** The headers all records of a version share, made once per version. */
  private record VersionHeaders(
      long version, long commitTimestampMs, Header forVersion, Header forTimestamp) {}

  private VersionHeaders versionHeaders = new VersionHeaders(-1, 0, null, null);

  /** The headers of a record of {@code change}. */
  Headers of(ChangeRow change) {
    if (versionHeaders.version() != change.version()
        || versionHeaders.commitTimestampMs() != change.commitTimestampMs()) {
      versionHeaders =
          new VersionHeaders(
              change.version(),
              change.commitTimestampMs(),
              header(COMMIT_VERSION, Schema.INT64_SCHEMA, change.version()),
              header(COMMIT_TIMESTAMP, Schema.INT64_SCHEMA, change.commitTimestampMs()));
    }
    return new ConnectHeaders()
        .add(
            change.type() == ChangeType.CUSTOM
                ? header(ChangeType.COLUMN, Schema.STRING_SCHEMA, change.label())
                : CHANGE_TYPES.get(change.type()))
        .add(versionHeaders.forVersion())
        .add(versionHeaders.forTimestamp());
  }

  private static Header header(String key, Schema schema, Object value) {
    return new ConnectHeaders().add(key, new SchemaAndValue(schema, value)).lastWithName(key);
  }
}
