package io.deltacdf.connect.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Free local ports, for servers whose port must be known before they start. */
public final class Ports {

  private Ports() {}

  /**
   * A port that was free a moment ago. Another process may take it before our server binds it:
   * acceptable on a test machine, and the only option where the port goes into the config (KRaft
   * voters, a forked worker's REST listener).
   */
  public static int free() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
