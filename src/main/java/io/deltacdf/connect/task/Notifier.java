package io.deltacdf.connect.task;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.config.OperationsSettings.NotificationChannel;
import io.deltacdf.connect.convert.Notification;
import io.deltacdf.connect.convert.NotificationRecords;
import io.deltacdf.connect.convert.OutputFormat;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMException;
import javax.management.NotificationBroadcasterSupport;
import javax.management.ObjectName;
import javax.management.StandardEmitterMBean;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a task's notifications go (notification.enabled.channels): the log and the task's JMX bean
 * get each one as it is made; the notification topic gets it as a record, which the task hands to
 * Connect at the next point where the table's offset may be stored (see {@link TableNotices}).
 */
public final class Notifier extends NotificationBroadcasterSupport
    implements NotificationsMBean, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Notifier.class);

  /** How many notifications the JMX bean keeps. */
  static final int KEPT = 200;

  /** A notifier of no channel. */
  static final Notifier NONE = new Notifier(Set.of(), null, null, null);

  private final Set<NotificationChannel> channels;
  private final NotificationRecords records;
  private final String connectorName;
  private final ObjectName name;
  private final Deque<String> kept = new ArrayDeque<>();
  private final AtomicLong count = new AtomicLong();

  private Notifier(
      Set<NotificationChannel> channels,
      NotificationRecords records,
      String connectorName,
      ObjectName name) {
    this.channels = channels;
    this.records = records;
    this.connectorName = connectorName;
    this.name = name;
  }

  /** The notifier of a task's settings; {@code taskIndex} names its JMX bean. */
  static Notifier of(
      DeltaCdfSourceConfig config, String connectorName, OutputFormat format, int taskIndex) {
    Set<NotificationChannel> channels = config.notificationChannels();
    if (channels.isEmpty()) {
      return NONE;
    }
    NotificationRecords records =
        channels.contains(NotificationChannel.SINK)
            ? new NotificationRecords(config.notificationTopic(), format)
            : null;
    ObjectName name =
        channels.contains(NotificationChannel.JMX) ? objectName(connectorName, taskIndex) : null;
    Notifier notifier = new Notifier(channels, records, connectorName, name);
    notifier.register();
    return notifier;
  }

  /**
   * The connector's own notifier: what its table discovery finds and drops, to the log and JMX
   * channels (the bean {@code io.deltacdf.connect:type=notifications,connector=<name>}); the sink
   * channel is the tasks', as Connect gives a connector no producer.
   */
  public static Notifier forConnector(DeltaCdfSourceConfig config, String connectorName) {
    Set<NotificationChannel> channels =
        new java.util.LinkedHashSet<>(config.notificationChannels());
    channels.remove(NotificationChannel.SINK);
    if (channels.isEmpty()) {
      return NONE;
    }
    ObjectName name = null;
    if (channels.contains(NotificationChannel.JMX)) {
      try {
        name =
            new ObjectName(
                "io.deltacdf.connect:type=notifications,connector="
                    + ObjectName.quote(connectorName));
      } catch (JMException e) {
        throw new IllegalArgumentException(e);
      }
    }
    Notifier notifier = new Notifier(channels, null, connectorName, name);
    notifier.register();
    return notifier;
  }

  static ObjectName objectName(String connector, int taskIndex) {
    try {
      return new ObjectName(
          "io.deltacdf.connect:type=notifications,connector="
              + ObjectName.quote(connector)
              + ",task="
              + taskIndex);
    } catch (JMException e) {
      throw new IllegalArgumentException(e);
    }
  }

  String connectorName() {
    return connectorName;
  }

  /** Whether notifications go to the notification topic, as records. */
  boolean toTopic() {
    return records != null;
  }

  /** Whether any channel takes notifications. */
  boolean enabled() {
    return !channels.isEmpty();
  }

  /** Sends {@code notification} to the log and JMX at once. */
  public void publish(Notification notification) {
    count.incrementAndGet();
    String json = NotificationRecords.json(notification);
    if (channels.contains(NotificationChannel.LOG)) {
      log.info("Notification: {}", json);
    }
    if (name != null) {
      synchronized (kept) {
        kept.addLast(json);
        if (kept.size() > KEPT) {
          kept.removeFirst();
        }
      }
      javax.management.Notification jmx =
          new javax.management.Notification(
              notification.aggregateType() + "." + notification.type(),
              name,
              count.get(),
              notification.timestamp(),
              json);
      sendNotification(jmx);
    }
  }

  /** The record of {@code notification} for the notification topic. */
  SourceRecord record(
      Notification notification, Map<String, ?> sourcePartition, Map<String, ?> offset) {
    return records.record(notification, sourcePartition, offset);
  }

  @Override
  public List<String> getNotifications() {
    synchronized (kept) {
      return List.copyOf(kept);
    }
  }

  @Override
  public long getNotificationCount() {
    return count.get();
  }

  @Override
  public void reset() {
    synchronized (kept) {
      kept.clear();
    }
  }

  private void register() {
    if (name == null) {
      return;
    }
    try {
      var server = ManagementFactory.getPlatformMBeanServer();
      if (server.isRegistered(name)) {
        server.unregisterMBean(name); // a task that did not stop in time left it
      }
      // The bean's interface is not named after this class: StandardEmitterMBean says which it is.
      server.registerMBean(new StandardEmitterMBean(this, NotificationsMBean.class, this), name);
    } catch (JMException e) {
      log.warn("The notifications bean {} could not be registered: {}", name, e.getMessage());
    }
  }

  @Override
  public void close() {
    if (name == null) {
      return;
    }
    try {
      ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
    } catch (JMException e) {
      log.debug("Notifications bean {} was not registered: {}", name, e.getMessage());
    }
  }
}
