// The Lucene side of the bench: builds one in-memory index from the catalog and answers one
// bench query (text + exact filters + facet counts + top k) the way an Elasticsearch shop setup
// would. Every choice here is made once for every catalog and query (never tuned to a query):
// - ByteBuffersDirectory (the index lives in the JVM heap, like the JS peers' indexes in theirs,
//   so heap growth is the index size and no page cache or disk is involved), forceMerge(1) into
//   one segment like FTS5's 'optimize' (a built, read-only index), LogByteSizeMergePolicy;
// - analyzer = EnglishAnalyzer's chain (StandardTokenizer, possessive, lower case, English stop
//   words, PorterStemFilter) plus ASCIIFoldingFilter, so Lucene folds diacritics as Sift and FTS5 do;
// - BM25 (Lucene's default similarity, k1 1.2, b 0.75) per field; per query word a BooleanQuery
//   SHOULD over the five fields with boosts title 3, brand 2, categories 2, attributes 1,
//   description 0.5 (field scores add up: Elasticsearch's `most_fields`, term-centric like
//   `query_string` over several fields); words MUST (AND) or SHOULD (OR, at least one);
// - fuzziness AUTO when asked (Elasticsearch's: terms of 0-2 chars exact, 3-5 one edit, more two;
//   prefix 0, 50 expansions, transpositions), on the analysed term, as a `match` query does;
// - filters: TermQuery FILTER clauses on StringFields `f_<field>`; facets: one
//   SortedSetDocValuesFacetField index field per facet dimension, so a query counts only the
//   dimensions it asks for; top 10 by count, ties by value (ord) ascending;
// - totals are exact (totalHitsThreshold = Integer.MAX_VALUE: no early termination);
// - the product id comes from a NumericDocValues `ord` read once into docToOrd at open.
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.facet.FacetResult;
import org.apache.lucene.facet.FacetsCollector;
import org.apache.lucene.facet.FacetsConfig;
import org.apache.lucene.facet.LabelAndValue;
import org.apache.lucene.facet.sortedset.DefaultSortedSetDocValuesReaderState;
import org.apache.lucene.facet.sortedset.SortedSetDocValuesFacetCounts;
import org.apache.lucene.facet.sortedset.SortedSetDocValuesFacetField;
import org.apache.lucene.facet.sortedset.SortedSetDocValuesReaderState;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.LogByteSizeMergePolicy;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.MultiCollector;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.search.TotalHitCountCollector;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;

final class BenchIndex {
  static final String[] FIELDS = {"title", "brand", "categories", "attributes", "description"};
  static final float[] BOOSTS = {3f, 2f, 2f, 1f, 0.5f};
  static final int FACET_TOP = 10;

  /** One catalog line: text in FIELDS order, facet (field, value) pairs (filters on every one). */
  record Product(String id, String[] text, String[][] facets) {}

  /** One bench query: words, exact (field, value) filters ANDed, facet fields to count, hits wanted. */
  record BenchQuery(String cls, String q, String[][] filters, String[] facets, int k) {}

  /** One answer: ids best first, the exact total, facet field → (value, count) top 10 or null. */
  record Result(String[] ids, long total, Map<String, List<Object[]>> facets) {}

  final IndexSearcher searcher;
  final Analyzer analyzer;
  final String[] ids;
  final int[] docToOrd;
  final Map<String, SortedSetDocValuesReaderState> facetStates;
  final double buildMs;

  private BenchIndex(IndexSearcher searcher, Analyzer analyzer, String[] ids, int[] docToOrd, Map<String, SortedSetDocValuesReaderState> facetStates, double buildMs) {
    this.searcher = searcher;
    this.analyzer = analyzer;
    this.ids = ids;
    this.docToOrd = docToOrd;
    this.facetStates = facetStates;
    this.buildMs = buildMs;
  }

