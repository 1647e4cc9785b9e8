package io.deltacdf.connect.task.signal;

/**
 * A record of the signal topic addressed to this connector: a signal, or why it is not one.
 *
 * @param signal the signal, null when malformed
 * @param problem what is wrong with a malformed one, null otherwise
 * @param offset where in the signal topic it was read
 * @param id the signal's id when it could be read, else null
 */
public record ReadSignal(Signal signal, String problem, long offset, String id) {

  static ReadSignal of(Signal signal) {
    return new ReadSignal(signal, null, signal.offset(), signal.id());
  }

  static ReadSignal malformed(long offset, String id, String problem) {
    return new ReadSignal(null, problem, offset, id);
  }
}
