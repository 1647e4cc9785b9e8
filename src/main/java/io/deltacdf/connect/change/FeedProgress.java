package io.deltacdf.connect.change;

/**
 * How far a feed has come, for metrics.
 *
 * @param latestKnownVersion the newest commit version the feed has seen in the log
 * @param snapshotFilesDone data files of the initial snapshot read so far (0 without one)
 * @param snapshotFilesTotal data files of the initial snapshot (0 without one)
 * @param bytesRead bytes of data and change files read so far
 * @param versions the versions read to their end so far, by where their change rows came from
 */
public record FeedProgress(
    long latestKnownVersion,
    long snapshotFilesDone,
    long snapshotFilesTotal,
    long bytesRead,
    VersionSourceCounts versions) {}
