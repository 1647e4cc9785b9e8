package io.deltacdf.connect.delta.storage;

import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.apache.hadoop.fs.s3a.S3AUtils;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Lists the files of an S3A folder from a name on with ListObjectsV2's {@code StartAfter}, so
 * listing a long {@code _delta_log} from a recent version costs one request per 1,000 files
 * after that version, not per 1,000 files of the folder as Hadoop's {@code listStatus} does.
 * The request comes from S3A's request factory and goes through S3A's client, so it carries the
 * file system's bucket, credentials, endpoint and request settings.
 */
final class S3StartAfterListing {

  private S3StartAfterListing() {}

  /**
   * The files (not subfolders) of the folder of {@code from} whose names sort at or after
   * {@code from}'s name, sorted by name; null when S3A is set to list with the V1 API, which
   * has no {@code StartAfter}.
   *
   * @throws java.io.FileNotFoundException when there are none and the folder does not exist
   */
  static List<FileStatus> listFrom(S3AFileSystem fs, Path from) throws IOException {
    String folder = fs.pathToKey(from.getParent()) + "/";
    String name = from.getName();
    ListObjectsV2Request request = fs.createListObjectsRequest(folder, "/").getV2();
    if (request == null) {
      return null;
    }
    if (!name.isEmpty()) {
      // StartAfter is exclusive: start after the name minus its last character, and drop the
      // few names between that and the name itself below.
      request = request.toBuilder()
          .startAfter(folder + name.substring(0, name.length() - 1))
          .build();
    }
    List<FileStatus> files = new ArrayList<>();
    try {
      for (S3Object object : fs.getS3AInternals()
          .getAmazonS3Client("list a folder from a file name on")
          .listObjectsV2Paginator(request)
          .contents()) {
        String key = object.key();
        if (key.substring(folder.length()).compareTo(name) >= 0 && !key.endsWith("/")) {
          files.add(FileStatus.of(fs.keyToQualifiedPath(key).toString(), object.size(),
              object.lastModified().toEpochMilli()));
        }
      }
    } catch (SdkException e) {
      throw S3AUtils.translateException("listFrom", from, e);
    }
    if (files.isEmpty()) {
      fs.getFileStatus(from.getParent()); // a missing folder fails as Hadoop's listing does
    }
    return files;
  }
}
