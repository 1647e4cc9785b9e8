package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.FeedProgress;
import io.deltacdf.connect.change.VersionSourceCounts;
import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/** A table's metrics stay visible while a task reads the table. */
class TableMetricsTest {

  private final MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();

  @Test
  void aZombieTaskStoppingLateLeavesItsSuccessorsMetricsRegistered() throws Exception {
    ObjectName name = TableMetrics.objectName("replaced", "/lake/orders");
    TableMetrics zombie =
        new TableMetrics("replaced", "/lake/orders", new TablePosition(null, null));
    TableMetrics successor =
        new TableMetrics("replaced", "/lake/orders", new TablePosition(null, null));
    successor.recordResnapshot();

    zombie.close();

    assertThat(jmx.isRegistered(name)).isTrue();
    assertThat(jmx.getAttribute(name, "Resnapshots")).isEqualTo(1L);
    successor.close();
    assertThat(jmx.isRegistered(name)).isFalse();
  }

  @Test
  void versionsBySourceStayCountedWhenAFailureReopensTheFeed() throws Exception {
    ObjectName name = TableMetrics.objectName("sources", "/lake/orders");
    try (TableMetrics metrics =
        new TableMetrics("sources", "/lake/orders", new TablePosition(null, null))) {
      metrics.recordProgress(progress(new VersionSourceCounts(2, 3, 1)));
      metrics.recordFeedClosed();
      // The reopened feed counts from none; its first progress may come before any version.
      assertThat(jmx.getAttribute(name, "VersionsFromRowTracking")).isEqualTo(3L);
      metrics.recordProgress(progress(new VersionSourceCounts(0, 4, 2)));

      assertThat(jmx.getAttribute(name, "VersionsFromCdf")).isEqualTo(2L);
      assertThat(jmx.getAttribute(name, "VersionsFromRowTracking")).isEqualTo(7L);
      assertThat(jmx.getAttribute(name, "VersionsDerived")).isEqualTo(3L);
      assertThat(jmx.getAttribute(name, "BytesRead")).isEqualTo(10L);
    }
  }

  private static FeedProgress progress(VersionSourceCounts versions) {
    return new FeedProgress(9, 0, 0, 10, versions);
  }
}
