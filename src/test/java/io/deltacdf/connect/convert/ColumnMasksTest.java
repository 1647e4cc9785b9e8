package io.deltacdf.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition.InVersion;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.ColumnPatterns;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.FieldType.PrimitiveKind;
import io.deltacdf.connect.change.HiddenColumns;
import io.deltacdf.connect.change.HiddenColumnsTracker;
import io.deltacdf.connect.change.LoggedSchema;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/** What masked columns leave the lake as, in the key and in the value. */
class ColumnMasksTest {

  private static final String SALT = "pepper";

  private static final FieldType.Struct ADDRESS =
      new FieldType.Struct(
          List.of(
              new FieldType.Field("city", string(), true),
              new FieldType.Field("zip", string(), true)));

  private static final FieldType.Struct SCHEMA =
      new FieldType.Struct(
          List.of(
              new FieldType.Field("id", new FieldType.Primitive(PrimitiveKind.LONG), false),
              new FieldType.Field("email", string(), true),
              new FieldType.Field("name", string(), true),
              new FieldType.Field("ssn", string(), false),
              new FieldType.Field("address", ADDRESS, true),
              new FieldType.Field("salary", new FieldType.Decimal(10, 2), true),
              new FieldType.Field("vip", new FieldType.Primitive(PrimitiveKind.BOOLEAN), true)));

  private static FieldType string() {
    return new FieldType.Primitive(PrimitiveKind.STRING);
  }

  private static ColumnMasks masks(
      List<String> nulls, List<String> hashed, List<String> truncated, ColumnMasks.Encoding enc) {
    return new ColumnMasks(
        "file:/lake/people",
        ColumnPatterns.of("people", nulls),
        ColumnPatterns.of("people", hashed),
        ColumnPatterns.of("people", truncated),
        3,
        SALT,
        enc);
  }

  private static SourceRecord convert(ColumnMasks masks, List<String> key, Object[] values) {
    RecordConverter converter =
        new RecordConverter(
            "file:/lake/people",
            "people",
            "people",
            Map.of("table", "t"),
            key,
            Settings.of(),
            masks);
    converter.requireConvertible(List.of(new LoggedSchema(0, SCHEMA)), List::of);
    ChangeRow row = new ChangeRow(ChangeType.INSERT, 0, 0, values, InVersion.start(1));
    return converter.convert(row, InVersion.start(0), SCHEMA).records().get(0);
  }

  private static Object[] person() {
    return new Object[] {
      42L,
      "ann@example.com",
      "Zoë Ångström",
      "123-45-6789",
      new Object[] {"Oslo", "0150"},
      new BigDecimal("1234.50"),
      true
    };
  }

