package io.deltacdf.connect.delta.kernel;

import static org.apache.parquet.column.ValuesType.DEFINITION_LEVEL;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.values.ValuesReader;

/**
 * Which values of a flat column's data page are defined (not null), decoded a run at a time. A page
 * of a column that has no null holds one run of its definition levels; parquet-mr's level reader
 * hands them out one call per value, which cost more than the values themselves.
 */
final class DefinitionLevels {

  private DefinitionLevels() {}

  /** A data page's values, once its levels are decoded, and whether one of them is null. */
  record PageValues(boolean hasNulls, Encoding encoding, ByteBufferInputStream values) {}

  /** Decodes the levels of {@code page} of {@code column} into {@code defined}. */
  static PageValues decode(ColumnDescriptor column, DataPage page, boolean[] defined)
      throws IOException {
    int count = page.getValueCount();
    int max = column.getMaxDefinitionLevel();
    if (max == 0) {
      // A required column: no levels, no null.
      Arrays.fill(defined, 0, count, true);
    }
    if (page instanceof DataPageV1 v1) {
      // A flat column's pages hold no repetition levels: the definition levels come first.
      ByteBufferInputStream data = v1.getBytes().toInputStream();
      boolean nulls = max > 0 && decodeV1(column, v1, data, defined);
      return new PageValues(nulls, v1.getValueEncoding(), data);
    }
    DataPageV2 v2 = (DataPageV2) page;
    boolean nulls =
        max > 0 && decodeHybrid(v2.getDefinitionLevels().toByteBuffer(), max, count, defined);
    return new PageValues(nulls, v2.getDataEncoding(), v2.getData().toInputStream());
  }

  private static boolean decodeV1(
      ColumnDescriptor column, DataPageV1 page, ByteBufferInputStream data, boolean[] defined)
      throws IOException {
    int count = page.getValueCount();
    int max = column.getMaxDefinitionLevel();
    if (page.getDlEncoding() == Encoding.RLE) {
      int length = BytesUtils.readIntLittleEndian(data);
      return decodeHybrid(data.slice(length), max, count, defined);
    }
    // The long-deprecated bit-packed levels: parquet-mr decodes them.
    ValuesReader levels = page.getDlEncoding().getValuesReader(column, DEFINITION_LEVEL);
    levels.initFromPage(count, data);
    boolean nulls = false;
    for (int i = 0; i < count; i++) {
      defined[i] = levels.readInteger() == max;
      nulls |= !defined[i];
    }
    return nulls;
  }

  /**
   * Decodes {@code count} levels of Parquet's RLE/bit-packing hybrid encoding, for levels up to
   * {@code max}, from {@code levels}, each as whether it is {@code max}; returns whether one is
   * not.
   */
  static boolean decodeHybrid(ByteBuffer levels, int max, int count, boolean[] defined) {
    int bitWidth = BytesUtils.getWidthFromMaxInt(max);
    int valueBytes = (bitWidth + 7) / 8;
    int mask = (1 << bitWidth) - 1;
    boolean nulls = false;
    int at = 0;
    while (at < count) {
      int header = readUnsignedVarInt(levels);
      if ((header & 1) == 0) {
        // A run of one level repeated.
        int level = 0;
        for (int i = 0; i < valueBytes; i++) {
          level |= (levels.get() & 0xFF) << (8 * i);
        }
        int end = Math.min(count, at + (header >>> 1));
        boolean isDefined = level == max;
        Arrays.fill(defined, at, end, isDefined);
        nulls |= !isDefined && end > at;
        at = end;
      } else {
        // Groups of eight levels bit-packed, least significant bit first; the last group of the
        // page may be cut short.
        int values = (header >>> 1) * 8;
        long bits = 0;
        int bitCount = 0;
        for (int i = 0; i < values; i++) {
          while (bitCount < bitWidth) {
            bits |= (long) (levels.hasRemaining() ? levels.get() & 0xFF : 0) << bitCount;
            bitCount += 8;
          }
          int level = (int) (bits & mask);
          bits >>>= bitWidth;
          bitCount -= bitWidth;
          if (at < count) {
            defined[at] = level == max;
            nulls |= level != max;
            at++;
          }
        }
      }
    }
    return nulls;
  }

  private static int readUnsignedVarInt(ByteBuffer bytes) {
    int value = 0;
    int shift = 0;
    int b;
    do {
      b = bytes.get() & 0xFF;
      value |= (b & 0x7F) << shift;
      shift += 7;
    } while ((b & 0x80) != 0);
    return value;
  }
}
