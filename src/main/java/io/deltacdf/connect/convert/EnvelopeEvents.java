package io.deltacdf.connect.convert;

import static io.deltacdf.connect.convert.PendingRecord.addTombstone;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import java.util.List;

/**
 * Debezium change events of one table's rows (record.format=envelope): c, d and r events, an
 * update's two images paired into one u event, and the snapshot's last row marked snapshot=last. A
 * row whose event is not complete is held back: an update image until its partner comes, a snapshot
 * row until the next one.
 */
final class EnvelopeEvents {

  private final String table;
  private final String tableName;
  private final RecordSettings settings;
  private final UpdatePairing pairing;
  private HeldSnapshotRow heldSnapshotRow;

  /** A snapshot row whose envelope waits to learn whether it is the snapshot's last. */
  private record HeldSnapshotRow(
      RowShape shape, Object key, Object after, ChangeRow change, ChangePosition before) {}

  EnvelopeEvents(String table, String tableName, RecordSettings settings) {
    this.table = table;
    this.tableName = tableName;
    this.settings = settings;
    this.pairing = new UpdatePairing(settings.maxPendingImages());
  }

  /** Adds the events that {@code row}, read at {@code before}, completes. */
  void add(ChangeRow row, ChangePosition before, RowShape shape, List<PendingRecord> out) {
    if (before != null && before.inSnapshot()) {
      snapshotEvents(row, before, shape, out);
    } else {
      changeEvents(row, before, shape, out);
    }
  }

  /**
   * Adds what the end of a version (or snapshot) releases: the snapshot's last row, and update
   * images left without a partner.
   */
  void release(RowShape lastShape, List<PendingRecord> out) {
    if (heldSnapshotRow != null) {
      HeldSnapshotRow last = heldSnapshotRow;
      heldSnapshotRow = null;
      out.add(snapshotEvent(last, SnapshotMark.LAST));
    }
    // Images left without a partner belong to updates that changed the key: the old key is
    // deleted and the new one created, as Debezium reports a primary-key change.
    for (UpdatePairing.Image image : pairing.drain()) {
      if (image.isPre()) {
        out.add(
            event(
                lastShape,
                image.key(),
                EnvelopeOp.DELETE,
                beforeImage(image),
                null,
                image.change(),
                SnapshotMark.FALSE));
        addTombstone(settings, image.key(), image.change(), out);
      } else {
        out.add(
            event(
                lastShape,
                image.key(),
                EnvelopeOp.CREATE,
                null,
                image.row(),
                image.change(),
                SnapshotMark.FALSE));
      }
    }
  }

  /** The position before the earliest update image that waits, null when none waits. */
  ChangePosition earliestWaitingImage() {
    return pairing.isEmpty() ? null : pairing.earliestBefore();
  }

  /** The position before the held snapshot row, null when none is held. */
  ChangePosition heldSnapshotRow() {
    return heldSnapshotRow == null ? null : heldSnapshotRow.before();
  }

  /** Forgets what is held back: the feed starts over. */
  void clear() {
    pairing.clear();
    heldSnapshotRow = null;
  }

  private void changeEvents(
      ChangeRow row, ChangePosition before, RowShape shape, List<PendingRecord> out) {
    boolean wanted = settings.changeTypes().contains(row.type());
    switch (row.type()) {
      case INSERT:
        if (wanted) {
          Object after = shape.row(row);
          out.add(
              event(
                  shape,
                  shape.key(row, after),
                  EnvelopeOp.CREATE,
                  null,
                  after,
                  row,
                  SnapshotMark.FALSE));
        }
        break;
      case DELETE:
        if (wanted) {
          Object deleted = shape.row(row);
          Object key = shape.key(row, deleted);
          out.add(event(shape, key, EnvelopeOp.DELETE, deleted, null, row, SnapshotMark.FALSE));
          addTombstone(settings, key, row, out);
        }
        break;
      case CUSTOM:
        throw new IllegalArgumentException(
            "_change_type '"
                + row.label()
                + "' is not insert, update_preimage, update_postimage or delete, so"
                + " record.format=envelope has no op for it; use record.format=row, which passes"
                + " such rows through with their _change_type");
      default:
        if (settings.changeTypes().contains(ChangeType.UPDATE_POSTIMAGE)) {
          Object image = shape.row(row);
          pairing
              .offer(new UpdatePairing.Image(shape.key(row, image), image, row, before))
              .ifPresent(pair -> out.add(update(shape, pair)));
        }
    }
  }

  /**
   * A snapshot row is held back until the next one comes, so that the snapshot's last row can be
   * marked {@code snapshot=last} when the end of the snapshot is signalled, even if the files read
   * after it turn out to be empty.
   */
  private void snapshotEvents(
      ChangeRow row, ChangePosition before, RowShape shape, List<PendingRecord> out) {
    if (heldSnapshotRow != null) {
      out.add(snapshotEvent(heldSnapshotRow, SnapshotMark.TRUE));
      heldSnapshotRow = null;
    }
    if (settings.changeTypes().contains(row.type())) {
      Object after = shape.row(row);
      heldSnapshotRow = new HeldSnapshotRow(shape, shape.key(row, after), after, row, before);
    }
  }

  private PendingRecord snapshotEvent(HeldSnapshotRow held, SnapshotMark snapshot) {
    return event(
        held.shape(), held.key(), EnvelopeOp.READ, null, held.after(), held.change(), snapshot);
  }

  private PendingRecord update(RowShape shape, UpdatePairing.Pair pair) {
    return event(
        shape,
        pair.post().key(),
        EnvelopeOp.UPDATE,
        beforeImage(pair.pre()),
        pair.post().row(),
        pair.post().change(),
        SnapshotMark.FALSE);
  }

  /** A pre-image as {@code before}, unless update_preimage is filtered out. */
  private Object beforeImage(UpdatePairing.Image pre) {
    return settings.changeTypes().contains(ChangeType.UPDATE_PREIMAGE) ? pre.row() : null;
  }

  private PendingRecord event(
      RowShape shape,
      Object key,
      EnvelopeOp op,
      Object before,
      Object after,
      ChangeRow change,
      SnapshotMark snapshot) {
    Object value =
        shape.envelope(op, before, after, source(change, snapshot), System.currentTimeMillis());
    return new PendingRecord(key, shape.envelopeSchema(), value, change);
  }

  /** The envelope's source block. */
  private EnvelopeSchema.Source source(ChangeRow change, SnapshotMark snapshot) {
    return new EnvelopeSchema.Source(
        settings.connectorVersion(),
        settings.connectorName(),
        tableName,
        table,
        change.version(),
        change.commitTimestampMs(),
        snapshot);
  }
}