  private static byte[] hmac(String text) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(SALT.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void hashedKeyIsHashedInKeyAndValueAndOtherMasksApply() throws Exception {
    ColumnMasks masks =
        masks(
            List.of("people:ssn"),
            List.of("people:id", "people:email", "people:salary"),
            List.of("people:name", "people:address.zip"),
            ColumnMasks.Encoding.HEX);
    SourceRecord record = convert(masks, List.of("id"), person());
    Struct key = (Struct) record.key();
    Struct value = (Struct) record.value();
    String idHash = HexFormat.of().formatHex(hmac("42"));
    assertThat(key.get("id")).isEqualTo(idHash);
    assertThat(record.keySchema().field("id").schema().type()).isEqualTo(Schema.Type.STRING);
    assertThat(value.get("id")).isEqualTo(idHash);
    assertThat(value.get("email")).isEqualTo(HexFormat.of().formatHex(hmac("ann@example.com")));
    assertThat(value.get("salary")).isEqualTo(HexFormat.of().formatHex(hmac("1234.50")));
    assertThat(value.get("name")).as("three code points").isEqualTo("Zoë");
    assertThat(value.get("ssn")).isNull();
    assertThat(value.schema().field("ssn").schema().isOptional()).isTrue();
    Struct address = value.getStruct("address");
    assertThat(address.get("city")).isEqualTo("Oslo");
    assertThat(address.get("zip")).isEqualTo("015");
    assertThat(value.get("vip")).isEqualTo(true);
  }

  @Test
  void sameValueSameHashAcrossConvertersAndBase64Encoding() throws Exception {
    ColumnMasks.Encoding base64 = ColumnMasks.Encoding.BASE64;
    Object first =
        ((Struct)
                convert(
                        masks(List.of(), List.of("people:email"), List.of(), base64),
                        List.of(),
                        person())
                    .value())
            .get("email");
    Object second =
        ((Struct)
                convert(
                        masks(List.of(), List.of("people:e.*"), List.of(), base64),
                        List.of(),
                        person())
                    .value())
            .get("email");
    assertThat(first)
        .isEqualTo(second)
        .isEqualTo(Base64.getEncoder().encodeToString(hmac("ann@example.com")));
  }

  @Test
  void nullValuesStayNullAndUnmaskedRowsAreUntouched() {
    Object[] values = person();
    values[1] = null;
    SourceRecord record =
        convert(
            masks(List.of(), List.of("people:email"), List.of(), ColumnMasks.Encoding.HEX),
            List.of(),
            values);
    assertThat(((Struct) record.value()).get("email")).isNull();
    SourceRecord clear = convert(ColumnMasks.NONE, List.of(), person());
    assertThat(((Struct) clear.value()).get("email")).isEqualTo("ann@example.com");
    assertThat(((Struct) clear.value()).get("salary")).isEqualTo(new BigDecimal("1234.50"));
  }

  @Test
  void aMaskOnATypeItCannotMaskIsRefusedNamingTheColumn() {
    assertThatThrownBy(
            () ->
                convert(
                    masks(List.of(), List.of("people:vip"), List.of(), ColumnMasks.Encoding.HEX),
                    List.of(),
                    person()))
        .isInstanceOf(MaskTypeException.class)
        .hasMessageContaining("'vip'")
        .hasMessageContaining("boolean")
        .satisfies(
            e -> assertThat(((MaskTypeException) e).kind()).isEqualTo(ColumnMasks.Kind.HASH));
    assertThatThrownBy(
            () ->
                convert(
                    masks(List.of(), List.of(), List.of("people:salary"), ColumnMasks.Encoding.HEX),
                    List.of(),
                    person()))
        .isInstanceOf(MaskTypeException.class)
        .hasMessageContaining("'salary'")
        .hasMessageContaining("truncate");
  }

  private static FieldType.Struct mapped(String idName, String ssnName) {
    return new FieldType.Struct(
        List.of(
            new FieldType.Field(
                idName, new FieldType.Primitive(PrimitiveKind.LONG), false, "col-i"),
            new FieldType.Field(ssnName, string(), true, "col-s")));
  }

  private static Object valueOf(
      RecordConverter converter, FieldType.Struct schema, String field, Object[] values) {
    ChangeRow row = new ChangeRow(ChangeType.INSERT, 1, 0, values, InVersion.start(2));
    return ((Struct) converter.convert(row, InVersion.start(1), schema).records().get(0).value())
        .get(field);
  }

  private static RecordConverter converter(ColumnMasks masks) {
    return new RecordConverter(
        "file:/lake/people",
        "people",
        "people",
        Map.of("table", "t"),
        List.of(),
        Settings.of(),
        masks);
  }

  @Test
  void aRenamedColumnKeepsTheMaskItsOldNameHad() throws Exception {
    HiddenColumnsTracker tracker = HiddenColumnsTracker.empty();
    ColumnMasks masks =
        masks(List.of(), List.of("people:ssn"), List.of(), ColumnMasks.Encoding.HEX)
            .following(tracker);
    FieldType.Struct before = mapped("id", "ssn");
    FieldType.Struct after = mapped("id", "tax_id");
    RecordConverter converter = converter(masks);
    // The feed starts before the rename and the latest schema has the new name.
    converter.requireConvertible(
        List.of(new LoggedSchema(0, before), new LoggedSchema(2, after)), List::of);

    String hash = HexFormat.of().formatHex(hmac("123-45-6789"));
    assertThat(valueOf(converter, before, "ssn", new Object[] {1L, "123-45-6789"})).isEqualTo(hash);
    assertThat(valueOf(converter, after, "tax_id", new Object[] {1L, "123-45-6789"}))
        .isEqualTo(hash);
    // A column re-added under the masked name is masked by its name.
    FieldType.Struct readded =
        new FieldType.Struct(
            List.of(
                after.fields().get(0),
                after.fields().get(1),
                new FieldType.Field("ssn", string(), true, "col-new")));
    ChangeRow row =
        new ChangeRow(
            ChangeType.INSERT, 3, 0, new Object[] {1L, "123-45-6789", "987"}, InVersion.start(4));
    Struct value =
        (Struct) converter.convert(row, InVersion.start(3), readded).records().get(0).value();
    assertThat(value.get("tax_id")).isEqualTo(hash);
    assertThat(value.get("ssn")).isEqualTo(HexFormat.of().formatHex(hmac("987")));
    assertThat(tracker.current().toList()).containsExactly("hash:col-new", "hash:col-s");
  }

  @Test
  void aSeedMasksWhatTheStreamMaskedBeforeARestart() throws Exception {
    ColumnMasks masks =
        masks(List.of(), List.of("people:ssn"), List.of(), ColumnMasks.Encoding.HEX)
            .following(new HiddenColumnsTracker(HiddenColumns.fromList(List.of("hash:col-s"))));
    FieldType.Struct after = mapped("id", "tax_id");
    RecordConverter converter = converter(masks);
    converter.requireConvertible(List.of(new LoggedSchema(2, after)), List::of);

    assertThat(valueOf(converter, after, "tax_id", new Object[] {1L, "123-45-6789"}))
        .isEqualTo(HexFormat.of().formatHex(hmac("123-45-6789")));
  }

  @Test
  void aMaskReachingIntoAnArrayIsRefusedNamingTheField() {
    FieldType.Struct orders =
        new FieldType.Struct(
            List.of(
                new FieldType.Field(
                    "items",
                    new FieldType.Array(
                        new FieldType.Struct(List.of(new FieldType.Field("card", string(), true))),
                        true),
                    true)));
    ColumnMasks masks =
        new ColumnMasks(
            "file:/lake/orders",
            ColumnPatterns.of("orders", List.of()),
            ColumnPatterns.of("orders", List.of("orders:items.card")),
            ColumnPatterns.of("orders", List.of()),
            3,
            SALT,
            ColumnMasks.Encoding.HEX);

    assertThatThrownBy(() -> masks.masked(orders))
        .isInstanceOf(MaskTypeException.class)
        .hasMessageContaining("column.mask.hash.list: pattern 'orders:items.card' names items.card")
        .satisfies(
            e -> assertThat(((MaskTypeException) e).kind()).isEqualTo(ColumnMasks.Kind.HASH));
  }
}
