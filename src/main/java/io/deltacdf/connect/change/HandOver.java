package io.deltacdf.connect.change;

import io.deltacdf.connect.change.ChangePosition.InVersion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Where the table's changes stood, per key, when its shard count changed: the positions the
 * partitions of other counts (the whole table counting as one shard) stored. A new partition reads
 * from a point at or before every one of them, and sends a key's row only at or after the position
 * of the old partition that owned the key: the rows before it were sent by that partition. Once its
 * position passes the largest of them ({@link #end}) nothing is held back any more.
 *
 * <p>A hand-over of a hand-over composes: each cut is a lower bound of how far a key's changes were
 * sent (an old partition's position holds for its keys, whether it sent a row itself or its own
 * hand-over had been sent it before), so the largest over all cuts is exactly how far they were
 * sent by whichever partition owned the key last.
 *
 * @param cuts one per shard count: the positions its partitions stored, null for one that stored
 *     none
 */
public record HandOver(List<Cut> cuts) {

  /** Positions in versions, by version, then file index, then row, as the feed reads them. */
  public static final Comparator<InVersion> ORDER =
      Comparator.comparingLong(InVersion::version)
          .thenComparingInt(InVersion::fileIndex)
          .thenComparingLong(InVersion::nextRow);

  /**
   * The positions the {@code count} partitions of one shard count stored, by shard index; null
   * where a partition stored none.
   */
  public record Cut(int count, List<InVersion> positions) {

    public Cut {
      positions = Collections.unmodifiableList(new ArrayList<>(positions));
      if (count < 1 || count > TableShard.MAX_COUNT || positions.size() != count) {
        throw new IllegalArgumentException(
            "A hand-over cut has one position per shard of its count, not " + positions);
      }
      if (positions.stream().allMatch(Objects::isNull)) {
        throw new IllegalArgumentException("A hand-over cut needs at least one position");
      }
    }

    /** A cut of one position that holds for every key. */
    public static Cut whole(InVersion position) {
      return new Cut(1, List.of(position));
    }

    /** Whether every partition of the count stored a position. */
    public boolean complete() {
      return positions.stream().allMatch(Objects::nonNull);
    }

    /** The position of the partition that owns the key hashing to {@code keyHash}; may be null. */
    InVersion of(long keyHash) {
      return positions.get(TableShard.indexOf(keyHash, count));
    }

    InVersion max() {
      return positions.stream().filter(Objects::nonNull).max(ORDER).orElseThrow();
    }

    InVersion min() {
      return positions.stream().min(ORDER).orElseThrow();
    }
  }

  public HandOver {
    Set<Cut> distinct = new LinkedHashSet<>(cuts);
    if (distinct.isEmpty()) {
      throw new IllegalArgumentException("A hand-over needs at least one cut");
    }
    cuts = List.copyOf(distinct);
  }

  /** The same cuts and those of {@code other}. */
  public HandOver and(HandOver other) {
    List<Cut> both = new ArrayList<>(cuts);
    both.addAll(other.cuts);
    return new HandOver(both);
  }

  /**
   * Whether a partition that reads every row from its start sends the row at {@code at} of the key
   * hashing to {@code keyHash}: not when a cut shows that row was sent before.
   */
  public boolean sends(long keyHash, InVersion at) {
    for (Cut cut : cuts) {
      InVersion sentTo = cut.of(keyHash);
      if (sentTo != null && ORDER.compare(at, sentTo) < 0) {
        return false;
      }
    }
    return true;
  }

  /** The largest position of any cut: from there on every row is sent. */
  public InVersion end() {
    return cuts.stream().map(Cut::max).max(ORDER).orElseThrow();
  }

  /**
   * Where a partition without a position of its own starts: the start of the version of the
   * smallest position of the complete cut that is furthest on (every key's changes were sent at
   * least that far); null when no cut is complete.
   */
  public InVersion start() {
    return cuts.stream()
        .filter(Cut::complete)
        .map(Cut::min)
        .max(ORDER)
        .map(min -> InVersion.start(min.version()))
        .orElse(null);
  }

  /**
   * As an offset carries it, one string (Connect stores only primitive values in offsets): the cuts
   * joined with ';', each its count, ':', and its positions joined with ','; a position is {@code
   * version} at a version's start, else {@code version.file.row}, and {@code -} where none was
   * stored. For example {@code 1:12;3:13,-,14.0.5}.
   */
  public String toText() {
    StringBuilder text = new StringBuilder();
    for (Cut cut : cuts) {
      text.append(text.isEmpty() ? "" : ";").append(cut.count()).append(':');
      for (int i = 0; i < cut.count(); i++) {
        InVersion p = cut.positions().get(i);
        text.append(i == 0 ? "" : ",");
        if (p == null) {
          text.append('-');
        } else {
          text.append(p.version());
          if (p.fileIndex() != 0 || p.nextRow() != 0) {
            text.append('.').append(p.fileIndex()).append('.').append(p.nextRow());
          }
        }
      }
    }
    return text.toString();
  }

  /**
   * Reads {@link #toText}.
   *
   * @throws IllegalArgumentException saying what is expected
   */
  public static HandOver parse(String text) {
    try {
      List<Cut> cuts = new ArrayList<>();
      for (String cut : text.split(";", -1)) {
        String[] countAndPositions = cut.split(":", -1);
        if (countAndPositions.length != 2) {
          throw new IllegalArgumentException("no ':' in " + cut);
        }
        List<InVersion> positions = new ArrayList<>();
        for (String position : countAndPositions[1].split(",", -1)) {
          positions.add(position.equals("-") ? null : position(position));
        }
        cuts.add(new Cut(Integer.parseInt(countAndPositions[0]), positions));
      }
      return new HandOver(cuts);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "'handover' is <count>:<position>,... per shard count, joined with ';', a position"
              + " <version> or <version>.<file>.<row> or '-' (such as 1:12;3:13,-,14.0.5), not '"
              + text
              + "' ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  private static InVersion position(String text) {
    long[] parts = Arrays.stream(text.split("\\.", -1)).mapToLong(Long::parseLong).toArray();
    if ((parts.length != 1 && parts.length != 3)
        || Arrays.stream(parts).anyMatch(p -> p < 0)
        || (parts.length == 3 && parts[1] > Integer.MAX_VALUE)) {
      throw new IllegalArgumentException("not a position: " + text);
    }
    return parts.length == 1
        ? InVersion.start(parts[0])
        : new InVersion(parts[0], (int) parts[1], parts[2]);
  }
}
