package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.FieldType;
import java.util.Locale;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Geometry and geography values as Debezium writes them: a struct of the shape's Well-Known Binary
 * and its SRID, named {@code io.debezium.data.geometry.Geometry} or {@code ...Geography}, which
 * Debezium-aware sinks (the JDBC sink into PostGIS) understand. The SRID comes from the column's
 * coordinate reference system: {@code OGC:CRS84} (longitude, latitude on WGS 84) is 4326, as Spark
 * maps it; {@code EPSG:<n>} and {@code SRID:<n>} are {@code n}; any other is null.
 */
final class GeospatialValues {

  static final String GEOMETRY = "io.debezium.data.geometry.Geometry";
  static final String GEOGRAPHY = "io.debezium.data.geometry.Geography";
  static final String WKB = "wkb";
  static final String SRID = "srid";

  private GeospatialValues() {}

  static Schema schema(FieldType.Geospatial type, boolean optional) {
    SchemaBuilder builder =
        SchemaBuilder.struct()
            .name(type.geography() ? GEOGRAPHY : GEOMETRY)
            .version(1)
            .field(WKB, Schema.BYTES_SCHEMA)
            .field(SRID, Schema.OPTIONAL_INT32_SCHEMA);
    return optional ? builder.optional().build() : builder.build();
  }

  static Struct struct(Schema schema, Integer srid, byte[] wkb) {
    return new Struct(schema).put(WKB, wkb).put(SRID, srid);
  }

  /** The SRID of a Delta coordinate reference system, or null when it names none. */
  static Integer srid(String crs) {
    String upper = crs.toUpperCase(Locale.ROOT);
    if (upper.equals("OGC:CRS84")) {
      return 4326;
    }
    for (String prefix : new String[] {"EPSG:", "SRID:"}) {
      if (upper.startsWith(prefix)) {
        try {
          return Integer.parseInt(upper.substring(prefix.length()));
        } catch (NumberFormatException notANumber) {
          return null;
        }
      }
    }
    return null;
  }
}
