package org.jtorch.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.junit.jupiter.api.Test;

/**
 * The decompositions on every memory layout their kernels copy differently (row-major, column-major, rows with padding,
 * strided both ways, broadcast batch dims) in float64, complex128 and float32, checked by their defining identities
 * (unique results: the Cholesky factor; the rest up to phase) and, for Cholesky, against a textbook
 * Cholesky-Banachiewicz loop in this test. Only the lower triangle may be read (cholesky and eigh by default): the
 * upper one holds garbage here.
 */
class LinalgLayoutTest {
    private static final int N = 37; // not a multiple of the copy tiles

    /** The same values of {@code a} (contiguous) in several layouts, each with a batch of 2. */
    private static Map<String, Tensor> layouts(Tensor a) {
        Map<String, Tensor> m = new LinkedHashMap<>();
        Tensor batch = Torch.stack(java.util.List.of(a, a.mul(2.0)));
        m.put("row-major", batch);
        m.put("column-major", batch.mT().contiguous().mT());
        long rows = a.size(-2), cols = a.size(-1);
        m.put(
                "padded-rows",
                Torch.cat(java.util.List.of(batch, Torch.zerosLike(batch).narrow(-1, 0, 3)), -1)
                        .narrow(-1, 0, cols));
        Tensor wide = Torch.zeros(new long[] {2, 2 * rows, 2 * cols}, a.dtype(), Device.CPU);
        wide.slice(1, 0L, 2 * rows, 2).slice(2, 0L, 2 * cols, 2).copy_(batch);
        m.put("strided", wide.slice(1, 0L, 2 * rows, 2).slice(2, 0L, 2 * cols, 2));
        m.put("expanded", a.unsqueeze(0).expand(2, rows, cols));
        return m;
    }

    /** A Hermitian positive-definite matrix, plus garbage (2.5e3) above the diagonal, which no kernel may read. */
    private static Tensor spdLowerWithGarbage(DType dtype, long seed) {
        Torch.manualSeed(seed);
        Tensor x = Torch.randn(new long[] {N, N}, DType.FLOAT64);
        Tensor a = dtype.isComplex() ? Torch.complex(x, Torch.randn(new long[] {N, N}, DType.FLOAT64)) : x;
        Tensor spd =
                a.matmul(a.mH()).add(Torch.eye(N, N, DType.FLOAT64, Device.CPU).mul((double) N));
        return spd.tril()
                .add(Torch.ones(new long[] {N, N}, DType.FLOAT64).triu(1).mul(2.5e3))
                .to(dtype)
                .contiguous();
    }

    private static Tensor hermitianFromLower(Tensor a) {
        return a.tril().add(a.tril(-1).mH());
    }

    private static void close(Tensor expected, Tensor actual, double tol, String what) {
        assertArrayEquals(expected.shape(), actual.shape(), what + " shape");
        Tensor e = expected.isComplex() ? Torch.viewAsReal(expected.contiguous()) : expected;
        Tensor g = actual.isComplex() ? Torch.viewAsReal(actual.contiguous()) : actual;
        double[] ev = e.toDoubleArray(), gv = g.toDoubleArray();
        for (int i = 0; i < ev.length; i++) {
            assertTrue(
                    Math.abs(ev[i] - gv[i]) <= tol * (1 + Math.abs(ev[i])),
                    what + " at " + i + ": " + ev[i] + " vs " + gv[i]);
        }
    }

