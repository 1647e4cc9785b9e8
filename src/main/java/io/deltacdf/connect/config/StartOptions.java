package io.deltacdf.connect.config;

import static io.deltacdf.connect.config.DeltaCdfSourceConfig.CHANGE_SOURCE;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.DERIVED_DIFF_MEMORY_ROWS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.END_TIMESTAMP;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.END_VERSION;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.ON_HISTORY_MISSING;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.SNAPSHOT_MAX_TASKS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.START_MODE;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.START_TIMESTAMP;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.START_VERSION;

import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.EndSpec;
import io.deltacdf.connect.change.StartSpec;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** The settings of the Start position group: where a table's feed starts, and starts over. */
final class StartOptions {

  private StartOptions() {}

  static void define(ConfigDef def, String group) {
    int order = 0;
    def.define(
        START_MODE,
        Type.STRING,
        EnumSettings.valueOf(StartMode.SNAPSHOT),
        Validators.oneOf(StartMode.class),
        Importance.HIGH,
        "Where a table's feed starts when the connector has no stored offset for it (a stored"
            + " offset always wins): snapshot = the current table as inserts, then every change;"
            + " earliest = the oldest version whose changes can still be read; latest = only"
            + " changes committed from now on; version = from start.version; timestamp = from"
            + " the first version committed at or after start.timestamp.",
        group,
        ++order,
        Width.SHORT,
        "Start mode",
        new EnumRecommender(StartMode.class));
    def.define(
        START_VERSION,
        Type.LONG,
        null,
        Validators.nonNegativeOrNull(),
        Importance.MEDIUM,
        "The first commit version to read with start.mode=version.",
        group,
        ++order,
        Width.SHORT,
        "Start version");
    def.define(
        START_TIMESTAMP,
        Type.STRING,
        null,
        Validators.timestamp(),
        Importance.MEDIUM,
        "With start.mode=timestamp: an ISO-8601 instant (2024-05-01T12:00:00Z), a UTC date-time"
            + " (2024-05-01T12:00:00), a UTC date (2024-05-01) or epoch milliseconds.",
        group,
        ++order,
        Width.MEDIUM,
        "Start timestamp");
    def.define(
        ON_HISTORY_MISSING,
        Type.STRING,
        EnumSettings.valueOf(OnHistoryMissing.FAIL),
        Validators.oneOf(OnHistoryMissing.class),
        Importance.MEDIUM,
        "What a task does when the changes it must read next are gone: log files cleaned up or"
            + " data files removed by VACUUM after the connector fell behind, or the table"
            + " deleted, recreated or replaced. fail = stop with an error that names the table,"
            + " the version and the ways out (nothing is skipped silently); resnapshot = log a"
            + " warning and start over from a snapshot of the table's latest version, followed"
            + " by its live changes; a stored offset of another table that had the path or name"
            + " (deleted and created again: its table id differs) starts the new table by"
            + " start.mode instead.",
        group,
        4,
        Width.SHORT,
        "When history is missing");
    def.define(
        CHANGE_SOURCE,
        Type.STRING,
        EnumSettings.valueOf(ChangeSource.CDF),
        Validators.oneOf(ChangeSource.class),
        Importance.MEDIUM,
        "Where change rows come from. cdf = the table's Change Data Feed (a version without it"
            + " is an error); derived = derived from the data files each version removed and"
            + " added, for tables without Change Data Feed (an update that leaves a row identical"
            + " is invisible, without key columns an update is a delete plus an insert, and a"
            + " rewrite costs reading the rewritten files twice); row-tracking = paired by row id"
            + " from the files each version removed and added, on tables with row tracking"
            + " (delta.enableRowTracking=true): exact like the Change Data Feed, update images"
            + " included, even where the key changed; versions without row ids (before row"
            + " tracking was enabled) are derived; auto = the Change Data Feed for versions where"
            + " it was enabled, else row tracking where the version has it, else derived changes.",
        group,
        5,
        Width.SHORT,
        "Change source");
    def.define(
        DERIVED_DIFF_MEMORY_ROWS,
        Type.INT,
        1 << 20,
        ConfigDef.Range.atLeast(2),
        Importance.LOW,
        "With change.source=derived, row-tracking or auto: how many candidate rows (rows of"
            + " the files one version removes and adds) are diffed on the heap, at 16 to 24"
            + " bytes each (24 when paired by row id). A larger rewrite spills its row"
            + " fingerprints (or row ids and commit versions) to sorted temp files under the"
            + " worker's java.io.tmpdir (16 to 24 bytes per candidate row on disk, deleted once"
            + " the version is read) and keeps about 40 MiB of heap. Raise it to diff large"
            + " rewrites faster on a worker with heap to spare. In any mode it also bounds the"
            + " records (24 bytes each) sorted on the heap to pair the deletion-vector updates of"
            + " a commit of more than 10,000 file actions; more spill the same way.",
        group,
        6,
        Width.SHORT,
        "Derived diff rows in memory");
    def.define(
        SNAPSHOT_MAX_TASKS,
        Type.INT,
        1,
        ConfigDef.Range.between(1, DeltaCdfSourceConfig.SNAPSHOT_MAX_TASKS_LIMIT),
        Importance.MEDIUM,
        "At most how many tasks read one table's initial snapshot (when its start is a"
            + " snapshot), each a slice of the snapshot's data files, so that tasks on several"
            + " workers share it; the count is also bounded by tasks.max. Each slice stores its"
            + " own offset under {\"table\": <uri>, \"slice\": \"<index>/<count>\"}; once every"
            + " slice is complete, one task reads the table's changes from the snapshot version"
            + " + 1. The snapshot version and the slice count are fixed once a slice has stored"
            + " an offset. 1 = one task reads the whole snapshot.",
        group,
        7,
        Width.SHORT,
        "Snapshot tasks per table");
    def.define(
        END_VERSION,
        Type.LONG,
        null,
        Validators.nonNegativeOrNull(),
        Importance.MEDIUM,
        "Makes the run bounded: each table is read up to and including this commit version,"
            + " then reads no more (its task idles, heartbeats still store its final position,"
            + " and the table's EndReached metric turns true). For backfills and replays. With a"
            + " snapshot start, the snapshot is taken at the version the start resolves to, which"
            + " must not be after end.version. Unset = unbounded.",
        group,
        8,
        Width.SHORT,
        "End version");
    def.define(
        END_TIMESTAMP,
        Type.STRING,
        null,
        Validators.timestamp(),
        Importance.MEDIUM,
        "Makes the run bounded as end.version does, at the last version committed at or before"
            + " this instant, resolved per table when its task opens it. Same formats as"
            + " start.timestamp. An instant after the table's latest commit must have passed"
            + " already (a commit still to come could fall before it). Use either end.version or"
            + " end.timestamp.",
        group,
        9,
        Width.MEDIUM,
        "End timestamp");
  }

