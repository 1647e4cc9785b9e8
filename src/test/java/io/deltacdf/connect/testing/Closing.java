package io.deltacdf.connect.testing;

/** Closes what a test class started, in the order given. */
public final class Closing {

  private Closing() {}

  /**
   * Closes each resource in turn, skipping nulls (what a failed start never made), and each even
   * when one before it failed; the first failure is thrown, with the later ones suppressed in it.
   */
  public static void inOrder(AutoCloseable... resources) {
    RuntimeException failure = null;
    for (AutoCloseable resource : resources) {
      if (resource == null) {
        continue;
      }
      try {
        resource.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
