package io.deltacdf.connect.stream;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.delta.DeltaFeedException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Keeps configured secrets out of messages that leave the connector (validation errors, task
 * failures, logs): store errors normally do not echo credentials, but a message that did would end
 * up in the REST API and the worker log.
 */
public final class Redaction {

  public static final String HIDDEN = "[hidden]";

  private final List<String> secrets;

  public Redaction(DeltaCdfSourceConfig config) {
    // Very short values would blank out unrelated text; real secrets are long.
    this.secrets =
        config.secretValues().stream().filter(s -> s != null && s.length() >= 4).toList();
  }

  /**
   * The Connect exception a task fails with. Never a {@code RetriableException}: Connect drops the
   * records of a poll that throws one, while the task's positions have moved past them; transient
   * faults are retried inside the task instead. The cause is attached, for its stack trace, only
   * when no secret appears anywhere in it.
   */
  ConnectException toConnectException(DeltaFeedException error) {
    String message = redact(error.getMessage());
    StringWriter trace = new StringWriter();
    error.printStackTrace(new PrintWriter(trace));
    Throwable cause = redact(trace.toString()).equals(trace.toString()) ? error : null;
    return new ConnectException(message, cause);
  }

  /** {@code message} with each configured secret replaced by {@link #HIDDEN}. */
  public String redact(String message) {
    if (message == null) {
      return null;
    }
    String result = message;
    for (String secret : secrets) {
      result = result.replace(secret, HIDDEN);
    }
    return result;
  }
}