  /** Where a bounded run ends; empty when neither end.version nor end.timestamp is set. */
  static Optional<EndSpec> end(DeltaCdfSourceConfig config) {
    Long version = config.getLong(END_VERSION);
    if (version != null) {
      return Optional.of(new EndSpec.AtVersion(version));
    }
    return endTimestamp(config).map(at -> new EndSpec.AtTimestamp(at.toEpochMilli()));
  }

  private static Optional<Instant> endTimestamp(DeltaCdfSourceConfig config) {
    String value = config.getString(END_TIMESTAMP);
    return value == null || value.isBlank()
        ? Optional.empty()
        : Optional.of(Validators.parseTimestamp(value));
  }

  /**
   * Where a table without stored offset starts: start.mode with start.version or start.timestamp,
   * which must be set for the modes that need them (see {@link #problems}).
   */
  static StartSpec start(DeltaCdfSourceConfig config) {
    return switch (startMode(config)) {
      case SNAPSHOT -> new StartSpec.Snapshot();
      case EARLIEST -> new StartSpec.Earliest();
      case LATEST -> new StartSpec.Latest();
      case VERSION -> new StartSpec.AtVersion(startVersion(config).orElseThrow());
      case TIMESTAMP ->
          new StartSpec.AtTimestamp(startTimestamp(config).orElseThrow().toEpochMilli());
    };
  }

