package io.deltacdf.connect.delta.errors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.testing.Ports;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.azurebfs.contracts.exceptions.AbfsRestOperationException;
import org.apache.hadoop.fs.s3a.S3AUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Failures are classified by what they are, whatever exception types wrap them: a file that cannot
 * be parsed fails for good and is named, a store that cannot be reached is retried. The failures
 * are produced for real where that is cheap: Kernel's own engine reading broken files, a refused
 * connection, the exceptions the S3 and ABFS clients throw.
 */
class KernelErrorsTest {

  private static final String TABLE = "s3a://lake/orders";
  private static final StructType ADD =
      new StructType().add("add", new StructType().add("path", StringType.STRING));

  @TempDir Path dir;
  private final Engine engine = DefaultEngine.create(new Configuration());

  @Test
  void aCommitFileThatIsNotJsonIsCorruptAndNamed() throws IOException {
    Path commit = write("00000000000000000007.json", "{\"add\": {\"path\": tru");

    RuntimeException parseError = readJson(commit);
    DeltaFeedException error =
        KernelErrors.translate(TABLE, "version 7", commit.toUri().toString(), parseError);

    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.CORRUPT_FILE);
    assertThat(error.getMessage())
        .contains(TABLE)
        .contains("version 7")
        .contains(commit.toUri().toString())
        .contains("backup")
        .contains("PATCH /connectors/<name>/offsets")
        .contains("start.mode=snapshot");
  }

  @Test
  void aCommitFileCutOffInTheMiddleOfALineIsCorrupt() throws IOException {
    Path commit =
        write("00000000000000000008.json", "{\"commitInfo\":{\"timestamp\":1}}\n{\"add\":{");

    DeltaFeedException error = KernelErrors.translate(TABLE, "version 8", readJson(commit));

    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.CORRUPT_FILE);
    assertThat(error.getMessage()).contains("_delta_log");
  }

  @Test
  void aParquetFileShorterThanTheLogSaysIsCorruptAndNamedAsKernelNamesIt() throws IOException {
    Path checkpoint = write("00000000000000000010.checkpoint.parquet", "PAR1 cut off");

    RuntimeException readError = readParquet(checkpoint, 4_096);
    DeltaFeedException error = KernelErrors.translate(TABLE, "its latest version", readError);

    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.CORRUPT_FILE);
    assertThat(error.getMessage())
        .contains("00000000000000000010.checkpoint.parquet")
        .contains("its latest version");
  }

  @Test
  void aFileThatIsNoParquetAtAllIsCorrupt() throws IOException {
    Path data = write("part-00000.snappy.parquet", "a text file where Parquet was expected");

    RuntimeException readError = readParquet(data, Files.size(data));
    DeltaFeedException error = KernelErrors.translate(TABLE, 3, data.toUri().toString(), readError);

    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.CORRUPT_FILE);
    assertThat(error.getMessage())
        .as("names the file once, after its version")
        .contains("at version 3: file " + data.toUri() + " cannot be parsed")
        .doesNotContain("version 3 (");
  }

  @Test
  void aFileWhoseChecksumDoesNotMatchIsCorrupt() throws IOException {
    // Hadoop's local file system writes a .crc file beside it and checks it on every read.
    Path data = dir.resolve("part-00001.snappy.parquet");
    byte[] written = "PAR1 these bytes are checksummed PAR1".getBytes(StandardCharsets.UTF_8);
    FileSystem local = FileSystem.getLocal(new Configuration());
    try (OutputStream out = local.create(new org.apache.hadoop.fs.Path(data.toUri()))) {
      out.write(written);
    }
    written[6] ^= 0x20; // one flipped bit, same length
    Files.write(data, written);

    RuntimeException readError = readParquet(data, written.length);
    DeltaFeedException error = KernelErrors.translate(TABLE, 4, data.toUri().toString(), readError);

    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.CORRUPT_FILE);
  }

  @Test
  void aRefusedConnectionIsTransient() throws IOException {
    int closedPort = Ports.free();
    IOException refused =
        assertThrows(IOException.class, () -> new Socket("127.0.0.1", closedPort).close());

    DeltaFeedException error =
        KernelErrors.translate(TABLE, "its _delta_log folder", new UncheckedIOException(refused));

    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.TRANSIENT);
  }

  @Test
  void aReadCutShortByAResetConnectionIsTransientNotCorrupt() {
    EOFException cutShort = new EOFException("Stream ended early");
    cutShort.initCause(new SocketException("Connection reset"));

    DeltaFeedException error =
        KernelErrors.translate(TABLE, 5, "s3a://lake/orders/part-1.parquet", cutShort);

    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.TRANSIENT);
  }

  @Test
  void anS3SlowDownIsTransient() {
    IOException slowDown =
        S3AUtils.translateException(
            "GET",
            TABLE + "/_delta_log",
            s3Error(503, "SlowDown", "Please reduce your request rate."));

    assertThat(KernelErrors.translate(TABLE, "its _delta_log folder", slowDown).kind())
        .isEqualTo(DeltaFeedException.Kind.TRANSIENT);
  }

  @Test
  void anAbfsServerBusyIsTransient() {
    AbfsRestOperationException busy =
        new AbfsRestOperationException(
            503, "ServerBusy", "Ingress is over the account limit.", null);

    assertThat(KernelErrors.translate(TABLE, "version 2", new UncheckedIOException(busy)).kind())
        .isEqualTo(DeltaFeedException.Kind.TRANSIENT);
  }

  @Test
  void anS3AccessDeniedIsNotRetried() {
    IOException denied =
        S3AUtils.translateException(
            "GET", TABLE + "/_delta_log", s3Error(403, "AccessDenied", "Access Denied"));

    assertThat(KernelErrors.translate(TABLE, "its _delta_log folder", denied).kind())
        .isEqualTo(DeltaFeedException.Kind.ACCESS_DENIED);
  }

  @Test
  void anyOtherStorageFailureIsRetried() {
    IOException odd = new IOException("The store answered something unexpected");

    assertThat(KernelErrors.translate(TABLE, "version 9", odd).kind())
        .isEqualTo(DeltaFeedException.Kind.TRANSIENT);
  }

  private Path write(String name, String content) throws IOException {
    return Files.writeString(dir.resolve(name), content);
  }

  private RuntimeException readJson(Path file) {
    return assertThrows(
        RuntimeException.class,
        () -> {
          try (CloseableIterator<?> batches =
              engine
                  .getJsonHandler()
                  .readJsonFiles(files(file, Files.size(file)), ADD, Optional.empty())) {
            while (batches.hasNext()) {
              batches.next();
            }
          }
        });
  }

  private RuntimeException readParquet(Path file, long sizeInLog) {
    return assertThrows(
        RuntimeException.class,
        () -> {
          try (CloseableIterator<?> batches =
              engine
                  .getParquetHandler()
                  .readParquetFiles(files(file, sizeInLog), ADD, Optional.empty())) {
            while (batches.hasNext()) {
              batches.next();
            }
          }
        });
  }

  private static CloseableIterator<FileStatus> files(Path file, long size) {
    return Utils.singletonCloseableIterator(FileStatus.of(file.toUri().toString(), size, 0));
  }

  private static S3Exception s3Error(int status, String code, String message) {
    return (S3Exception)
        S3Exception.builder()
            .statusCode(status)
            .message(message + " (Service: S3, Status Code: " + status + ")")
            .awsErrorDetails(
                AwsErrorDetails.builder().errorCode(code).errorMessage(message).build())
            .build();
  }
}
