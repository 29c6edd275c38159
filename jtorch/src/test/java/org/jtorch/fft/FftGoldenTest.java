package org.jtorch.fft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@code torch.fft} function against PyTorch 2.13 ({@code make_golden_fft.py}): values and the gradients of
 * {@code sum(Re(conj(W) * out))} over lengths of every radix, generic primes and Bluestein lengths, every norm,
 * {@code n}/{@code s} cropping and padding, dims, transposed inputs and integer promotion; frequencies and shifts; the
 * errors of bad arguments with PyTorch's messages. Gradcheck, forward AD and vmap of the primitives are in the op
 * table's sweeps.
 */
class FftGoldenTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("fft.json").stream();
    }

    @Test
    void fixtureIsLoaded() {
        assertTrue(Golden.cases("fft.json").size() > 250);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        if (c.expectsError()) {
            Golden.check(c, List.of(), false, () -> run(c));
            return;
        }
        Object result = run(c);
        List<?> expected = c.out() instanceof List<?> l ? l : List.of(c.out());
        List<?> actual = result instanceof List<?> l ? l : List.of(result);
        assertEquals(expected.size(), actual.size(), c.id());
        for (int i = 0; i < expected.size(); i++) {
            assertClose(c.id() + "[" + i + "]", (Map<?, ?>) expected.get(i), (Tensor) actual.get(i));
        }
    }

    /**
     * A transform's rounding error grows with the size of its outputs, not of each element: PyTorch's float32 FFT
     * differs from the exact result by about {@code eps * log(n) * max|y|} everywhere (JTorch computes in double and
     * rounds once), so the tolerance is relative to the largest expected magnitude.
     */
    private static void assertClose(String id, Map<?, ?> expectedRecord, Tensor actual) {
        @SuppressWarnings("unchecked")
        Tensor expected = Golden.tensor((Map<String, Object>) expectedRecord);
        assertEquals(expected.dtype(), actual.dtype(), id + ": dtype");
        assertArrayEquals(expected.shape(), actual.shape(), id + ": shape");
        double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
        double scale = 1;
        for (double v : e) scale = Math.max(scale, Math.abs(v));
        boolean single = actual.dtype() == DType.FLOAT32 || actual.dtype() == DType.COMPLEX64;
        double tol = scale * (single ? 1e-5 : 1e-11);
        for (int i = 0; i < e.length; i++) {
            if (Math.abs(e[i] - a[i]) > tol) fail(id + ": value " + i + " expected " + e[i] + " but was " + a[i]);
        }
    }

    private static Object run(Golden.Case c) {
        if (c.op().endsWith("freq")) return frequencies(c);
        Tensor x = c.tensorArg(0);
        if (c.expectsError() || c.argCount() == 1) return List.of(call(c, x));
        x.requiresGrad(true);
        Tensor out = call(c, x);
        Tensor w = c.tensorArg(1);
        Tensor loss = out.isComplex()
                ? Torch.real(w.conj().mul(out)).sum()
                : w.mul(out).sum();
        loss.backward();
        return List.of(out.detach(), x.grad());
    }

    private static Tensor frequencies(Golden.Case c) {
        long n = ((Number) c.arg(0)).longValue();
        double d = ((Number) c.kwarg("d")).doubleValue();
        boolean full = c.op().equals("fftfreq");
        if (c.has("dtype")) {
            DType dtype = (DType) c.kwarg("dtype");
            return full ? FFT.fftfreq(n, d, dtype) : FFT.rfftfreq(n, d, dtype);
        }
        return full ? FFT.fftfreq(n, d) : FFT.rfftfreq(n, d);
    }

    private static FFT.Norm norm(Golden.Case c) {
        return c.has("norm") ? FFT.Norm.valueOf(((String) c.kwarg("norm")).toUpperCase(java.util.Locale.ROOT)) : null;
    }

    private static long[] longs(Golden.Case c, String name) {
        if (!c.has(name)) return null;
        List<?> l = (List<?>) c.kwarg(name);
        long[] r = new long[l.size()];
        for (int i = 0; i < r.length; i++) r[i] = ((Number) l.get(i)).longValue();
        return r;
    }

    private static int[] ints(Golden.Case c, String name) {
        long[] l = longs(c, name);
        if (l == null) return null;
        int[] r = new int[l.length];
        for (int i = 0; i < r.length; i++) r[i] = (int) l[i];
        return r;
    }

    private static Tensor call(Golden.Case c, Tensor x) {
        FFT.Norm norm = c.has("norm") && !"sideways".equals(c.kwarg("norm")) ? norm(c) : null;
        if ("sideways".equals(c.kwargs().get("norm"))) {
            // an invalid mode cannot be spelt as the enum: the op takes PyTorch's string
            return org.jtorch.ops.SpectralOps.FFT.call1(x, null, -1L, "sideways");
        }
        Long n = c.has("n") ? ((Number) c.kwarg("n")).longValue() : null;
        int dim = c.has("dim") && c.kwarg("dim") instanceof Number d ? d.intValue() : -1;
        long[] s = longs(c, "s");
        int[] dims = c.has("dim") && c.kwarg("dim") instanceof List<?> ? ints(c, "dim") : null;
        return switch (c.op()) {
            case "fft" -> FFT.fft(x, n, dim, norm);
            case "ifft" -> FFT.ifft(x, n, dim, norm);
            case "rfft" -> FFT.rfft(x, n, dim, norm);
            case "irfft" -> FFT.irfft(x, n, dim, norm);
            case "hfft" -> FFT.hfft(x, n, dim, norm);
            case "ihfft" -> FFT.ihfft(x, n, dim, norm);
            case "fft2" -> FFT.fft2(x, s, dims, norm);
            case "ifft2" -> FFT.ifft2(x, s, dims, norm);
            case "rfft2" -> FFT.rfft2(x, s, dims, norm);
            case "irfft2" -> FFT.irfft2(x, s, dims, norm);
            case "fftn" -> FFT.fftn(x, s, dims, norm);
            case "ifftn" -> FFT.ifftn(x, s, dims, norm);
            case "rfftn" -> FFT.rfftn(x, s, dims, norm);
            case "irfftn" -> FFT.irfftn(x, s, dims, norm);
            case "fftshift" -> dims == null ? FFT.fftshift(x) : FFT.fftshift(x, dims);
            case "ifftshift" -> dims == null ? FFT.ifftshift(x) : FFT.ifftshift(x, dims);
            default -> throw new IllegalArgumentException(c.op());
        };
    }
}
