package io.deltacdf.connect.task;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.task.testing.SimulatedWorker;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Masks and exclusions across renames under column mapping, on a table Spark writes: a column
 * hashed or left out stays so under its new name, and a column re-added under the hashed name is
 * hashed too.
 */
class MaskedColumnSchemaChangesTest {

  private static final String SALT = "pepper";

  @TempDir Path dir;

  @Test
  void aRenamedColumnStaysHashedAndARenamedExcludedColumnStaysOut() throws Exception {
    String path = dir.resolve("people").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, ssn STRING, notes STRING) USING delta TBLPROPERTIES"
            + " ('delta.enableChangeDataFeed'='true', 'delta.columnMapping.mode'='name')",
        path);
    sql("INSERT INTO delta.`%s` VALUES (1, '111-11-1111', 'secret 1')", path); // v1
    Map<String, String> settings =
        ConnectorConfig.forTables(path)
            .name("masks-rename")
            .startMode("earliest")
            .keyColumns("id")
            .pollIntervalMs(50)
            .with(
                "heartbeat.interval.ms", "0",
                "column.mask.hash.list", "people:ssn",
                "column.mask.hash.salt", SALT,
                "column.exclude.list", "people:notes")
            .buildTask();

    SimulatedWorker worker = new SimulatedWorker(false);
    worker.start(settings);
    List<SourceRecord> before = worker.poll(5);
    assertThat(value(before.get(0)).get("ssn")).isEqualTo(hash("111-11-1111"));

    sql("ALTER TABLE delta.`%s` RENAME COLUMN ssn TO tax_id", path); // v2
    sql("ALTER TABLE delta.`%s` RENAME COLUMN notes TO remarks", path); // v3
    sql("INSERT INTO delta.`%s` VALUES (2, '222-22-2222', 'secret 2')", path); // v4
    sql("ALTER TABLE delta.`%s` ADD COLUMNS (ssn STRING)", path); // v5
    sql("INSERT INTO delta.`%s` VALUES (3, '333-33-3333', 'secret 3', '444-44-4444')", path); // v6
    List<SourceRecord> after = worker.poll(5);
    worker.stop();

    assertThat(after).hasSize(2);
    Struct renamed = value(after.get(0));
    assertThat(renamed.get("tax_id")).isEqualTo(hash("222-22-2222"));
    assertThat(renamed.schema().field("remarks")).isNull();
    Struct readded = value(after.get(1));
    assertThat(readded.get("tax_id")).isEqualTo(hash("333-33-3333"));
    assertThat(readded.get("ssn")).isEqualTo(hash("444-44-4444"));
    assertThat(readded.schema().field("remarks")).isNull();
    assertThat(after.toString()).doesNotContain("222-22-2222", "secret 2", "secret 3");

    // A restart reads from the stored offset, where the start schema no longer shows the old
    // names: the offset carries the columns the rules hid, by identity.
    sql("INSERT INTO delta.`%s` VALUES (4, '555-55-5555', 'secret 4', '666-66-6666')", path); // v7
    worker.start(settings);
    List<SourceRecord> restarted = worker.poll(5);
    worker.stop();

    Struct last = value(restarted.get(restarted.size() - 1));
    assertThat(last.get("id")).isEqualTo(4L);
    assertThat(last.get("tax_id")).isEqualTo(hash("555-55-5555"));
    assertThat(last.get("ssn")).isEqualTo(hash("666-66-6666"));
    assertThat(last.schema().field("remarks")).isNull();
    assertThat(restarted.toString()).doesNotContain("555-55-5555", "secret 4");
  }

  private static Struct value(SourceRecord record) {
    return (Struct) record.value();
  }

  private static String hash(String text) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(SALT.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
  }
}
