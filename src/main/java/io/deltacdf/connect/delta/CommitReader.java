package io.deltacdf.connect.delta;

import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.utils.CloseableIterator;

/** Reads the actions of one commit again, from its first action, each time it is called. */
@FunctionalInterface
interface CommitReader {
  CloseableIterator<ColumnarBatch> read();
}
