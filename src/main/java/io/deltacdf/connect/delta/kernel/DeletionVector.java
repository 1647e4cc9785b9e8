package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.deletionvectors.DeletionVectorUtils;
import io.delta.kernel.internal.deletionvectors.RoaringBitmapArray;
import java.util.Optional;

/**
 * The rows of a data file that a log action hides from readers, as the action describes them (a
 * file of its own, or inline).
 *
 * @param storageType how the vector is stored: {@code u} (file named by a UUID), {@code p} (file
 *     named by path) or {@code i} (inline)
 * @param pathOrInlineDv the file's UUID or path, or the inline bitmap
 * @param offset where the bitmap starts inside its file, when it has one
 */
public record DeletionVector(
    String storageType,
    String pathOrInlineDv,
    Optional<Integer> offset,
    int sizeInBytes,
    long cardinality) {

  /** The vector of an action's {@code deletionVector} column at {@code row}, or null if none. */
  static DeletionVector at(ColumnVector vector, int row) {
    DeletionVectorDescriptor descriptor = DeletionVectorDescriptor.fromColumnVector(vector, row);
    if (descriptor == null) {
      return null;
    }
    return new DeletionVector(
        descriptor.getStorageType(),
        descriptor.getPathOrInlineDv(),
        descriptor.getOffset(),
        descriptor.getSizeInBytes(),
        descriptor.getCardinality());
  }

  /** Whether the bitmap lives in a file of its own, which must then be read. */
  public boolean onDisk() {
    return descriptor().isOnDisk();
  }

  /** The full path of the vector's file, for a vector {@link #onDisk()}. */
  public String absolutePath(String tableRoot) {
    return descriptor().getAbsolutePath(tableRoot);
  }

  /** Reads the hidden rows, from the vector's file when it has one. */
  public DeletedRows load(Engine engine, String tableRoot) {
    RoaringBitmapArray bitmap =
        DeletionVectorUtils.loadNewDvAndBitmap(engine, tableRoot, descriptor())._2;
    return bitmap::contains;
  }

  private DeletionVectorDescriptor descriptor() {
    return new DeletionVectorDescriptor(
        storageType, pathOrInlineDv, offset, sizeInBytes, cardinality);
  }
}
