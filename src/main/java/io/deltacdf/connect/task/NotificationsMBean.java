package io.deltacdf.connect.task;

import java.util.List;

/**
 * A task's notifications over JMX (notification.enabled.channels=jmx), as Debezium's JMX channel
 * has them: the latest ones as JSON text, and each one also sent as a JMX notification.
 */
public interface NotificationsMBean {

  /** The latest notifications, oldest first, each a JSON object. */
  List<String> getNotifications();

  /** How many notifications the task has made since it started. */
  long getNotificationCount();

  /** Forgets the notifications kept so far. */
  void reset();
}
