package io.deltacdf.connect.it.testing;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.Map;
import javax.management.MBeanServerConnection;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;
import org.apache.kafka.connect.runtime.distributed.DistributedHerder;

/** A worker in the test JVM: cheap to start, but it can only stop gracefully. */
public final class InProcessWorker implements ConnectWorker {

  private final Connect<DistributedHerder> connect;

  private InProcessWorker(Connect<DistributedHerder> connect) {
    this.connect = connect;
  }

  public static InProcessWorker start(Map<String, String> props) {
    // startConnect calls exit(3) when the herder fails to start: that would end the test JVM
    // (surefire: "the forked VM terminated") instead of failing the test.
    Exit.setExitProcedure(
        (code, message) -> {
          throw new IllegalStateException("Connect worker failed to start (exit " + code + ")");
        });
    // Connect registers a JVM shutdown hook per start, which would keep every stopped worker
    // reachable until the JVM exits; the cluster stops its workers itself.
    Exit.setShutdownHookAdder((name, runnable) -> {});
    try {
      return new InProcessWorker(new ConnectDistributed().startConnect(props));
    } finally {
      Exit.resetExitProcedure();
      Exit.resetShutdownHookAdder();
    }
  }

  @Override
  public URI url() {
    return connect.rest().advertisedUrl();
  }

  @Override
  public String deathReport() {
    return null;
  }

  @Override
  public MBeanServerConnection mbeans() {
    return ManagementFactory.getPlatformMBeanServer();
  }

  @Override
  public void stop() {
    connect.stop();
    connect.awaitStop();
  }

  @Override
  public void kill() {
    // Worker threads cannot be killed in-process, and every stop path ends with the tasks'
    // final offset commit: only a separate JVM can crash for real.
    throw new UnsupportedOperationException(
        "An in-process worker cannot crash: run it in a child JVM (KafkaCluster.WorkerKind)");
  }
}
