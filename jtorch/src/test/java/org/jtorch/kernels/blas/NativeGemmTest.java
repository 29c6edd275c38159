package org.jtorch.kernels.blas;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.jtorch.TorchException;
import org.jtorch.kernels.blas.OpenBlas.Transpose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** OpenBLAS's four GEMMs and oneDNN's sgemm, under one contract: results against a triple loop, and validation. */
class NativeGemmTest {

    @BeforeAll
    static void librariesLoad() {
        // The bundled libraries are dependencies of this module: failing to load one is a bug, not a skip.
        assertTrue(OpenBlas.isAvailable(), OpenBlas::unavailableReason);
        assertTrue(OneDnn.isAvailable(), OneDnn::unavailableReason);
    }

    /** The five GEMMs behind one signature; values travel as doubles (complex ones interleaved). */
    enum Kind {
        S(false, false),
        D(true, false),
        C(false, true),
        Z(true, true),
        /** oneDNN's sgemm. */
        S_ONEDNN(false, false);
        final boolean isDouble, complex;

        Kind(boolean isDouble, boolean complex) {
            this.isDouble = isDouble;
            this.complex = complex;
        }

        String fn() {
            return name().substring(0, 1).toLowerCase() + "gemm";
        }

        /** Doubles per element. */
        int width() {
            return complex ? 2 : 1;
        }

        double tolerance() {
            return isDouble ? 1e-12 : 1e-4;
        }

        /** Random values in [-1, 1), rounded to the precision the kernel sees so the reference uses the same inputs. */
        double[] random(Random random, long elements) {
            double[] v = new double[Math.toIntExact(elements * width())];
            for (int i = 0; i < v.length; i++) {
                double x = random.nextDouble() * 2 - 1;
                v[i] = isDouble ? x : (float) x;
            }
            return v;
        }

        MemorySegment segment(double[] values, Storage.Place place, Arena arena) {
            if (isDouble) {
                return place == Storage.Place.HEAP
                        ? MemorySegment.ofArray(values.clone())
                        : arena.allocate(JAVA_DOUBLE, values.length).copyFrom(MemorySegment.ofArray(values));
            }
            float[] f = new float[values.length];
            for (int i = 0; i < f.length; i++) f[i] = (float) values[i];
            return place == Storage.Place.HEAP
                    ? MemorySegment.ofArray(f)
                    : arena.allocate(JAVA_FLOAT, f.length).copyFrom(MemorySegment.ofArray(f));
        }

        double[] read(MemorySegment seg) {
            if (isDouble) return seg.toArray(JAVA_DOUBLE);
            float[] f = seg.toArray(JAVA_FLOAT);
            double[] v = new double[f.length];
            for (int i = 0; i < f.length; i++) v[i] = f[i];
            return v;
        }

        /** alpha and beta are {re, im}; real kinds use re only. */
        void gemm(
                Transpose ta,
                Transpose tb,
                int m,
                int n,
                int k,
                double[] alpha,
                MemorySegment a,
                long aOff,
                int lda,
                MemorySegment b,
                long bOff,
                int ldb,
                double[] beta,
                MemorySegment c,
                long cOff,
                int ldc) {
            switch (this) {
                case S ->
                    OpenBlas.sgemm(
                            ta,
                            tb,
                            m,
                            n,
                            k,
                            (float) alpha[0],
                            a,
                            aOff,
                            lda,
                            b,
                            bOff,
                            ldb,
                            (float) beta[0],
                            c,
                            cOff,
                            ldc);
                case D -> OpenBlas.dgemm(ta, tb, m, n, k, alpha[0], a, aOff, lda, b, bOff, ldb, beta[0], c, cOff, ldc);
                case C ->
                    OpenBlas.cgemm(
                            ta,
                            tb,
                            m,
                            n,
                            k,
                            (float) alpha[0],
                            (float) alpha[1],
                            a,
                            aOff,
                            lda,
                            b,
                            bOff,
                            ldb,
                            (float) beta[0],
                            (float) beta[1],
                            c,
                            cOff,
                            ldc);
                case Z ->
                    OpenBlas.zgemm(
                            ta, tb, m, n, k, alpha[0], alpha[1], a, aOff, lda, b, bOff, ldb, beta[0], beta[1], c, cOff,
                            ldc);
                case S_ONEDNN ->
                    OneDnn.sgemm(
                            ta,
                            tb,
                            m,
                            n,
                            k,
                            (float) alpha[0],
                            a,
                            aOff,
                            lda,
                            b,
                            bOff,
                            ldb,
                            (float) beta[0],
                            c,
                            cOff,
                            ldc);
            }
        }
    }

