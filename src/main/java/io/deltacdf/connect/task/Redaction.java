package io.deltacdf.connect.task;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Keeps secrets out of messages that leave the connector (validation errors, task failures, logs):
 * store errors normally do not echo credentials, but a message that did would end up in the REST
 * API and the worker log. Configured secrets are hidden by value. Credentials that are never
 * configured (those Unity Catalog vends and renews, OAuth access tokens) are hidden by their shape:
 * a SAS signature, a bearer token, a JWT, an AWS session token, or any value given to a key named
 * like a token, secret, signature or password.
 */
public final class Redaction {

  public static final String HIDDEN = "[hidden]";

  /**
   * A value after a key that names a credential: {@code sig=...}, {@code "access_token": "..."}.
   */
  private static final Pattern CREDENTIAL_VALUE =
      Pattern.compile(
          "(?i)((?:sig|signature|[\\w.-]*token|[\\w.-]*secret[\\w.-]*|password|credential)"
              + "\"?\\s*[=:]\\s*\"?)([^\\s&\"',;}]{8,})");

  private static final List<Pattern> TOKEN_SHAPES =
      List.of(
          // Authorization: Bearer <token>
          Pattern.compile("(?i)(?<=bearer\\s)[\\w.~+/=-]{8,}"),
          // A JWT (Entra ID, Databricks OAuth): header.payload.signature, base64url.
          Pattern.compile("eyJ[\\w-]{4,}\\.[\\w-]{4,}\\.[\\w-]*"),
          // AWS STS session tokens start with a fixed prefix of their base64 encoding.
          Pattern.compile("(?:IQoJb3JpZ2lu|FwoGZXIvYXdz|FQoGZXIvYXdz)[\\w+/=%]+"));

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
  ConnectException toConnectException(RuntimeException error) {
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
    result = CREDENTIAL_VALUE.matcher(result).replaceAll("$1" + Matcher.quoteReplacement(HIDDEN));
    for (Pattern shape : TOKEN_SHAPES) {
      result = shape.matcher(result).replaceAll(Matcher.quoteReplacement(HIDDEN));
    }
    return result;
  }
}
