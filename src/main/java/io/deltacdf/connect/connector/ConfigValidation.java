package io.deltacdf.connect.connector;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ColumnRuleReachException;
import io.deltacdf.connect.change.ColumnSelection;
import io.deltacdf.connect.change.HiddenColumnsTracker;
import io.deltacdf.connect.change.LoggedSchema;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.config.TableNames;
import io.deltacdf.connect.config.UnknownKeys;
import io.deltacdf.connect.convert.ColumnMasks;
import io.deltacdf.connect.convert.FieldNameCollisionException;
import io.deltacdf.connect.convert.KeyColumnDroppedException;
import io.deltacdf.connect.convert.MaskTypeException;
import io.deltacdf.connect.convert.UnknownKeyColumnException;
import io.deltacdf.connect.convert.VariantKeyColumnException;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.task.ConfiguredTables;
import io.deltacdf.connect.task.ErrorSettings;
import io.deltacdf.connect.task.Redaction;
import io.deltacdf.connect.task.TableConverters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;

/**
 * What the connector's validation reports: each setting checked, then what needs several settings
 * or the tables themselves: that each root can be listed and its tables' topics are distinct, that
 * each path (named or discovered) holds a Delta table whose change data feed can be read from the
 * configured start, that the key columns exist and are no variants, and that the column names make
 * distinct field names; also settings nobody reads. Each problem is reported on the key the user
 * has to change.
 */
public final class ConfigValidation {

  private ConfigValidation() {}

  /** The connector's settings as Connect validates them, with each problem on its key. */
  public static Config validate(Map<String, String> settings, String connectorVersion) {
    Config result = new Config(DeltaCdfSourceConfig.configDef().validate(settings));
    Map<String, ConfigValue> values = new HashMap<>();
    result.configValues().forEach(v -> values.put(v.name(), v));
    boolean settingErrors = values.values().stream().anyMatch(v -> !v.errorMessages().isEmpty());
    // An unknown key's value is not echoed back: a misspelt secret's key would show it.
    for (Map.Entry<String, String> unknown : UnknownKeys.find(settings).entrySet()) {
      List<String> errors = new ArrayList<>(List.of(unknown.getValue()));
      result.configValues().add(new ConfigValue(unknown.getKey(), null, List.of(), errors));
    }
    if (settingErrors) {
      return result;
    }
    DeltaCdfSourceConfig parsed = new DeltaCdfSourceConfig(settings);
    Map<String, List<String>> problems = parsed.crossFieldProblems();
    problems.forEach((key, messages) -> messages.forEach(values.get(key)::addErrorMessage));
    if (!problems.isEmpty()) {
      return result;
    }
    ConnectorTables.Scan tables;
    try {
      tables = new ConnectorTables(parsed).scan();
    } catch (DeltaFeedException e) {
      values
          .get(DeltaCdfSourceConfig.TABLE_ROOTS)
          .addErrorMessage(new Redaction(parsed).redact(e.getMessage()));
      return result;
    }
    tables.collisions().stream()
        .map(ConnectorTables.TopicCollision::refusal)
        .forEach(values.get(DeltaCdfSourceConfig.TOPIC_TEMPLATE)::addErrorMessage);
    UnmatchedColumnRules columnRules = new UnmatchedColumnRules();
    boolean allRead = true;
    for (String table : tables.tables()) {
      allRead &= validateTable(parsed, table, values, connectorVersion, columnRules);
      // Named tables were checked with the settings; a discovered one may have no key (by table).
      if (parsed.tableShards() > 1
          && !parsed.namedTables().contains(table)
          && parsed.keyColumnsFor(table).isEmpty()) {
        values
            .get(DeltaCdfSourceConfig.TABLE_SHARDS)
            .addErrorMessage(DeltaCdfSourceConfig.unkeyedShards(table));
      }
    }
    // Only against every table's columns: a table that could not be read may hold the column.
    // Under roots, the tables found now: a typo is far likelier than a table still to come.
    if (allRead && !tables.tables().isEmpty()) {
      columnRules
          .problems(parsed)
          .forEach((key, messages) -> messages.forEach(values.get(key)::addErrorMessage));
    }
    return result;
  }

