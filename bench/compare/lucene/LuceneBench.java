// The Lucene peer of bench:compare and bench:relevance, run by lucene.ts in its own JVM.
// Usage: java -Xmx4g -XX:+UseG1GC -cp <class dir>:<lucene jars> LuceneBench <job.json>
// The job names the catalog and query files (JSON lines written by input.ts) and the runs. Output
// on stdout, one JSON object per line ("t" says which):
//   version    {lucene, java}
//   build      {docs, segments, fileBytes, ms, heapBefore, heapAfter, rssBefore, rssAfter} (bytes; -1 unknown)
//   result     {run, i, total, ids, facets}            per query, when the run asks for results
//   timing     {run, i, ns: [one per round]}           per query (none for a class in the run's skipClasses)
//   throughput {run, c: threads, qps, queries, seconds}  over the classes interleaved round-robin
//   done       {}
// Memory: heap used and VmRSS, each after System.gc(), before the catalog is read and after the
// index is built and the parsed catalog dropped (the ids stay: the answers need them).
// Timing: a pass for results (if asked), then whole warm-up passes until warmupSeconds have gone
// (JIT: C2 compiles the hot paths only after thousands of calls), then `rounds` timed passes (fewer
// when they overrun budgetSeconds, default 60, but at least one);
// each execution covers analysis, query building, search, facet counting and the id lookup.
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.apache.lucene.util.Version;

public final class LuceneBench {
  private static final PrintStream OUT = new PrintStream(new BufferedOutputStream(System.out, 1 << 16), false, StandardCharsets.UTF_8);
  /** Results fold into this so the JIT cannot drop a search whose answer nobody reads. */
  private static volatile long sink;

  public static void main(String[] args) throws Exception {
    Map<String, Object> job = Json.object(Json.parse(Files.readString(Path.of(args[0]))));
    emit(new StringBuilder("{\"t\":\"version\",\"lucene\":").append(quote(Version.LATEST.toString())).append(",\"java\":").append(quote(System.getProperty("java.version"))).append('}'));
    OUT.flush();
    String[] facetFields = Json.strings(job.get("facetFields"));
    long heapBefore = heapUsed();
    long rssBefore = rss();
    List<BenchIndex.Product> products = readCatalog(Path.of((String) job.get("catalog")));
    BenchIndex index = BenchIndex.build(products, facetFields, num(job.get("ramBufferMb"), 256));
    int docs = products.size();
    products = null; // the parsed catalog is the input, not the index: let the GC take it
    long heapAfter = heapUsed();
    long rssAfter = rss();
    emit(new StringBuilder("{\"t\":\"build\",\"docs\":").append(docs).append(",\"segments\":").append(index.segments()).append(",\"fileBytes\":").append(index.fileBytes()).append(",\"ms\":").append(index.buildMs).append(",\"heapBefore\":").append(heapBefore).append(",\"heapAfter\":").append(heapAfter).append(",\"rssBefore\":").append(rssBefore).append(",\"rssAfter\":").append(rssAfter).append('}'));
    OUT.flush();
    BenchIndex.BenchQuery[] queries = readQueries(Path.of((String) job.get("queries")));
    for (Object run : Json.array(job.get("runs"))) run(index, queries, Json.object(run));
    emit(new StringBuilder("{\"t\":\"done\"}"));
    OUT.flush();
  }

