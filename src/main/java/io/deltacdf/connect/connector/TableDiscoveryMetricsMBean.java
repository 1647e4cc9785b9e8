package io.deltacdf.connect.connector;

/** The connector's view of its table roots, published over JMX. */
public interface TableDiscoveryMetricsMBean {

  /** Whether the roots have been listed successfully; until then none of their tables streams. */
  boolean isRootsListed();

  /** Listings of the roots that failed since the last one that succeeded. */
  int getFailedScansInARow();

  /** Why the last listing failed; empty when it succeeded. */
  String getLastScanError();

  /** The tables the connector streams (named and discovered). */
  int getTablesStreamed();

  /** Discovered tables left out because another table has their topic. */
  int getTablesLeftOut();

  /** One line per table left out, naming it, the table that keeps the topic, and the topic. */
  String[] getTopicCollisions();

  /** Folders holding a _delta_log without any commit: tables once a commit lands there. */
  String[] getFoldersWithoutCommits();
}
