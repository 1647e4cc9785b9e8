package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecordRateLimitTest {

  private long nowNanos = 1_000_000_000L;

  private RecordRateLimit limit(int perSecond) {
    return new RecordRateLimit(perSecond, () -> nowNanos);
  }

  private void advanceMs(long ms) {
    nowNanos += ms * 1_000_000L;
  }

  @Test
  void withoutALimitEverythingIsAllowedAndNothingWaits() {
    RecordRateLimit unlimited = limit(0);
    unlimited.spent(1_000_000);
    assertThat(unlimited.allowance()).isEqualTo(Integer.MAX_VALUE);
    assertThat(unlimited.waitMs()).isZero();
  }

  @Test
  void theFirstChunkIsFreeThenRecordsAccrueAtTheRateInChunksOfATenthOfASecond() {
    RecordRateLimit limit = limit(200);
    advanceMs(5_000); // tables take their time to open: nothing accrues before the first record
    assertThat(limit.allowance()).isEqualTo(20);
    limit.spent(20);
    assertThat(limit.allowance()).isZero();
    assertThat(limit.waitMs()).isEqualTo(100);
    advanceMs(50);
    assertThat(limit.allowance()).as("half a chunk is not handed out").isZero();
    assertThat(limit.waitMs()).isEqualTo(50);
    advanceMs(50);
    assertThat(limit.allowance()).isEqualTo(20);
    assertThat(limit.waitMs()).isZero();
  }

  @Test
  void aSteadyConsumerGetsTheRateOverTime() {
    RecordRateLimit limit = limit(200);
    long handed = 0;
    for (int ms = 0; ms < 10_000; ms += 7) {
      int allowed = limit.allowance();
      limit.spent(allowed);
      handed += allowed;
      advanceMs(7);
    }
    // 20 free, then 200 a second for 10 s, less at most the chunk still accruing.
    assertThat(handed).isBetween(2_000L, 2_020L);
  }

  @Test
  void anIdleTaskCatchesUpByAtMostOneSecondOfRecords() {
    RecordRateLimit limit = limit(200);
    limit.spent(limit.allowance());
    advanceMs(60_000);
    assertThat(limit.allowance()).isEqualTo(200);
  }

  @Test
  void recordsHandedBeyondTheAllowanceArePaidBackFirst() {
    RecordRateLimit limit = limit(100);
    limit.spent(limit.allowance() + 10); // 10 allowed, 20 handed: 10 owed
    advanceMs(100);
    assertThat(limit.allowance()).isZero();
    assertThat(limit.waitMs()).isEqualTo(100);
    advanceMs(100);
    assertThat(limit.allowance()).isEqualTo(10);
  }
}
