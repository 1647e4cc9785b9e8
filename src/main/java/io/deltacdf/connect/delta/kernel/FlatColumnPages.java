package io.deltacdf.connect.delta.kernel;

import static org.apache.parquet.column.ValuesType.VALUES;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.CorruptDeltaByteArrays;
import org.apache.parquet.VersionParser.ParsedVersion;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.RequiresPreviousReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * One top-level, non-repeated column of one row group, moved through row by row: the value of each
 * row asked for goes to its converter, as parquet-mr's column reader would hand it, and the values
 * of the rows between are passed over together. A flat column has one value, or null, per row, so
 * that a page's rows are its values and its definition levels say which are null; decoding them per
 * page costs far less than parquet-mr's record reader stepping over each row of each column.
 */
final class FlatColumnPages {

  private final ColumnDescriptor column;
  private final PageReader pages;
  private final PrimitiveConverter converter;
  private final PrimitiveTypeName type;
  private final Dictionary dictionary;

  /** The writer of the file, or null when unknown: some wrote DELTA_BYTE_ARRAY pages wrongly. */
  private final ParsedVersion writer;

  /** Per value of the current page, whether it is defined (not null). */
  private boolean[] defined = new boolean[0];

  /** Whether a value of the current page is null. */
  private boolean pageHasNulls;

  /** The current page's values, unless {@link #plain} holds them. */
  private ValuesReader values;

  /** The current page's values when they are plain and of {@link #plainWidth} bytes each. */
  private ByteBuffer plain;

  /** The width of a plain value of the current page, or 0 when {@link #values} reads them. */
  private int plainWidth;

  /** Whether the current page hands dictionary ids to a converter that decodes them itself. */
  private boolean idsToConverter;

  /**
   * Whether the next page's values continue from the current page's last one, as DELTA_BYTE_ARRAY
   * pages of parquet-mr before 1.8 do (PARQUET-246): the current page is then read to its end.
   */
  private boolean sequential;

  /** The row (in the row group) of the current page's first value. */
  private long pageStart;

  private int pageRows;

  /** The index in the current page of the first value not yet read or passed over. */
  private int nextInPage;

  FlatColumnPages(
      ColumnDescriptor column,
      PageReadStore rowGroup,
      PrimitiveConverter converter,
      ParsedVersion writer)
      throws IOException {
    this.column = column;
    this.writer = writer;
    this.pages = rowGroup.getPageReader(column);
    this.converter = converter;
    this.type = column.getPrimitiveType().getPrimitiveTypeName();
    DictionaryPage dictionaryPage = pages.readDictionaryPage();
    this.dictionary =
        dictionaryPage == null
            ? null
            : dictionaryPage.getEncoding().initDictionary(column, dictionaryPage);
    if (dictionary != null && converter.hasDictionarySupport()) {
      converter.setDictionary(dictionary);
    }
  }

  /** Hands row {@code row} (of the row group; ascending from call to call) to the converter. */
  void write(long row) throws IOException {
    while (row >= pageStart + pageRows) {
      nextPage();
    }
    int index = (int) (row - pageStart);
    passOver(index);
    if (defined[index]) {
      writeValue();
    }
    nextInPage = index + 1;
  }

  /** Passes over the values of the current page up to (not including) the one of {@code index}. */
  private void passOver(int index) {
    int passed = index - nextInPage;
    if (pageHasNulls) {
      for (int i = nextInPage; i < index; i++) {
        if (!defined[i]) {
          passed--;
        }
      }
    }
    if (passed > 0) {
      if (plainWidth > 0) {
        plain.position(plain.position() + passed * plainWidth);
      } else {
        values.skip(passed);
      }
    }
    nextInPage = index;
  }

  /** The width in bytes of a plain value of {@code type}, or 0 when it has none. */
  private static int fixedWidth(PrimitiveTypeName type) {
    return switch (type) {
      case INT32, FLOAT -> 4;
      case INT64, DOUBLE -> 8;
      default -> 0;
    };
  }

  private void writeValue() {
    if (plainWidth > 0) {
      switch (type) {
        case INT32 -> converter.addInt(plain.getInt());
        case INT64 -> converter.addLong(plain.getLong());
        case FLOAT -> converter.addFloat(plain.getFloat());
        default -> converter.addDouble(plain.getDouble());
      }
      return;
    }
    if (idsToConverter) {
      converter.addValueFromDictionary(values.readValueDictionaryId());
      return;
    }
    switch (type) {
      case INT32 -> converter.addInt(values.readInteger());
      case INT64 -> converter.addLong(values.readLong());
      case FLOAT -> converter.addFloat(values.readFloat());
      case DOUBLE -> converter.addDouble(values.readDouble());
      case BOOLEAN -> converter.addBoolean(values.readBoolean());
      case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 -> converter.addBinary(values.readBytes());
    }
  }

  private void nextPage() throws IOException {
    DataPage page = pages.readPage();
    if (page == null) {
      throw new IllegalStateException("The pages of column " + column + " end before its rows");
    }
    ValuesReader previous = values;
    if (sequential) {
      passOver(pageRows);
    }
    pageStart += pageRows;
    pageRows = page.getValueCount();
    nextInPage = 0;
    if (defined.length < pageRows) {
      defined = new boolean[pageRows];
    }
    DefinitionLevels.PageValues read = DefinitionLevels.decode(column, page, defined);
    pageHasNulls = read.hasNulls();
    Encoding encoding = read.encoding();
    ByteBufferInputStream data = read.values();
    plainWidth = encoding == Encoding.PLAIN ? fixedWidth(type) : 0;
    if (plainWidth > 0) {
      plain = data.slice(data.available()).order(ByteOrder.LITTLE_ENDIAN);
      values = null;
      idsToConverter = false;
      sequential = false;
      return;
    }
    if (encoding.usesDictionary()) {
      if (dictionary == null) {
        throw new IllegalStateException(
            "A page of column " + column + " uses a dictionary its row group lacks");
      }
      values = encoding.getDictionaryBasedValuesReader(column, VALUES, dictionary);
      idsToConverter = converter.hasDictionarySupport();
    } else {
      values = encoding.getValuesReader(column, VALUES);
      idsToConverter = false;
    }
    values.initFromPage(pageRows, data);
    sequential = CorruptDeltaByteArrays.requiresSequentialReads(writer, encoding);
    if (sequential && values instanceof RequiresPreviousReader continuing) {
      continuing.setPreviousReader(previous);
    }
  }
}
