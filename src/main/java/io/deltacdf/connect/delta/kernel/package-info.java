/**
 * The one door to Delta Kernel's internal API ({@code io.delta.kernel.internal}), which may change
 * in any Kernel release: log actions, deletion vectors, log file names and paths are handed to the
 * rest of {@code delta} as Kernel's public types and our own. A Kernel upgrade that moves an
 * internal class breaks this package only.
 */
package io.deltacdf.connect.delta.kernel;
