package io.deltacdf.connect.delta.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The change data files of a table written by Spark with the Change Data Feed on. */
public final class ChangeDataFiles {

  private ChangeDataFiles() {}

  /** Deletes every file a {@code cdc} action of the log names; returns how many. */
  public static int deleteAll(Path table) {
    ObjectMapper json = new ObjectMapper();
    int deleted = 0;
    try (Stream<Path> commits = Files.list(table.resolve("_delta_log"))) {
      for (Path commit : commits.filter(f -> f.toString().endsWith(".json")).toList()) {
        for (String line : Files.readAllLines(commit)) {
          JsonNode cdc = json.readTree(line).get("cdc");
          if (cdc != null) {
            Path file = table.resolve(URI.create(cdc.get("path").asText()).getPath());
            if (Files.deleteIfExists(file)) {
              deleted++;
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return deleted;
  }
}
