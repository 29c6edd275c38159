package org.jtorch.nn.functional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.ops.NormOps;
import org.jtorch.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Layer, group and RMS normalisation of float16 and bfloat16 inputs against PyTorch 2.13
 * ({@code make_golden_half_norms.py}): with parameters of the input's dtype, float32 parameters (PyTorch's mixed-dtype
 * CPU kernels, whose statistics and parameter gradients are float32), or none; rms_norm's default eps; and the mixtures
 * PyTorch refuses. PyTorch's forward computes in float32 and rounds each result once, so half-precision outputs must
 * agree to one unit in the last place and almost all of them exactly: a computation that rounds its intermediates to
 * the input's dtype misses by several units in many elements. PyTorch's half-precision backward kernels do round some
 * intermediates to the input's dtype (its mixed weight gradient is up to 1% of its scale from the float32 sum that
 * JTorch computes), so every gradient, float32 ones included, is compared at the input dtype's precision: within four
 * units in the last place of the gradient's largest magnitude.
 */
class HalfPrecisionNormTest {
    /** The share of half-precision elements allowed to differ by one unit (float32 sums in another order). */
    private static final double INEXACT_SHARE = 0.03;

    static Stream<Golden.Case> cases() {
        return Golden.cases("half_norms.json").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    @SuppressWarnings("unchecked")
    void matchesPyTorch(Golden.Case c) {
        Tensor x = c.tensorArg(0).requiresGrad(true);
        Tensor w = c.arg(1) == null ? null : c.tensorArg(1).requiresGrad(true);
        Tensor b = c.arg(2) == null ? null : c.tensorArg(2).requiresGrad(true);
        if (c.expectsError()) {
            try {
                Object result = run(c, x, w, b);
                fail(c.id() + ": PyTorch raised \"" + c.error() + "\" but JTorch returned " + result);
            } catch (RuntimeException e) {
                Golden.assertError(c, e, false);
            }
            return;
        }
        List<Tensor> outs = run(c, x, w, b);
        Tensor weights = c.tensorArg(3);
        outs.getFirst().mul(weights).sum().backward();
        List<Tensor> got = new ArrayList<>(outs);
        for (Tensor t : new Tensor[] {x, w, b}) if (t != null) got.add(t.grad());
        List<Object> expected = (List<Object>) c.out();
        assertEquals(expected.size(), got.size(), c.id() + ": number of outputs");
        for (int i = 0; i < got.size(); i++) {
            Tensor e = Golden.tensor((Map<String, Object>) expected.get(i));
            String id = c.id() + "[" + i + "]";
            if (i < outs.size()) assertOutputClose(id, e, got.get(i));
            else assertGradientClose(id, e, got.get(i), x.dtype());
        }
    }

    private static List<Tensor> run(Golden.Case c, Tensor x, Tensor w, Tensor b) {
        return switch (c.op()) {
            case "native_layer_norm" -> List.of(NormOps.nativeLayerNorm(x, shape(c), w, b, (Double) c.kwarg("eps")));
            case "group_norm" ->
                List.of(F.groupNorm(x, ((Number) c.kwarg("num_groups")).longValue(), w, b, (Double) c.kwarg("eps")));
            case "rms_norm" -> List.of(F.rmsNorm(x, shape(c), w, c.has("eps") ? (Double) c.kwarg("eps") : null));
            default -> throw new IllegalArgumentException(c.op());
        };
    }

    @SuppressWarnings("unchecked")
    private static long[] shape(Golden.Case c) {
        return ((List<Object>) c.kwarg("normalized_shape"))
                .stream().mapToLong(v -> ((Number) v).longValue()).toArray();
    }

    /**
     * Same dtype and shape; half-precision values within one unit in the last place, at most {@link #INEXACT_SHARE} of
     * them inexact; float32 values (the statistics) within 1e-5 relative to the tensor's largest magnitude.
     */
    private static void assertOutputClose(String id, Tensor expected, Tensor actual) {
        double[] e = values(id, expected, actual), a = actual.toDoubleArray();
        boolean half = expected.dtype() == DType.FLOAT16 || expected.dtype() == DType.BFLOAT16;
        double scale = maxAbs(e);
        int inexact = 0;
        for (int i = 0; i < e.length; i++) {
            double diff = Math.abs(e[i] - a[i]);
            if (diff == 0) continue;
            inexact++;
            double allowed = half ? ulp(e[i], expected.dtype()) : 1e-5 * scale;
            if (diff > allowed) fail(id + ": element " + i + " expected " + e[i] + " but was " + a[i]);
        }
        if (half) {
            assertTrue(
                    inexact <= INEXACT_SHARE * e.length,
                    id + ": " + inexact + " of " + e.length + " elements differ by one unit in the last place");
        }
    }

    /** Same dtype and shape; values within four units in the last place of {@code precision} at the largest one. */
    private static void assertGradientClose(String id, Tensor expected, Tensor actual, DType precision) {
        double[] e = values(id, expected, actual), a = actual.toDoubleArray();
        double allowed = 4 * ulp(maxAbs(e), precision);
        for (int i = 0; i < e.length; i++) {
            if (Math.abs(e[i] - a[i]) > allowed) {
                fail(id + ": element " + i + " expected " + e[i] + " but was " + a[i] + " (allowed " + allowed + ")");
            }
        }
    }

    /** The expected values, after checking the dtype and shape. */
    private static double[] values(String id, Tensor expected, Tensor actual) {
        assertEquals(expected.dtype(), actual.dtype(), id + ": dtype");
        assertEquals(List.of(boxed(expected.shape())), List.of(boxed(actual.shape())), id + ": shape");
        return expected.toDoubleArray();
    }

    private static double maxAbs(double[] v) {
        double m = 0;
        for (double x : v) m = Math.max(m, Math.abs(x));
        return m;
    }

    /** The spacing of float16 or bfloat16 values at {@code v} (the larger one at a power of two). */
    private static double ulp(double v, DType dtype) {
        int mantissa = dtype == DType.BFLOAT16 ? 7 : 10, minExponent = dtype == DType.BFLOAT16 ? -126 : -14;
        return Math.scalb(1.0, Math.max(Math.getExponent(v), minExponent) - mantissa);
    }

    private static Long[] boxed(long[] shape) {
        Long[] out = new Long[shape.length];
        for (int i = 0; i < shape.length; i++) out[i] = shape[i];
        return out;
    }
}
