package io.deltacdf.connect.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Free local ports, for servers whose port must be known before they start, and for a port that
 * nothing listens on. A port was free a moment ago: another process may take it before our server
 * binds it, acceptable on a test machine, and the only option where the port goes into the config
 * (KRaft voters, a worker's REST listener).
 */
public final class Ports {

  private Ports() {}

  public static int free() {
    return free(1)[0];
  }

  /** {@code count} ports, all distinct: each stays bound until every one is found. */
  public static int[] free(int count) {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket(0);
        sockets.add(socket);
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      for (ServerSocket socket : sockets) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // Closing a listening socket that never accepted does not fail in practice.
        }
      }
    }
  }
}
