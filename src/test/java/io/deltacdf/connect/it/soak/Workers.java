package io.deltacdf.connect.it.soak;

import io.deltacdf.connect.it.soak.MemorySampler.Target;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.KafkaCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The soak's two Connect workers, A (the cluster's main worker) and B (an additional one), each a
 * JVM of its own in one Connect group. Either can be killed with SIGKILL and started again (a new
 * JVM, a new member of the group).
 */
final class Workers {

  private final KafkaCluster cluster;
  private volatile boolean aRunning = true;
  private volatile KafkaCluster.AdditionalWorker b;

  Workers(KafkaCluster cluster) {
    this.cluster = cluster;
    b = cluster.startAdditionalWorker();
  }

  /** The JVMs running now, to sample. */
  List<Target> running() {
    List<Target> targets = new ArrayList<>();
    try {
      if (aRunning) {
        targets.add(new Target("A", cluster.workerPid()));
      }
      KafkaCluster.AdditionalWorker second = b;
      if (second != null) {
        targets.add(new Target("B", second.pid()));
      }
    } catch (IllegalStateException e) {
      // A was killed between the check and the call.
    }
    return targets;
  }

  /** A client for a running worker (Connect forwards what only the leader may do). */
  ConnectRest rest() {
    KafkaCluster.AdditionalWorker second = b;
    if (aRunning) {
      return cluster.rest();
    }
    if (second == null) {
      throw new IllegalStateException("No worker is running");
    }
    return second.rest();
  }

  /**
   * Kills worker A ({@code first}) or B with SIGKILL, leaves it dead for {@code down}, and starts a
   * new JVM in its place; returns which one it was.
   */
  String killAndRestart(boolean first, Duration down) throws InterruptedException {
    if (first) {
      aRunning = false;
      cluster.killWorker();
      Thread.sleep(down.toMillis());
      cluster.startWorker();
      aRunning = true;
      return "A";
    }
    KafkaCluster.AdditionalWorker killed = b;
    b = null;
    killed.kill();
    Thread.sleep(down.toMillis());
    b = cluster.startAdditionalWorker();
    return "B";
  }
}
