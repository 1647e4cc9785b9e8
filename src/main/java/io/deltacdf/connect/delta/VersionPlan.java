package io.deltacdf.connect.delta;

import java.util.List;
import java.util.Optional;

/**
 * What one commit version contributes to the change feed.
 *
 * @param files the change files in log order; empty for versions without row changes
 * @param newSchema the schema this version installs, when it has a metadata action
 * @param inCommitTimestamp the commit's in-commit timestamp, when it has one
 */
record VersionPlan(
    long version,
    List<ChangeFile> files,
    Optional<TableSchema> newSchema,
    Optional<Long> inCommitTimestamp) {}
