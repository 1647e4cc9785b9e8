package io.deltacdf.connect.it.testing;

import java.net.URI;
import javax.management.MBeanServerConnection;

/** A running distributed Connect worker, in this JVM or in a child one. */
public interface ConnectWorker {

  /** The REST base URL, e.g. {@code http://localhost:41234/}. */
  URI url();

  /** Null while the worker may still come up; otherwise why it never will (exit code, log). */
  String deathReport();

  /** The worker JVM's MBeans (the connector's metrics), wherever that JVM runs. */
  MBeanServerConnection mbeans();

  /** Graceful stop: tasks are stopped and their offsets committed. */
  void stop();

  /** Abrupt stop: no task stop, no final offset commit, open transactions left behind. */
  void kill();
}
