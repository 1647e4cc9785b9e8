package io.deltacdf.connect.offset;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.HandOver;
import io.deltacdf.connect.change.HiddenColumns;
import io.deltacdf.connect.change.TableIdentity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Converts a feed position to and from a Connect source offset. An offset names the point just
 * after the last record delivered: resuming there neither loses nor repeats a row, also inside a
 * snapshot or a single large version.
 *
 * <p>Shapes: {@code {"version": 12}} (the start of version 12, the form users write with the REST
 * API), {@code {"version": 12, "file": 3, "row": 100}} (inside version 12), and {@code {"snapshot":
 * true, "version": 12, "path": "...", "row": 100}} (inside the snapshot of version 12).
 *
 * <p>The connector adds the identity of the table the position belongs to: {@code "table_id"},
 * Delta's table id, and {@code "catalog_table_id"} for a table named in Unity Catalog; and, when
 * column rules hid columns, {@code "hidden"}: which, by identity, as one string (Connect stores
 * only primitive values in offsets): the entries of {@link HiddenColumns#toList()} joined with ',',
 * a ',' or '\' inside an entry escaped with '\'. Offsets without them (written before they existed,
 * or by hand) stay valid.
 *
 * <p>Signals add {@code "signal_offset"} (where in the signal topic the table's next signal may
 * be), {@code "paused": true} while a pause signal holds the table, and {@code "snapshot_filter"}
 * while the table is in a signalled snapshot with a condition (see {@link SignalState}).
 *
 * <p>A partition that takes over from the partitions of another shard count adds {@code
 * "handover"}, where they stood, until its position passes them all ({@link HandOver#toText}).
 */
public final class OffsetCodec {

  static final String VERSION = "version";
  static final String FILE = "file";
  static final String ROW = "row";
  static final String SNAPSHOT = "snapshot";
  static final String PATH = "path";
  static final String TABLE_ID = "table_id";
  static final String CATALOG_TABLE_ID = "catalog_table_id";
  static final String HIDDEN = "hidden";
  static final String SIGNAL_OFFSET = "signal_offset";
  static final String PAUSED = "paused";
  static final String SNAPSHOT_FILTER = "snapshot_filter";
  static final String HANDOVER = "handover";

  private OffsetCodec() {}

  /**
   * The offset of {@code position} in the table {@code identity} names, the columns {@code hidden}
   * ({@link #hiddenText}) hidden up to there.
   */
  public static Map<String, Object> toMap(
      ChangePosition position, TableIdentity identity, String hidden, SignalState signals) {
    return toMap(position, identity, hidden, signals, null);
  }

  /**
   * {@link #toMap(ChangePosition, TableIdentity, String, SignalState)}, and the hand-over {@code
   * handOver} ({@link HandOver#toText}) the partition still takes over from; null: none.
   */
  public static Map<String, Object> toMap(
      ChangePosition position,
      TableIdentity identity,
      String hidden,
      SignalState signals,
      String handOver) {
    OffsetMap map = positionMap(position);
    map.add(TABLE_ID, identity.deltaTableId());
    if (identity.catalogTableId() != null) {
      map.add(CATALOG_TABLE_ID, identity.catalogTableId());
    }
    if (!hidden.isEmpty()) {
      map.add(HIDDEN, hidden);
    }
    if (signals.nextSignal() >= 0) {
      map.add(SIGNAL_OFFSET, signals.nextSignal());
    }
    if (signals.paused()) {
      map.add(PAUSED, true);
    }
    if (signals.snapshotFilter() != null) {
      map.add(SNAPSHOT_FILTER, signals.snapshotFilter());
    }
    if (handOver != null) {
      map.add(HANDOVER, handOver);
    }
    return map;
  }

  /** The offset of {@code position} alone, as users write it by hand. */
  public static Map<String, Object> toMap(ChangePosition position) {
    return positionMap(position);
  }

  private static OffsetMap positionMap(ChangePosition position) {
    return position.match(OffsetCodec::snapshotMap, OffsetCodec::versionMap);
  }

  private static OffsetMap snapshotMap(ChangePosition.InSnapshot snapshot) {
    OffsetMap map = new OffsetMap();
    map.add(SNAPSHOT, true);
    map.add(VERSION, snapshot.version());
    map.add(PATH, snapshot.path());
    map.add(ROW, snapshot.nextRow());
    return map;
  }

  private static OffsetMap versionMap(ChangePosition.InVersion inVersion) {
    OffsetMap map = new OffsetMap();
    map.add(VERSION, inVersion.version());
    if (inVersion.fileIndex() != 0 || inVersion.nextRow() != 0) {
      map.add(FILE, (long) inVersion.fileIndex());
      map.add(ROW, inVersion.nextRow());
    }
    return map;
  }

  /**
   * Reads an offset map with the identity of its table, when it carries one.
   *
   * @throws IllegalArgumentException saying what is malformed and what is expected
   */
  public static StoredOffset decode(Map<String, ?> map) {
    ChangePosition position = fromMap(map);
    Object tableId = map.get(TABLE_ID);
    Object catalogTableId = map.get(CATALOG_TABLE_ID);
    if ((tableId != null && !(tableId instanceof String))
        || (catalogTableId != null && !(catalogTableId instanceof String))) {
      throw invalid(map, "'table_id' and 'catalog_table_id' must be strings");
    }
    if (tableId == null && catalogTableId != null) {
      throw invalid(map, "'catalog_table_id' needs a 'table_id'");
    }
    return new StoredOffset(
        position,
        tableId == null ? null : new TableIdentity((String) tableId, (String) catalogTableId),
        hidden(map),
        signals(map),
        handOver(map, position));
  }

  private static HandOver handOver(Map<String, ?> map, ChangePosition position) {
    Object text = map.get(HANDOVER);
    if (text == null) {
      return null;
    }
    if (!(text instanceof String handOver)) {
      throw invalid(map, "'handover' must be a string");
    }
    if (position.inSnapshot()) {
      throw invalid(map, "a snapshot offset has no 'handover'");
    }
    try {
      return HandOver.parse(handOver);
    } catch (IllegalArgumentException e) {
      throw invalid(map, e.getMessage());
    }
  }

  private static SignalState signals(Map<String, ?> map) {
    long next = map.containsKey(SIGNAL_OFFSET) ? nonNegative(map, SIGNAL_OFFSET) : -1;
    Object paused = map.get(PAUSED);
    if (paused != null && !(paused instanceof Boolean)) {
      throw invalid(map, "'paused' must be true or false");
    }
    Object filter = map.get(SNAPSHOT_FILTER);
    if (filter != null && !(filter instanceof String)) {
      throw invalid(map, "'snapshot_filter' must be a string");
    }
    return new SignalState(next, Boolean.TRUE.equals(paused), (String) filter);
  }

  /** {@code hidden} as an offset carries it; empty when nothing is hidden. */
  public static String hiddenText(HiddenColumns hidden) {
    StringBuilder text = new StringBuilder();
    for (String entry : hidden.toList()) {
      if (!text.isEmpty()) {
        text.append(',');
      }
      for (int i = 0; i < entry.length(); i++) {
        char c = entry.charAt(i);
        if (c == ',' || c == '\\') {
          text.append('\\');
        }
        text.append(c);
      }
    }
    return text.toString();
  }

  private static List<String> hiddenEntries(String text) {
    List<String> entries = new ArrayList<>();
    StringBuilder entry = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' && i + 1 < text.length()) {
        entry.append(text.charAt(++i));
      } else if (c == ',') {
        entries.add(entry.toString());
        entry.setLength(0);
      } else {
        entry.append(c);
      }
    }
    entries.add(entry.toString());
    return entries;
  }

  private static HiddenColumns hidden(Map<String, ?> map) {
    Object hidden = map.get(HIDDEN);
    if (hidden == null || "".equals(hidden)) {
      return HiddenColumns.NONE;
    }
    if (!(hidden instanceof String text)) {
      throw invalid(map, "'hidden' must be a string");
    }
    try {
      return HiddenColumns.fromList(hiddenEntries(text));
    } catch (IllegalArgumentException e) {
      throw invalid(map, e.getMessage());
    }
  }

  /**
   * Reads an offset map. Numbers may come back as Integer or Long (JSON storage), and users may
   * write offsets by hand, so every malformed shape fails with the expected shape in the message.
   */
  public static ChangePosition fromMap(Map<String, ?> map) {
    if (map == null) {
      throw invalid(null, "the offset is missing");
    }
    long version = number(map, VERSION);
    if (version < 0) {
      throw invalid(map, "version must be 0 or more");
    }
    if (Boolean.TRUE.equals(map.get(SNAPSHOT))) {
      Object path = map.get(PATH);
      if (!(path instanceof String pathText)) {
        throw invalid(map, "a snapshot offset needs a string 'path'");
      }
      return new ChangePosition.InSnapshot(version, pathText, nonNegative(map, ROW));
    }
    if (map.containsKey(SNAPSHOT) && !Boolean.FALSE.equals(map.get(SNAPSHOT))) {
      throw invalid(map, "'snapshot' must be true or false");
    }
    long file = map.containsKey(FILE) ? nonNegative(map, FILE) : 0;
    long row = map.containsKey(ROW) ? nonNegative(map, ROW) : 0;
    if (file > Integer.MAX_VALUE) {
      throw invalid(map, "'file' is too large");
    }
    return new ChangePosition.InVersion(version, (int) file, row);
  }

  private static long nonNegative(Map<String, ?> map, String key) {
    long value = number(map, key);
    if (value < 0) {
      throw invalid(map, "'" + key + "' must be 0 or more");
    }
    return value;
  }

  private static long number(Map<String, ?> map, String key) {
    Object value = map.get(key);
    if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      return ((Number) value).longValue();
    }
    throw invalid(map, "'" + key + "' must be a whole number");
  }

  private static IllegalArgumentException invalid(Map<String, ?> map, String problem) {
    return new IllegalArgumentException(
        "Invalid offset "
            + map
            + ": "
            + problem
            + ". Expected {\"version\": <commit version>} to start at a version, optionally"
            + " with \"file\" and \"row\" to resume inside it (and \"table_id\", the Delta"
            + " table id, to name the table it belongs to)");
  }
}
