// A tiny JSON reader and writer for the bench's job, catalog and query files: the JDK has no JSON
// library and the bench adds no jar. Reads objects (LinkedHashMap), arrays (ArrayList), strings,
// numbers (Double), booleans and null; the writer escapes what JSON requires and nothing more.
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

final class Json {
  private final String s;
  private int i;

  private Json(String s) {
    this.s = s;
  }

  static Object parse(String text) {
    Json p = new Json(text);
    p.ws();
    Object v = p.value();
    p.ws();
    if (p.i != p.s.length()) throw p.error("trailing characters");
    return v;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object v) {
    return (Map<String, Object>) v;
  }

  @SuppressWarnings("unchecked")
  static List<Object> array(Object v) {
    return v == null ? List.of() : (List<Object>) v;
  }

  static String[] strings(Object v) {
    List<Object> a = array(v);
    String[] out = new String[a.size()];
    for (int k = 0; k < out.length; k++) out[k] = (String) a.get(k);
    return out;
  }

  private Object value() {
    if (i >= s.length()) throw error("unexpected end");
    char c = s.charAt(i);
    switch (c) {
      case '{':
        return readObject();
      case '[':
        return readArray();
      case '"':
        return readString();
      case 't':
        literal("true");
        return Boolean.TRUE;
      case 'f':
        literal("false");
        return Boolean.FALSE;
      case 'n':
        literal("null");
        return null;
      default:
        return readNumber();
    }
  }

  private Map<String, Object> readObject() {
    i++;
    Map<String, Object> m = new LinkedHashMap<>();
    ws();
    if (peek() == '}') {
      i++;
      return m;
    }
    while (true) {
      ws();
      String key = readString();
      ws();
      expect(':');
      ws();
      m.put(key, value());
      ws();
      if (peek() == ',') {
        i++;
        continue;
      }
      expect('}');
      return m;
    }
  }

  private List<Object> readArray() {
    i++;
    List<Object> a = new ArrayList<>();
    ws();
    if (peek() == ']') {
      i++;
      return a;
    }
    while (true) {
      ws();
      a.add(value());
      ws();
      if (peek() == ',') {
        i++;
        continue;
      }
      expect(']');
      return a;
    }
  }

  private String readString() {
    expect('"');
    StringBuilder b = null;
    int start = i;
    while (true) {
      if (i >= s.length()) throw error("unterminated string");
      char c = s.charAt(i);
      if (c == '"') {
        String out = b == null ? s.substring(start, i) : b.append(s, start, i).toString();
        i++;
        return out;
      }
      if (c != '\\') {
        i++;
        continue;
      }
      if (b == null) b = new StringBuilder();
      b.append(s, start, i);
      char e = s.charAt(i + 1);
      i += 2;
      switch (e) {
        case 'n': b.append('\n'); break;
        case 't': b.append('\t'); break;
        case 'r': b.append('\r'); break;
        case 'b': b.append('\b'); break;
        case 'f': b.append('\f'); break;
        case 'u':
          b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          i += 4;
          break;
        default: b.append(e); // '"', '\\' and '/'
      }
      start = i;
    }
  }

  private Double readNumber() {
    int start = i;
    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
    if (start == i) throw error("unexpected character");
    return Double.valueOf(s.substring(start, i));
  }

  private void literal(String word) {
    if (!s.startsWith(word, i)) throw error("expected " + word);
    i += word.length();
  }

  private char peek() {
    if (i >= s.length()) throw error("unexpected end");
    return s.charAt(i);
  }

  private void expect(char c) {
    if (peek() != c) throw error("expected '" + c + "'");
    i++;
  }

  private void ws() {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON: " + what + " at offset " + i);
  }

  /** Appends `v` as a JSON string. */
  static StringBuilder str(StringBuilder b, String v) {
    b.append('"');
    for (int k = 0; k < v.length(); k++) {
      char c = v.charAt(k);
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c == '\n') b.append("\\n");
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"');
  }
}
