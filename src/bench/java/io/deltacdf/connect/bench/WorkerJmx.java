package io.deltacdf.connect.bench;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A worker JVM's MBeans, reached through the Attach API (the JVM's local management agent, started
 * on demand), so that workers started with the same options need no JMX port each: the CPU time of
 * each of its threads, and our connector's table metrics ({@code TableMetrics}).
 */
final class WorkerJmx implements AutoCloseable {

  /** The thread Connect runs a task in is named so while the task runs (WorkerTask). */
  private static final String TASK_THREAD = "task-thread-";

  /** A metric of one table or shard: what it sent and how many bytes of files it read. */
  record TableFigures(long rowsSent, long bytesRead) {}

  private final JMXConnector connector;
  private final MBeanServerConnection mbeans;
  private final com.sun.management.ThreadMXBean threads;

  WorkerJmx(long pid) {
    try {
      VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
      String url;
      try {
        url = vm.startLocalManagementAgent();
      } finally {
        vm.detach();
      }
      connector = JMXConnectorFactory.connect(new JMXServiceURL(url));
      mbeans = connector.getMBeanServerConnection();
      threads =
          ManagementFactory.newPlatformMXBeanProxy(
              mbeans, ManagementFactory.THREAD_MXBEAN_NAME, com.sun.management.ThreadMXBean.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (com.sun.tools.attach.AttachNotSupportedException e) {
      throw new IllegalStateException("Cannot attach to worker JVM " + pid, e);
    }
  }

  /** CPU nanoseconds each live thread has used so far, by thread id. */
  Map<Long, Long> threadCpuNanos() {
    long[] ids = threads.getAllThreadIds();
    long[] cpu = threads.getThreadCpuTime(ids);
    Map<Long, Long> byId = new HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      byId.put(ids[i], cpu[i]);
    }
    return byId;
  }

  /**
   * CPU milliseconds each task thread of {@code connectorName} used since {@code before} (a {@link
   * #threadCpuNanos} taken earlier; Connect reuses pooled threads), by task number.
   */
  Map<Integer, Long> taskCpuMillisSince(String connectorName, Map<Long, Long> before) {
    Map<Long, Long> now = threadCpuNanos();
    long[] ids = now.keySet().stream().mapToLong(Long::longValue).toArray();
    String prefix = TASK_THREAD + connectorName + "-";
    Map<Integer, Long> byTask = new TreeMap<>();
    for (ThreadInfo info : threads.getThreadInfo(ids)) {
      if (info != null && info.getThreadName().startsWith(prefix)) {
        int task = Integer.parseInt(info.getThreadName().substring(prefix.length()));
        long nanos = now.get(info.getThreadId()) - before.getOrDefault(info.getThreadId(), 0L);
        byTask.put(task, nanos / 1_000_000);
      }
    }
    return byTask;
  }

  /** The table metrics of {@code connectorName}'s tables and shards in this worker, by name. */
  Map<String, TableFigures> tables(String connectorName) {
    try {
      // TableMetrics' names, any table.
      ObjectName pattern =
          new ObjectName(
              "io.deltacdf.connect:type=table-metrics,connector="
                  + ObjectName.quote(connectorName)
                  + ",*");
      Map<String, TableFigures> figures = new TreeMap<>();
      for (ObjectName name : mbeans.queryNames(pattern, null)) {
        long sent = 0;
        for (String type :
            new String[] {
              "RowsInserted", "RowsUpdatePreimage", "RowsUpdatePostimage", "RowsDeleted"
            }) {
          sent += (Long) mbeans.getAttribute(name, type);
        }
        figures.put(
            ObjectName.unquote(name.getKeyProperty("table")),
            new TableFigures(sent, (Long) mbeans.getAttribute(name, "BytesRead")));
      }
      return figures;
    } catch (JMException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      connector.close();
    } catch (IOException e) {
      // The worker is going away with the run.
    }
  }
}
