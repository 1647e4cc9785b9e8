package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.FieldType.Field;
import io.deltacdf.connect.change.FieldType.Primitive;
import io.deltacdf.connect.change.FieldType.PrimitiveKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaChangesTest {

  private static Field field(String name, PrimitiveKind kind) {
    return new Field(name, new Primitive(kind), true);
  }

  @Test
  void namesAddedDroppedAndRetypedColumns() {
    FieldType.Struct before =
        new FieldType.Struct(
            List.of(
                field("id", PrimitiveKind.LONG),
                field("name", PrimitiveKind.STRING),
                field("score", PrimitiveKind.INT)));
    FieldType.Struct after =
        new FieldType.Struct(
            List.of(
                field("id", PrimitiveKind.LONG),
                field("full_name", PrimitiveKind.STRING),
                field("score", PrimitiveKind.LONG)));
    assertThat(SchemaChanges.describe(before, after))
        .isEqualTo("added [full_name], dropped [name], changed [score: INT -> LONG]");
  }
}
