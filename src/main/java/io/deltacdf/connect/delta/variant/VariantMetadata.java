package io.deltacdf.connect.delta.variant;

import java.nio.charset.StandardCharsets;

/**
 * A variant's key dictionary: a header byte (version 1, offset size), the key count, the keys'
 * offsets and their UTF-8 bytes. Keys are decoded when an object names them.
 */
public final class VariantMetadata {

  private static final int VERSION = 1;

  private final byte[] bytes;
  private final int offsetSize;
  private final int count;
  private final int offsets;
  private final int keys;

  private VariantMetadata(byte[] bytes) {
    this.bytes = bytes;
    int header = VariantBytes.unsigned(bytes, 0);
    if ((header & 0xF) != VERSION) {
      throw VariantBytes.malformed("metadata version " + (header & 0xF) + ", expected " + VERSION);
    }
    this.offsetSize = ((header >>> 6) & 0x3) + 1;
    this.count = VariantBytes.readUnsigned(bytes, 1, offsetSize);
    this.offsets = 1 + offsetSize;
    if (offsets + (count + 1L) * offsetSize > bytes.length) {
      throw VariantBytes.malformed(
          "a dictionary of " + count + " keys does not fit in its " + bytes.length + " bytes");
    }
    this.keys = offsets + (count + 1) * offsetSize;
  }

  /** The dictionary's encoded size in bytes. */
  int size() {
    return bytes.length;
  }

  public static VariantMetadata of(byte[] bytes) {
    return new VariantMetadata(bytes);
  }

  String key(int id) {
    if (id >= count) {
      throw VariantBytes.malformed("key id " + id + " not in a dictionary of " + count);
    }
    int start = VariantBytes.readUnsigned(bytes, offsets + id * offsetSize, offsetSize);
    int end = VariantBytes.readUnsigned(bytes, offsets + (id + 1) * offsetSize, offsetSize);
    if (end < start || keys + end > bytes.length) {
      throw VariantBytes.malformed("key " + id + " outside the dictionary");
    }
    return new String(bytes, keys + start, end - start, StandardCharsets.UTF_8);
  }
}
