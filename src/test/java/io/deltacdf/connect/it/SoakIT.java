package io.deltacdf.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.soak.Fault;
import io.deltacdf.connect.it.soak.Soak;
import io.deltacdf.connect.it.soak.SoakResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak of {@code ./benchmark.sh soak} at CI size: {@code -Dsoak.minutes} of random Spark
 * commits (3 by default) on tables under a root, streamed with exactly-once by two workers loading
 * the packaged plugin, while workers are killed, the broker restarts, the S3 emulator holding one
 * table stops for 20 s and tasks.max changes; then no row may be lost, repeated or out of order.
 * {@code -Dsoak.seed} replays a run's choices.
 */
class SoakIT {

  @TempDir Path dir;

  @Test
  void exactlyOnceSurvivesRandomFaults() {
    long seed = Long.getLong("soak.seed", System.nanoTime());
    Soak.Options defaults =
        Soak.Options.of(Duration.ofMinutes(Long.getLong("soak.minutes", 3)), seed, dir);
    Soak.Options options =
        new Soak.Options(
            defaults.length(),
            seed,
            dir,
            Duration.ofSeconds(20),
            defaults.catchUp(),
            defaults.faults());
    SoakResult result = Soak.run(options);
    result
        .figures()
        .forEach(f -> System.out.printf("soak: %s: %s (%s)%n", f.name(), f.value(), f.note()));
    result.events().forEach(e -> System.out.println("soak event: " + e));

    assertThat(result.failures()).as("seed %d", seed).isEmpty();
    assertThat(result.lost()).isZero();
    assertThat(result.duplicated()).isZero();
    assertThat(result.checks()).as("topics compared").hasSize(5);
    assertThat(result.faults().keySet())
        .as("every kind of fault injected")
        .containsExactlyInAnyOrderElementsOf(List.of(Fault.values()));
  }
}
