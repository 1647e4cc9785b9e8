package io.deltacdf.connect.connector;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.config.TableNames;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.TableDiscovery;
import io.deltacdf.connect.delta.TableLogs;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.task.Redaction;
import io.deltacdf.connect.task.SnapshotSlices;
import io.deltacdf.connect.task.TableShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables a connector streams: those of delta.table.paths, then those discovered below
 * delta.tables.root that the include and exclude lists let through. A folder whose {@code
 * _delta_log} holds no commit yet is not a table until one lands there.
 *
 * <p>A topic belongs to the table that has it. When discovered tables would share a topic, one
 * keeps it and the others are left out, by this rule, applied at every scan: a table named in
 * delta.table.paths; else a table with a stored offset (it streamed to the topic before, in this
 * connector's life or an earlier one); else the table this instance saw first; else the first in
 * path order.
 */
public final class ConnectorTables {

  private static final Logger log = LoggerFactory.getLogger(ConnectorTables.class);

  /**
   * @param tables the tables to stream, named tables first, then discovered ones in path order
   * @param collisions the discovered tables left out because another table has their topic
   * @param withoutCommits folders holding a {@code _delta_log} without any commit: not tables yet
   * @param listCalls the LIST requests the discovery made
   */
  public record Scan(
      List<String> tables,
      List<TopicCollision> collisions,
      List<String> withoutCommits,
      long listCalls) {}

  /** A discovered table left out because {@code owner} has its topic. */
  public record TopicCollision(String topic, String owner, String leftOut) {

    /** What the log and the metrics say while the connector runs. */
    public String message() {
      return conflict()
          + leftOut
          + " is left out and "
          + owner
          + " keeps the topic (it has stored offsets or was found first). To stream both, use a"
          + " topic.template that tells them apart (${path}); to silence this, exclude one with"
          + " delta.tables.exclude.list";
    }

    /** What validate() says on topic.template. */
    public String refusal() {
      return conflict()
          + "use a topic.template that tells them apart (${path}), or exclude one with"
          + " delta.tables.exclude.list (a running connector keeps the topic with the table that"
          + " streams to it and leaves the other out)";
    }

    private String conflict() {
      return "Tables " + owner + " and " + leftOut + " would both write to topic '" + topic + "': ";
    }
  }

  private final DeltaCdfSourceConfig config;
  private final Redaction redaction;
  private final Predicate<String> hasStoredOffset;
  private final Map<String, Long> firstSeen = new HashMap<>();
  private final Set<String> reportedWithoutCommits = new HashSet<>();
  private volatile List<String> current;
  private volatile List<TopicCollision> collisions = List.of();
  private volatile List<String> withoutCommits = List.of();
  private volatile boolean listed;
  private volatile int failedScansInARow;
  private volatile String lastScanError = "";

  /** The tables of a connector without stored offsets (validation). */
  public ConnectorTables(DeltaCdfSourceConfig config) {
    this(config, table -> false);
  }

  /**
   * @param hasStoredOffset whether a table has a stored offset (see {@link #storedOffsets})
   */
  public ConnectorTables(DeltaCdfSourceConfig config, Predicate<String> hasStoredOffset) {
    this.config = config;
    this.redaction = new Redaction(config);
    this.hasStoredOffset = hasStoredOffset;
    this.current = config.namedTables();
  }

  /**
   * Whether a table has an offset in {@code offsets}: of its own, of a shard, or of a snapshot
   * slice.
   */
  public static Predicate<String> storedOffsets(OffsetStorageReader offsets) {
    return table -> {
      List<Map<String, String>> partitions =
          TableShards.partitions(table).stream().map(TablePartition::toMap).toList();
      if (offsets.offsets(partitions).values().stream().anyMatch(Objects::nonNull)) {
        return true;
      }
      try {
        return SnapshotSlices.pinned(offsets, table) != null;
      } catch (ConnectException inconsistent) {
        return true; // slices stored offsets, only malformed ones; the table's task says so
      }
    };
  }

  /**
   * Lists the roots now.
   *
   * @throws DeltaFeedException when a root does not exist or cannot be listed
   */
  public synchronized Scan scan() {
    List<String> named = config.namedTables();
    long listCalls = 0;
    Set<String> discovered = new LinkedHashSet<>();
    Set<String> streaming = new HashSet<>(current);
    List<String> withoutCommits = new ArrayList<>();
    for (String root : config.tableRoots()) {
      TableDiscovery.Found found =
          TableDiscovery.under(root, config.stores().hadoopSettings(), config.discoveryMaxDepth());
      listCalls += found.listCalls();
      List<String> candidates =
          found.tables().stream()
              .filter(table -> !named.contains(table))
              .filter(table -> config.discovers(TableNames.relativePath(table, List.of(root))))
              .toList();
      // A table already streamed was a table when it was first listed; only newcomers are checked.
      List<String> newcomers = candidates.stream().filter(t -> !streaming.contains(t)).toList();
      Set<String> notTables =
          TableLogs.withoutCommits(root, newcomers, config.stores().hadoopSettings());
      listCalls += newcomers.size();
      withoutCommits.addAll(notTables);
      candidates.stream().filter(t -> !notTables.contains(t)).forEach(discovered::add);
    }
    discovered.forEach(table -> firstSeen.putIfAbsent(table, (long) firstSeen.size()));
    List<TopicCollision> left = new ArrayList<>();
    Set<String> owners = owners(named, discovered, left);
    List<String> tables = new ArrayList<>(named);
    discovered.stream().filter(owners::contains).forEach(tables::add);
    return new Scan(List.copyOf(tables), List.copyOf(left), List.copyOf(withoutCommits), listCalls);
  }

  /**
   * The discovered tables that keep their topic; a collision for each one left out. Stored offsets
   * are only read for tables that share a topic.
   */
  private Set<String> owners(
      List<String> named, Set<String> discovered, List<TopicCollision> collisions) {
    Map<String, String> namedByTopic = new HashMap<>();
    named.forEach(table -> namedByTopic.put(config.topicFor(table), table));
    Map<String, List<String>> byTopic = new LinkedHashMap<>();
    discovered.forEach(
        t -> byTopic.computeIfAbsent(config.topicFor(t), k -> new ArrayList<>()).add(t));
    Set<String> owners = new HashSet<>();
    byTopic.forEach(
        (topic, contenders) -> {
          String owner = namedByTopic.get(topic);
          if (owner == null && contenders.size() == 1) {
            owners.add(contenders.get(0));
            return;
          }
          if (owner == null) {
            Map<String, Boolean> stored = new HashMap<>();
            contenders.forEach(t -> stored.put(t, hasStoredOffset.test(t)));
            owner =
                contenders.stream()
                    .min(
                        Comparator.comparing((String t) -> !stored.get(t))
                            .thenComparing(firstSeen::get)
                            .thenComparing(Comparator.naturalOrder()))
                    .orElseThrow();
            owners.add(owner);
          }
          for (String table : contenders) {
            if (!table.equals(owner)) {
              collisions.add(new TopicCollision(topic, owner, table));
            }
          }
        });
    return owners;
  }

  /** The tables as of the last successful scan (the named ones before any). */
  public List<String> current() {
    return current;
  }

  /** The discovered tables left out at the last successful scan, each naming its topic's owner. */
  public List<TopicCollision> collisions() {
    return collisions;
  }

  /** What the log says of each collision of the last successful scan. */
  public List<String> collisionMessages() {
    return collisions.stream().map(c -> redaction.redact(c.message())).toList();
  }

  /** The folders of the last successful scan whose _delta_log holds no commit yet. */
  public List<String> withoutCommits() {
    return withoutCommits;
  }

  /** Whether the roots have been listed successfully at least once. */
  public boolean listed() {
    return listed;
  }

  /** How many scans failed since the last one that succeeded. */
  public int failedScansInARow() {
    return failedScansInARow;
  }

  /** Why the last scan failed, empty when it succeeded. */
  public String lastScanError() {
    return lastScanError;
  }

  /** The tables the latest rescan that changed anything found and dropped. */
  public record Change(List<String> found, List<String> dropped) {}

  private volatile Change lastChange = new Change(List.of(), List.of());

  /** What the latest rescan that changed the tables found and dropped. */
  public Change lastChange() {
    return lastChange;
  }

  /** When to scan next: the rescan interval, sooner after failures (see {@link RescanBackoff}). */
  public Duration nextScanDelay() {
    return RescanBackoff.delay(failedScansInARow, config.rescanInterval());
  }

  /**
   * Scans again and keeps the result; a scan that fails keeps the tables as they were (a store
   * outage must not stop their streams).
   *
   * @return whether the tables changed
   */
  public boolean refresh() {
    if (config.tableRoots().isEmpty()) {
      return false;
    }
    Scan scan;
    try {
      scan = scan();
    } catch (DeltaFeedException e) {
      failedScansInARow++;
      lastScanError = redaction.redact(e.getMessage());
      if (listed) {
        log.warn(
            "Listing the table roots failed; the {} tables found before are kept and the roots"
                + " are listed again in {}: {}",
            current.size(),
            nextScanDelay(),
            lastScanError);
      } else {
        log.warn(
            "Listing the table roots failed, and they have never been listed: no table below"
                + " them is streamed until a listing succeeds; listed again in {}: {}",
            nextScanDelay(),
            lastScanError);
      }
      return false;
    }
    failedScansInARow = 0;
    lastScanError = "";
    listed = true;
    collisions = scan.collisions();
    collisionMessages().forEach(log::warn);
    reportWithoutCommits(scan.withoutCommits());
    withoutCommits = scan.withoutCommits();
    boolean changed = !scan.tables().equals(current);
    if (changed) {
      List<String> added = new ArrayList<>(scan.tables());
      added.removeAll(current);
      List<String> removed = new ArrayList<>(current);
      removed.removeAll(scan.tables());
      log.info(
          "Table roots rescanned ({} LIST requests): {} tables, new {}, gone or excluded {}"
              + " (their offsets stay)",
          scan.listCalls(),
          scan.tables().size(),
          added,
          removed);
      current = scan.tables();
      lastChange = new Change(List.copyOf(added), List.copyOf(removed));
    } else {
      log.debug("Table roots rescanned ({} LIST requests): no change", scan.listCalls());
    }
    return changed;
  }

  /** Warns once about each folder that is not a table yet, and again if it becomes one later. */
  private void reportWithoutCommits(List<String> folders) {
    reportedWithoutCommits.retainAll(folders);
    for (String folder : folders) {
      if (reportedWithoutCommits.add(folder)) {
        log.warn(
            "Folder {} holds a _delta_log without any commit (an aborted or unfinished first"
                + " write): it is not a table yet, and streams from the first rescan after a"
                + " commit lands there",
            folder);
      }
    }
  }
}
