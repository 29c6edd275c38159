package org.jtorch.kernels.cpu;

/**
 * PyTorch's CPU random engine, bit for bit: the 32-bit Mersenne Twister of ATen's {@code core/MT19937RNGEngine.h} (N =
 * 624, M = 397), together with the two Box–Muller samples that {@code CPUGeneratorImpl} caches next to it, because
 * {@code get_state()} serialises the three as one.
 *
 * <p>Words are Java {@code int}s read as unsigned. Seeding keeps the full 64-bit seed for {@code initial_seed()} but
 * feeds only its low 32 bits to the state, so seeds that differ in the high half give the same stream. The first draw
 * after seeding regenerates the whole state ({@code left} starts at 1).
 *
 * <p>Not thread-safe: {@code org.jtorch.Generator} serialises access with its lock, and every sampling kernel holds
 * that lock for its whole fill, so concurrent ops draw disjoint runs of the stream.
 */
public final class Mt19937 {
    /** State size in words. */
    public static final int N = 624;

    private static final int M = 397;
    private static final int MATRIX_A = 0x9908b0df;
    private static final int UPPER_MASK = 0x80000000;
    private static final int LOWER_MASK = 0x7fffffff;

    private final int[] state = new int[N];
    private int left;
    private int next;
    private long seed;
    private boolean seeded;
    private boolean hasNormalDouble;
    private double normalDouble;
    private boolean hasNormalFloat;
    private float normalFloat;

    public Mt19937(long seed) {
        seed(seed);
    }

    /** Reseeds from the low 32 bits of {@code s} and drops both cached normal samples. */
    public void seed(long s) {
        seed = s;
        seeded = true;
        state[0] = (int) s;
        for (int j = 1; j < N; j++) {
            int prev = state[j - 1];
            state[j] = 1812433253 * (prev ^ (prev >>> 30)) + j;
        }
        left = 1;
        next = 0;
        hasNormalDouble = false;
        hasNormalFloat = false;
    }

    /** The last seed set, all 64 bits ({@code initial_seed()}); read it as unsigned. */
    public long initialSeed() {
        return seed;
    }

    /** Next tempered word, as an unsigned 32-bit value in an {@code int}. */
    public int nextInt() {
        if (--left == 0) twist();
        int y = state[next++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        return y ^ (y >>> 18);
    }

    /** Next word as a non-negative long in [0, 2^32) ({@code random()}). */
    public long nextUnsigned32() {
        return Integer.toUnsignedLong(nextInt());
    }

    /** Two words, the first one high ({@code random64()}). */
    public long nextLong() {
        long hi = nextUnsigned32();
        return (hi << 32) | nextUnsigned32();
    }

    /** Uniform float in [0, 1) from one word: its low 24 bits ({@code uniform_real_distribution<float>}). */
    public float nextFloat() {
        return (nextInt() & 0xFFFFFF) * 0x1p-24f;
    }

    /** Uniform double in [0, 1) from two words: the low 53 bits of {@link #nextLong()}. */
    public double nextDouble() {
        return (nextLong() & 0x1FFFFFFFFFFFFFL) * 0x1p-53;
    }

    /** Fills {@code dst[from, to)} with {@link #nextFloat()} draws, in order. */
    public void fillFloats(float[] dst, int from, int to) {
        for (int i = from; i < to; i++) dst[i] = nextFloat();
    }

    /** Fills {@code dst[from, to)} with {@link #nextDouble()} draws, in order. */
    public void fillDoubles(double[] dst, int from, int to) {
        for (int i = from; i < to; i++) dst[i] = nextDouble();
    }

    private void twist() {
        for (int i = 0; i < N - M; i++) state[i] = state[i + M] ^ mix(state[i], state[i + 1]);
        for (int i = N - M; i < N - 1; i++) state[i] = state[i + M - N] ^ mix(state[i], state[i + 1]);
        state[N - 1] = state[M - 1] ^ mix(state[N - 1], state[0]);
        left = N;
        next = 0;
    }

    private static int mix(int u, int v) {
        return (((u & UPPER_MASK) | (v & LOWER_MASK)) >>> 1) ^ ((v & 1) != 0 ? MATRIX_A : 0);
    }

    // ---- the cached Box–Muller samples of CPUGeneratorImpl ------------------------------------------

    public boolean hasNormalDouble() {
        return hasNormalDouble;
    }

    /** Takes the cached double normal sample; call only when {@link #hasNormalDouble()}. */
    public double takeNormalDouble() {
        hasNormalDouble = false;
        return normalDouble;
    }

    public void cacheNormalDouble(double v) {
        normalDouble = v;
        hasNormalDouble = true;
    }

    // ---- snapshot, for get_state/set_state --------------------------------------------------------

    /**
     * Every field of the engine and its caches. {@link #restore} accepts a snapshot only if the engine it describes is
     * valid ({@code seeded}, {@code 0 < left <= 624}, {@code next <= 624}), so a bad state is refused before anything
     * is overwritten.
     */
    public record Snapshot(
            long seed,
            int left,
            boolean seeded,
            long next,
            int[] state,
            boolean hasNormalDouble,
            double normalDouble,
            boolean hasNormalFloat,
            float normalFloat) {
        /** ATen's {@code mt19937::is_valid()}; {@code next} is compared as ATen's uint32 field. */
        public boolean isValid() {
            long next32 = next & 0xFFFFFFFFL;
            return seeded && left > 0 && left <= N && next32 <= N && state.length == N;
        }
    }

    public Snapshot snapshot() {
        return new Snapshot(
                seed, left, seeded, next, state.clone(), hasNormalDouble, normalDouble, hasNormalFloat, normalFloat);
    }

    /** Replaces the whole engine state; throws {@link IllegalArgumentException} (and changes nothing) if invalid. */
    public void restore(Snapshot s) {
        if (!s.isValid()) throw new IllegalArgumentException("Invalid mt19937 state");
        System.arraycopy(s.state(), 0, state, 0, N);
        seed = s.seed();
        left = s.left();
        seeded = true;
        next = (int) (s.next() & 0xFFFFFFFFL);
        hasNormalDouble = s.hasNormalDouble();
        normalDouble = s.normalDouble();
        hasNormalFloat = s.hasNormalFloat();
        normalFloat = s.normalFloat();
    }
}
