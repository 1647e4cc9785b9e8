package io.deltacdf.connect.it.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;

/**
 * What a consumer without any Kafka or registry library does: reads Confluent's wire format (magic
 * byte 0, 4-byte big-endian schema id, Avro binary), fetches the writer schema by id from the
 * registry's Confluent-compatible API and decodes with plain Apache Avro. Logical types become Java
 * values (decimal → BigDecimal, date → LocalDate, timestamp-millis → Instant) only when the
 * registered schema declares them, so a schema that lost one shows up as a raw value.
 */
public final class ConfluentAvroDecoder {

  /** A decoded Kafka key or value: the schema id it carried, its writer schema and its datum. */
  public record Decoded(int schemaId, Schema schema, GenericRecord record) {}

  private static final GenericData DATA = new GenericData();

  static {
    DATA.addLogicalTypeConversion(new Conversions.DecimalConversion());
    DATA.addLogicalTypeConversion(new TimeConversions.DateConversion());
    DATA.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
  }

  private final ApicurioRegistry registry;
  private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();

  public ConfluentAvroDecoder(ApicurioRegistry registry) {
    this.registry = registry;
  }

  /** Decodes with the writer schema; null bytes (a tombstone) decode to null. */
  public Decoded decode(byte[] bytes) {
    return bytes == null ? null : decode(bytes, null);
  }

  /**
   * Decodes with {@code readerSchema} (Avro schema resolution), as a consumer that reads every
   * record with its latest schema does.
   */
  public Decoded decode(byte[] bytes, Schema readerSchema) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    byte magic = buffer.get();
    if (magic != 0) {
      throw new IllegalArgumentException("Not Confluent's wire format: magic byte " + magic);
    }
    int id = buffer.getInt();
    Schema writer = schema(id);
    Schema reader = readerSchema == null ? writer : readerSchema;
    try {
      GenericRecord record =
          (GenericRecord)
              new GenericDatumReader<>(writer, reader, DATA)
                  .read(
                      null,
                      DecoderFactory.get()
                          .binaryDecoder(bytes, buffer.position(), buffer.remaining(), null));
      return new Decoded(id, writer, record);
    } catch (IOException e) {
      throw new UncheckedIOException("Decoding a record of schema id " + id, e);
    }
  }

  /** The schema registered under {@code id}, fetched once. */
  public Schema schema(int id) {
    return schemas.computeIfAbsent(id, i -> new Schema.Parser().parse(registry.schemaById(i)));
  }
}
