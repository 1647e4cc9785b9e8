package io.deltacdf.connect.delta.variant;

/** A variant value or dictionary that does not follow the variant encoding. */
public final class MalformedVariantException extends IllegalArgumentException {
  public MalformedVariantException(String what) {
    super("Malformed variant value: " + what);
  }
}
