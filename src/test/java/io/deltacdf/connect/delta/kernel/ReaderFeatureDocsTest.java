package io.deltacdf.connect.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/reader-features.md says what Kernel's read check accepts today. */
class ReaderFeatureDocsTest {

  private static final Path DOCS = Path.of("docs/reader-features.md");

  @Test
  void kernelsCheckAcceptsTheFeaturesTheConnectorReadsEveryDay() {
    assertThat(ReaderFeatureDocs.readerFeatures())
        .filteredOn(ReaderFeatureDocs.ReaderFeature::kernelReads)
        .extracting(ReaderFeatureDocs.ReaderFeature::name)
        .contains("columnMapping", "deletionVectors", "timestampNtz", "v2Checkpoint");
    assertThat(ReaderFeatureDocs.kernelReads(ReaderFeatureDocs.UNKNOWN_FEATURE)).isFalse();
  }

  @Test
  void generatedTableIsCurrent() throws IOException {
    String generated = ReaderFeatureDocs.markdown();
    if (Boolean.getBoolean("docs.update")) {
      Files.writeString(DOCS, generated);
    }
    assertThat(DOCS).exists();
    assertThat(Files.readString(DOCS))
        .as(
            "docs/reader-features.md is stale: regenerate with mvn test"
                + " -Dtest=ReaderFeatureDocsTest -Ddocs.update=true")
        .isEqualTo(generated);
  }
}
