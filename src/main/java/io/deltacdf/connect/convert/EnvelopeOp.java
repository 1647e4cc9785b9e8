package io.deltacdf.connect.convert;

/** Debezium's {@code op} codes, as envelope-format records carry them. */
enum EnvelopeOp {
  /** An insert, or a key's new side when an update changed the key. */
  CREATE("c"),
  /** An update: pre-image as before, post-image as after. */
  UPDATE("u"),
  /** A delete, or a key's old side when an update changed the key. */
  DELETE("d"),
  /** A row of the initial snapshot. */
  READ("r");

  private final String code;

  EnvelopeOp(String code) {
    this.code = code;
  }

  String code() {
    return code;
  }
}
