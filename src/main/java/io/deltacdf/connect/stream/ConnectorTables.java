package io.deltacdf.connect.stream;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.config.TableNames;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.TableDiscovery;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables a connector streams: those of delta.table.paths, then those discovered below
 * delta.tables.root that the include and exclude lists let through. A discovered table whose topic
 * another table already has is left out, naming both.
 */
public final class ConnectorTables {

  private static final Logger log = LoggerFactory.getLogger(ConnectorTables.class);

  /**
   * @param tables the tables to stream, named tables first, then discovered ones in path order
   * @param collisions for each discovered table left out, why: the table whose topic it would share
   * @param listCalls the LIST requests the discovery made
   */
  public record Scan(List<String> tables, List<String> collisions, long listCalls) {}

  private final DeltaCdfSourceConfig config;
  private final Redaction redaction;
  private volatile List<String> current;

  public ConnectorTables(DeltaCdfSourceConfig config) {
    this.config = config;
    this.redaction = new Redaction(config);
    this.current = config.namedTables();
  }

  /**
   * Lists the roots now.
   *
   * @throws DeltaFeedException when a root does not exist or cannot be listed
   */
  public Scan scan() {
    Set<String> tables = new LinkedHashSet<>(config.namedTables());
    long listCalls = 0;
    List<String> discovered = new ArrayList<>();
    for (String root : config.tableRoots()) {
      TableDiscovery.Found found =
          TableDiscovery.under(root, config.hadoopSettings(), config.discoveryMaxDepth());
      listCalls += found.listCalls();
      for (String table : found.tables()) {
        if (config.discovers(TableNames.relativePath(table, List.of(root)))) {
          discovered.add(table);
        }
      }
    }
    Map<String, String> tableByTopic = new HashMap<>();
    tables.forEach(table -> tableByTopic.put(config.topicFor(table), table));
    List<String> collisions = new ArrayList<>();
    for (String table : discovered) {
      if (tables.contains(table)) {
        continue;
      }
      String other = tableByTopic.putIfAbsent(config.topicFor(table), table);
      if (other != null) {
        collisions.add(
            "Tables "
                + other
                + " and "
                + table
                + " would both write to topic '"
                + config.topicFor(table)
                + "': "
                + table
                + " is not streamed; use a topic.template that tells them apart (${path}),"
                + " or exclude one with delta.tables.exclude.list");
      } else {
        tables.add(table);
      }
    }
    return new Scan(List.copyOf(tables), collisions, listCalls);
  }

  /** The tables as of the last successful scan (the named ones before any). */
  public List<String> current() {
    return current;
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
      log.warn(
          "Listing the table roots failed; the {} tables found before are kept and the roots"
              + " are listed again in {}: {}",
          current.size(),
          config.rescanInterval(),
          redaction.redact(e.getMessage()));
      return false;
    }
    scan.collisions().forEach(message -> log.error(redaction.redact(message)));
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
    } else {
      log.debug("Table roots rescanned ({} LIST requests): no change", scan.listCalls());
    }
    return changed;
  }
}
