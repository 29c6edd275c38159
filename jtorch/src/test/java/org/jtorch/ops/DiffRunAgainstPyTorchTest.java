package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jtorch.testing.DiffRunCases;
import org.jtorch.testing.DiffRunJTorch;
import org.jtorch.testing.DiffRunKnownDifferences;
import org.jtorch.testing.Json;
import org.jtorch.testing.PyTorchPython;
import org.junit.jupiter.api.Test;

/**
 * The seeded differential run against PyTorch (the interpreter of {@code JTORCH_PYTHON}): every case of
 * {@link DiffRunCases} runs in JTorch, then {@code diffrun.py} replays it on PyTorch's aten op and compares. The run
 * fails on a mismatch that {@code diffrun/known-differences.txt} does not list, and on a listed difference that no
 * longer occurs. Its report goes to {@code target/diffrun/report.txt} (and to standard output); {@code .ci/run} prints
 * it again after Maven. The seed is {@code -Djtorch.diffrun.seed} (default {@value #DEFAULT_SEED}); with another seed,
 * listed differences that do not occur are reported, not failed.
 */
class DiffRunAgainstPyTorchTest {
    private static final long DEFAULT_SEED = 20260;

    @Test
    void jtorchAgreesWithPyTorchOnTheOpTable() throws IOException, InterruptedException {
        PyTorchPython.require();
        long seed = Long.getLong("jtorch.diffrun.seed", DEFAULT_SEED);
        Path dir = Path.of("target", "diffrun").toAbsolutePath();
        Files.createDirectories(dir);
        Path cases = dir.resolve("cases.jsonl"), results = dir.resolve("results.json");
        long start = System.nanoTime();
        int written = 0, unencodable = 0;
        Map<String, Integer> unencodableOps = new TreeMap<>();
        try (BufferedWriter w = Files.newBufferedWriter(cases, StandardCharsets.UTF_8)) {
            for (DiffRunCases.Case c : DiffRunCases.all(seed)) {
                String line = DiffRunJTorch.line(c);
                if (line == null) {
                    unencodable++;
                    unencodableOps.merge(org.jtorch.testing.OpDb.key(c.op()), 1, Integer::sum);
                    continue;
                }
                w.write(line);
                w.write('\n');
                written++;
            }
        }
        double javaSeconds = (System.nanoTime() - start) / 1e9;
        PyTorchPython.run("jtorch/src/test/python/diffrun.py", List.of(cases.toString(), results.toString()));
        double totalSeconds = (System.nanoTime() - start) / 1e9;
        @SuppressWarnings("unchecked")
        Map<String, Object> r = (Map<String, Object>) Json.parse(Files.readString(results));
        Report report = new Report(seed, written, unencodable, unencodableOps, r, DiffRunKnownDifferences.load());
        String text = report.text(javaSeconds, totalSeconds, seed == DEFAULT_SEED);
        Files.writeString(dir.resolve("report.txt"), text);
        System.out.println(text);
        assertTrue(report.undocumented.isEmpty(), "mismatches not in known-differences.txt:\n" + text);
        if (seed == DEFAULT_SEED) {
            assertTrue(report.stale.isEmpty(), "listed differences that no longer occur:\n" + text);
        }
    }

    /** The run's report: counts, skipped ops, mismatches grouped, documented or not. */
    private static final class Report {
        private final long seed;
        private final int cases, unencodable;
        private final Map<String, Integer> unencodableOps;
        private final Map<String, Object> results;
        private final Map<String, List<String>> undocumented = new TreeMap<>();
        private final Map<DiffRunKnownDifferences.Difference, Integer> documented = new LinkedHashMap<>();
        private final List<DiffRunKnownDifferences.Difference> stale = new ArrayList<>();
        private int mismatches;
        /** Gradient mismatches of complex cases, and how many of them are undocumented: counted apart. */
        private int complexGradMismatches, complexGradUndocumented;
        /** Of those, the second-order ones (kinds {@code grad2} and {@code grad2-…}). */
        private int complexGrad2Mismatches, complexGrad2Undocumented;

        @SuppressWarnings("unchecked")
        Report(
                long seed,
                int cases,
                int unencodable,
                Map<String, Integer> unencodableOps,
                Map<String, Object> results,
                DiffRunKnownDifferences known) {
            this.seed = seed;
            this.cases = cases;
            this.unencodable = unencodable;
            this.unencodableOps = unencodableOps;
            this.results = results;
            for (Object o : (List<Object>) results.get("mismatches")) {
                Map<String, Object> m = (Map<String, Object>) o;
                mismatches++;
                String op = (String) m.get("op"), kind = (String) m.get("kind"), dtype = (String) m.get("dtype");
                String variant = (String) m.get("variant"), sample = (String) m.get("sample");
                DiffRunKnownDifferences.Difference d = known.find(op, kind, dtype, variant, sample);
                boolean complexGrad = kind.startsWith("grad") && dtype.startsWith("complex");
                boolean complexGrad2 = complexGrad && kind.startsWith("grad2");
                if (complexGrad) complexGradMismatches++;
                if (complexGrad2) complexGrad2Mismatches++;
                if (d != null) documented.merge(d, 1, Integer::sum);
                else {
                    if (complexGrad) complexGradUndocumented++;
                    if (complexGrad2) complexGrad2Undocumented++;
                    undocumented
                            .computeIfAbsent(op, k -> new ArrayList<>())
                            .add(kind + " " + dtype + " " + variant + " " + sample + ": " + m.get("detail"));
                }
            }
            for (DiffRunKnownDifferences.Difference d : known.all()) {
                if (!documented.containsKey(d) && !d.machineDependent()) stale.add(d);
            }
        }

