package io.deltacdf.connect.delta.variant;

/** A variant value or dictionary that does not follow the variant encoding. */
public final class MalformedVariantException extends IllegalArgumentException {
  MalformedVariantException(String what) {
    super("Malformed variant value: " + what);
  }
}