  /** Validates one table; whether its schemas could be read (they are added to {@code rules}). */
  private static boolean validateTable(
      DeltaCdfSourceConfig config,
      String table,
      Map<String, ConfigValue> values,
      String connectorVersion,
      UnmatchedColumnRules rules) {
    Redaction redaction = new Redaction(config);
    ConfiguredTables tables = new ConfiguredTables(config, redaction);
    ErrorSettings errorSettings = new ErrorSettings(config);
    DeltaTable deltaTable;
    try {
      deltaTable = tables.open(table);
    } catch (DeltaFeedException e) {
      values
          .get(errorSettings.settingFor(e, table))
          .addErrorMessage(redaction.redact(e.getMessage()));
      return false;
    }
    try (deltaTable) {
      LatestSnapshot latest = deltaTable.latestSnapshot();
      deltaTable.requireRowFilterFits(latest);
      ChangePosition start = tables.start(deltaTable, latest);
      for (LoggedSchema schema :
          deltaTable.withColumns(ColumnSelection.ALL).schemasAtStartAndLatest(start, latest)) {
        rules.add(TableNames.nameOf(table), schema.schema());
      }
      List<LoggedSchema> schemas = deltaTable.schemasAtStartAndLatest(start, latest);
      new TableConverters(config, "validate", connectorVersion)
          .checked(new TablePartition(table), deltaTable, schemas, HiddenColumnsTracker.empty());
      if (schemas.get(schemas.size() - 1).schema().fields().isEmpty()) {
        values
            .get(
                config.getList(DeltaCdfSourceConfig.COLUMN_INCLUDE).isEmpty()
                    ? DeltaCdfSourceConfig.COLUMN_EXCLUDE
                    : DeltaCdfSourceConfig.COLUMN_INCLUDE)
            .addErrorMessage(
                "No column of table "
                    + table
                    + " is kept: its records would be empty. Name its columns as "
                    + TableNames.nameOf(table)
                    + ":<column> (the patterns apply to every table)");
      }
      return true;
    } catch (DeltaFeedException e) {
      values
          .get(errorSettings.settingFor(e, table))
          .addErrorMessage(redaction.redact(e.getMessage()));
    } catch (UnknownKeyColumnException | KeyColumnDroppedException | VariantKeyColumnException e) {
      String key =
          config.getString(DeltaCdfSourceConfig.KEY_COLUMNS_BY_TABLE).isBlank()
              ? DeltaCdfSourceConfig.KEY_COLUMNS
              : DeltaCdfSourceConfig.KEY_COLUMNS_BY_TABLE;
      values.get(key).addErrorMessage(e.getMessage());
    } catch (MaskTypeException e) {
      values.get(maskSetting(e.kind())).addErrorMessage(e.getMessage());
    } catch (ColumnRuleReachException e) {
      values.get(e.setting()).addErrorMessage(e.getMessage());
    } catch (FieldNameCollisionException e) {
      values
          .get(DeltaCdfSourceConfig.FIELD_NAME_ADJUSTMENT)
          .addErrorMessage("Table " + table + ": " + e.getMessage());
    } catch (RuntimeException e) {
      values
          .get(config.tableSettingFor(table))
          .addErrorMessage(
              redaction.redact("Table " + table + " cannot be read: " + e.getMessage()));
    }
    return false;
  }

  private static String maskSetting(ColumnMasks.Kind kind) {
    return switch (kind) {
      case NULL -> DeltaCdfSourceConfig.COLUMN_MASK_NULL;
      case HASH -> DeltaCdfSourceConfig.COLUMN_MASK_HASH;
      case TRUNCATE -> DeltaCdfSourceConfig.COLUMN_MASK_TRUNCATE;
    };
  }
}
