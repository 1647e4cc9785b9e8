package io.deltacdf.connect.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Levels written by parquet-mr's own RLE/bit-packing hybrid encoder decode to the same defined
 * flags, for maximum levels of one to five bits, in long runs, in short mixed runs (bit-packed) and
 * in both, with counts that end a bit-packed group part way.
 */
class DefinitionLevelsTest {

  @ParameterizedTest(name = "max level {0}, {1} levels, runs of up to {2}")
  @CsvSource({
    "1, 20000, 20000",
    "1, 1001, 1",
    "1, 5003, 40",
    "2, 997, 3",
    "3, 4096, 100",
    "7, 333, 2",
    "31, 2500, 9"
  })
  void decodesWhatParquetMrEncodes(int max, int count, int longestRun) throws IOException {
    Random random = new Random(max * 7919L + count);
    int[] levels = new int[count];
    for (int at = 0; at < count; ) {
      int level = random.nextInt(4) == 0 ? random.nextInt(max + 1) : max;
      int end = Math.min(count, at + 1 + random.nextInt(longestRun));
      for (; at < end; at++) {
        levels[at] = level;
      }
    }
    RunLengthBitPackingHybridEncoder encoder =
        new RunLengthBitPackingHybridEncoder(
            BytesUtils.getWidthFromMaxInt(max), 64, 1 << 20, new HeapByteBufferAllocator());
    for (int level : levels) {
      encoder.writeInt(level);
    }
    ByteBuffer encoded = ByteBuffer.wrap(encoder.toBytes().toByteArray());

    boolean[] defined = new boolean[count];
    boolean nulls = DefinitionLevels.decodeHybrid(encoded, max, count, defined);

    boolean anyNull = false;
    for (int i = 0; i < count; i++) {
      assertThat(defined[i]).as("level %d of %d", i, count).isEqualTo(levels[i] == max);
      anyNull |= levels[i] != max;
    }
    assertThat(nulls).isEqualTo(anyNull);
  }
}
