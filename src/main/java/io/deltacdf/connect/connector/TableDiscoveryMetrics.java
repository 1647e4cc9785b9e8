package io.deltacdf.connect.connector;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics of a connector's table roots, registered as the MBean {@code
 * io.deltacdf.connect:type=table-discovery,connector=<name>} on the worker that runs the connector,
 * while it runs with roots. Read from the connector's {@link ConnectorTables}.
 */
public final class TableDiscoveryMetrics implements TableDiscoveryMetricsMBean, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TableDiscoveryMetrics.class);

  private final ObjectName name;
  private final ConnectorTables tables;

  public TableDiscoveryMetrics(String connector, ConnectorTables tables) {
    this.name = objectName(connector);
    this.tables = tables;
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      if (server.isRegistered(name)) {
        // An earlier instance of this connector on this worker did not stop cleanly.
        server.unregisterMBean(name);
      }
      server.registerMBean(this, name);
    } catch (JMException e) {
      log.warn("Could not register metrics {}: {}", name, e.getMessage());
    }
  }

  public static ObjectName objectName(String connector) {
    try {
      return new ObjectName(
          "io.deltacdf.connect:type=table-discovery,connector=" + ObjectName.quote(connector));
    } catch (JMException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Override
  public boolean isRootsListed() {
    return tables.listed();
  }

  @Override
  public int getFailedScansInARow() {
    return tables.failedScansInARow();
  }

  @Override
  public String getLastScanError() {
    return tables.lastScanError();
  }

  @Override
  public int getTablesStreamed() {
    return tables.current().size();
  }

  @Override
  public int getTablesLeftOut() {
    return tables.collisions().size();
  }

  @Override
  public String[] getTopicCollisions() {
    return tables.collisionMessages().toArray(String[]::new);
  }

  @Override
  public String[] getFoldersWithoutCommits() {
    return tables.withoutCommits().toArray(String[]::new);
  }

  @Override
  public void close() {
    try {
      ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
    } catch (JMException e) {
      log.debug("Metrics {} were not registered: {}", name, e.getMessage());
    }
  }
}
