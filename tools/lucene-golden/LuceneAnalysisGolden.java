// Runs real Apache Lucene 8.7 analysis components (Debian's liblucene8-java jars) to produce the
// data and golden files the TypeScript ports are checked against. See run.sh for the commands.
//   kstem-data OUT           KStemmer's dictionary and exception tables (KStemData1..8 and the
//                            tables inside KStemmer), read by reflection, as JSON
//   kstem IN OUT             one word per line in, "word<TAB>stem" per line out (KStemFilter)
//   tokens KIND IN OUT       one text per line in (\n and \t escaped as in JSON), NDJSON out:
//                            {"text":...,"max":N,"tokens":[[term,start,end,type,posInc],...]}
//                            KIND: uax_url_email | classic | classic_filter (ClassicTokenizer+ClassicFilter)
//                            A line "#max N" sets max_token_length for the lines after it.
import java.io.*;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import org.apache.lucene.analysis.*;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.en.KStemFilter;
import org.apache.lucene.analysis.standard.*;
import org.apache.lucene.analysis.tokenattributes.*;

public class LuceneAnalysisGolden {
  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "kstem-data": kstemData(args[1]); break;
      case "kstem": kstem(args[1], args[2]); break;
      case "tokens": tokens(args[1], args[2], args[3]); break;
      default: throw new IllegalArgumentException(args[0]);
    }
  }

  static String json(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  static String unescape(String line) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\' && i + 1 < line.length()) {
        char d = line.charAt(++i);
        if (d == 'n') b.append('\n'); else if (d == 't') b.append('\t');
        else if (d == 'u') { b.append((char) Integer.parseInt(line.substring(i + 1, i + 5), 16)); i += 4; }
        else b.append(d);
      } else b.append(c);
    }
    return b.toString();
  }

  static Object field(Class<?> cls, String name) throws Exception {
    Field f = cls.getDeclaredField(name);
    f.setAccessible(true);
    return f.get(null);
  }

  static void kstemData(String out) throws Exception {
    StringBuilder b = new StringBuilder("{\n");
    for (int i = 1; i <= 8; i++) {
      String[] data = (String[]) field(Class.forName("org.apache.lucene.analysis.en.KStemData" + i), "data");
      b.append("  \"KStemData").append(i).append("\": ").append(array(data)).append(",\n");
    }
    Class<?> k = Class.forName("org.apache.lucene.analysis.en.KStemmer");
    for (String name : new String[] {"exceptionWords", "supplementDict", "properNouns"}) {
      b.append("  \"").append(name).append("\": ").append(array((String[]) field(k, name))).append(",\n");
    }
    String[] pairs = {"directConflations", "countryNationality"};
    for (int p = 0; p < pairs.length; p++) {
      String[][] table = (String[][]) field(k, pairs[p]);
      b.append("  \"").append(pairs[p]).append("\": [");
      for (int i = 0; i < table.length; i++) b.append(i == 0 ? "" : ", ").append(array(table[i]));
      b.append(p == pairs.length - 1 ? "]\n" : "],\n");
    }
    Files.write(Paths.get(out), b.append("}\n").toString().getBytes(StandardCharsets.UTF_8));
  }

  static String array(String[] a) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < a.length; i++) b.append(i == 0 ? "" : ",").append(json(a[i]));
    return b.append("]").toString();
  }

  static void kstem(String in, String out) throws Exception {
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(Paths.get(out), StandardCharsets.UTF_8))) {
      for (String word : Files.readAllLines(Paths.get(in), StandardCharsets.UTF_8)) {
        if (word.isEmpty()) continue;
        Tokenizer t = new KeywordTokenizer();
        t.setReader(new StringReader(word));
        try (TokenStream ts = new KStemFilter(t)) {
          CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
          ts.reset();
          ts.incrementToken();
          w.println(word + "\t" + term);
          ts.end();
        }
      }
    }
  }

  static void tokens(String kind, String in, String out) throws Exception {
    int max = 255;
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(Paths.get(out), StandardCharsets.UTF_8))) {
      for (String line : Files.readAllLines(Paths.get(in), StandardCharsets.UTF_8)) {
        if (line.startsWith("#max ")) { max = Integer.parseInt(line.substring(5).trim()); continue; }
        String text = unescape(line);
        Tokenizer t;
        if (kind.equals("uax_url_email")) { UAX29URLEmailTokenizer u = new UAX29URLEmailTokenizer(); u.setMaxTokenLength(max); t = u; }
        else { ClassicTokenizer c = new ClassicTokenizer(); c.setMaxTokenLength(max); t = c; }
        t.setReader(new StringReader(text));
        TokenStream ts = kind.equals("classic_filter") ? new ClassicFilter(t) : t;
        CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
        OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
        TypeAttribute type = ts.addAttribute(TypeAttribute.class);
        PositionIncrementAttribute inc = ts.addAttribute(PositionIncrementAttribute.class);
        StringBuilder b = new StringBuilder("{\"text\":").append(json(text)).append(",\"max\":").append(max).append(",\"tokens\":[");
        ts.reset();
        boolean first = true;
        while (ts.incrementToken()) {
          b.append(first ? "" : ",").append("[").append(json(term.toString())).append(",").append(offset.startOffset())
            .append(",").append(offset.endOffset()).append(",").append(json(type.type())).append(",").append(inc.getPositionIncrement()).append("]");
          first = false;
        }
        ts.end();
        ts.close();
        w.println(b.append("]}"));
      }
    }
  }
}
