/**
 * Fixtures shared by the tests of several packages.
 *
 * <p>Where fixtures live: a fixture (any class under src/test/java that is not a test) sits in the
 * {@code testing} package under the package of the tests that use it ({@code it.testing}, {@code
 * it.storage.testing}, {@code delta.testing}, {@code stream.testing}, ...), and here when tests of
 * packages that share no parent but the root use it.
 */
package io.deltacdf.connect.testing;
