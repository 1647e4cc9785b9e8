package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.utils.CloseableIterator;
import java.util.Iterator;

/** Kernel's iterators over values already in memory. */
public final class KernelIterators {

  private KernelIterators() {}

  public static <T> CloseableIterator<T> of(Iterator<T> values) {
    return Utils.toCloseableIterator(values);
  }

  public static <T> CloseableIterator<T> single(T value) {
    return Utils.singletonCloseableIterator(value);
  }
}
