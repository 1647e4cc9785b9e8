package io.deltacdf.connect.testing;

/** Sleeping in the wait loops of the process helpers (broker, workers, emulators). */
public final class TestSupport {

  private TestSupport() {}

  /** Sleeps; an interrupt fails the calling test instead of being swallowed. */
  public static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
