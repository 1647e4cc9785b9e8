package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.StartSpec;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** on.history.missing=resnapshot: a table whose next changes are gone starts over. */
final class Resnapshots {

  private static final Logger log = LoggerFactory.getLogger(Resnapshots.class);

  private final DeltaCdfSourceConfig config;
  private final Redaction redaction;

  Resnapshots(DeltaCdfSourceConfig config, Redaction redaction) {
    this.config = config;
    this.redaction = redaction;
  }

  /**
   * Whether the table starts over after {@code e}: the changes to read next are gone, or the table
   * was replaced, and on.history.missing=resnapshot.
   */
  boolean apply(DeltaFeedException e) {
    return config.resnapshotOnMissingHistory()
        && (e.kind() == DeltaFeedException.Kind.HISTORY_MISSING
            || e.kind() == DeltaFeedException.Kind.TABLE_REPLACED);
  }

  /**
   * Where a table of a bounded run that ends at {@code lastVersion} starts over after {@code
   * cause}: a snapshot of its latest version, with a warning that names the cause; none when that
   * snapshot lies after the run's end, as it would hold later changes.
   *
   * @throws ConnectException when the latest version is after {@code lastVersion}
   */
  ChangePosition startOver(
      String table,
      DeltaTable deltaTable,
      LatestSnapshot latest,
      DeltaFeedException cause,
      long lastVersion) {
    if (latest.version() > lastVersion) {
      throw new ConnectException(
          redaction.redact(
              cause.getMessage()
                  + ". on.history.missing=resnapshot would start table "
                  + table
                  + " over from a snapshot at version "
                  + latest.version()
                  + ", after the bounded run's last version "
                  + lastVersion
                  + " (end.version / end.timestamp): that snapshot holds later changes."
                  + " Replay from a start whose history is still there, or end later"));
    }
    return startOver(table, deltaTable, latest, cause);
  }

  /**
   * Where a table starts over after {@code cause}: a snapshot of its latest version, with a warning
   * that names the cause.
   */
  ChangePosition startOver(
      String table, DeltaTable deltaTable, LatestSnapshot latest, DeltaFeedException cause) {
    ChangePosition snapshot = deltaTable.resolveStart(new StartSpec.Snapshot(), latest);
    log.warn(
        "{} on.history.missing=resnapshot: table {} starts over from a snapshot at {}",
        redaction.redact(cause.getMessage()),
        table,
        snapshot);
    return snapshot;
  }
}
