package io.deltacdf.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class StructSlotsTest {

  private static final Schema SCHEMA =
      SchemaBuilder.struct()
          .name("t.Value")
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  @Test
  void fillsTheStructsValuesAsPutWould() {
    Struct filled = new Struct(SCHEMA);
    Object[] slots = StructSlots.of(filled);
    assertThat(slots)
        .as("the Kafka the connector is built against lets it fill structs")
        .isNotNull();
    StructSlots.put(filled, slots, SCHEMA.field("id"), 7L);
    StructSlots.put(filled, slots, SCHEMA.field("name"), "ann");

    assertThat(filled).isEqualTo(new Struct(SCHEMA).put("id", 7L).put("name", "ann"));
    assertThat(filled.getString("name")).isEqualTo("ann");
  }

  @Test
  void validatesEachValueWhenAssertionsAreOn() {
    Struct struct = new Struct(SCHEMA);
    Object[] slots = StructSlots.of(struct);

    assertThatThrownBy(() -> StructSlots.put(struct, slots, SCHEMA.field("id"), "not a long"))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("id");
  }
}