        @SuppressWarnings("unchecked")
        String text(double javaSeconds, double totalSeconds, boolean staleFails) {
            Map<String, Object> compared = (Map<String, Object>) results.get("compared");
            Map<String, Object> lacking = (Map<String, Object>) results.get("lacking");
            Map<String, Object> renamed = (Map<String, Object>) results.get("renamed");
            long comparedCases = 0;
            for (Object n : compared.values()) comparedCases += (Long) n;
            StringBuilder b = new StringBuilder();
            b.append("==== Differential run against PyTorch ").append(results.get("torch"));
            b.append(" (seed ").append(seed).append(") ====\n");
            b.append(String.format(
                    "ops compared: %d   cases compared: %d (%d with gradients)   mismatches: %d "
                            + "(documented %d, undocumented %d)%n",
                    compared.size(),
                    comparedCases,
                    (Long) results.get("gradient_cases"),
                    mismatches,
                    mismatches
                            - undocumented.values().stream()
                                    .mapToInt(List::size)
                                    .sum(),
                    undocumented.values().stream().mapToInt(List::size).sum()));
            b.append(String.format(
                    "complex cases with gradients (conjugate Wirtinger): %d   their gradient mismatches: %d "
                            + "(documented %d, undocumented %d)%n",
                    (Long) results.get("complex_gradient_cases"),
                    complexGradMismatches,
                    complexGradMismatches - complexGradUndocumented,
                    complexGradUndocumented));
            b.append(String.format(
                    "  of which with second derivatives: %d   their second-order mismatches: %d "
                            + "(documented %d, undocumented %d)%n",
                    (Long) results.get("complex_second_order_cases"),
                    complexGrad2Mismatches,
                    complexGrad2Mismatches - complexGrad2Undocumented,
                    complexGrad2Undocumented));
            b.append(String.format(
                    "cases written: %d; JTorch side %.1f s, total %.1f s%n", cases, javaSeconds, totalSeconds));
            b.append("skipped, PyTorch has no such aten op: ")
                    .append(lacking.size())
                    .append(" ops ");
            b.append(new TreeSet<>(lacking.keySet())).append('\n');
            b.append("skipped, PyTorch's schema names other arguments: ")
                    .append(renamed.size())
                    .append(" ops\n");
            for (var e : new TreeMap<>(renamed).entrySet()) {
                b.append("  ")
                        .append(e.getKey())
                        .append(": ")
                        .append(e.getValue())
                        .append('\n');
            }
            Map<String, Object> crashSkipped = (Map<String, Object>) results.get("crashed_skipped");
            if (!crashSkipped.isEmpty()) {
                b.append("skipped, the rest of an op's cases after it crashed PyTorch (cases per op): ");
                b.append(new TreeMap<>(crashSkipped)).append('\n');
            }
            if (unencodable > 0) {
                b.append("skipped, an argument with no encoding: ")
                        .append(unencodable)
                        .append(" cases ");
                b.append(unencodableOps).append('\n');
            }
            if (!documented.isEmpty()) b.append("documented differences (known-differences.txt), mismatches each:\n");
            for (var e : documented.entrySet()) {
                DiffRunKnownDifferences.Difference d = e.getKey();
                b.append(String.format(
                        "  %5d  %s %s %s %s %s: %s%n",
                        e.getValue(), d.op(), d.kind(), d.dtype(), d.variant(), d.sample(), d.reason()));
            }
            if (!stale.isEmpty()) {
                b.append(staleFails ? "listed differences that no longer occur (remove them):\n" : "not seen:\n");
                for (var d : stale) b.append("  ").append(d).append('\n');
            }
            if (!undocumented.isEmpty()) b.append("UNDOCUMENTED MISMATCHES:\n");
            for (var e : undocumented.entrySet()) {
                b.append("  ")
                        .append(e.getKey())
                        .append(" (")
                        .append(e.getValue().size())
                        .append(")\n");
                for (String s : e.getValue().subList(0, Math.min(5, e.getValue().size()))) {
                    b.append("    ").append(s).append('\n');
                }
            }
            return b.toString();
        }
    }
}
