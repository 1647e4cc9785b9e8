package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;

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
}