    /** Where A, B and C live. MIXED (heap A, native B and C) must also take the critical path. */
    enum Storage {
        HEAP(Place.HEAP, Place.HEAP),
        NATIVE(Place.NATIVE, Place.NATIVE),
        MIXED(Place.HEAP, Place.NATIVE);

        enum Place {
            HEAP,
            NATIVE
        }

        final Place a, bc;

        Storage(Place a, Place bc) {
            this.a = a;
            this.bc = bc;
        }
    }

    // ---------------------------------------------------------------- results

    @ParameterizedTest
    @EnumSource(Kind.class)
    void matchesNaiveLoop(Kind kind) {
        Random random = new Random(42);
        // tiny (small-matrix path), big enough to be packed, and one with a full 48-row register tile and a remainder
        int[][] shapes = {{7, 5, 3}, {67, 45, 33}, {113, 70, 129}};
        for (int[] shape : shapes) {
            for (Transpose ta : Transpose.values()) {
                for (Transpose tb : Transpose.values()) {
                    for (Storage storage : Storage.values()) {
                        checkAgainstNaive(kind, random, shape[0], shape[1], shape[2], ta, tb, storage);
                    }
                }
            }
        }
    }

    private static void checkAgainstNaive(
            Kind kind, Random random, int m, int n, int k, Transpose ta, Transpose tb, Storage storage) {
        String what = kind.fn() + " " + m + "x" + n + "x" + k + " " + ta + "/" + tb + " " + storage;
        boolean aT = ta != Transpose.NONE, bT = tb != Transpose.NONE;
        int aRows = aT ? k : m, aCols = aT ? m : k, bRows = bT ? n : k, bCols = bT ? k : n;
        // Offsets, padded rows (ld > cols) and a spare element at the end: all must stay untouched.
        int aOff = 2, bOff = 3, cOff = 1, lda = aCols + 2, ldb = bCols + 1, ldc = n + 3;
        double[] a = kind.random(random, aOff + (long) aRows * lda + 1);
        double[] b = kind.random(random, bOff + (long) bRows * ldb + 1);
        double[] c = kind.random(random, cOff + (long) m * ldc + 1);
        double[] alpha = {1.5, -0.75}, beta = {0.5, 0.25};
        double[] expected = naive(kind.complex, ta, tb, m, n, k, alpha, a, aOff, lda, b, bOff, ldb, beta, c, cOff, ldc);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment as = kind.segment(a, storage.a, arena);
            MemorySegment bs = kind.segment(b, storage.bc, arena);
            MemorySegment cs = kind.segment(c, storage.bc, arena);
            kind.gemm(ta, tb, m, n, k, alpha, as, aOff, lda, bs, bOff, ldb, beta, cs, cOff, ldc);
            assertArrayEquals(expected, kind.read(cs), kind.tolerance(), what);
            assertArrayEquals(a, kind.read(as), 0, what + ": A modified");
            assertArrayEquals(b, kind.read(bs), 0, what + ": B modified");
        }
    }

    /** C = alpha op(A) op(B) + beta C with the obvious triple loop, in double; complex values interleaved. */
    private static double[] naive(
            boolean complex,
            Transpose ta,
            Transpose tb,
            int m,
            int n,
            int k,
            double[] alpha,
            double[] a,
            int aOff,
            int lda,
            double[] b,
            int bOff,
            int ldb,
            double[] beta,
            double[] c,
            int cOff,
            int ldc) {
        int w = complex ? 2 : 1;
        double[] out = c.clone();
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double sumRe = 0, sumIm = 0;
                for (int p = 0; p < k; p++) {
                    double[] x = op(complex, ta, a, aOff, lda, i, p), y = op(complex, tb, b, bOff, ldb, p, j);
                    sumRe += x[0] * y[0] - x[1] * y[1];
                    sumIm += x[0] * y[1] + x[1] * y[0];
                }
                int at = (cOff + i * ldc + j) * w;
                double cRe = c[at], cIm = complex ? c[at + 1] : 0;
                out[at] = alpha[0] * sumRe
                        - (complex ? alpha[1] * sumIm : 0)
                        + beta[0] * cRe
                        - (complex ? beta[1] * cIm : 0);
                if (complex) out[at + 1] = alpha[0] * sumIm + alpha[1] * sumRe + beta[0] * cIm + beta[1] * cRe;
            }
        }
        return out;
    }

    /** Element (row, col) of op(X), as {re, im}. */
    private static double[] op(boolean complex, Transpose t, double[] x, int off, int ld, int row, int col) {
        int w = complex ? 2 : 1;
        int at = (t == Transpose.NONE ? off + row * ld + col : off + col * ld + row) * w;
        double im = complex ? x[at + 1] : 0;
        return new double[] {x[at], t == Transpose.CONJ_TRANSPOSE ? -im : im};
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void kZeroScalesC(Kind kind) {
        int m = 3, n = 4;
        double[] c = kind.random(new Random(7), (long) m * n);
        double[] beta = {0.5, kind.complex ? 0.25 : 0};
        double[] expected = naive(
                kind.complex,
                Transpose.NONE,
                Transpose.NONE,
                m,
                n,
                0,
                new double[] {2, 0},
                new double[0],
                0,
                1,
                new double[0],
                0,
                n,
                beta,
                c,
                0,
                n);
        MemorySegment cs = kind.segment(c, Storage.Place.HEAP, null);
        // With k == 0 A (m x 0) and B (0 x n) hold no elements, so empty segments are enough.
        kind.gemm(
                Transpose.NONE,
                Transpose.NONE,
                m,
                n,
                0,
                new double[] {2, 0},
                MemorySegment.NULL,
                0,
                1,
                MemorySegment.NULL,
                0,
                n,
                beta,
                cs,
                0,
                n);
        assertArrayEquals(expected, kind.read(cs), kind.tolerance());
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void emptyResultLeavesCAlone(Kind kind) {
        double[] c = kind.random(new Random(9), 6);
        MemorySegment cs = kind.segment(c, Storage.Place.HEAP, null);
        MemorySegment ab = kind.segment(kind.random(new Random(10), 6), Storage.Place.HEAP, null);
        double[] two = {2, 1};
        kind.gemm(Transpose.NONE, Transpose.NONE, 0, 2, 3, two, MemorySegment.NULL, 0, 3, ab, 0, 2, two, cs, 0, 2);
        kind.gemm(Transpose.NONE, Transpose.NONE, 2, 0, 3, two, ab, 0, 3, MemorySegment.NULL, 0, 1, two, cs, 0, 1);
        assertArrayEquals(c, kind.read(cs), 0);
    }

    /** With beta = 0, C is written without being read: NaN in it (an uninitialized output's) must not show. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void betaZeroNeverReadsC(Kind kind) {
        Random random = new Random(11);
        int m = 50, n = 37, k = 29;
        double[] a = kind.random(random, (long) m * k), b = kind.random(random, (long) k * n);
        double[] c = new double[m * n * kind.width()];
        java.util.Arrays.fill(c, Double.NaN);
        double[] alpha = {2, 0}, beta = {0, 0};
        double[] expected = naive(
                kind.complex,
                Transpose.NONE,
                Transpose.NONE,
                m,
                n,
                k,
                alpha,
                a,
                0,
                k,
                b,
                0,
                n,
                beta,
                new double[c.length],
                0,
                n);
        MemorySegment cs = kind.segment(c, Storage.Place.HEAP, null);
        kind.gemm(
                Transpose.NONE,
                Transpose.NONE,
                m,
                n,
                k,
                alpha,
                kind.segment(a, Storage.Place.HEAP, null),
                0,
                k,
                kind.segment(b, Storage.Place.HEAP, null),
                0,
                n,
                beta,
                cs,
                0,
                n);
        assertArrayEquals(expected, kind.read(cs), kind.tolerance());
    }

    // ---------------------------------------------------------------- validation

    /** A valid sgemm on 4x3x2 heap matrices; each test breaks one argument. */
    private static final class Call {
        Transpose transA = Transpose.NONE, transB = Transpose.NONE;
        int m = 4, n = 3, k = 2, lda = 2, ldb = 3, ldc = 3;
        MemorySegment a = MemorySegment.ofArray(new float[8]),
                b = MemorySegment.ofArray(new float[6]),
                c = MemorySegment.ofArray(new float[12]);
        long aOff, bOff, cOff;
        boolean oneDnn;

        void run() {
            if (oneDnn) OneDnn.sgemm(transA, transB, m, n, k, 1f, a, aOff, lda, b, bOff, ldb, 0f, c, cOff, ldc);
            else OpenBlas.sgemm(transA, transB, m, n, k, 1f, a, aOff, lda, b, bOff, ldb, 0f, c, cOff, ldc);
        }
    }

    private static void assertInvalid(String fn, String argument, Executable call) {
        TorchException e = assertThrows(TorchException.class, call);
        assertTrue(e.getMessage().startsWith(fn + ": " + argument + " "), e.getMessage());
    }

    private static void assertInvalid(String argument, Call call) {
        assertInvalid("sgemm", argument, call::run);
    }

    @Test
    void theValidCallIsValid() {
        new Call().run();
    }

    @Test
    void rejectsNegativeDimensions() {
        Call c = new Call();
        c.m = -1;
        assertInvalid("m", c);
        c = new Call();
        c.n = -1;
        assertInvalid("n", c);
        c = new Call();
        c.k = -1;
        assertInvalid("k", c);
    }

    @Test
    void rejectsNulls() {
        Call c = new Call();
        c.transA = null;
        assertInvalid("transA", c);
        c = new Call();
        c.transB = null;
        assertInvalid("transB", c);
        c = new Call();
        c.a = null;
        assertInvalid("a", c);
        c = new Call();
        c.b = null;
        assertInvalid("b", c);
        c = new Call();
        c.c = null;
        assertInvalid("c", c);
    }

    @Test
    void rejectsShortLeadingDimensions() {
        Call c = new Call();
        c.lda = 1; // A is 4x2
        assertInvalid("lda", c);
        c = new Call();
        c.transA = Transpose.TRANSPOSE; // A is stored 2x4 now, so lda = 2 is too short
        assertInvalid("lda", c);
        c = new Call();
        c.ldb = 2;
        assertInvalid("ldb", c);
        c = new Call();
        c.transB = Transpose.TRANSPOSE; // B stored 3x2: ldb = 3 is fine, but the segment is then too small
        assertInvalid("b", c);
        c = new Call();
        c.ldc = 2;
        assertInvalid("ldc", c);
        c = new Call();
        c.n = 0;
        c.ldc = 0; // max(1, n) even when C has no columns
        assertInvalid("ldc", c);
    }

    @Test
    void rejectsOffsetsOutsideTheSegment() {
        Call c = new Call();
        c.aOff = -1;
        assertInvalid("aOffsetElems", c);
        c = new Call();
        c.bOff = 7; // b holds 6 floats
        assertInvalid("bOffsetElems", c);
        c = new Call();
        c.cOff = Long.MIN_VALUE;
        assertInvalid("cOffsetElems", c);
    }

    @Test
    void rejectsSegmentsTooSmallForTheMatrix() {
        Call c = new Call();
        c.aOff = 1; // last element of A would be a[8]
        assertInvalid("a", c);
        c = new Call();
        c.b = c.b.asSlice(0, 5 * Float.BYTES);
        assertInvalid("b", c);
        c = new Call();
        c.ldc = 4; // (4-1)*4 + 3 = 15 elements > 12
        assertInvalid("c", c);
        c = new Call();
        c.c = MemorySegment.ofArray(new float[12]).asSlice(0, 47); // 11.75 floats is 11
        assertInvalid("c", c);
    }

    @Test
    void rejectsReadOnlyAndAliasedOutput() {
        Call c = new Call();
        c.c = c.c.asReadOnly();
        assertInvalid("c", c);
        c = new Call();
        MemorySegment shared = MemorySegment.ofArray(new float[20]);
        c.a = shared;
        c.c = shared;
        c.cOff = 7; // A is elements 0..7, C 7..18
        assertInvalid("c", c);
        c = new Call();
        c.b = shared;
        c.c = shared.asSlice(0, 12 * Float.BYTES);
        assertInvalid("c", c);
        // Disjoint parts of one array are fine.
        c = new Call();
        c.a = shared;
        c.c = shared;
        c.cOff = 8;
        c.run();
    }

    @Test
    void rejectsDeadAndForeignSegments() throws InterruptedException {
        Call c = new Call();
        Arena closed = Arena.ofConfined();
        c.a = closed.allocate(8 * Float.BYTES);
        closed.close();
        assertInvalid("a", c);

        try (Arena confined = Arena.ofConfined()) {
            Call other = new Call();
            other.b = confined.allocate(6 * Float.BYTES);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread.ofPlatform()
                    .start(() -> {
                        try {
                            other.run();
                        } catch (Throwable e) {
                            thrown.set(e);
                        }
                    })
                    .join();
            TorchException e = assertInstanceOf(TorchException.class, thrown.get());
            assertTrue(e.getMessage().startsWith("sgemm: b "), e.getMessage());
        }
    }

    @Test
    void rejectsMisalignedSegments() {
        try (Arena arena = Arena.ofConfined()) {
            Call c = new Call();
            c.a = arena.allocate(9 * Float.BYTES, 8).asSlice(2);
            assertInvalid("a", c);
        }
        MemorySegment floats = MemorySegment.ofArray(new float[16]); // only 4-byte aligned
        MemorySegment doubles = MemorySegment.ofArray(new double[16]);
        assertInvalid(
                "dgemm",
                "a",
                () -> OpenBlas.dgemm(
                        Transpose.NONE, Transpose.NONE, 2, 2, 2, 1, floats, 0, 2, doubles, 0, 2, 0, doubles, 4, 2));
    }

    @Test
    void everyGemmValidates() {
        MemorySegment f = MemorySegment.ofArray(new float[8]), d = MemorySegment.ofArray(new double[8]);
        assertInvalid(
                "dgemm",
                "k",
                () -> OpenBlas.dgemm(Transpose.NONE, Transpose.NONE, 2, 2, -2, 1, d, 0, 2, d, 0, 2, 0, d, 4, 2));
        // complex: lengths count (re, im) pairs, so 8 floats hold only 4 complex64 elements
        assertInvalid(
                "cgemm",
                "c",
                () -> OpenBlas.cgemm(
                        Transpose.NONE,
                        Transpose.CONJ_TRANSPOSE,
                        2,
                        2,
                        2,
                        1,
                        0,
                        MemorySegment.ofArray(new float[8]),
                        0,
                        2,
                        MemorySegment.ofArray(new float[8]),
                        0,
                        2,
                        0,
                        0,
                        f,
                        1,
                        2));
        assertInvalid(
                "zgemm",
                "lda",
                () -> OpenBlas.zgemm(
                        Transpose.CONJ_TRANSPOSE,
                        Transpose.NONE,
                        2,
                        3,
                        1,
                        1,
                        0,
                        d,
                        0,
                        1,
                        d,
                        0,
                        3,
                        0,
                        0,
                        MemorySegment.ofArray(new double[12]),
                        0,
                        3));
    }

    /** oneDNN's sgemm runs the same checks before its downcall: one broken argument of each kind. */
    @Test
    void oneDnnValidatesAsOpenBlas() {
        java.util.List<java.util.Map.Entry<String, java.util.function.Consumer<Call>>> breaks = java.util.List.of(
                java.util.Map.entry("m", c -> c.m = -1),
                java.util.Map.entry("transB", c -> c.transB = null),
                java.util.Map.entry("lda", c -> c.lda = 1),
                java.util.Map.entry("bOffsetElems", c -> c.bOff = 7),
                java.util.Map.entry("c", c -> c.ldc = 4),
                java.util.Map.entry("c", c -> c.c = c.c.asReadOnly()),
                java.util.Map.entry("a", c -> c.a = MemorySegment.ofArray(new float[7])));
        for (var broken : breaks) {
            Call c = new Call();
            c.oneDnn = true;
            broken.getValue().accept(c);
            assertInvalid(broken.getKey(), c);
        }
        Call aliased = new Call();
        aliased.oneDnn = true;
        MemorySegment shared = MemorySegment.ofArray(new float[20]);
        aliased.a = shared;
        aliased.c = shared;
        aliased.cOff = 7;
        assertInvalid("c", aliased);
        Call valid = new Call();
        valid.oneDnn = true;
        valid.run();
    }

    /** Products of float32 tensors go to oneDNN unless -Djtorch.sgemm says otherwise (the test JVM does not). */
    @Test
    void floatProductsUseOneDnn() {
        assertEquals("oneDNN", FloatGemm.library());
    }

    // ---------------------------------------------------------------- threads and configuration

    @Test
    void setNumThreadsTakesEffect() {
        int previous = OpenBlas.numThreads();
        try {
            OpenBlas.setNumThreads(1);
            assertEquals(1, OpenBlas.numThreads());
        } finally {
            OpenBlas.setNumThreads(previous);
        }
        assertEquals(previous, OpenBlas.numThreads());
        assertInvalid("setNumThreads", "n", () -> OpenBlas.setNumThreads(0));
    }

    @Test
    void reportsConfiguration() {
        assertTrue(OpenBlas.config().startsWith("OpenBLAS "), OpenBlas.config());
        assertFalse(OpenBlas.coreName().isBlank());
        assertNull(OpenBlas.unavailableReason());
    }
}
