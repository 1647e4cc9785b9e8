package io.deltacdf.connect.it.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a topic holds against the change feed it should hold, both as multisets of described changes
 * (see {@link ChangingTable#describe(ConsumerRecord)}): lost = expected but never delivered,
 * duplicated = delivered more often than expected, unexpected = delivered but not in the feed at
 * all.
 *
 * <p>It also checks how duplicates came about. A task that resumes from its last committed offset
 * after a crash re-reads the feed in the same order, so in each partition of the topic a duplicate
 * run must be a contiguous stretch of what came before, ending exactly where the delivery had got
 * to (then new changes follow), unless another crash sends it back again: {@link #replays} counts
 * such runs and {@link #orderProblems} lists every place where the topic departs from that shape,
 * or where a first delivery goes back to an older commit version. A table split into shards has one
 * such sequence per shard in each partition (shards resume on their own and interleave), so the
 * order is then checked per stream that {@link #FeedCheck(List, List, Function)} names.
 */
public final class FeedCheck {

  public final int expected;
  public final int total;
  public final int distinct;
  public final int lost;
  public final int duplicated;
  public final int unexpected;
  public final int replays;
  final List<String> lostSamples = new ArrayList<>();
  final List<String> unexpectedSamples = new ArrayList<>();
  public final List<String> orderProblems = new ArrayList<>();

  private static final int SAMPLES = 10;

  /** Checks the order per partition of the topic. */
  public FeedCheck(List<String> expectedFeed, List<ConsumerRecord<byte[], byte[]>> records) {
    this(expectedFeed, records, record -> "partition " + record.partition());
  }

  /**
   * Checks the order per stream: {@code stream} names the sequence a record was sent in (e.g. its
   * partition and the shard of its key).
   */
  public FeedCheck(
      List<String> expectedFeed,
      List<ConsumerRecord<byte[], byte[]>> records,
      Function<ConsumerRecord<byte[], byte[]>, String> stream) {
    Map<String, Integer> want = counts(expectedFeed);
    if (want.size() != expectedFeed.size()) {
      throw new IllegalStateException(
          "The expected feed has repeated changes; the check needs a set");
    }
    Map<String, List<String>> byStream = new TreeMap<>();
    List<String> all = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      String change = ChangingTable.describe(record);
      all.add(change);
      byStream.computeIfAbsent(stream.apply(record), p -> new ArrayList<>()).add(change);
    }
    Map<String, Integer> got = counts(all);
    int lostCount = 0;
    for (Map.Entry<String, Integer> entry : want.entrySet()) {
      int missing = entry.getValue() - got.getOrDefault(entry.getKey(), 0);
      if (missing > 0) {
        lostCount += missing;
        sample(lostSamples, entry.getKey());
      }
    }
    int duplicatedCount = 0;
    int unexpectedCount = 0;
    for (Map.Entry<String, Integer> entry : got.entrySet()) {
      int wanted = want.getOrDefault(entry.getKey(), 0);
      if (wanted == 0) {
        unexpectedCount += entry.getValue();
        sample(unexpectedSamples, entry.getKey());
      } else if (entry.getValue() > wanted) {
        duplicatedCount += entry.getValue() - wanted;
      }
    }
    int replayCount = 0;
    for (Map.Entry<String, List<String>> changes : byStream.entrySet()) {
      replayCount += checkOrder(changes.getKey(), changes.getValue());
    }
    this.expected = expectedFeed.size();
    this.total = records.size();
    this.distinct = got.size();
    this.lost = lostCount;
    this.duplicated = duplicatedCount;
    this.unexpected = unexpectedCount;
    this.replays = replayCount;
  }

  /** Counts the replay runs of one stream and records where its order is off. */
  private int checkOrder(String stream, List<String> changes) {
    List<String> first = new ArrayList<>(); // first deliveries, in topic order
    Map<String, Integer> position = new HashMap<>();
    int replayRuns = 0;
    int previous = -1; // position in `first` of the previous record when it was a duplicate
    long lastVersion = -1;
    for (int i = 0; i < changes.size(); i++) {
      String change = changes.get(i);
      Integer at = position.get(change);
      if (at == null) {
        if (previous >= 0 && previous != first.size() - 1) {
          problem(
              stream
                  + " offset~"
                  + i
                  + ": a replay ended at "
                  + first.get(previous)
                  + " but "
                  + (first.size() - 1 - previous)
                  + " change(s) after it were not replayed before new ones: "
                  + change);
        }
        long version = version(change);
        if (version < lastVersion) {
          problem(
              stream
                  + " offset~"
                  + i
                  + ": first delivery of version "
                  + version
                  + " after version "
                  + lastVersion
                  + ": "
                  + change);
        }
        lastVersion = Math.max(lastVersion, version);
        position.put(change, first.size());
        first.add(change);
        previous = -1;
      } else {
        if (previous >= 0 && at > previous + 1) {
          problem(
              stream
                  + " offset~"
                  + i
                  + ": a replay skipped from "
                  + first.get(previous)
                  + " to "
                  + change);
        } else if (previous < 0 || at <= previous) {
          // A new run: after new records, or (another crash) going back again mid-replay.
          replayRuns++;
        }
        previous = at;
      }
    }
    return replayRuns;
  }

  private void problem(String text) {
    if (orderProblems.size() < SAMPLES) {
      orderProblems.add(text);
    }
  }

  private static long version(String change) {
    return Long.parseLong(change.substring(1, change.indexOf(' ')));
  }

  private static Map<String, Integer> counts(List<String> changes) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    changes.forEach(c -> counts.merge(c, 1, Integer::sum));
    return counts;
  }

  private static void sample(List<String> samples, String change) {
    if (samples.size() < SAMPLES) {
      samples.add(change);
    }
  }

  public String summary() {
    return String.format(
        "expected=%d total=%d distinct=%d lost=%d duplicated=%d unexpected=%d"
            + " replays=%d%s%s%s",
        expected,
        total,
        distinct,
        lost,
        duplicated,
        unexpected,
        replays,
        lostSamples.isEmpty() ? "" : "\n  lost e.g. " + String.join("\n    ", lostSamples),
        unexpectedSamples.isEmpty()
            ? ""
            : "\n  unexpected e.g. " + String.join("\n    ", unexpectedSamples),
        orderProblems.isEmpty()
            ? ""
            : "\n  order problems: " + String.join("\n    ", orderProblems));
  }
}
