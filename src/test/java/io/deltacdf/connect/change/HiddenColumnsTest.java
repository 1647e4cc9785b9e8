package io.deltacdf.connect.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.HiddenColumns.Rule;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hidden columns a stream stores beside its position, and reads back after a restart. */
class HiddenColumnsTest {

  @Test
  void roundTripsThroughItsListSortedAndEscaped() {
    HiddenColumns hidden =
        HiddenColumns.NONE
            .with(List.of("col-b"), Rule.HASH)
            .with(List.of("col-a", "col-c"), Rule.EXCLUDED)
            .with(List.of("a.b", "c\\d"), Rule.TRUNCATE);

    List<String> encoded = hidden.toList();

    assertThat(encoded)
        .containsExactly("excluded:col-a.col-c", "hash:col-b", "truncate:a\\.b.c\\\\d");
    assertThat(HiddenColumns.fromList(encoded)).isEqualTo(hidden);
  }

  @Test
  void keepsTheStrongestRuleOfAColumn() {
    HiddenColumns hidden =
        HiddenColumns.NONE
            .with(List.of("col-a"), Rule.TRUNCATE)
            .with(List.of("col-a"), Rule.HASH)
            .with(List.of("col-a"), Rule.TRUNCATE);

    assertThat(hidden.ruleOf(List.of("col-a"))).isEqualTo(Rule.HASH);
    assertThat(hidden.with(List.of("col-a"), Rule.TRUNCATE)).isSameAs(hidden);
  }

  @Test
  void refusesAnEntryItDidNotWrite() {
    assertThatThrownBy(() -> HiddenColumns.fromList(List.of("blur:col-a")))
        .hasMessageContaining("'blur:col-a'")
        .hasMessageContaining("excluded, null, hash, truncate");
  }

  @Test
  void aSelectionLeavesOutAColumnItDroppedOnceUnderItsNewName() {
    ColumnSelection selection =
        new ColumnSelection(
            ColumnPatterns.of("people", List.of()),
            ColumnPatterns.of("people", List.of("people:notes")));

    assertThat(selection.verdict(List.of("notes"), List.of("col-n"), false))
        .isEqualTo(ColumnSelection.Verdict.DROP);
    assertThat(selection.verdict(List.of("remarks"), List.of("col-n"), false))
        .isEqualTo(ColumnSelection.Verdict.DROP);
    assertThat(selection.verdict(List.of("remarks"), List.of("col-r"), false))
        .isEqualTo(ColumnSelection.Verdict.KEEP);
    assertThat(selection.hidden().current().toList()).containsExactly("excluded:col-n");
  }

  @Test
  void anIncludeListLeavesOutARenamedColumnItNoLongerNamesAndOneItNeverNamed() {
    ColumnSelection selection =
        new ColumnSelection(
            ColumnPatterns.of("people", List.of("people:id", "people:email")),
            ColumnPatterns.of("people", List.of()));

    assertThat(selection.verdict(List.of("email"), List.of("col-e"), false))
        .isEqualTo(ColumnSelection.Verdict.KEEP);
    assertThat(selection.verdict(List.of("mail"), List.of("col-e"), false))
        .isEqualTo(ColumnSelection.Verdict.DROP);
    assertThat(selection.verdict(List.of("notes"), List.of("col-n"), false))
        .isEqualTo(ColumnSelection.Verdict.DROP);
    // Renamed into a name the list names: it stays out, it was left out before.
    assertThat(selection.verdict(List.of("email"), List.of("col-n"), false))
        .isEqualTo(ColumnSelection.Verdict.DROP);
  }

  @Test
  void aSeededSelectionLeavesOutWhatTheStreamLeftOutBeforeARestart() {
    ColumnSelection selection =
        new ColumnSelection(
                ColumnPatterns.of("people", List.of()),
                ColumnPatterns.of("people", List.of("people:notes")))
            .following(new HiddenColumnsTracker(HiddenColumns.fromList(List.of("excluded:col-n"))));

    assertThat(selection.keepsAll()).isFalse();
    assertThat(selection.verdict(List.of("remarks"), List.of("col-n"), false))
        .isEqualTo(ColumnSelection.Verdict.DROP);
  }

  @Test
  void refusesAnExcludeRuleReachingIntoAnArray() {
    FieldType items =
        new FieldType.Array(
            new FieldType.Struct(
                List.of(
                    new FieldType.Field(
                        "card", new FieldType.Primitive(FieldType.PrimitiveKind.STRING), true))),
            true);
    ColumnSelection selection =
        new ColumnSelection(
            ColumnPatterns.of("orders", List.of()),
            ColumnPatterns.of("orders", List.of("orders:items.card")));

    assertThatThrownBy(() -> selection.requireNothingInside(List.of("items"), items))
        .hasMessageContaining("column.exclude.list: pattern 'orders:items.card' names items.card")
        .hasMessageContaining("name the whole column orders:items");
  }
}
