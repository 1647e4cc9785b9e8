package io.deltacdf.connect.offset;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.TableIdentity;

/**
 * A source offset as Connect stored it: the position, and the identity of the table it belongs to.
 *
 * @param identity null for an offset written before offsets carried it, or written by hand through
 *     the REST API without it: such an offset belongs to whichever table is at the path now
 */
public record StoredOffset(ChangePosition position, TableIdentity identity) {}
