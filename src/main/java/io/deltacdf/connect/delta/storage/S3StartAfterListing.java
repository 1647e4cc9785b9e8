package io.deltacdf.connect.delta.storage;

import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.apache.hadoop.fs.s3a.S3AUtils;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Lists the files of an S3A folder from a name on with ListObjectsV2's {@code StartAfter}, so
 * listing a long {@code _delta_log} from a recent version costs one request per 1,000 files after
 * that version, not per 1,000 files of the folder as Hadoop's {@code listStatus} does; and pages
 * are requested only as the caller reads on, so a caller that stops early stops listing. The
 * request comes from S3A's request factory and goes through S3A's client, so it carries the file
 * system's bucket, credentials, endpoint and request settings.
 */
final class S3StartAfterListing {

  private S3StartAfterListing() {}

  /**
   * The files (not subfolders) of the folder of {@code from} whose names sort at or after {@code
   * from}'s name, sorted by name, read one page (request) at a time as the caller asks for them;
   * null when S3A is set to list with the V1 API, which has no {@code StartAfter}.
   *
   * @throws java.io.FileNotFoundException when there are none and the folder does not exist
   */
  static CloseableIterator<FileStatus> listFrom(S3AFileSystem fs, Path from) throws IOException {
    String folder = fs.pathToKey(from.getParent()) + "/";
    String name = from.getName();
    ListObjectsV2Request request = fs.createListObjectsRequest(folder, "/").getV2();
    if (request == null) {
      return null;
    }
    if (!name.isEmpty()) {
      // StartAfter is exclusive: start after the name minus its last character, and drop the
      // few names between that and the name itself below.
      request =
          request.toBuilder().startAfter(folder + name.substring(0, name.length() - 1)).build();
    }
    Files files = new Files(fs, from, folder, name, request);
    if (!files.hasNext()) {
      fs.getFileStatus(from.getParent()); // a missing folder fails as Hadoop's listing does
    }
    return files;
  }

  /** The listed files, the next page requested when the previous one is used up. */
  private static final class Files implements CloseableIterator<FileStatus> {
    private final S3AFileSystem fs;
    private final Path from;
    private final String folder;
    private final String name;
    private final Iterator<S3Object> objects;
    private FileStatus next;

    Files(S3AFileSystem fs, Path from, String folder, String name, ListObjectsV2Request request)
        throws IOException {
      this.fs = fs;
      this.from = from;
      this.folder = folder;
      this.name = name;
      try {
        this.objects =
            fs.getS3AInternals()
                .getAmazonS3Client("list a folder from a file name on")
                .listObjectsV2Paginator(request)
                .contents()
                .iterator();
        advance();
      } catch (SdkException e) {
        throw S3AUtils.translateException("listFrom", from, e);
      }
    }

    private void advance() {
      next = null;
      while (next == null && objects.hasNext()) {
        S3Object object = objects.next();
        String key = object.key();
        if (key.substring(folder.length()).compareTo(name) >= 0 && !key.endsWith("/")) {
          next =
              FileStatus.of(
                  fs.keyToQualifiedPath(key).toString(),
                  object.size(),
                  object.lastModified().toEpochMilli());
        }
      }
    }

    @Override
    public boolean hasNext() {
      return next != null;
    }

    @Override
    public FileStatus next() {
      if (next == null) {
        throw new NoSuchElementException();
      }
      FileStatus current = next;
      try {
        advance();
      } catch (SdkException e) {
        throw new UncheckedIOException(S3AUtils.translateException("listFrom", from, e));
      }
      return current;
    }

    @Override
    public void close() {}
  }
}