  private static StartMode startMode(DeltaCdfSourceConfig config) {
    return EnumSettings.parse(StartMode.class, config.getString(START_MODE));
  }

  private static OptionalLong startVersion(DeltaCdfSourceConfig config) {
    Long version = config.getLong(START_VERSION);
    return version == null ? OptionalLong.empty() : OptionalLong.of(version);
  }

  static Optional<Instant> startTimestamp(DeltaCdfSourceConfig config) {
    String value = config.getString(START_TIMESTAMP);
    return value == null || value.isBlank()
        ? Optional.empty()
        : Optional.of(Validators.parseTimestamp(value));
  }

  /** Start options that do not fit the start mode. */
  static void problems(DeltaCdfSourceConfig config, Map<String, List<String>> problems) {
    StartMode mode = startMode(config);
    if (mode == StartMode.VERSION && startVersion(config).isEmpty()) {
      DeltaCdfSourceConfig.add(
          problems, START_VERSION, "start.mode=version needs start.version (a commit version)");
    }
    if (mode == StartMode.TIMESTAMP && startTimestamp(config).isEmpty()) {
      DeltaCdfSourceConfig.add(
          problems, START_TIMESTAMP, "start.mode=timestamp needs start.timestamp");
    }
    if (mode != StartMode.VERSION && startVersion(config).isPresent()) {
      DeltaCdfSourceConfig.add(
          problems,
          START_VERSION,
          "start.version is only used with start.mode=version, but start.mode is "
              + EnumSettings.valueOf(mode)
              + ": remove start.version or set start.mode=version");
    }
    if (mode != StartMode.TIMESTAMP && startTimestamp(config).isPresent()) {
      DeltaCdfSourceConfig.add(
          problems,
          START_TIMESTAMP,
          "start.timestamp is only used with start.mode=timestamp, but start.mode is "
              + EnumSettings.valueOf(mode)
              + ": remove start.timestamp or set start.mode=timestamp");
    }
    endProblems(config, problems);
  }

  /** An end set twice, or before the start when both are given as the same kind of value. */
  private static void endProblems(DeltaCdfSourceConfig config, Map<String, List<String>> problems) {
    Long endVersion = config.getLong(END_VERSION);
    Optional<Instant> endTimestamp = endTimestamp(config);
    if (endVersion != null && endTimestamp.isPresent()) {
      DeltaCdfSourceConfig.add(
          problems,
          END_TIMESTAMP,
          "end.version and end.timestamp are both set: a bounded run has one end; remove one");
      return;
    }
    OptionalLong startVersion = startVersion(config);
    if (endVersion != null && startVersion.isPresent() && endVersion < startVersion.getAsLong()) {
      DeltaCdfSourceConfig.add(
          problems,
          END_VERSION,
          "end.version="
              + endVersion
              + " is before start.version="
              + startVersion.getAsLong()
              + ": the run would read nothing; set end.version at or after start.version");
    }
    Optional<Instant> startTimestamp = startTimestamp(config);
    if (endTimestamp.isPresent()
        && startTimestamp.isPresent()
        && endTimestamp.get().isBefore(startTimestamp.get())) {
      DeltaCdfSourceConfig.add(
          problems,
          END_TIMESTAMP,
          "end.timestamp="
              + endTimestamp.get()
              + " is before start.timestamp="
              + startTimestamp.get()
              + ": the run would read nothing; set end.timestamp at or after start.timestamp");
    }
  }
}
