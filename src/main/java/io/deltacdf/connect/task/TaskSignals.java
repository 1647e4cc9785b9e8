package io.deltacdf.connect.task;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.convert.Notification;
import io.deltacdf.connect.task.signal.ReadSignal;
import io.deltacdf.connect.task.signal.Signal;
import io.deltacdf.connect.task.signal.SignalChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The signals of a task's tables: read from the signal topic, queued per stream, and acted on where
 * each stream can take them (see {@link TableSteering#atSignalPoint}). Each table's offsets record
 * where in the topic its next signal may be, so a signal acts once, across restarts and rebalances.
 * The first task also rejects what no task would act on: malformed signals and signals naming a
 * table the connector does not stream.
 */
final class TaskSignals implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TaskSignals.class);

  /** A task without signals. */
  static final TaskSignals NONE = new TaskSignals(null, List.of(), null, Notifier.NONE);

  private final SignalChannel channel;
  private final List<TableStream> streams;
  private final Map<TableStream, Deque<Signal>> waiting = new HashMap<>();

  /** Every table of the connector in the first task, which rejects the others; else null. */
  private final Set<String> allTables;

  private final Notifier notifier;

  /** Notifications about no table of the task (rejected signals), for the notification topic. */
  private final List<Notification> taskNotices = new ArrayList<>();

  private boolean started;

  private TaskSignals(
      SignalChannel channel, List<TableStream> streams, Set<String> allTables, Notifier notifier) {
    this.channel = channel;
    this.streams = streams;
    this.allTables = allTables;
    this.notifier = notifier;
  }

  static TaskSignals of(
      DeltaCdfSourceConfig config,
      String connectorName,
      List<TableStream> streams,
      Set<String> allTables,
      Notifier notifier) {
    Map<String, Object> consumer = config.signalConsumer();
    if (consumer == null) {
      return NONE;
    }
    return new TaskSignals(
        new SignalChannel(consumer, config.signalTopic(), connectorName),
        streams,
        allTables,
        notifier);
  }

  /** Reads the signals sent since the last look, when it is time to look. */
  void read(long nowMs) {
    if (channel == null) {
      return;
    }
    SignalChannel.Batch batch = channel.poll(started ? -1 : earliestNextSignal(), nowMs);
    if (batch == null) {
      return;
    }
    if (!started) {
      started = true;
      // A table that acted on no signal yet acts on those sent from the channel's start on.
      for (TableStream stream : streams) {
        if (stream.position().signals().nextSignal() < 0) {
          stream
              .position()
              .signalled(stream.position().signals().withNextSignal(channel.endAtStart()));
        }
      }
    }
    for (ReadSignal read : batch.signals()) {
      if (read.signal() == null) {
        reject(read.offset(), read.id(), null, read.problem(), nowMs);
        continue;
      }
      route(read.signal(), nowMs);
    }
    // A stream with no signal waiting has acted on every signal for it before the batch's end.
    for (TableStream stream : streams) {
      Deque<Signal> queued = waiting.get(stream);
      var signals = stream.position().signals();
      if ((queued == null || queued.isEmpty()) && signals.nextSignal() < batch.readTo()) {
        stream.position().signalled(signals.withNextSignal(batch.readTo()));
      }
    }
  }

  private void route(Signal signal, long nowMs) {
    for (String table : signal.tables()) {
      boolean ours = false;
      for (TableStream stream : streams) {
        if (stream.table().equals(table)) {
          ours = true;
          if (signal.offset() >= stream.position().signals().nextSignal()) {
            waiting.computeIfAbsent(stream, s -> new ArrayDeque<>()).addLast(signal);
          }
        }
      }
      if (!ours && allTables != null && !allTables.contains(table)) {
        reject(
            signal.offset(),
            signal.id(),
            signal.type(),
            "the connector streams no table '"
                + table
                + "': name a table as delta.table.paths or unity.catalog.tables name it (or as"
                + " discovery found it)",
            nowMs);
      }
    }
  }

  private void reject(long offset, String id, String type, String problem, long nowMs) {
    if (allTables == null) {
      return; // the first task answers for signals no task acts on
    }
    log.warn(
        "Signal {} at offset {} of the signal topic is rejected: {}",
        id == null ? "without id" : id,
        offset,
        problem);
    Map<String, String> details = new LinkedHashMap<>();
    details.put("connector_name", notifier.connectorName() == null ? "" : notifier.connectorName());
    details.put("signal_id", id == null ? "" : id);
    details.put("signal_type", type == null ? "" : type);
    details.put("signal_offset", Long.toString(offset));
    details.put("reason", problem);
    Notification notification = Notification.of(TableNotices.SIGNAL, "REJECTED", details, nowMs);
    if (notifier.enabled()) {
      notifier.publish(notification);
      if (notifier.toTopic()) {
        taskNotices.add(notification);
      }
    }
  }

  /**
   * Acts on the waiting signals of {@code stream} that it can take now; returns whether it acted on
   * any.
   */
  boolean act(TableStream stream, long nowMs) {
    Deque<Signal> queued = waiting.get(stream);
    boolean acted = false;
    while (queued != null && !queued.isEmpty() && stream.steering().atSignalPoint()) {
      if (!stream.steering().act(queued.peekFirst(), nowMs)) {
        break; // the store is unreachable: the signal waits
      }
      queued.removeFirst();
      acted = true;
    }
    return acted;
  }

  /** Whether signals wait for {@code stream}. */
  boolean waitingFor(TableStream stream) {
    Deque<Signal> queued = waiting.get(stream);
    return queued != null && !queued.isEmpty();
  }

  /** The records of the notifications about no table of the task, taken once. */
  List<SourceRecord> taskNoticeRecords() {
    if (taskNotices.isEmpty()) {
      return List.of();
    }
    List<SourceRecord> records =
        taskNotices.stream().map(n -> notifier.record(n, null, null)).toList();
    taskNotices.clear();
    return records;
  }

  private long earliestNextSignal() {
    return streams.stream()
        .mapToLong(stream -> stream.position().signals().nextSignal())
        .filter(next -> next >= 0)
        .min()
        .orElse(-1);
  }

  @Override
  public void close() {
    if (channel != null) {
      channel.close();
    }
  }
}
