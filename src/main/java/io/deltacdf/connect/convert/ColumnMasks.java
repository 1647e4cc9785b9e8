package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ColumnPatterns;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.HiddenColumns;
import io.deltacdf.connect.change.HiddenColumnsTracker;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a table's masked columns leave the lake as: a keyed hash (HMAC-SHA-256), the first
 * characters of a string, or null. The same value always masks to the same text, so masked keys
 * stay joinable downstream. Masks apply to the row before its key is taken, so a hashed key column
 * is hashed in the key and in the value alike.
 *
 * <p>A column several masks name gets the strongest: null, then hash, then truncation. A column a
 * mask named once stays masked: it is recorded by identity in the stream's {@link
 * HiddenColumnsTracker}, so it keeps its mask under every later name (a rename under column
 * mapping), seeded with what the stream masked before a restart. A pattern that names a field
 * inside an array or a map is refused: masks do not reach there. Not thread-safe (the HMAC is
 * stateful): one instance per converter.
 */
public final class ColumnMasks {

  /** The masks, strongest first. */
  public enum Kind {
    NULL,
    HASH,
    TRUNCATE;

    /** The setting that lists the columns this mask masks. */
    public String setting() {
      return "column.mask." + name().toLowerCase(Locale.ROOT) + ".list";
    }
  }

  public enum Encoding {
    HEX,
    BASE64
  }

  /** No column masked. */
  public static final ColumnMasks NONE =
      new ColumnMasks(
          "",
          new ColumnPatterns("", List.of()),
          new ColumnPatterns("", List.of()),
          new ColumnPatterns("", List.of()),
          0,
          null,
          Encoding.HEX);

  private final String table;
  private final ColumnPatterns nulls;
  private final ColumnPatterns hashed;
  private final ColumnPatterns truncated;
  private final int truncateChars;
  private final Mac mac;
  private final Encoding encoding;
  private final String salt;
  private final HiddenColumnsTracker hidden;

  /**
   * @param table the table's URI, for messages
   * @param salt the HMAC key; needed when {@code hashed} names columns
   * @param truncateChars how many characters (code points) truncated strings keep
   */
  public ColumnMasks(
      String table,
      ColumnPatterns nulls,
      ColumnPatterns hashed,
      ColumnPatterns truncated,
      int truncateChars,
      String salt,
      Encoding encoding) {
    this(
        table,
        nulls,
        hashed,
        truncated,
        truncateChars,
        salt,
        encoding,
        HiddenColumnsTracker.empty());
  }

  private ColumnMasks(
      String table,
      ColumnPatterns nulls,
      ColumnPatterns hashed,
      ColumnPatterns truncated,
      int truncateChars,
      String salt,
      Encoding encoding,
      HiddenColumnsTracker hidden) {
    this.table = table;
    this.salt = salt;
    this.hidden = hidden;
    this.nulls = nulls;
    this.hashed = hashed;
    this.truncated = truncated;
    this.truncateChars = truncateChars;
    this.encoding = encoding;
    this.mac = hashed.isEmpty() ? null : hmac(salt);
  }

