package io.deltacdf.connect.delta.table;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.deltacdf.connect.delta.kernel.TableMetadata;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Whether files written under one metadata can be read with a later one, by the rules Spark's batch
 * change feed applies across a range ({@code SchemaUtils.isReadCompatible} with tightened
 * nullability forbidden, and {@code DeltaColumnMapping.hasNoColumnMappingSchemaChanges}): every
 * column stays, under its name, type and physical name, nullable if it was; under column mapping
 * the partitioning stays too.
 */
public final class ReadCompatibility {

  private static final String MAPPING_MODE = "delta.columnMapping.mode";

  private ReadCompatibility() {}

  /** Why rows of {@code before} cannot be read with {@code after}; empty when they can. */
  public static Optional<String> conflict(TableMetadata before, TableMetadata after) {
    boolean mappedBefore = mapped(before);
    boolean mappedAfter = mapped(after);
    if (mappedBefore && !mappedAfter) {
      return Optional.of("column mapping was turned off");
    }
    Optional<String> columns =
        conflict(
            before.schema(),
            before.physicalSchema(),
            after.schema(),
            after.physicalSchema(),
            mappedAfter,
            "");
    if (columns.isPresent() || !mappedAfter) {
      // Without column mapping Spark reads across a change of partitioning (the columns that
      // became partition columns read as null); so do we.
      return columns;
    }
    Set<String> partitionsBefore = lowerCase(before.partitionColumns());
    Set<String> partitionsAfter = lowerCase(after.partitionColumns());
    return partitionsBefore.equals(partitionsAfter)
        ? Optional.empty()
        : Optional.of(
            "the partition columns changed from "
                + partitionsBefore
                + " to "
                + partitionsAfter
                + " under column mapping");
  }

  private static Optional<String> conflict(
      StructType before,
      StructType physicalBefore,
      StructType after,
      StructType physicalAfter,
      boolean comparePhysical,
      String parent) {
    for (int i = 0; i < before.length(); i++) {
      StructField old = before.at(i);
      String name = parent + old.getName();
      int j = indexIgnoringCase(after, old.getName());
      if (j < 0) {
        return Optional.of("column " + name + " is gone");
      }
      StructField now = after.at(j);
      if (!now.getName().equals(old.getName())) {
        return Optional.of("column " + name + " is now spelled " + parent + now.getName());
      }
      if (old.isNullable() && !now.isNullable()) {
        return Optional.of("column " + name + " became NOT NULL");
      }
      if (comparePhysical
          && !physicalBefore.at(i).getName().equals(physicalAfter.at(j).getName())) {
        return Optional.of("column " + name + " has another physical name (column mapping)");
      }
      Optional<String> type =
          conflict(
              old.getDataType(),
              physicalBefore.at(i).getDataType(),
              now.getDataType(),
              physicalAfter.at(j).getDataType(),
              comparePhysical,
              name);
      if (type.isPresent()) {
        return type;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> conflict(
      DataType before,
      DataType physicalBefore,
      DataType after,
      DataType physicalAfter,
      boolean comparePhysical,
      String name) {
    if (before instanceof StructType oldStruct && after instanceof StructType newStruct) {
      return conflict(
          oldStruct,
          (StructType) physicalBefore,
          newStruct,
          (StructType) physicalAfter,
          comparePhysical,
          name + ".");
    }
    if (before instanceof ArrayType oldArray && after instanceof ArrayType newArray) {
      if (oldArray.containsNull() && !newArray.containsNull()) {
        return Optional.of("the elements of column " + name + " became NOT NULL");
      }
      return conflict(
          oldArray.getElementType(),
          ((ArrayType) physicalBefore).getElementType(),
          newArray.getElementType(),
          ((ArrayType) physicalAfter).getElementType(),
          comparePhysical,
          name + ".element");
    }
    if (before instanceof MapType oldMap && after instanceof MapType newMap) {
      if (oldMap.isValueContainsNull() && !newMap.isValueContainsNull()) {
        return Optional.of("the values of column " + name + " became NOT NULL");
      }
      MapType oldPhysical = (MapType) physicalBefore;
      MapType newPhysical = (MapType) physicalAfter;
      return conflict(
              oldMap.getKeyType(),
              oldPhysical.getKeyType(),
              newMap.getKeyType(),
              newPhysical.getKeyType(),
              comparePhysical,
              name + ".key")
          .or(
              () ->
                  conflict(
                      oldMap.getValueType(),
                      oldPhysical.getValueType(),
                      newMap.getValueType(),
                      newPhysical.getValueType(),
                      comparePhysical,
                      name + ".value"));
    }
    return before.equivalent(after)
        ? Optional.empty()
        : Optional.of("column " + name + " changed its type from " + before + " to " + after);
  }

  private static int indexIgnoringCase(StructType struct, String name) {
    for (int i = 0; i < struct.length(); i++) {
      if (struct.at(i).getName().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean mapped(TableMetadata metadata) {
    return !metadata.configuration().getOrDefault(MAPPING_MODE, "none").equals("none");
  }

  private static Set<String> lowerCase(Set<String> names) {
    return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
  }
}
