package io.deltacdf.connect.it.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link KafkaCluster} for all tests of a class: started before the class's first test (and
 * before its {@code @BeforeAll} methods), closed after its last (and after its {@code @AfterAll}
 * methods). Declare it as a static field annotated with {@code @RegisterExtension}.
 */
public final class SharedCluster implements BeforeAllCallback, AfterAllCallback {

  private final KafkaCluster.Builder builder;
  private KafkaCluster cluster;

  public SharedCluster(KafkaCluster.Builder builder) {
    this.builder = builder;
  }

  /** The running cluster. */
  public KafkaCluster get() {
    if (cluster == null) {
      throw new IllegalStateException("The cluster runs only while the test class runs");
    }
    return cluster;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    cluster = builder.start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
  }
}
