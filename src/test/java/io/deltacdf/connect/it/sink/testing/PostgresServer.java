package io.deltacdf.connect.it.sink.testing;

import io.deltacdf.connect.testing.Folders;
import io.deltacdf.connect.testing.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A private PostgreSQL cluster for one test class: {@code initdb} into a fresh temporary folder,
 * {@code pg_ctl start} on a free port of 127.0.0.1 (trust authentication, user {@code postgres},
 * database {@code postgres}), stopped and deleted by {@link #close()} or at JVM exit.
 *
 * <p>PostgreSQL refuses to run as root; as root, every command runs as the system user {@code
 * postgres} (through {@code runuser}), which then owns the folder. The binaries come from {@code
 * /usr/lib/postgresql/<version>/bin} (newest first), else from the PATH.
 */
public final class PostgresServer implements AutoCloseable {

  private static final Path DEBIAN_BINARIES = Path.of("/usr/lib/postgresql");
  private static final String SYSTEM_USER = "postgres";
  private static final long COMMAND_TIMEOUT_SECONDS = 120;

  private final Path binaries;
  private final Path dataDir;
  private final int port;
  private final Thread reaper = new Thread(this::stopQuietly, "postgres-reaper");

  private PostgresServer(Path binaries, Path dataDir, int port) {
    this.binaries = binaries;
    this.dataDir = dataDir;
    this.port = port;
  }

  /** Initialises and starts a cluster; returns once it accepts connections. */
  public static PostgresServer start() {
    Path binaries = binaries();
    try {
      Path root = Files.createTempDirectory("delta-cdf-postgres-");
      if (runningAsRoot()) {
        chownToSystemUser(root);
      }
      PostgresServer server = new PostgresServer(binaries, root.resolve("data"), Ports.free());
      Runtime.getRuntime().addShutdownHook(server.reaper);
      server.initAndStart();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public int port() {
    return port;
  }

  /** The JDBC URL of the {@code postgres} database, as seen from this machine. */
  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  public String user() {
    return SYSTEM_USER;
  }

  public Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl(), SYSTEM_USER, "");
  }

  @Override
  public void close() {
    stopQuietly();
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      // The reaper runs anyway.
    }
  }

  private void initAndStart() {
    run(
        List.of(
            binaries.resolve("initdb").toString(),
            "-D",
            dataDir.toString(),
            "-U",
            SYSTEM_USER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync"));
    // Unix sockets in the cluster's own folder (the default /var/run/postgresql may not exist or
    // belong to another cluster); durability settings off: a test database, rebuilt every run.
    String options =
        "-p "
            + port
            + " -c listen_addresses=127.0.0.1"
            + " -c unix_socket_directories="
            + dataDir
            + " -c fsync=off -c synchronous_commit=off -c full_page_writes=off";
    run(
        List.of(
            binaries.resolve("pg_ctl").toString(),
            "-D",
            dataDir.toString(),
            "-l",
            dataDir.resolveSibling("postgres.log").toString(),
            "-o",
            options,
            "-w",
            "start"));
  }

  private void stopQuietly() {
    if (Files.isRegularFile(dataDir.resolve("postmaster.pid"))) {
      try {
        run(
            List.of(
                binaries.resolve("pg_ctl").toString(),
                "-D",
                dataDir.toString(),
                "-m",
                "immediate",
                "-w",
                "stop"));
      } catch (RuntimeException e) {
        System.err.println("Stopping PostgreSQL failed: " + e.getMessage());
      }
    }
    Folders.deleteRecursively(dataDir.getParent());
  }

  private static void run(List<String> command) {
    List<String> full = new ArrayList<>();
    if (runningAsRoot()) {
      full.addAll(List.of("runuser", "-u", SYSTEM_USER, "--"));
    }
    full.addAll(command);
    try {
      Path output = Files.createTempFile("postgres-command", ".log");
      try {
        Process process =
            new ProcessBuilder(full)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new IllegalStateException("Timed out: " + String.join(" ", full));
        }
        if (process.exitValue() != 0) {
          throw new IllegalStateException(
              "Failed (exit "
                  + process.exitValue()
                  + "): "
                  + String.join(" ", full)
                  + "\n"
                  + Files.readString(output, StandardCharsets.UTF_8));
        }
      } finally {
        Files.deleteIfExists(output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The newest /usr/lib/postgresql/N/bin with initdb (Debian's layout), else the PATH's. */
  private static Path binaries() {
    if (Files.isDirectory(DEBIAN_BINARIES)) {
      try (Stream<Path> versions = Files.list(DEBIAN_BINARIES)) {
        var newest =
            versions
                .map(v -> v.resolve("bin"))
                .filter(bin -> Files.isExecutable(bin.resolve("initdb")))
                .max(Comparator.comparingInt(PostgresServer::majorVersion));
        if (newest.isPresent()) {
          return newest.get();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, "initdb"))
          && Files.isExecutable(Path.of(dir, "pg_ctl"))) {
        return Path.of(dir);
      }
    }
    throw new IllegalStateException(
        "No PostgreSQL binaries (initdb, pg_ctl) in "
            + DEBIAN_BINARIES
            + "/*/bin or on the PATH: install PostgreSQL 15 (.ci/run does)");
  }

  private static int majorVersion(Path bin) {
    try {
      return Integer.parseInt(bin.getParent().getFileName().toString());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static boolean runningAsRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static void chownToSystemUser(Path dir) throws IOException {
    UserPrincipalLookupService lookup = dir.getFileSystem().getUserPrincipalLookupService();
    UserPrincipal user = lookup.lookupPrincipalByName(SYSTEM_USER);
    GroupPrincipal group = lookup.lookupPrincipalByGroupName(SYSTEM_USER);
    PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
    view.setOwner(user);
    view.setGroup(group);
  }
}
