package io.deltacdf.connect.connector;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Failed listings of the roots are retried after 1 s, doubling up to the rescan interval. */
class RescanBackoffTest {

  private static final Duration INTERVAL = Duration.ofMinutes(5);

  @Test
  void afterASuccessTheIntervalAfterFailuresSoonerDoubling() {
    assertThat(RescanBackoff.delay(0, INTERVAL)).isEqualTo(INTERVAL);
    assertThat(RescanBackoff.delay(1, INTERVAL)).isEqualTo(Duration.ofSeconds(1));
    assertThat(RescanBackoff.delay(2, INTERVAL)).isEqualTo(Duration.ofSeconds(2));
    assertThat(RescanBackoff.delay(5, INTERVAL)).isEqualTo(Duration.ofSeconds(16));
    assertThat(RescanBackoff.delay(9, INTERVAL)).isEqualTo(Duration.ofSeconds(256));
    assertThat(RescanBackoff.delay(10, INTERVAL)).as("capped").isEqualTo(INTERVAL);
    assertThat(RescanBackoff.delay(Integer.MAX_VALUE, INTERVAL)).isEqualTo(INTERVAL);
  }

  @Test
  void anIntervalShorterThanASecondIsNeverExceeded() {
    Duration brief = Duration.ofMillis(200);
    assertThat(RescanBackoff.delay(1, brief)).isEqualTo(brief);
  }
}
