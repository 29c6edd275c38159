package org.jtorch.io;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * A seeded mutation fuzzer for the file readers (safetensors, .npy, .npz): bit flips, truncations, overwritten length
 * fields, edited numbers and punctuation in the header, deleted, inserted and duplicated ranges, applied to valid
 * files, run by {@link FuzzCampaign}, whose contract the readers must keep; a failing input is kept in
 * {@code target/fuzz-crashes/} to be added to {@code src/test/resources/fuzz/}.
 */
final class SafetensorsMutator {
    private static final long[] INTERESTING = {
        0,
        1,
        2,
        3,
        7,
        8,
        9,
        63,
        64,
        255,
        256,
        65535,
        65536,
        100_000_000,
        100_000_001,
        Integer.MAX_VALUE,
        1L << 31,
        1L << 32,
        (1L << 32) + 1,
        1L << 60,
        Long.MAX_VALUE,
        Long.MIN_VALUE,
        -1
    };
    private static final byte[] PUNCTUATION =
            "{}[]\":,\\ -.e0123456789'()TFN\n\u0000".getBytes(StandardCharsets.ISO_8859_1);

    private final Random rng;

    SafetensorsMutator(long seed) {
        this.rng = new Random(seed);
    }

    /** One to three random mutations of {@code in}; {@code headerEnd} bounds the edits aimed at the header. */
    byte[] mutate(byte[] in, int headerEnd) {
        byte[] b = in;
        for (int k = 1 + rng.nextInt(3); k > 0; k--) b = once(b, Math.min(headerEnd, b.length));
        return b;
    }

    private byte[] once(byte[] in, int headerEnd) {
        if (in.length == 0) return new byte[] {(byte) rng.nextInt()};
        byte[] b = in.clone();
        int h = Math.max(1, headerEnd);
        switch (rng.nextInt(9)) {
            case 0 -> { // bit flips anywhere
                for (int i = 1 + rng.nextInt(4); i > 0; i--) b[rng.nextInt(b.length)] ^= (byte) (1 << rng.nextInt(8));
            }
            case 1 -> b[rng.nextInt(Math.min(h, b.length))] ^= (byte) (1 << rng.nextInt(8)); // bit flip in the header
            case 2 -> b = Arrays.copyOf(b, rng.nextInt(b.length)); // truncation
            case 3 -> b = replaceNumber(b, h);
            case 4 -> b[rng.nextInt(Math.min(h, b.length))] = PUNCTUATION[rng.nextInt(PUNCTUATION.length)];
            case 5 -> { // a little-endian length field (offset 0 for safetensors, 8 for npy) or any aligned word
                int width = new int[] {2, 4, 8}[rng.nextInt(3)];
                int at = rng.nextBoolean() ? (rng.nextBoolean() ? 0 : 8) : rng.nextInt(b.length);
                if (at + width <= b.length) {
                    ByteBuffer w = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
                    long v = INTERESTING[rng.nextInt(INTERESTING.length)];
                    if (width == 2) w.putShort(at, (short) v);
                    else if (width == 4) w.putInt(at, (int) v);
                    else w.putLong(at, v);
                }
            }
            case 6 -> { // delete a range
                int from = rng.nextInt(b.length), to = Math.min(b.length, from + 1 + rng.nextInt(16));
                byte[] out = new byte[b.length - (to - from)];
                System.arraycopy(b, 0, out, 0, from);
                System.arraycopy(b, to, out, from, b.length - to);
                b = out;
            }
            case 7 -> { // insert random bytes
                int at = rng.nextInt(b.length + 1), n = 1 + rng.nextInt(16);
                byte[] out = new byte[b.length + n];
                System.arraycopy(b, 0, out, 0, at);
                for (int i = 0; i < n; i++) out[at + i] = (byte) rng.nextInt();
                System.arraycopy(b, at, out, at + n, b.length - at);
                b = out;
            }
            default -> { // duplicate a range in place of another
                int n = 1 + rng.nextInt(Math.min(32, b.length));
                int from = rng.nextInt(b.length - n + 1), to = rng.nextInt(b.length - n + 1);
                System.arraycopy(in, from, b, to, n);
            }
        }
        return b;
    }

    /** Replaces the run of ASCII digits at or after a random header position with an interesting number. */
    private byte[] replaceNumber(byte[] b, int headerEnd) {
        int start = rng.nextInt(Math.min(headerEnd, b.length));
        while (start < b.length && (b[start] < '0' || b[start] > '9')) start++;
        if (start == b.length) return b;
        int end = start;
        while (end < b.length && b[end] >= '0' && b[end] <= '9') end++;
        long v = INTERESTING[rng.nextInt(INTERESTING.length)];
        byte[] digits = (rng.nextInt(4) == 0 ? Long.toUnsignedString(v) : Long.toString(Math.abs(v % 1000)))
                .getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[b.length - (end - start) + digits.length];
        System.arraycopy(b, 0, out, 0, start);
        System.arraycopy(digits, 0, out, start, digits.length);
        System.arraycopy(b, end, out, start + digits.length, b.length - end);
        return out;
    }

    /** The iteration count: {@code defaults}, or {@code -Djtorch.fuzz.iterations=N} for a long local run. */
    static int iterations(int defaults) {
        return Integer.getInteger("jtorch.fuzz.iterations", defaults);
    }

    /**
     * Runs the {@link FuzzCampaign} {@code name}: input i mutates seed {@code i mod seeds}. {@code reader} gets a file
     * holding the mutated bytes and must touch every loaded element. Returns how many inputs loaded as valid.
     */
    static long fuzz(
            String name,
            long seed,
            int iterations,
            List<byte[]> seeds,
            List<Integer> headerEnds,
            String extension,
            Path dir,
            Consumer<Path> reader) {
        FuzzCampaign.Stats stats = FuzzCampaign.run(
                name,
                seed,
                iterations,
                extension,
                dir,
                (r, i) -> {
                    int s = i % seeds.size();
                    return new SafetensorsMutator(r.nextLong()).mutate(seeds.get(s), headerEnds.get(s));
                },
                reader::accept);
        return stats.loaded();
    }
}
