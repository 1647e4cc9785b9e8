package io.deltacdf.connect.delta.plan;

import io.deltacdf.connect.delta.kernel.DeletionVector;
import io.deltacdf.connect.delta.kernel.FileRowIds;
import io.deltacdf.connect.delta.kernel.LogAction;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * File actions in a local temp file, appended once and then read back one at a time from where each
 * starts: the halves of a huge commit's deletion vector updates, kept off the heap.
 */
public final class SpilledFileActions implements AutoCloseable {

  private static final int WRITE_BUFFER_BYTES = 1 << 16;

  /** Most actions fit, so that reading one is usually one system call. */
  private static final int READ_AHEAD_BYTES = 512;

  private final Path file;
  private final ByteArrayOutputStream record = new ByteArrayOutputStream();
  private final DataOutputStream recordOut = new DataOutputStream(record);
  private DataOutputStream out;
  private long written;
  private FileChannel channel;
  private ByteBuffer read = ByteBuffer.allocate(READ_AHEAD_BYTES);

  public SpilledFileActions(Path file) {
    this.file = file;
    try {
      this.out =
          new DataOutputStream(
              new BufferedOutputStream(Files.newOutputStream(file), WRITE_BUFFER_BYTES));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write spill file " + file, e);
    }
  }

  /** Appends {@code action}; returns where it starts, for {@link #read}. */
  public long append(LogAction.FileAction action) {
    record.reset();
    try {
      write(recordOut, action);
      out.writeInt(record.size());
      record.writeTo(out);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write spill file " + file, e);
    }
    long at = written;
    written += Integer.BYTES + record.size();
    return at;
  }

  /** The action that starts at {@code offset}; the first read ends appending. */
  public LogAction.FileAction read(long offset) {
    try {
      if (channel == null) {
        out.close();
        out = null;
        channel = FileChannel.open(file);
      }
      ByteBuffer bytes = readAt(offset, Integer.BYTES);
      int length = bytes.getInt();
      if (bytes.remaining() < length) {
        bytes = readAt(offset + Integer.BYTES, length);
      }
      return read(
          new DataInputStream(new ByteArrayInputStream(bytes.array(), bytes.position(), length)));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read spill file " + file, e);
    }
  }

  @Override
  public void close() {
    try (DataOutputStream writing = out;
        FileChannel reading = channel) {
      out = null;
      channel = null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** At least {@code length} bytes from {@code offset}, more if the buffer takes them. */
  private ByteBuffer readAt(long offset, int length) throws IOException {
    if (read.capacity() < length) {
      read = ByteBuffer.allocate(length);
    }
    read.clear();
    while (read.position() < length) {
      if (channel.read(read, offset + read.position()) < 0) {
        throw new IOException("Spill file " + file + " ends inside an action");
      }
    }
    return read.flip();
  }

  private static void write(DataOutputStream out, LogAction.FileAction action) throws IOException {
    out.writeByte(action.kind().ordinal());
    writeString(out, action.path());
    out.writeInt(action.partitionValues().size());
    for (Map.Entry<String, String> value : action.partitionValues().entrySet()) {
      writeString(out, value.getKey());
      writeString(out, value.getValue());
    }
    out.writeLong(action.size());
    out.writeBoolean(action.dataChange());
    out.writeBoolean(action.extendedFileMetadata());
    DeletionVector dv = action.deletionVector();
    out.writeBoolean(dv != null);
    if (dv != null) {
      writeString(out, dv.storageType());
      writeString(out, dv.pathOrInlineDv());
      out.writeInt(dv.offset().orElse(-1));
      out.writeInt(dv.sizeInBytes());
      out.writeLong(dv.cardinality());
    }
    FileRowIds rowIds = action.rowIds();
    out.writeBoolean(rowIds != null);
    if (rowIds != null) {
      out.writeLong(rowIds.baseRowId());
      out.writeLong(rowIds.defaultRowCommitVersion());
    }
  }

  private static LogAction.FileAction read(DataInputStream in) throws IOException {
    LogAction.Kind kind = LogAction.Kind.values()[in.readByte()];
    String path = readString(in);
    int partitions = in.readInt();
    Map<String, String> partitionValues = new HashMap<>();
    for (int i = 0; i < partitions; i++) {
      partitionValues.put(readString(in), readString(in));
    }
    long size = in.readLong();
    boolean dataChange = in.readBoolean();
    boolean extendedFileMetadata = in.readBoolean();
    DeletionVector dv = null;
    if (in.readBoolean()) {
      String storageType = readString(in);
      String pathOrInlineDv = readString(in);
      int offset = in.readInt();
      dv =
          new DeletionVector(
              storageType,
              pathOrInlineDv,
              offset < 0 ? Optional.empty() : Optional.of(offset),
              in.readInt(),
              in.readLong());
    }
    FileRowIds rowIds = in.readBoolean() ? new FileRowIds(in.readLong(), in.readLong()) : null;
    return new LogAction.FileAction(
        kind, path, partitionValues, size, dataChange, extendedFileMetadata, dv, rowIds);
  }

  /** A string of any length (writeUTF stops at 64 KiB), or null (partition values may be). */
  private static void writeString(DataOutputStream out, String value) throws IOException {
    if (value == null) {
      out.writeInt(-1);
      return;
    }
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static String readString(DataInputStream in) throws IOException {
    int length = in.readInt();
    return length < 0 ? null : new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }
}
