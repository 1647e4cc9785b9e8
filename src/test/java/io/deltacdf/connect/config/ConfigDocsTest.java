package io.deltacdf.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/** The configuration reference is complete and matches the code. */
class ConfigDocsTest {

  private static final Path DOCS = Path.of("docs/configuration.md");

  @Test
  void everyKeyHasDocumentationGroupAndDisplayName() {
    for (ConfigDef.ConfigKey key : DeltaCdfSourceConfig.configDef().configKeys().values()) {
      if (key.internalConfig) {
        continue;
      }
      assertThat(key.documentation).as(key.name).isNotBlank();
      assertThat(key.group).as(key.name).isNotBlank();
      assertThat(key.displayName).as(key.name).isNotBlank();
    }
  }

  @Test
  void generatedReferenceIsCurrent() throws IOException {
    String generated = ConfigDocs.markdown(DeltaCdfSourceConfig.configDef());
    if (Boolean.getBoolean("docs.update")) {
      Files.writeString(DOCS, generated);
    }
    assertThat(Files.readString(DOCS))
        .as("docs/configuration.md is stale: regenerate with mvn test -Dtest=ConfigDocsTest"
            + " -Ddocs.update=true")
        .isEqualTo(generated);
  }
}
