package io.deltacdf.connect.it.testing;

import java.util.Locale;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/** One allow ACL of a user (any host) on a resource named literally or by prefix. */
public record Acl(
    String user, AclOperation operation, ResourceType resource, String name, PatternType pattern) {

  public static Acl literal(
      String user, AclOperation operation, ResourceType resource, String name) {
    return new Acl(user, operation, resource, name, PatternType.LITERAL);
  }

  public AclBinding binding() {
    return new AclBinding(
        new ResourcePattern(resource, name, pattern),
        new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
  }

  /** The same ACL as a {@code kafka-acls.sh} command, as docs/acls.md shows it. */
  public String command() {
    String target =
        switch (resource) {
          case TOPIC -> "--topic " + name;
          case GROUP -> "--group " + name;
          case TRANSACTIONAL_ID -> "--transactional-id " + name;
          case CLUSTER -> "--cluster";
          default -> throw new IllegalArgumentException("No kafka-acls.sh option for " + resource);
        };
    StringBuilder op = new StringBuilder(); // IDEMPOTENT_WRITE: IdempotentWrite
    for (String word : operation.name().split("_")) {
      op.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
    }
    return "kafka-acls.sh --bootstrap-server $BROKER --command-config admin.properties --add"
        + " --allow-principal User:"
        + user
        + " --operation "
        + op
        + " "
        + target
        + (pattern == PatternType.PREFIXED ? " --resource-pattern-type prefixed" : "");
  }
}
