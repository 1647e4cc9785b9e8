package io.deltacdf.connect.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition.InVersion;
import io.deltacdf.connect.change.HandOver.Cut;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hand-over filter: a key's row is sent only at or after its old partition's position. */
class HandOverTest {

  /** A key hash: the shard of a count that owns it is the hash modulo the count. */
  private static long keyOf(int hash) {
    return hash;
  }

  private static InVersion at(long version, int file, long row) {
    return new InVersion(version, file, row);
  }

  @Test
  void aKeysRowIsSentOnlyFromItsOldPartitionsPositionOn() {
    HandOver handOver =
        new HandOver(List.of(new Cut(3, List.of(at(10, 0, 0), at(12, 1, 3), at(11, 0, 0)))));

    long ofShard1 = keyOf(1);
    assertThat(handOver.sends(ofShard1, at(12, 1, 2))).isFalse();
    assertThat(handOver.sends(ofShard1, at(12, 1, 3))).isTrue();
    assertThat(handOver.sends(ofShard1, at(12, 0, 99))).isFalse();
    assertThat(handOver.sends(ofShard1, at(11, 5, 0))).isFalse();
    assertThat(handOver.sends(ofShard1, at(13, 0, 0))).isTrue();
    long ofShard0 = keyOf(3);
    assertThat(handOver.sends(ofShard0, at(9, 9, 9))).isFalse();
    assertThat(handOver.sends(ofShard0, at(10, 0, 0))).isTrue();
    assertThat(handOver.start()).isEqualTo(InVersion.start(10));
    assertThat(handOver.end()).isEqualTo(at(12, 1, 3));
  }

  @Test
  void theStartIsTheVersionStartOfTheSmallestPosition() {
    HandOver handOver = new HandOver(List.of(Cut.whole(at(7, 2, 5))));

    assertThat(handOver.start()).isEqualTo(InVersion.start(7));
    assertThat(handOver.end()).isEqualTo(at(7, 2, 5));
    assertThat(handOver.sends(keyOf(4), at(7, 2, 4))).isFalse();
    assertThat(handOver.sends(keyOf(4), at(7, 2, 5))).isTrue();
  }

  @Test
  void aHandOverOfAHandOverComposes() {
    // One partition stood at 5; three shards took over: shard 1 reached 4.0.0 (reading, sending
    // nothing of its keys yet), shard 0 and 2 are at 6 and 7.
    Cut whole = Cut.whole(InVersion.start(5));
    Cut three = new Cut(3, List.of(at(6, 0, 0), at(4, 0, 0), at(7, 0, 0)));
    HandOver composed = new HandOver(List.of(three)).and(new HandOver(List.of(whole)));

    assertThat(composed.sends(keyOf(1), at(4, 3, 0))).as("shard 1's key, before 5").isFalse();
    assertThat(composed.sends(keyOf(1), at(5, 0, 0))).isTrue();
    assertThat(composed.sends(keyOf(2), at(6, 9, 0))).as("shard 2's key, before 7").isFalse();
    assertThat(composed.sends(keyOf(2), at(7, 0, 0))).isTrue();
    assertThat(composed.start()).as("every key was sent up to 5 at least").isEqualTo(at(5, 0, 0));
    assertThat(composed.end()).isEqualTo(at(7, 0, 0));
  }

  @Test
  void aCutWithoutEveryPositionFiltersOnlyWhereItKnows() {
    HandOver partial = new HandOver(List.of(new Cut(2, Arrays.asList(null, at(9, 0, 0)))));

    assertThat(partial.start()).as("no complete cut").isNull();
    assertThat(partial.sends(keyOf(0), at(1, 0, 0))).isTrue();
    assertThat(partial.sends(keyOf(1), at(8, 0, 0))).isFalse();
  }

  @Test
  void theTextOfAHandOverSurvivesTheRoundTrip() {
    HandOver handOver =
        new HandOver(
            List.of(
                Cut.whole(InVersion.start(12)),
                new Cut(3, Arrays.asList(InVersion.start(13), null, at(14, 0, 5)))));

    assertThat(handOver.toText()).isEqualTo("1:12;3:13,-,14.0.5");
    assertThat(HandOver.parse(handOver.toText())).isEqualTo(handOver);
  }

  @Test
  void malformedTextFailsSayingWhatIsExpected() {
    for (String text :
        List.of("", "3:1,2", "2:1,x", "1:1.2", "1:-", "0:", "1:-4", "1:1.9999999999.0")) {
      assertThatThrownBy(() -> HandOver.parse(text))
          .as(text)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("'handover' is <count>:<position>");
    }
  }
}
