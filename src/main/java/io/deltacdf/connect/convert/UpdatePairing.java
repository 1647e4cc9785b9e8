package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Pairs the pre- and post-image of each update by key (a Connect struct or its JSON text, equal
 * exactly when the key values are) within a version, in whatever order they come. Delta writes the
 * two images of an update next to each other, so few wait at a time; the number waiting is bounded
 * all the same.
 */
final class UpdatePairing {

  /** One update image and the feed position just before it. */
  record Image(Object key, Object row, ChangeRow change, ChangePosition before) {
    boolean isPre() {
      return change.type() == ChangeType.UPDATE_PREIMAGE;
    }
  }

  record Pair(Image pre, Image post) {}

  private final int maxPending;
  private final Map<Object, ArrayDeque<Long>> preByKey = new HashMap<>();
  private final Map<Object, ArrayDeque<Long>> postByKey = new HashMap<>();

  /** Waiting images by arrival, so the earliest one's position is at hand. */
  private final TreeMap<Long, Image> waiting = new TreeMap<>();

  private long arrivals;

  UpdatePairing(int maxPending) {
    this.maxPending = maxPending;
  }

  /**
   * Adds an image; returns the completed pair when its partner was waiting.
   *
   * @throws IllegalStateException when more than the bound would wait
   */
  Optional<Pair> offer(Image image) {
    Map<Object, ArrayDeque<Long>> partners = image.isPre() ? postByKey : preByKey;
    ArrayDeque<Long> candidates = partners.get(image.key());
    if (candidates != null) {
      Image partner = waiting.remove(candidates.poll());
      if (candidates.isEmpty()) {
        partners.remove(image.key());
      }
      return Optional.of(image.isPre() ? new Pair(image, partner) : new Pair(partner, image));
    }
    if (waiting.size() >= maxPending) {
      throw new IllegalStateException(
          "More than "
              + maxPending
              + " update images of version "
              + image.change().version()
              + " wait for their partner image (record.format=envelope pairs the pre- and"
              + " post-image of each update by key); raise envelope.max.pending.images, or use"
              + " record.format=row. A version whose changes are derived (change.source=derived"
              + " or auto) and that rewrites files lists all its pre-images before its"
              + " post-images, so up to one image per updated row of the version waits");
    }
    long arrival = arrivals++;
    waiting.put(arrival, image);
    (image.isPre() ? preByKey : postByKey)
        .computeIfAbsent(image.key(), k -> new ArrayDeque<>())
        .add(arrival);
    return Optional.empty();
  }

  boolean isEmpty() {
    return waiting.isEmpty();
  }

  /** The position before the earliest waiting image: resuming there loses none of them. */
  ChangePosition earliestBefore() {
    return waiting.firstEntry().getValue().before();
  }

  /** Removes and returns the images that found no partner (their key changed), in feed order. */
  List<Image> drain() {
    List<Image> unpaired = new ArrayList<>(waiting.values());
    clear();
    return unpaired;
  }

  void clear() {
    waiting.clear();
    preByKey.clear();
    postByKey.clear();
  }
}