    /** Cholesky-Banachiewicz on real input, row by row, as a reference independent of LAPACK. */
    private static double[] naiveCholesky(double[] a, int n) {
        double[] l = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double s = a[i * n + j];
                for (int k = 0; k < j; k++) s -= l[i * n + k] * l[j * n + k];
                l[i * n + j] = i == j ? Math.sqrt(s) : s / l[j * n + j];
            }
        }
        return l;
    }

    private static void forAll(Function<DType, Tensor> make, java.util.function.BiConsumer<String, Tensor> check) {
        for (DType dtype : new DType[] {DType.FLOAT64, DType.COMPLEX128, DType.FLOAT32}) {
            for (Map.Entry<String, Tensor> e : layouts(make.apply(dtype)).entrySet())
                check.accept(dtype + "/" + e.getKey(), e.getValue());
        }
    }

    @Test
    void choleskyOnEveryLayout() {
        double[] reference = naiveCholesky(
                hermitianFromLower(spdLowerWithGarbage(DType.FLOAT64, 1)).toDoubleArray(), N);
        forAll(d -> spdLowerWithGarbage(d, 1), (what, a) -> {
            double tol = a.dtype() == DType.FLOAT32 ? 1e-4 : 1e-11;
            Tensor l = Linalg.cholesky(a);
            assertEquals(a.dtype(), l.dtype());
            assertTrue(l.isContiguous(), what);
            close(l.tril(), l, 0, what + " lower triangle");
            close(hermitianFromLower(a), l.matmul(l.mH()), tol, what + " L L^H");
            Tensor u = Linalg.cholesky(hermitianFromLower(a), true); // upper=True reads the upper triangle
            close(u.triu(), u, 0, what + " upper triangle");
            close(l.mH(), u, tol, what + " upper = L^H");
            if (a.dtype() == DType.FLOAT64)
                close(Torch.tensor(reference).reshape(N, N), l.select(0, 0), 1e-11, what + " naive");
        });
    }

    @Test
    void eighOnEveryLayout() {
        forAll(d -> spdLowerWithGarbage(d, 2), (what, a) -> {
            double tol = a.dtype() == DType.FLOAT32 ? 1e-3 : 1e-10;
            Eigh e = Linalg.eigh(a);
            Tensor v = e.eigenvectors(), h = hermitianFromLower(a);
            close(h.matmul(v), v.mul(e.eigenvalues().unsqueeze(-2).to(a.dtype())), tol, what + " A V = V L");
            close(Torch.eye(N, N, a.dtype(), Device.CPU).expand(2, N, N), v.mH().matmul(v), tol, what + " V^H V");
        });
    }

    @Test
    void svdOnEveryLayout() {
        forAll(d -> spdLowerWithGarbage(d, 3).narrow(-1, 0, N - 5), (what, a) -> {
            double tol = a.dtype() == DType.FLOAT32 ? 1e-3 : 1e-10;
            Svd s = Linalg.svd(a, false);
            close(a, s.u().mul(s.s().unsqueeze(-2).to(a.dtype())).matmul(s.vh()), tol, what + " U S Vh");
            close(
                    Torch.eye(N - 5, N - 5, a.dtype(), Device.CPU).expand(2, N - 5, N - 5),
                    s.u().mH().matmul(s.u()),
                    tol,
                    what + " U^H U");
        });
    }

    @Test
    void matrixSqrthOnEveryLayout() {
        forAll(d -> spdLowerWithGarbage(d, 4), (what, a) -> {
            double tol = a.dtype() == DType.FLOAT32 ? 1e-3 : 1e-10;
            Tensor x = Linalg.matrixSqrth(a);
            assertTrue(x.isContiguous(), what);
            close(hermitianFromLower(a), x.matmul(x), tol, what + " X X");
            close(x.mH(), x, tol, what + " X^H");
        });
    }

    @Test
    void polarOnEveryLayout() {
        forAll(d -> spdLowerWithGarbage(d, 5).narrow(-1, 0, N - 4), (what, a) -> {
            double tol = a.dtype() == DType.FLOAT32 ? 1e-3 : 1e-10;
            Polar p = Linalg.polar(a);
            close(a, p.u().matmul(p.h()), tol, what + " U H");
            close(
                    Torch.eye(N - 4, N - 4, a.dtype(), Device.CPU).expand(2, N - 4, N - 4),
                    p.u().mH().matmul(p.u()),
                    tol,
                    what + " U^H U");
            close(p.h().mH(), p.h(), 0, what + " H^H exactly");
            Tensor lowest = Linalg.eigvalsh(p.h()).narrow(-1, 0, 1);
            for (double v : lowest.toDoubleArray()) assertTrue(v >= -tol, what + " H >= 0");
        });
    }

    @Test
    void nonFiniteInputToTheFusedKernels() {
        Tensor a = spdLowerWithGarbage(DType.FLOAT64, 6);
        Tensor nan = a.clone();
        nan.select(0, 3).select(0, 1).fill_(Double.NaN);
        Tensor bad = Torch.stack(java.util.List.of(a, nan));
        Tensor x = Linalg.matrixSqrth(bad);
        for (double v : x.select(0, 1).toDoubleArray()) assertTrue(Double.isNaN(v));
        close(Linalg.matrixSqrth(a), x.select(0, 0), 0, "the finite element is unaffected");
        org.jtorch.TorchException e =
                org.junit.jupiter.api.Assertions.assertThrows(org.jtorch.TorchException.class, () -> Linalg.polar(bad));
        assertTrue(
                e.getMessage()
                        .contains("(Batch element 1): The algorithm failed to converge because the input "
                                + "matrix contained non-finite values"),
                e.getMessage());
    }
}
