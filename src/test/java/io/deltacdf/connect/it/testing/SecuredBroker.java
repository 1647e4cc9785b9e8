package io.deltacdf.connect.it.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * A one-node broker that authenticates clients with SASL/PLAIN on the loopback and authorizes them
 * with {@code StandardAuthorizer}: a principal may do only what an ACL allows, except the super
 * user {@link #ADMIN} (the test's own admin and the inter-broker principal). Topics are not created
 * on first use. Test only: the controller listener is plain text and its anonymous principal a
 * super user, so that the node need not authenticate to itself.
 */
public final class SecuredBroker implements AutoCloseable {

  public static final String ADMIN = "admin";

  private final KafkaBroker broker;
  private final Admin admin;

  private SecuredBroker(KafkaBroker broker) {
    this.broker = broker;
    Map<String, Object> settings = new HashMap<>(clientSettings(ADMIN));
    settings.put("bootstrap.servers", broker.bootstrapServers());
    this.admin = Admin.create(settings);
  }

  /** Starts the node with {@link #ADMIN} and {@code users}, each with its own password. */
  public static SecuredBroker start(Path dir, Collection<String> users) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Set<String> all = new LinkedHashSet<>(List.of(ADMIN));
    all.addAll(users);
    StringBuilder jaas = new StringBuilder(jaasConfig(ADMIN).replace(";", ""));
    for (String user : all) {
      jaas.append(" user_").append(user).append("=\"").append(password(user)).append('"');
    }
    String listenerJaas = jaas.append(';').toString();
    return new SecuredBroker(
        KafkaBroker.start(
            dir,
            ports ->
                Map.ofEntries(
                    Map.entry(
                        "listeners",
                        "SASL_PLAINTEXT://localhost:"
                            + ports.broker()
                            + ",CONTROLLER://localhost:"
                            + ports.controller()),
                    Map.entry(
                        "advertised.listeners", "SASL_PLAINTEXT://localhost:" + ports.broker()),
                    Map.entry(
                        "listener.security.protocol.map",
                        "SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT"),
                    Map.entry("inter.broker.listener.name", "SASL_PLAINTEXT"),
                    Map.entry("sasl.enabled.mechanisms", "PLAIN"),
                    Map.entry("sasl.mechanism.inter.broker.protocol", "PLAIN"),
                    Map.entry("listener.name.sasl_plaintext.plain.sasl.jaas.config", listenerJaas),
                    Map.entry(
                        "authorizer.class.name",
                        "org.apache.kafka.metadata.authorizer.StandardAuthorizer"),
                    Map.entry("super.users", "User:" + ADMIN + ";User:ANONYMOUS"),
                    // As on a production cluster: a missing topic is an error, not a new topic.
                    Map.entry("auto.create.topics.enable", "false"))));
  }

  public String bootstrapServers() {
    return broker.bootstrapServers();
  }

  /** What a client of {@code user} adds to its settings: protocol, mechanism, credentials. */
  public static Map<String, String> clientSettings(String user) {
    return Map.of(
        "security.protocol", "SASL_PLAINTEXT",
        "sasl.mechanism", "PLAIN",
        "sasl.jaas.config", jaasConfig(user));
  }

  /** The {@code sasl.jaas.config} of {@code user}. */
  public static String jaasConfig(String user) {
    return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
        + user
        + "\" password=\""
        + password(user)
        + "\";";
  }

  /** Creates one-partition topics as a user would before deploying a connector. */
  public void createTopics(String... names) {
    List<NewTopic> topics =
        Arrays.stream(names).map(name -> new NewTopic(name, 1, (short) 1)).toList();
    await(() -> admin.createTopics(topics).all().get());
  }

  public void grant(Collection<Acl> acls) {
    await(() -> admin.createAcls(acls.stream().map(Acl::binding).toList()).all().get());
  }

  @Override
  public void close() {
    try {
      admin.close();
    } finally {
      broker.close();
    }
  }

  private static String password(String user) {
    return user + "-secret";
  }

  private interface Call {
    void run() throws InterruptedException, ExecutionException;
  }

  private static void await(Call call) {
    try {
      call.run();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