  private static void run(BenchIndex index, BenchIndex.BenchQuery[] queries, Map<String, Object> run) throws Exception {
    String name = (String) run.get("name");
    boolean and = Boolean.TRUE.equals(run.get("and"));
    boolean fuzzy = Boolean.TRUE.equals(run.get("fuzzy"));
    int rounds = (int) num(run.get("rounds"), 0);
    double throughputSeconds = num(run.get("throughputSeconds"), 0);
    if (Boolean.TRUE.equals(run.get("results"))) {
      for (int i = 0; i < queries.length; i++) emitResult(name, i, index.execute(queries[i], and, fuzzy));
      OUT.flush();
    }
    // Classes the run's engine row cannot run (n/a, e.g. misspelt without fuzziness) are answered
    // above but neither timed nor mixed into the throughput list.
    Set<String> skip = new HashSet<>(List.of(run.get("skipClasses") == null ? new String[0] : Json.strings(run.get("skipClasses"))));
    int[] timed = IntStream.range(0, queries.length).filter(i -> !skip.contains(queries[i].cls())).toArray();
    if (timed.length == 0 || (rounds == 0 && throughputSeconds == 0)) return;
    long warmEnd = System.nanoTime() + (long) (num(run.get("warmupSeconds"), 3) * 1e9);
    do {
      for (int i : timed) sink += index.execute(queries[i], and, fuzzy).total();
    } while (System.nanoTime() < warmEnd);
    // The timed rounds stop early (after a whole round) once the budget is spent: a slow tier keeps
    // fewer samples rather than stalling the whole bench.
    long budgetEnd = System.nanoTime() + (long) (num(run.get("budgetSeconds"), 60) * 1e9);
    long[][] ns = new long[queries.length][rounds];
    int done = 0;
    while (done < rounds && (done == 0 || System.nanoTime() < budgetEnd)) {
      for (int i : timed) {
        long t0 = System.nanoTime();
        sink += index.execute(queries[i], and, fuzzy).total();
        ns[i][done] = System.nanoTime() - t0;
      }
      done++;
    }
    if (done > 0) {
      for (int i : timed) {
        StringBuilder b = new StringBuilder("{\"t\":\"timing\",\"run\":").append(quote(name)).append(",\"i\":").append(i).append(",\"ns\":[");
        for (int r = 0; r < done; r++) b.append(r == 0 ? "" : ",").append(ns[i][r]);
        emit(b.append("]}"));
      }
      OUT.flush();
    }
    if (throughputSeconds <= 0) return;
    BenchIndex.BenchQuery[] mixed = mixed(Arrays.stream(timed).mapToObj(i -> queries[i]).toArray(BenchIndex.BenchQuery[]::new));
    for (Object c : Json.array(run.get("threads"))) {
      int threads = (int) num(c, 1);
      long[] counted = throughput(index, mixed, and, fuzzy, threads, throughputSeconds);
      double seconds = counted[1] / 1e9;
      emit(new StringBuilder("{\"t\":\"throughput\",\"run\":").append(quote(name)).append(",\"c\":").append(threads).append(",\"qps\":").append(counted[0] / seconds).append(",\"queries\":").append(counted[0]).append(",\"seconds\":").append(seconds).append('}'));
      OUT.flush();
    }
  }

  /**
   * The throughput list: the classes interleaved round-robin in their order of first appearance
   * (as the harness's mixedQueries), so a short window sees every class, not just the first.
   */
  private static BenchIndex.BenchQuery[] mixed(BenchIndex.BenchQuery[] queries) {
    Map<String, List<BenchIndex.BenchQuery>> byClass = new LinkedHashMap<>();
    for (BenchIndex.BenchQuery q : queries) byClass.computeIfAbsent(q.cls(), k -> new ArrayList<>()).add(q);
    List<BenchIndex.BenchQuery> out = new ArrayList<>();
    for (int i = 0; out.size() < queries.length; i++) {
      for (List<BenchIndex.BenchQuery> list : byClass.values()) if (i < list.size()) out.add(list.get(i));
    }
    return out.toArray(new BenchIndex.BenchQuery[0]);
  }

