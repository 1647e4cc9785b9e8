package io.deltacdf.connect;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The connector's version, written into a resource by the build. */
final class Version {

  private static final String VERSION = load();

  private Version() {}

  static String get() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
