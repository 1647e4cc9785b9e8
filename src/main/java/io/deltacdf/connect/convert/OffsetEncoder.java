package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangePosition;
import java.util.Map;

/**
 * Writes the source offset that stores a position: the table's position object does, so that every
 * offset names the table it belongs to and the columns its rules hid.
 */
@FunctionalInterface
public interface OffsetEncoder {

  Map<String, ?> offsetOf(ChangePosition position);
}
