package io.deltacdf.connect.delta.errors;

import io.delta.kernel.Snapshot;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.exceptions.UnsupportedProtocolVersionException;
import io.delta.kernel.exceptions.UnsupportedTableFeatureException;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.catalog.CatalogErrors;
import io.deltacdf.connect.delta.kernel.SnapshotCheckpoints;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Optional;

/** Turns Kernel and storage failures into {@link DeltaFeedException}s a user can act on. */
public final class KernelErrors {

  private KernelErrors() {}

  /**
   * Explains a failure while reading {@code file} (the full path of a data, cdc or deletion vector
   * file) of a version.
   */
  public static DeltaFeedException translate(
      String table, long version, String file, Throwable error) {
    if (error instanceof DeltaFeedException feedError) {
      return feedError;
    }
    if (isMissingFile(error)) {
      return new DeltaFeedException(
          DeltaFeedException.Kind.HISTORY_MISSING,
          "Table "
              + table
              + " version "
              + version
              + ": file "
              + file
              + " no longer exists, most likely removed by VACUUM after its retention period."
              + " The changes of this version cannot be read. Move the connector's offset past"
              + " this version (PATCH /connectors/<name>/offsets) or restart it from a fresh"
              + " snapshot (DELETE its offsets with start.mode=snapshot)",
          error);
    }
    return translate(table, "version " + version, file, error);
  }

  /** Explains a failure while reading the table's log at the place {@code where}. */
  public static DeltaFeedException translate(String table, String where, Throwable error) {
    return translate(table, where, null, error);
  }

  /**
   * Explains a failure while Kernel replays the log of {@code snapshot}. Kernel does not always say
   * which file it was reading: a Parquet file that does not decode can then only be the snapshot's
   * checkpoint.
   */
  public static DeltaFeedException translateReplay(
      String table, String where, Snapshot snapshot, Throwable error) {
    String checkpoint = null;
    if (ErrorShapes.fileNamed(error).isEmpty() && !ErrorShapes.isUnparsableJson(error)) {
      List<String> parts = checkpointFiles(snapshot);
      checkpoint = parts.isEmpty() ? null : String.join(" or ", parts);
    }
    return translate(table, where, checkpoint, error);
  }

  private static List<String> checkpointFiles(Snapshot snapshot) {
    try {
      return SnapshotCheckpoints.of(snapshot);
    } catch (RuntimeException e) {
      return List.of(); // the log segment is listed already; naming the file must not hide why
    }
  }

  /**
   * Explains a failure while reading the table at the place {@code where}.
   *
   * @param file the full path of the file being read, or null when the caller does not know it
   *     (Kernel read the log on its own): a corrupt file is then named as Kernel names it
   */
  public static DeltaFeedException translate(
      String table, String where, String file, Throwable error) {
    if (error instanceof DeltaFeedException feedError) {
      return feedError;
    }
    Optional<DeltaFeedException> renewal = CatalogErrors.renewalFailure(table, error);
    if (renewal.isPresent()) {
      return renewal.get();
    }
    String scheme = unsupportedScheme(error);
    if (scheme != null) {
      return new DeltaFeedException(
          DeltaFeedException.Kind.TABLE_NOT_FOUND,
          "Table "
              + table
              + " uses the URI scheme '"
              + scheme
              + "', which this connector cannot read: use a plain path or a file:, s3a:, abfs:,"
              + " abfss: or gs: URI (s3: is read as s3a:)",
          error);
    }
    if (error instanceof TableNotFoundException) {
      return new DeltaFeedException(
          DeltaFeedException.Kind.TABLE_NOT_FOUND,
          "No Delta table at "
              + table
              + ": the path has no _delta_log folder, or one without any commit (a first write"
              + " that failed or has not finished). Check delta.table.paths and the storage"
              + " credentials",
          error);
    }
    if (error instanceof UnsupportedTableFeatureException
        || error instanceof UnsupportedProtocolVersionException) {
      return new DeltaFeedException(
          DeltaFeedException.Kind.UNSUPPORTED_TABLE,
          "Table "
              + table
              + " at "
              + where
              + " uses a Delta feature that cannot be read by this connector's Delta Kernel: "
              + error.getMessage(),
          error);
    }
    if (isAccessDenied(error)) {
      return new DeltaFeedException(
          DeltaFeedException.Kind.ACCESS_DENIED,
          "Access to table "
              + table
              + " was denied: "
              + rootMessage(error)
              + ". Check the credentials for this store (the s3.*, azure.* or gcs.* settings)"
              + " and that they may list and read the table's folder",
          error);
    }
    // An unreachable store may also break a read half way: that must not pass for corruption.
    String place = file == null ? where : where + " (" + file + ")";
    if (ErrorShapes.isTransient(error)) {
      return transientFailure(table, place, error);
    }
    if (ErrorShapes.isCorrupt(error)) {
      return corruptFile(table, where, file, error);
    }
    if (isIoFailure(error)) {
      return transientFailure(table, place, error);
    }
    return new DeltaFeedException(
        DeltaFeedException.Kind.UNSUPPORTED_TABLE,
        "Reading table " + table + " at " + place + " failed: " + error.getMessage(),
        error);
  }

