package io.deltacdf.connect.delta.table;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.testing.SparkOracle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;

/**
 * Geometry and geography columns, written by Spark (Delta's geospatial preview), stream row-exact
 * against {@code table_changes}, and every shape we emit parses with JTS into a shape that was
 * written.
 */
class GeospatialFeedTest {

  private static final GeometryFactory SHAPES = new GeometryFactory();

  @TempDir Path dir;

  @Test
  void geometriesAndGeographiesMatchSparkAndParse() throws ParseException {
    String path = dir.resolve("places").toString();
    Random random = new Random(Long.getLong("geo.seed", 11L));
    Set<String> written = new HashSet<>();
    long latest;
    Map<Long, List<String>> expected;
    // Delta's geospatial types are a preview, for writing and reading alike.
    sql("SET spark.databricks.delta.geo.preview.enabled = true");
    try {
      sql(
          "CREATE TABLE delta.`%s` (id INT, shape GEOMETRY(4326), plane GEOMETRY(0),"
              + " place GEOGRAPHY(4326)) USING delta"
              + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
          path);
      List<String> rows = new ArrayList<>();
      for (int id = 0; id < 30; id++) {
        rows.add(
            String.format(
                "(%d, st_geomfromwkb(X'%s', 4326), st_geomfromwkb(X'%s', 0), st_geogfromwkb(X'%s'))",
                id,
                wkb(shape(random), written),
                wkb(shape(random), written),
                wkb(shape(random), written)));
      }
      rows.add("(-1, NULL, NULL, NULL)");
      sql("INSERT INTO delta.`%s` VALUES %s", path, String.join(", ", rows));
      sql(
          "UPDATE delta.`%s` SET shape = st_geomfromwkb(X'%s', 4326) WHERE id %% 3 = 0",
          path, wkb(shape(random), written));
      sql("DELETE FROM delta.`%s` WHERE id %% 4 = 1", path);
      latest = SparkOracle.latestVersion(path);
      expected = SparkOracle.changesByVersion(path, 0, latest);
    } finally {
      sql("RESET spark.databricks.delta.geo.preview.enabled");
    }

    DeltaTable table = DeltaTable.open(path, Map.of(), false);
    List<FeedReads.ReadRow> read = FeedReads.readAll(table, ChangePosition.InVersion.start(0), 100);
    Map<Long, List<String>> actual = FeedReads.byVersion(read, FeedReads.schemaAt(table, latest));
    assertThat(actual).isEqualTo(expected).containsKeys(1L, 2L, 3L);

    FieldType.Struct schema = FeedReads.latestSchema(table);
    assertThat(schema.fields().subList(1, 4))
        .extracting(FieldType.Field::type)
        .containsExactly(
            new FieldType.Geospatial(false, "OGC:CRS84"),
            new FieldType.Geospatial(false, "SRID:0"),
            new FieldType.Geospatial(true, "OGC:CRS84"));
    WKBReader reader = new WKBReader();
    int shapes = 0;
    for (FeedReads.ReadRow row : read) {
      for (int column = 1; column < 4; column++) {
        byte[] bytes = (byte[]) row.row().values()[column];
        if (bytes != null) {
          assertThat(written).contains(reader.read(bytes).toText());
          shapes++;
        }
      }
    }
    assertThat(shapes).isGreaterThan(90);
  }

  /** A point, line or polygon within longitude and latitude bounds, as geographies need. */
  private static Geometry shape(Random random) {
    Coordinate a = coordinate(random);
    return switch (random.nextInt(3)) {
      case 0 -> SHAPES.createPoint(a);
      case 1 -> SHAPES.createLineString(new Coordinate[] {a, coordinate(random)});
      default -> {
        double x = a.x;
        double y = a.y;
        yield SHAPES.createPolygon(
            new Coordinate[] {
              a, new Coordinate(x + 1, y), new Coordinate(x + 1, y + 1), new Coordinate(x, y + 1), a
            });
      }
    };
  }

  private static Coordinate coordinate(Random random) {
    return new Coordinate(random.nextInt(3500) / 20.0 - 89, random.nextInt(1700) / 20.0 - 44);
  }

  private static String wkb(Geometry shape, Set<String> written) {
    written.add(shape.toText());
    return HexFormat.of().formatHex(new WKBWriter().write(shape));
  }
}
