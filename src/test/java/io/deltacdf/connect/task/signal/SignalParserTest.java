package io.deltacdf.connect.task.signal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SignalParserTest {

  @Test
  void readsDebeziumsExecuteSnapshotWithAConditionPerTable() {
    ReadSignal read =
        SignalParser.parse(
            7,
            "{\"id\":\"s1\",\"type\":\"execute-snapshot\",\"data\":{\"data-collections\":"
                + "[\"/lake/a\",\"/lake/b\"],\"type\":\"blocking\",\"additional-conditions\":"
                + "[{\"data-collection\":\"/lake/a\",\"filter\":\"region = 'eu'\"}]}}");

    assertThat(read.problem()).isNull();
    assertThat(read.signal())
        .isEqualTo(
            new Signal(
                7,
                "s1",
                Signal.Action.EXECUTE_SNAPSHOT,
                List.of("/lake/a", "/lake/b"),
                Map.of("/lake/a", "region = 'eu'")));
  }

  @Test
  void readsDataGivenAsAJsonString() {
    ReadSignal read =
        SignalParser.parse(
            1,
            "{\"id\":\"p\",\"type\":\"pause\",\"data\":\"{\\\"data-collections\\\":[\\\"t\\\"]}\"}");

    assertThat(read.signal().action()).isEqualTo(Signal.Action.PAUSE);
    assertThat(read.signal().tables()).containsExactly("t");
  }

  @Test
  void saysWhatIsWrongWithAMalformedSignal() {
    assertThat(SignalParser.parse(1, "not json").problem()).startsWith("its value is not JSON");
    assertThat(SignalParser.parse(1, "{\"type\":\"pause\"}").problem())
        .isEqualTo("it has no \"id\"");
    assertThat(SignalParser.parse(1, "{\"id\":\"x\",\"type\":\"log\",\"data\":{}}").problem())
        .contains("'log' is unknown");
    assertThat(SignalParser.parse(1, "{\"id\":\"x\",\"type\":\"resume\",\"data\":{}}").problem())
        .contains("data-collections");
    assertThat(
            SignalParser.parse(
                    1,
                    "{\"id\":\"x\",\"type\":\"pause\",\"data\":{\"data-collections\":[\"t\"],"
                        + "\"additional-conditions\":[{\"data-collection\":\"t\",\"filter\":\"a=1\"}]}}")
                .problem())
        .isEqualTo("only execute-snapshot takes \"additional-conditions\"");
    assertThat(SignalParser.parse(3, "{\"type\":\"pause\"}").offset()).isEqualTo(3);
  }
}
