package io.deltacdf.connect.delta.log;

import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.utils.CloseableIterator;

/** Reads the actions of one commit again, from its first action, each time it is called. */
@FunctionalInterface
public interface CommitReader {
  CloseableIterator<ColumnarBatch> read();
}
