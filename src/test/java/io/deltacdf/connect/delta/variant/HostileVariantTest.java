package io.deltacdf.connect.delta.variant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Variant bytes crafted by a hostile or broken writer fail with {@link MalformedVariantException}
 * after bounded work: never an {@link OutOfMemoryError} or a {@link StackOverflowError}, which
 * would take the worker down instead of failing the task with the file's name.
 */
class HostileVariantTest {

  private static final byte[] NO_KEYS = {1, 0, 0};
  private static final byte NULL = 0;

  @Test
  void elementsSharingOneChildAreRefused() {
    // Four levels of 255 elements whose offsets all point at the same child: about 4 KiB that a
    // decoder without a bound writes out as 255^4 (4.2 billion) nulls.
    byte[] value = {NULL};
    for (int level = 0; level < 4; level++) {
      value = array(value, new int[255]);
    }
    byte[] hostile = value;
    assertThatThrownBy(() -> VariantJson.toJson(hostile, NO_KEYS))
        .isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("share bytes");
  }

  @Test
  void aFieldCountBeyondTheBufferIsRefused() {
    // A large object claiming 2^31-1 fields, in 10 bytes.
    byte[] object = {(byte) ((0x10 << 2) | 2), (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F, 0, 0};
    assertThatThrownBy(() -> VariantJson.toJson(object, NO_KEYS))
        .isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("an object of 2147483647 elements does not fit");
    assertThatThrownBy(() -> VariantJson.objectFields(object, VariantMetadata.of(NO_KEYS)))
        .isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("does not fit");
    byte[] dictionary = {(byte) (1 | (3 << 6)), (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F, 0};
    assertThatThrownBy(() -> VariantMetadata.of(dictionary))
        .isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("a dictionary of 2147483647 keys does not fit");
  }

  @Test
  void nestingIsBoundedByADocumentedDepth() {
    assertThat(VariantJson.toJson(nested(VariantJson.MAX_DEPTH), NO_KEYS))
        .startsWith("[[[")
        .contains("null")
        .endsWith("]]]");
    assertThatThrownBy(() -> VariantJson.toJson(nested(VariantJson.MAX_DEPTH + 1), NO_KEYS))
        .isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("nested deeper than 1000 levels");
    byte[] deep = nested(100_000);
    assertThatThrownBy(() -> VariantJson.toJson(deep, NO_KEYS))
        .isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("nested deeper");
  }

  @Test
  void offsetsOutsideTheirContainerAreRefused() {
    // Two elements; the second one's offset (5) points past the 2 data bytes.
    byte[] pastData = {3, 2, 0, 5, 2, NULL, NULL};
    assertThatThrownBy(() -> VariantJson.toJson(pastData, NO_KEYS))
        .isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("element offset 5 outside");
    // The data size (the last offset) claims more bytes than the buffer holds.
    byte[] pastBuffer = {3, 1, 0, 100, NULL};
    assertThatThrownBy(() -> VariantJson.toJson(pastBuffer, NO_KEYS))
        .isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("data ends after the value's 5 bytes");
    // A key id the dictionary does not have.
    byte[] unknownKey = {2, 1, 7, 0, 1, NULL};
    assertThatThrownBy(() -> VariantJson.toJson(unknownKey, NO_KEYS))
        .isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("key id 7");
  }

  @Test
  void textIsBoundedByAMultipleOfTheEncodedSize() {
    // One 100,000-character key repeated by 10,000 fields of distinct objects: valid bytes, but
    // a gigabyte of text.
    byte[] key = "k".repeat(100_000).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    ByteArrayOutputStream dictionary = new ByteArrayOutputStream();
    dictionary.write(1 | (3 << 6));
    writeInt(dictionary, 1);
    writeInt(dictionary, 0);
    writeInt(dictionary, key.length);
    dictionary.writeBytes(key);
    byte[] object = {2, 1, 0, 0, 1, NULL};
    byte[][] objects = new byte[10_000][];
    java.util.Arrays.fill(objects, object);
    byte[] value = arrayOf(objects);
    assertThatThrownBy(() -> VariantJson.toJson(value, dictionary.toByteArray()))
        .isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("JSON text exceeds");
  }

  /** {@code levels} arrays of one element, each holding the next, around a null. */
  private static byte[] nested(int levels) {
    int header = 13;
    java.nio.ByteBuffer out =
        java.nio.ByteBuffer.allocate(levels * header + 1).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (int level = 0; level < levels; level++) {
      out.put((byte) ((((0x4 | 3) << 2) | 3)));
      out.putInt(1).putInt(0).putInt((levels - level - 1) * header + 1);
    }
    out.put(NULL);
    return out.array();
  }

  /** An array with 4-byte size and offsets whose elements start at {@code offsets} of child. */
  private static byte[] array(byte[] child, int[] offsets) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(((0x4 | 3) << 2) | 3);
    writeInt(out, offsets.length);
    for (int offset : offsets) {
      writeInt(out, offset);
    }
    writeInt(out, child.length);
    out.writeBytes(child);
    return out.toByteArray();
  }

  /** A well-formed array of the given elements, each in its own bytes. */
  private static byte[] arrayOf(byte[][] elements) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(((0x4 | 3) << 2) | 3);
    writeInt(out, elements.length);
    int offset = 0;
    for (byte[] element : elements) {
      writeInt(out, offset);
      offset += element.length;
    }
    writeInt(out, offset);
    for (byte[] element : elements) {
      out.writeBytes(element);
    }
    return out.toByteArray();
  }

  private static void writeInt(ByteArrayOutputStream out, int value) {
    for (int i = 0; i < 4; i++) {
      out.write(value >>> (8 * i));
    }
  }
}