  /**
   * Closed loop: `threads` threads share the one IndexSearcher, each walks the mixed query list
   * from its own offset until the deadline. Returns {queries completed, nanos until the last ended}.
   */
  private static long[] throughput(BenchIndex index, BenchIndex.BenchQuery[] queries, boolean and, boolean fuzzy, int threads, double seconds) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    long[] deadline = new long[1];
    List<Future<Long>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int offset = (int) ((long) t * queries.length / threads);
      futures.add(pool.submit(() -> {
        start.await();
        long n = 0;
        long s = 0;
        for (int i = offset; System.nanoTime() < deadline[0]; i = (i + 1) % queries.length, n++) s += index.execute(queries[i], and, fuzzy).total();
        sink += s;
        return n;
      }));
    }
    long t0 = System.nanoTime();
    deadline[0] = t0 + (long) (seconds * 1e9); // published to the workers by start.countDown()
    start.countDown();
    long total = 0;
    for (Future<Long> f : futures) total += f.get();
    long elapsed = System.nanoTime() - t0;
    pool.shutdown();
    return new long[] {total, elapsed};
  }

  private static List<BenchIndex.Product> readCatalog(Path path) throws IOException {
    List<BenchIndex.Product> out = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.isBlank()) continue;
        Map<String, Object> p = Json.object(Json.parse(line));
        String[] text = new String[BenchIndex.FIELDS.length];
        for (int f = 0; f < text.length; f++) text[f] = (String) p.getOrDefault(BenchIndex.FIELDS[f], "");
        Map<String, Object> facets = p.get("facets") == null ? Map.of() : Json.object(p.get("facets"));
        String[][] pairs = new String[facets.size()][];
        int k = 0;
        for (Map.Entry<String, Object> e : facets.entrySet()) pairs[k++] = new String[] {e.getKey(), (String) e.getValue()};
        out.add(new BenchIndex.Product((String) p.get("id"), text, pairs));
      }
    }
    return out;
  }

  private static BenchIndex.BenchQuery[] readQueries(Path path) throws IOException {
    List<BenchIndex.BenchQuery> out = new ArrayList<>();
    for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
      if (line.isBlank()) continue;
      Map<String, Object> q = Json.object(Json.parse(line));
      List<Object> filters = Json.array(q.get("filters"));
      String[][] fv = new String[filters.size()][];
      for (int k = 0; k < fv.length; k++) fv[k] = Json.strings(filters.get(k));
      out.add(new BenchIndex.BenchQuery((String) q.get("cls"), (String) q.get("q"), fv, Json.strings(q.get("facets")), (int) num(q.get("k"), 10)));
    }
    return out.toArray(new BenchIndex.BenchQuery[0]);
  }

  private static void emitResult(String run, int i, BenchIndex.Result r) {
    StringBuilder b = new StringBuilder("{\"t\":\"result\",\"run\":").append(quote(run)).append(",\"i\":").append(i).append(",\"total\":").append(r.total()).append(",\"ids\":[");
    for (int h = 0; h < r.ids().length; h++) Json.str(b.append(h == 0 ? "" : ","), r.ids()[h]);
    b.append("],\"facets\":");
    if (r.facets() == null) b.append("null");
    else {
      b.append('{');
      boolean first = true;
      for (Map.Entry<String, List<Object[]>> e : r.facets().entrySet()) {
        Json.str(b.append(first ? "" : ","), e.getKey()).append(":[");
        first = false;
        for (int v = 0; v < e.getValue().size(); v++) {
          Object[] pair = e.getValue().get(v);
          Json.str(b.append(v == 0 ? "[" : ",["), (String) pair[0]).append(',').append(pair[1]).append(']');
        }
        b.append(']');
      }
      b.append('}');
    }
    emit(b.append('}'));
  }

  private static void emit(StringBuilder line) {
    OUT.append(line).append('\n');
  }

  private static String quote(String s) {
    return Json.str(new StringBuilder(), s).toString();
  }

  private static double num(Object v, double fallback) {
    return v instanceof Number n ? n.doubleValue() : fallback;
  }

  /** Heap in use after full collections (a few, with pauses, so finalizable garbage goes too). */
  private static long heapUsed() throws InterruptedException {
    for (int k = 0; k < 3; k++) {
      System.gc();
      Thread.sleep(50);
    }
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }

  /** VmRSS of this process from /proc/self/status in bytes; -1 where there is no /proc. */
  private static long rss() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    } catch (IOException e) {
      // No procfs (not Linux): the figure is reported as unknown, the run goes on.
    }
    return -1;
  }
}
