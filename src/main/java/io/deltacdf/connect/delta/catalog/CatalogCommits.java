package io.deltacdf.connect.delta.catalog;

import io.delta.kernel.CommitRange;
import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.unitycatalog.UCCatalogManagedClient;
import io.delta.kernel.unitycatalog.UCTableIdentifier;
import io.delta.storage.commit.Commit;
import io.delta.storage.commit.GetCommitsResponse;
import io.delta.storage.commit.TableIdentifier;
import io.delta.storage.commit.uccommitcoordinator.UCClient;
import io.delta.storage.commit.uccommitcoordinator.UCCommitCoordinatorException;
import io.delta.storage.commit.uccommitcoordinator.UCTokenBasedRestClient;
import io.unitycatalog.client.auth.TokenProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The commits Unity Catalog ratified for one catalog-managed table. Such a table's newest commits
 * live in {@code _delta_log/_staged_commits/} until they are published to {@code _delta_log}, and
 * only the catalog knows which staged files are commits; snapshots and commit ranges are therefore
 * loaded with them, through Kernel's Unity Catalog client.
 */
public final class CatalogCommits implements AutoCloseable {

  /**
   * A commit the catalog ratified, not necessarily published yet.
   *
   * @param path the staged commit file
   */
  public record Ratified(long version, String path, long modificationTime) {}

  /**
   * What the catalog knows of the table's commits.
   *
   * @param latestVersion the table's latest version (-1 when none is ratified)
   * @param unpublished the ratified commits not yet published, by version
   */
  public record Ratification(long latestVersion, List<Ratified> unpublished) {}

  private final UCClient client;
  private final UCCatalogManagedClient managed;
  private final CatalogTable table;
  private final UCTableIdentifier identifier;

  CatalogCommits(
      String uri, TokenProvider tokens, Map<String, String> appVersions, CatalogTable table) {
    this.client = new UCTokenBasedRestClient(uri, tokens, appVersions);
    this.managed = new UCCatalogManagedClient(client);
    this.table = table;
    String[] parts = table.fullName().split("\\.");
    this.identifier = new UCTableIdentifier(parts[0], parts[1], parts[2]);
  }

  /** The snapshot at {@code version}, or the latest, with the catalog's ratified commits. */
  public Snapshot snapshot(Engine engine, String tableRoot, Optional<Long> version) {
    return managed.loadSnapshot(
        engine, table.tableId(), tableRoot, identifier, version, Optional.empty());
  }

  /** The commits {@code from} to {@code to}, the unpublished ones read from their staged files. */
  public CommitRange range(Engine engine, String tableRoot, long from, long to) {
    return managed.loadCommitRange(
        engine,
        table.tableId(),
        tableRoot,
        identifier,
        Optional.of(from),
        Optional.empty(),
        Optional.of(to),
        Optional.empty());
  }

  /** The commits from the first at or after {@code epochMillis} on. */
  public CommitRange rangeFromTimestamp(Engine engine, String tableRoot, long epochMillis) {
    return managed.loadCommitRange(
        engine,
        table.tableId(),
        tableRoot,
        identifier,
        Optional.empty(),
        Optional.of(epochMillis),
        Optional.empty(),
        Optional.empty());
  }

  /** Asks the catalog which commits it ratified. */
  public Ratification ratification(String tableRoot) {
    GetCommitsResponse response;
    try {
      response =
          client.getCommits(
              table.tableId(),
              URI.create(tableRoot),
              new TableIdentifier(
                  new String[] {identifier.getCatalogName(), identifier.getSchemaName()},
                  identifier.getTableName()),
              Optional.empty(),
              Optional.empty());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (UCCommitCoordinatorException e) {
      throw new IllegalStateException(e);
    }
    List<Ratified> commits =
        response.getCommits().stream()
            .sorted(Comparator.comparingLong(Commit::getVersion))
            .map(
                commit ->
                    new Ratified(
                        commit.getVersion(),
                        commit.getFileStatus().getPath().toString(),
                        commit.getFileStatus().getModificationTime()))
            .toList();
    return new Ratification(response.getLatestTableVersion(), commits);
  }

  @Override
  public void close() {
    try {
      client.close();
    } catch (IOException e) {
      // Nothing is held open between requests.
    }
  }
}