  private static Mac hmac(String salt) {
    if (salt == null || salt.isEmpty()) {
      throw new IllegalArgumentException("Hashing columns needs a non-empty salt");
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(salt.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA-256 is not available in this JVM", e);
    }
  }

  /** The same masks, sharing {@code tracker} (seeded with what a stream hid before). */
  public ColumnMasks following(HiddenColumnsTracker tracker) {
    return new ColumnMasks(table, nulls, hashed, truncated, truncateChars, salt, encoding, tracker);
  }

  /** What the stream has hidden so far: when it grows, plans made before may mask too little. */
  HiddenColumns hidden() {
    return hidden.current();
  }

  /**
   * The mask of the field at {@code path} whose identity is {@code identity}: the strongest of the
   * one its name has now and the one it was recorded with; null when it leaves in clear. A mask its
   * name has is recorded.
   */
  private Kind kindOf(List<String> path, List<String> identity) {
    Kind byName = kindOf(path);
    if (byName != null) {
      hidden.hide(identity, HiddenColumns.Rule.valueOf(byName.name()));
    }
    HiddenColumns.Rule recorded = hidden.current().ruleOf(identity);
    Kind before =
        recorded == null || recorded == HiddenColumns.Rule.EXCLUDED
            ? null
            : Kind.valueOf(recorded.name());
    if (byName == null || before == null) {
      return byName == null ? before : byName;
    }
    return byName.compareTo(before) <= 0 ? byName : before;
  }

  /** The mask of the column or nested field at {@code path}, or null when it leaves in clear. */
  private Kind kindOf(List<String> path) {
    if (nulls.matches(path)) {
      return Kind.NULL;
    }
    if (hashed.matches(path)) {
      return Kind.HASH;
    }
    return truncated.matches(path) ? Kind.TRUNCATE : null;
  }

  /**
   * Rows of {@code schema} as they leave: masked values, and the schema they have then.
   *
   * @throws MaskTypeException when a mask names a column of a type it cannot mask
   */
  MaskedSchema masked(FieldType.Struct schema) {
    return plan(schema, List.of(), List.of());
  }

  /** The masked form of rows of one schema. */
  final class MaskedSchema {
    private final FieldType.Struct schema;

    /** Per field: its mask, a nested plan for a struct holding masked fields, or null. */
    private final Object[] masks;

    private final boolean masksAny;

    private MaskedSchema(FieldType.Struct schema, Object[] masks) {
      this.schema = schema;
      this.masks = masks;
      boolean any = false;
      for (Object mask : masks) {
        any |= mask != null;
      }
      this.masksAny = any;
    }

    FieldType.Struct schema() {
      return schema;
    }

    ChangeRow apply(ChangeRow row) {
      if (!masksAny) {
        return row;
      }
      return new ChangeRow(
          row.type(),
          row.label(),
          row.version(),
          row.commitTimestampMs(),
          values(row.values()),
          row.after());
    }

    private Object[] values(Object[] values) {
      Object[] masked = values.clone();
      for (int i = 0; i < masks.length; i++) {
        if (masks[i] instanceof Kind kind) {
          masked[i] = mask(kind, values[i]);
        } else if (masks[i] instanceof MaskedSchema nested && values[i] != null) {
          masked[i] = nested.values((Object[]) values[i]);
        }
      }
      return masked;
    }
  }

  private MaskedSchema plan(
      FieldType.Struct schema, List<String> parent, List<String> parentIdentity) {
    List<FieldType.Field> fields = new ArrayList<>(schema.fields().size());
    Object[] masks = new Object[schema.fields().size()];
    for (int i = 0; i < masks.length; i++) {
      FieldType.Field field = schema.fields().get(i);
      List<String> path = new ArrayList<>(parent);
      path.add(field.name());
      List<String> identity = new ArrayList<>(parentIdentity);
      identity.add(field.physicalName());
      Kind kind = kindOf(path, identity);
      if (kind == null) {
        requireNothingInside(path, field.type());
      }
      if (kind != null) {
        masks[i] = kind;
        fields.add(maskedField(field, kind, path));
      } else if (field.type() instanceof FieldType.Struct struct) {
        MaskedSchema nested = plan(struct, path, identity);
        masks[i] = nested.masksAny ? nested : null;
        fields.add(
            new FieldType.Field(
                field.name(), nested.schema, field.nullable(), field.physicalName()));
      } else {
        fields.add(field);
      }
    }
    boolean masksAny = Arrays.stream(masks).anyMatch(Objects::nonNull);
    return new MaskedSchema(masksAny ? new FieldType.Struct(fields) : schema, masks);
  }

  private void requireNothingInside(List<String> path, FieldType type) {
    for (Kind kind : Kind.values()) {
      ColumnPatterns patterns =
          switch (kind) {
            case NULL -> nulls;
            case HASH -> hashed;
            case TRUNCATE -> truncated;
          };
      ColumnPatterns.Reach reach = patterns.reachingInside(path, type);
      if (reach != null) {
        throw new MaskTypeException(kind, reach.refusal(kind.setting(), table));
      }
    }
  }

  private FieldType.Field maskedField(FieldType.Field field, Kind kind, List<String> path) {
    FieldType type = field.type();
    return switch (kind) {
      case NULL -> new FieldType.Field(field.name(), type, true, field.physicalName());
      case HASH -> {
        if (!hashable(type)) {
          throw new MaskTypeException(
              kind,
              table,
              String.join(".", path),
              type,
              "string, binary, integer, decimal and date columns");
        }
        yield new FieldType.Field(
            field.name(),
            new FieldType.Primitive(FieldType.PrimitiveKind.STRING),
            field.nullable(),
            field.physicalName());
      }
      case TRUNCATE -> {
        if (!(type instanceof FieldType.Primitive p
            && p.kind() == FieldType.PrimitiveKind.STRING)) {
          throw new MaskTypeException(kind, table, String.join(".", path), type, "string columns");
        }
        yield field;
      }
    };
  }

  private static boolean hashable(FieldType type) {
    if (type instanceof FieldType.Decimal) {
      return true;
    }
    return type instanceof FieldType.Primitive p
        && switch (p.kind()) {
          case STRING, BINARY, BYTE, SHORT, INT, LONG, DATE -> true;
          default -> false;
        };
  }

  private Object mask(Kind kind, Object value) {
    if (value == null || kind == Kind.NULL) {
      return null;
    }
    if (kind == Kind.TRUNCATE) {
      String text = (String) value;
      return text.codePointCount(0, text.length()) <= truncateChars
          ? text
          : text.substring(0, text.offsetByCodePoints(0, truncateChars));
    }
    byte[] digest = mac.doFinal(hashInput(value));
    return encoding == Encoding.HEX
        ? HexFormat.of().formatHex(digest)
        : Base64.getEncoder().encodeToString(digest);
  }

  /** The bytes a value is hashed as: a string's UTF-8, binary as is, numbers and dates as text. */
  private static byte[] hashInput(Object value) {
    if (value instanceof byte[] bytes) {
      return bytes;
    }
    String text =
        value instanceof BigDecimal decimal
            ? decimal.toPlainString()
            : value instanceof LocalDate date ? date.toString() : value.toString();
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