  static Analyzer analyzer() {
    return new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String field) {
        Tokenizer source = new StandardTokenizer();
        TokenStream s = new EnglishPossessiveFilter(source);
        s = new LowerCaseFilter(s);
        s = new ASCIIFoldingFilter(s);
        s = new StopFilter(s, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
        return new TokenStreamComponents(source, new PorterStemFilter(s));
      }
    };
  }

  private static String facetIndexField(String dim) {
    return "$facets_" + dim;
  }

  /** Indexes `products` (ord = position) and opens the searcher; the time covers all of it. */
  static BenchIndex build(List<Product> products, String[] facetFields, double ramBufferMb) throws IOException {
    long t0 = System.nanoTime();
    Analyzer analyzer = analyzer();
    FacetsConfig config = new FacetsConfig();
    for (String dim : facetFields) config.setIndexFieldName(dim, facetIndexField(dim));
    List<String> dims = List.of(facetFields);
    boolean[] dimSeen = new boolean[facetFields.length];
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    IndexWriterConfig iwc = new IndexWriterConfig(analyzer);
    iwc.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
    iwc.setRAMBufferSizeMB(ramBufferMb);
    iwc.setMergePolicy(new LogByteSizeMergePolicy());
    try (IndexWriter writer = new IndexWriter(dir, iwc)) {
      for (int ord = 0; ord < products.size(); ord++) {
        Product p = products.get(ord);
        Document doc = new Document();
        doc.add(new NumericDocValuesField("ord", ord));
        for (int f = 0; f < FIELDS.length; f++) {
          if (!p.text()[f].isEmpty()) doc.add(new TextField(FIELDS[f], p.text()[f], Field.Store.NO));
        }
        for (String[] fv : p.facets()) {
          if (fv[1].isEmpty()) continue;
          doc.add(new StringField("f_" + fv[0], fv[1], Field.Store.NO));
          int d = dims.indexOf(fv[0]);
          if (d < 0) continue;
          doc.add(new SortedSetDocValuesFacetField(fv[0], fv[1]));
          dimSeen[d] = true;
        }
        writer.addDocument(config.build(doc));
      }
      writer.forceMerge(1);
      writer.commit();
    }
    DirectoryReader reader = DirectoryReader.open(dir);
    int[] docToOrd = new int[reader.maxDoc()];
    for (LeafReaderContext leaf : reader.leaves()) {
      NumericDocValues ords = leaf.reader().getNumericDocValues("ord");
      for (int doc = ords.nextDoc(); doc != NumericDocValues.NO_MORE_DOCS; doc = ords.nextDoc()) {
        docToOrd[leaf.docBase + doc] = (int) ords.longValue();
      }
    }
    Map<String, SortedSetDocValuesReaderState> states = new HashMap<>();
    for (int d = 0; d < facetFields.length; d++) {
      if (dimSeen[d]) states.put(facetFields[d], new DefaultSortedSetDocValuesReaderState(reader, facetIndexField(facetFields[d])));
    }
    String[] ids = new String[products.size()];
    for (int ord = 0; ord < ids.length; ord++) ids[ord] = products.get(ord).id();
    IndexSearcher searcher = new IndexSearcher(reader);
    return new BenchIndex(searcher, analyzer, ids, docToOrd, states, (System.nanoTime() - t0) / 1e6);
  }

  int segments() {
    return searcher.getIndexReader().leaves().size();
  }

  /** Bytes of the index files (ByteBuffersDirectory keeps them in the heap). */
  long fileBytes() throws IOException {
    Directory dir = ((DirectoryReader) searcher.getIndexReader()).directory();
    long n = 0;
    for (String f : dir.listAll()) n += dir.fileLength(f);
    return n;
  }

  /** The analysed terms of `text` (the same chain as the indexed fields). */
  List<String> terms(String text) throws IOException {
    List<String> out = new ArrayList<>();
    try (TokenStream ts = analyzer.tokenStream(FIELDS[0], text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) out.add(term.toString());
      ts.end();
    }
    return out;
  }

  /** Elasticsearch's `fuzziness: AUTO` for a term of that many code points. */
  static int autoEdits(String term) {
    int n = term.codePointCount(0, term.length());
    return n <= 2 ? 0 : n <= 5 ? 1 : 2;
  }

  private static Query wordQuery(String term, boolean fuzzy) {
    int edits = fuzzy ? autoEdits(term) : 0;
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    for (int f = 0; f < FIELDS.length; f++) {
      Term t = new Term(FIELDS[f], term);
      Query q = edits == 0 ? new TermQuery(t) : new FuzzyQuery(t, edits, 0, 50, true);
      b.add(new BoostQuery(q, BOOSTS[f]), Occur.SHOULD);
    }
    return b.build();
  }

  /** The Lucene query of `q`: words (AND/OR, fuzzy or not) plus FILTER clauses; no text = all docs. */
  Query query(BenchQuery q, boolean and, boolean fuzzy) throws IOException {
    boolean hasText = !q.q().isBlank();
    if (!hasText && q.filters().length == 0) return new MatchAllDocsQuery();
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    if (hasText) {
      List<String> terms = terms(q.q());
      // Only stop words or punctuation: nothing to match, as Elasticsearch's zero_terms_query 'none'.
      if (terms.isEmpty()) return new MatchNoDocsQuery("no term in the text");
      for (String t : terms) b.add(wordQuery(t, fuzzy), and ? Occur.MUST : Occur.SHOULD);
      // With FILTER clauses and no MUST, SHOULD clauses would turn optional: require one word.
      if (!and && q.filters().length > 0) b.setMinimumNumberShouldMatch(1);
    }
    for (String[] fv : q.filters()) b.add(new TermQuery(new Term("f_" + fv[0], fv[1])), Occur.FILTER);
    return b.build();
  }

  /** Runs `q`: top k by score (ties by doc id, which is catalog order), exact total, facets asked. */
  Result execute(BenchQuery q, boolean and, boolean fuzzy) throws IOException {
    Query query = query(q, and, fuzzy);
    TopScoreDocCollector top = q.k() > 0 ? TopScoreDocCollector.create(q.k(), Integer.MAX_VALUE) : null;
    TotalHitCountCollector count = top == null ? new TotalHitCountCollector() : null;
    Collector main = top != null ? top : count;
    FacetsCollector fc = q.facets().length > 0 ? new FacetsCollector() : null;
    searcher.search(query, fc == null ? main : MultiCollector.wrap(main, fc));
    String[] hits;
    long total;
    if (top != null) {
      TopDocs docs = top.topDocs();
      total = docs.totalHits.value;
      hits = new String[docs.scoreDocs.length];
      for (int h = 0; h < hits.length; h++) {
        ScoreDoc sd = docs.scoreDocs[h];
        hits[h] = ids[docToOrd[sd.doc]];
      }
    } else {
      total = count.getTotalHits();
      hits = new String[0];
    }
    return new Result(hits, total, fc == null ? null : facets(q.facets(), fc));
  }

  private Map<String, List<Object[]>> facets(String[] dims, FacetsCollector fc) throws IOException {
    Map<String, List<Object[]>> out = new LinkedHashMap<>();
    for (String dim : dims) {
      List<Object[]> values = new ArrayList<>();
      SortedSetDocValuesReaderState state = facetStates.get(dim);
      // A dimension no product has a value for has no state: it counts nothing.
      FacetResult r = state == null ? null : new SortedSetDocValuesFacetCounts(state, fc).getTopChildren(FACET_TOP, dim);
      if (r != null) for (LabelAndValue lv : r.labelValues) values.add(new Object[] {lv.label, lv.value.longValue()});
      out.put(dim, values);
    }
    return out;
  }
}
