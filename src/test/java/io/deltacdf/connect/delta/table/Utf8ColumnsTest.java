package io.deltacdf.connect.delta.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.defaults.internal.data.vector.DefaultBinaryVector;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.VariantType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Strings read as binary decode to what Kernel's own string decoding gave, malformed or not. */
class Utf8ColumnsTest {

  @Test
  void decodesAsKernelsStringVectorDoesEvenMalformedInput() {
    List<byte[]> values = new ArrayList<>();
    values.add("plain ascii".getBytes(StandardCharsets.UTF_8));
    values.add("äöü € 漢字 😀".getBytes(StandardCharsets.UTF_8));
    values.add(new byte[0]);
    values.add(bytes(0xFF, 0xFE, 0x41)); // never valid in UTF-8
    values.add(bytes(0xC0, 0xAF)); // overlong '/'
    values.add(bytes(0xE0, 0x80, 0xAF)); // overlong, three bytes
    values.add(bytes(0xED, 0xA0, 0x80, 0x41)); // an encoded surrogate
    values.add(bytes(0xF0, 0x9F, 0x98)); // truncated at the end
    values.add(bytes(0xF0, 0x9F, 0x41, 0x42)); // truncated in the middle
    values.add(bytes(0xF4, 0x90, 0x80, 0x80)); // above U+10FFFF
    values.add(bytes(0x80, 0xBF, 0xC2)); // lone continuation bytes, lone lead byte
    Random random = new Random(38);
    for (int i = 0; i < 2_000; i++) {
      byte[] value = new byte[random.nextInt(12)];
      random.nextBytes(value);
      values.add(value);
    }
    byte[][] array = values.toArray(byte[][]::new);
    DefaultBinaryVector asKernel = new DefaultBinaryVector(StringType.STRING, array.length, array);
    DefaultBinaryVector asRead = new DefaultBinaryVector(BinaryType.BINARY, array.length, array);

    for (int row = 0; row < array.length; row++) {
      assertThat(Utf8Columns.read(asRead, row)).isEqualTo(asKernel.getString(row));
    }
  }

  @Test
  void everyStringIsReadAsBinaryCollatedAndNestedOnesTooButNotInsideVariants() {
    FieldMetadata mapped =
        FieldMetadata.builder()
            .putString("delta.columnMapping.physicalName", "col-1")
            .putLong("delta.columnMapping.id", 1)
            .build();
    StructType schema =
        new StructType()
            .add("id", IntegerType.INTEGER)
            .add("name", StringType.STRING, true, mapped)
            .add("folded", new StringType("SPARK.UTF8_LCASE"))
            .add("tags", new ArrayType(StringType.STRING, true))
            .add("attrs", new MapType(StringType.STRING, StringType.STRING, true))
            .add("inner", new StructType().add("label", StringType.STRING))
            .add("doc", VariantType.VARIANT);

    StructType read = (StructType) Utf8Columns.readType(schema);

    assertThat(read.fields())
        .extracting(StructField::getDataType)
        .containsExactly(
            IntegerType.INTEGER,
            BinaryType.BINARY,
            BinaryType.BINARY,
            new ArrayType(BinaryType.BINARY, true),
            new MapType(BinaryType.BINARY, BinaryType.BINARY, true),
            new StructType().add("label", BinaryType.BINARY),
            VariantType.VARIANT);
    // Column mapping's physical names and ids stay with their fields.
    assertThat(read.fields())
        .extracting(StructField::getMetadata)
        .isEqualTo(schema.fields().stream().map(StructField::getMetadata).toList());
  }

  private static byte[] bytes(int... values) {
    byte[] result = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      result[i] = (byte) values[i];
    }
    return result;
  }
}
