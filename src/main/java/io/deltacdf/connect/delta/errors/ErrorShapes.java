package io.deltacdf.connect.delta.errors;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.EOFException;
import java.io.InterruptedIOException;
import java.lang.reflect.Method;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.parquet.io.ParquetDecodingException;

/**
 * What a storage or Kernel failure is, read from its whole cause chain. The exception type alone
 * does not tell: a JSON parse error is an {@code IOException} just like a refused connection, yet
 * only the connection can succeed on a retry.
 */
public final class ErrorShapes {

  private ErrorShapes() {}

  /**
   * Error codes and texts of a store that is out of reach, overloaded or failing for a while: the
   * JDK's network errors, S3 (SlowDown, 503), ABFS (ServerBusy, OperationTimedOut), GCS
   * (rateLimitExceeded, backendError), and HTTP clients' timeouts. Compared in lower case.
   */
  private static final List<String> TRANSIENT_MARKERS =
      List.of(
          "connection refused",
          "connection reset",
          "broken pipe",
          "timed out",
          "timeout waiting for connection",
          "premature end of",
          "unable to execute http request",
          "slowdown",
          "slow down",
          "serverbusy",
          "server is busy",
          "throttl",
          "toomanyrequests",
          "too many requests",
          "requestlimitexceeded",
          "ratelimitexceeded",
          "requesttimeout",
          "operationtimedout",
          "internalerror",
          "backenderror",
          "serviceunavailable",
          "service unavailable",
          "ingressoveraccountlimit",
          "egressoveraccountlimit");

  /** "Status Code: 503" as the AWS SDK writes it, "HTTP 429" as others do. */
  private static final Pattern TRANSIENT_STATUS_TEXT =
      Pattern.compile("(?:status code:?|http)\\s*(?:5\\d\\d|429|408)\\b");

  /** Texts of parsers and readers that met bytes they cannot decode. Compared in lower case. */
  private static final List<String> CORRUPT_MARKERS =
      List.of(
          "is not a parquet file",
          "can not read class org.apache.parquet.format",
          "checksum mismatch",
          "dv size mismatch",
          "roaringbitmaparray magic number",
          "failed_to_uncompress");

  /** How Kernel's default engine names the file it failed to read. */
  private static final Pattern KERNEL_FILE =
      Pattern.compile("Error reading (?:Parquet|JSON) file: (.+?\\.(?:parquet|json))(?=: |$)");

  /**
   * Whether the store could not be reached or asked to come back later: refused or reset
   * connections, timeouts, HTTP 5xx, 408 and 429, throttling error codes. Such a failure may pass,
   * whatever else the chain holds.
   */
  public static boolean isTransient(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof ConnectException
          || t instanceof NoRouteToHostException
          || t instanceof UnknownHostException
          || t instanceof SocketException
          || t instanceof InterruptedIOException // socket and HTTP client timeouts
          || t instanceof TimeoutException) {
        return true;
      }
      int status = httpStatus(t);
      if (status >= 500 && status < 600 || status == 429 || status == 408) {
        return true;
      }
      String message = lowerCaseMessage(t);
      if (TRANSIENT_MARKERS.stream().anyMatch(message::contains)
          || TRANSIENT_STATUS_TEXT.matcher(message).find()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a file was read but its bytes cannot be parsed: a commit file that is not JSON, a
   * Parquet file (data, cdc or checkpoint) that is truncated or does not decode, a checksum that
   * does not match. Reading it again yields the same bytes.
   */
  public static boolean isCorrupt(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof JsonProcessingException
          || t instanceof EOFException
          || t instanceof ChecksumException
          || t instanceof ParquetDecodingException) {
        return true;
      }
      String message = lowerCaseMessage(t);
      if (CORRUPT_MARKERS.stream().anyMatch(message::contains)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the failure is JSON that does not parse (a commit file, not a Parquet file). */
  public static boolean isUnparsableJson(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof JsonProcessingException) {
        return true;
      }
    }
    return false;
  }

  /** The file a failure names, when Kernel's engine wrote it into a message of the chain. */
  public static Optional<String> fileNamed(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      Matcher matcher = KERNEL_FILE.matcher(String.valueOf(t.getMessage()));
      if (matcher.find()) {
        return Optional.of(matcher.group(1));
      }
    }
    return Optional.empty();
  }

  /**
   * The HTTP status carried by a store's own exception (the AWS SDK's and S3A's {@code
   * statusCode()}, ABFS's and the Google client's {@code getStatusCode()}), or -1. Looked up by
   * name so that this package depends on no store SDK, shaded or not.
   */
  private static int httpStatus(Throwable t) {
    for (String accessor : List.of("statusCode", "getStatusCode")) {
      try {
        Method method = t.getClass().getMethod(accessor);
        if (method.getReturnType() == int.class) {
          return (int) method.invoke(t);
        }
      } catch (ReflectiveOperationException | RuntimeException e) {
        // Not this store's exception.
      }
    }
    return -1;
  }

  private static String lowerCaseMessage(Throwable t) {
    return String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
  }
}
