package io.deltacdf.connect.change;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The key hash decides which shard streams a key: it must stay the same in every JVM and release,
 * and across the type widenings Delta allows, or a key would change shards and lose its order.
 */
class KeyHashTest {

  /** Pinned values, also computed by an independent implementation of the documented encoding. */
  @Test
  void theHashOfAKeyNeverChanges() {
    assertThat(hash(42L)).isEqualTo(-7328503241624300094L);
    assertThat(hash("order-7", null)).isEqualTo(9063596485570529437L);
    assertThat(hash(new BigDecimal("12.50"), LocalDate.of(2026, 12, 1), true))
        .isEqualTo(-3493761016009889490L);
  }

  @Test
  void widenedTypesKeepTheirHash() {
    long five = hash(5L);
    for (Object widened :
        List.of((byte) 5, (short) 5, 5, new BigDecimal("5.000"), 5.0d, 5.0f, new BigDecimal(5))) {
      assertThat(hash(widened)).as("%s (%s)", widened, widened.getClass()).isEqualTo(five);
    }
    assertThat(hash(1.5f)).isEqualTo(hash(1.5d)).isNotEqualTo(hash(new BigDecimal("1.5")));
    assertThat(hash(LocalDate.of(2026, 1, 2)))
        .isEqualTo(hash(LocalDateTime.of(2026, 1, 2, 0, 0)))
        .isNotEqualTo(hash(Instant.parse("2026-01-02T00:00:00Z")));
    assertThat(hash(new BigDecimal("92233720368547758070")))
        .isNotEqualTo(hash(new BigDecimal("9223372036854775807")));
  }

  @Test
  void differentKeysHashApart() {
    assertThat(hash("a")).isNotEqualTo(hash("b"));
    assertThat(hash((Object) null)).isNotEqualTo(hash(""));
    assertThat(hash("ab", "c")).isNotEqualTo(hash("a", "bc"));
    assertThat(hash(new Object[] {1L, 2L})).isNotEqualTo(hash(new Object[] {2L, 1L}));
    assertThat(hash(List.of(1L))).isNotEqualTo(hash(Map.of(1L, 1L)));
    assertThat(hash(new byte[] {1})).isNotEqualTo(hash(new byte[] {1, 0}));
  }

  @Test
  void consecutiveKeysSpreadEvenlyOverShards() {
    int[] counts = new int[4];
    for (long id = 0; id < 40_000; id++) {
      counts[TableShard.indexOf(hash(id), 4)]++;
    }
    for (int count : counts) {
      assertThat(count).isBetween(9_600, 10_400);
    }
  }

  @Test
  void aColumnTheRowLacksHashesAsNull() {
    assertThat(KeyHash.of(new Object[] {7L}, new int[] {0, -1})).isEqualTo(hash(7L, null));
  }

  private static long hash(Object... values) {
    int[] columns = new int[values.length];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = i;
    }
    return KeyHash.of(values, columns);
  }
}
