package io.deltacdf.connect.it.testing;

import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;
import static org.apache.kafka.common.resource.ResourceType.GROUP;
import static org.apache.kafka.common.resource.ResourceType.TOPIC;
import static org.apache.kafka.common.resource.ResourceType.TRANSACTIONAL_ID;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The ACLs a Connect cluster running this connector needs, per principal: exactly what docs/acls.md
 * lists and what {@link AclIT} grants, so that the documented list is the proven one. A worker of
 * group {@code G} keeps its state in the topics {@code G-configs}, {@code G-offsets} and {@code
 * G-status} (as {@link KafkaBroker#singleNodeWorkerProperties} names them).
 *
 * <p>Read and Write imply Describe, so Describe is listed only where neither is granted.
 */
public final class ConnectAcls {

  private ConnectAcls() {}

  public static String configTopic(String group) {
    return group + "-configs";
  }

  public static String offsetTopic(String group) {
    return group + "-offsets";
  }

  public static String statusTopic(String group) {
    return group + "-status";
  }

  /**
   * The worker's own principal: membership of its group, and its three internal topics, which it
   * creates on its first start. With exactly-once, the leader writes the config topic in
   * transactions of its own id.
   */
  public static List<Acl> worker(String user, String group, boolean exactlyOnce) {
    List<Acl> acls = new ArrayList<>();
    acls.add(Acl.literal(user, READ, GROUP, group));
    for (String topic : List.of(configTopic(group), offsetTopic(group), statusTopic(group))) {
      for (var operation : List.of(READ, WRITE, CREATE)) {
        acls.add(Acl.literal(user, operation, TOPIC, topic));
      }
    }
    if (exactlyOnce) {
      acls.add(Acl.literal(user, WRITE, TRANSACTIONAL_ID, "connect-cluster-" + group));
    }
    return acls;
  }

  /** The producer principal of a connector's tasks: each topic they write to. */
  public static List<Acl> connectorProducer(String user, Collection<String> topics) {
    List<Acl> acls = new ArrayList<>();
    for (String topic : topics) {
      acls.add(Acl.literal(user, WRITE, TOPIC, topic));
    }
    return acls;
  }

  /**
   * With {@code topic.creation.*} in the connector config, Connect creates the topics a task writes
   * to before the first record; its admin client authenticates as the worker (unless {@code
   * admin.override.*} says otherwise), so the worker's principal needs this. It looks the topics up
   * first, and Create does not imply Describe.
   */
  public static List<Acl> topicCreation(String user, Collection<String> topics) {
    List<Acl> acls = new ArrayList<>();
    for (String topic : topics) {
      acls.add(Acl.literal(user, CREATE, TOPIC, topic));
      acls.add(Acl.literal(user, DESCRIBE, TOPIC, topic));
    }
    return acls;
  }

  /**
   * What an exactly-once connector's producer principal needs on top of {@link #connectorProducer}:
   * the transactional id of each task ({@code <group>-<connector>-<task>}) and the offsets topic,
   * which its tasks write in the same transactions as the records.
   */
  public static List<Acl> exactlyOnceConnectorProducer(
      String user, String group, String connector, int tasks) {
    List<Acl> acls = new ArrayList<>();
    for (int task = 0; task < tasks; task++) {
      acls.add(Acl.literal(user, WRITE, TRANSACTIONAL_ID, group + "-" + connector + "-" + task));
    }
    acls.add(Acl.literal(user, WRITE, TOPIC, offsetTopic(group)));
    return acls;
  }
}
