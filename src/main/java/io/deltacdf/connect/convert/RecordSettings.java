package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangeType;
import java.util.Set;

/**
 * What records look like, the same for every table of a connector.
 *
 * @param changeTypes the change types that become records; the others only advance the offset
 * @param metadataFields whether row-format values also carry _change_type, _commit_version and
 *     _commit_timestamp
 * @param tombstonesOnDelete whether a null-value record follows each delete of a keyed table
 * @param maxPendingImages the most update images an envelope converter holds while it waits for
 *     their partner image
 * @param connectorName the connector's name, for the envelope's source struct
 * @param connectorVersion this connector's version, for the envelope's source struct
 * @param outputFormat whether keys and values are Connect structs or JSON text
 * @param recordTimestamp which time data records carry as their Kafka timestamp
 */
public record RecordSettings(
    RecordFormat format,
    Set<ChangeType> changeTypes,
    boolean metadataFields,
    boolean tombstonesOnDelete,
    TemporalPrecision temporalPrecision,
    FieldNameAdjustment fieldNameAdjustment,
    int maxPendingImages,
    String connectorName,
    String connectorVersion,
    OutputFormat outputFormat,
    RecordTimestamp recordTimestamp) {

  public RecordSettings {
    changeTypes = Set.copyOf(changeTypes);
  }
}
