package io.deltacdf.connect.it.soak;

/** The faults a soak injects, one at a time, at random moments. */
public enum Fault {
  WORKER_KILL("worker SIGKILL + restart"),
  CONFIG_CHANGE("tasks.max change (tables move between tasks)"),
  BROKER_RESTART("broker restart"),
  STORE_OUTAGE("store unreachable 20 s (S3 emulator stopped)");

  private final String description;

  Fault(String description) {
    this.description = description;
  }

  public String description() {
    return description;
  }
}
