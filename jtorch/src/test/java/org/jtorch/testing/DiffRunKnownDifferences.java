package org.jtorch.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The differences from PyTorch the differential run expects, each with its reason:
 * {@code diffrun/known-differences.txt} on the test class path. One per line: {@code op kind dtype variant sample
 * reason...}, the first five fields a value or a pattern in which {@code *} stands for any characters, the rest of the
 * line the reason; {@code #} starts a comment. A kind written with a leading {@code ?} ({@code ?value}) marks a
 * difference that depends on the machine's BLAS/LAPACK rounding: it covers mismatches like its kind, and a run where it
 * does not occur does not report it as stale.
 */
public final class DiffRunKnownDifferences {
    /** One documented difference. */
    public record Difference(String op, String kind, String dtype, String variant, String sample, String reason) {
        /** Whether this entry covers a mismatch. */
        public boolean covers(String op, String kind, String dtype, String variant, String sample) {
            return matches(this.op, op)
                    && matches(machineDependent() ? this.kind.substring(1) : this.kind, kind)
                    && matches(this.dtype, dtype)
                    && matches(this.variant, variant)
                    && matches(this.sample, sample);
        }

        /** Whether the difference occurs on some machines only (kind written {@code ?kind}): never stale. */
        public boolean machineDependent() {
            return kind.startsWith("?");
        }

        /** {@code *} matches any run of characters ({@code _foreach_*}, {@code empty*}); the rest literally. */
        private static boolean matches(String pattern, String value) {
            List<String> parts = new ArrayList<>();
            for (String part : pattern.split("\\*", -1)) parts.add(Pattern.quote(part));
            return value.matches(String.join(".*", parts));
        }
    }

    private final List<Difference> differences;

    private DiffRunKnownDifferences(List<Difference> differences) {
        this.differences = differences;
    }

    /** The committed list. */
    public static DiffRunKnownDifferences load() {
        try (InputStream in = DiffRunKnownDifferences.class.getResourceAsStream("/diffrun/known-differences.txt")) {
            if (in == null) throw new IllegalStateException("diffrun/known-differences.txt is not on the class path");
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static DiffRunKnownDifferences parse(String text) {
        List<Difference> list = new ArrayList<>();
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) continue;
            String[] f = l.split("\\s+", 6);
            if (f.length < 6) throw new IllegalArgumentException("known-differences.txt: no reason in: " + l);
            list.add(new Difference(f[0], f[1], f[2], f[3], f[4], f[5]));
        }
        return new DiffRunKnownDifferences(List.copyOf(list));
    }

    /** Every entry, in file order. */
    public List<Difference> all() {
        return differences;
    }

    /** The first entry that covers a mismatch, or null. */
    public Difference find(String op, String kind, String dtype, String variant, String sample) {
        for (Difference d : differences) if (d.covers(op, kind, dtype, variant, sample)) return d;
        return null;
    }
}