  private static DeltaFeedException transientFailure(String table, String where, Throwable error) {
    return new DeltaFeedException(
        DeltaFeedException.Kind.TRANSIENT,
        "Reading table " + table + " at " + where + " failed: " + error.getMessage(),
        error);
  }

  private static DeltaFeedException corruptFile(
      String table, String where, String file, Throwable error) {
    String named =
        Optional.ofNullable(file)
            .or(() -> ErrorShapes.fileNamed(error))
            .map(path -> "file " + path)
            .orElse("a file of its _delta_log folder (a commit .json or checkpoint .parquet)");
    return new DeltaFeedException(
        DeltaFeedException.Kind.CORRUPT_FILE,
        "Table "
            + table
            + " at "
            + where
            + ": "
            + named
            + " cannot be parsed, it is corrupt or truncated ("
            + rootMessage(error)
            + "). Reading it again cannot help. Restore the file from a backup, or move the"
            + " connector's offset past this version (PATCH /connectors/<name>/offsets), or"
            + " restart it from a fresh snapshot (DELETE its offsets with start.mode=snapshot)",
        error);
  }

  private static String unsupportedScheme(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      String message = String.valueOf(t.getMessage());
      int at = message.indexOf("No FileSystem for scheme");
      if (at >= 0) {
        String rest = message.substring(at + "No FileSystem for scheme".length());
        return rest.replaceAll("[\\s:\"]", "");
      }
    }
    return null;
  }

  public static boolean isMissingFile(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof FileNotFoundException || t instanceof NoSuchFileException) {
        return true;
      }
    }
    return false;
  }

  /** Stores report refused credentials in many shapes: 403s, access-denied exceptions, codes. */
  public static boolean isAccessDenied(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof java.nio.file.AccessDeniedException) {
        return true;
      }
      String message = String.valueOf(t.getMessage());
      if (REFUSED_ENTRA_TOKEN.matcher(message).find()) {
        return true;
      }
      for (String marker : ACCESS_DENIED_MARKERS) {
        if (message.contains(marker)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * ABFS's token request refused by Entra ID (a wrong secret, tenant or client id: 400, 401, 403),
   * not a throttled (429) or failed (5xx) one, which may pass.
   */
  private static final java.util.regex.Pattern REFUSED_ENTRA_TOKEN =
      java.util.regex.Pattern.compile(
          "HTTP Error 40[0-3];.*getting token from AzureAD", java.util.regex.Pattern.DOTALL);

  private static final String[] ACCESS_DENIED_MARKERS = {
    "Status Code: 403",
    "403 Forbidden",
    "AccessDenied",
    "InvalidAccessKeyId",
    "SignatureDoesNotMatch",
    "AuthenticationFailed",
    "AuthorizationFailure",
    "AuthorizationPermissionMismatch",
    "Server failed to authenticate",
    "NoAuthWithAWSException",
    "Failure to initialize configuration for",
    "default credentials were not found",
    "No AWS Credentials"
  };

  private static String rootMessage(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message =
        root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    // Store messages can run to whole XML documents: the first line says what matters.
    int newline = message.indexOf('\n');
    return newline > 0 ? message.substring(0, newline) : message;
  }

  /** Any other storage failure is retried: it may pass. A missing file does not come back. */
  private static boolean isIoFailure(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof FileNotFoundException) {
        return false;
      }
      if (t instanceof IOException || t instanceof UncheckedIOException) {
        return true;
      }
    }
    return false;
  }
}
