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
  void everyCheckedSettingListsItsValidValues() {
    String docs = ConfigDocs.markdown(DeltaCdfSourceConfig.configDef());
    assertThat(section(docs, "start.mode"))
        .contains("- Valid values: snapshot, earliest, latest, version, timestamp");
    assertThat(section(docs, "config.unknown.keys")).contains("- Valid values: fail, ignore");
    assertThat(section(docs, "tombstones.on.delete")).contains("- Valid values: true, false");
    assertThat(docs).doesNotContain("Lambda");
  }

  /** The part of the reference that documents {@code key}. */
  private static String section(String docs, String key) {
    int start = docs.indexOf("### `" + key + "`");
    assertThat(start).as(key).isNotNegative();
    int end = docs.indexOf("### ", start + 4);
    return docs.substring(start, end < 0 ? docs.length() : end);
  }

  @Test
  void generatedReferenceIsCurrent() throws IOException {
    String generated = ConfigDocs.markdown(DeltaCdfSourceConfig.configDef());
    if (Boolean.getBoolean("docs.update")) {
      Files.writeString(DOCS, generated);
    }
    assertThat(Files.readString(DOCS))
        .as(
            "docs/configuration.md is stale: regenerate with mvn test -Dtest=ConfigDocsTest"
                + " -Ddocs.update=true")
        .isEqualTo(generated);
  }
}
