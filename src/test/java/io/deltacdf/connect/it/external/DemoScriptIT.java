package io.deltacdf.connect.it.external;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.testing.Ports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./demo.sh --timeout} as CI or a curious user runs it, after {@code mvn package}: it stops
 * as soon as every demo record arrived instead of waiting out the timeout, and its output holds no
 * terminal escape codes from Maven.
 */
class DemoScriptIT {

  private static final int TIMEOUT_SECONDS = 900;

  @TempDir Path work;

  @Test
  void stopsOnceEveryDemoRecordArrivedAndPrintsPlainText() throws Exception {
    // Without them the script asks Maven for its classpaths again: its output is checked too.
    Files.deleteIfExists(Path.of("target/kafka-runtime.classpath"));
    Files.deleteIfExists(Path.of("target/demo-table.classpath"));
    Path output = work.resolve("demo.out");
    ProcessBuilder demo =
        new ProcessBuilder(
                "bash", "demo.sh", "--no-build", "--timeout", Integer.toString(TIMEOUT_SECONDS))
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    demo.environment().put("BROKER_PORT", Integer.toString(Ports.free()));
    demo.environment().put("CONTROLLER_PORT", Integer.toString(Ports.free()));
    demo.environment().put("CONNECT_PORT", Integer.toString(Ports.free()));
    demo.environment().put("TMPDIR", work.toString());

    long started = System.nanoTime();
    Process process = demo.start();
    boolean ended = process.waitFor(TIMEOUT_SECONDS + 90, TimeUnit.SECONDS);
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    if (!ended) {
      process.destroyForcibly().waitFor();
    }
    String text = read(output);

    assertThat(ended).as(text).isTrue();
    assertThat(process.exitValue()).as(text).isZero();
    assertThat(text).contains("All 10 demo records arrived").doesNotContain("\u001b");
    assertThat(took).as(text).isLessThan(Duration.ofSeconds(TIMEOUT_SECONDS));
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "";
  }
}
