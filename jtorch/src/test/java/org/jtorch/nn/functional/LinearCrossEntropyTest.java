package org.jtorch.nn.functional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.GradCheck;
import org.jtorch.nn.LinearCrossEntropyOptions;
import org.jtorch.nn.LinearCrossEntropyOptions.AccPolicy;
import org.jtorch.nn.Reduction;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code F.linear_cross_entropy}: both paths against PyTorch 2.13's {@code F.linear_cross_entropy}
 * (golden/linear_cross_entropy.json, see make_golden_linear_ce.py), the spec's worked examples, gradcheck, options
 * resolution and errors.
 */
class LinearCrossEntropyTest {
    private static final double TOL = 1e-9;

    /** Chunk sizes: null = reference path; 0 = chunked with one chunk; others divide N=7 or not. */
    static Stream<Arguments> goldenCases() {
        List<Arguments> out = new ArrayList<>();
        for (Golden.Case c : Golden.cases("linear_cross_entropy.json")) {
            for (Integer chunk : new Integer[] {null, 0, 1, 3, 7, 100}) out.add(Arguments.of(c, chunk));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} chunk={1}")
    @MethodSource("goldenCases")
    void matchesReferenceDefinition(Golden.Case c, Integer chunk) {
        Tensor x = c.tensorArg(0).requiresGrad(true), w = c.tensorArg(1).requiresGrad(true), y = c.tensorArg(2);
        Tensor b = (Tensor) c.kwarg("linear_bias");
        if (b != null) b.requiresGrad(true);
        LinearCrossEntropyArgs args = LinearCrossEntropyArgs.defaults()
                .linearBias(b)
                .weight((Tensor) c.kwarg("weight"))
                .reduction(Reduction.of((String) c.kwarg("reduction")))
                .labelSmoothing(Golden.number(c.kwarg("label_smoothing")));
        if (c.kwarg("ignore_index") != null) args = args.ignoreIndex(((Number) c.kwarg("ignore_index")).longValue());
        if (chunk != null) {
            args = args.options(LinearCrossEntropyOptions.defaults()
                    .withChunkingMethod(null)
                    .withBatchChunkSize(chunk == 0 ? null : chunk));
        }
        Tensor loss;
        List<org.jtorch.Warning> warnings;
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            loss = F.linearCrossEntropy(x, w, y, args);
            warnings = rec.records();
        }
        boolean unsupported = args.labelSmoothing() != 0 || w.dim() != 2;
        assertEquals(chunk != null && unsupported, !warnings.isEmpty(), "fallback warning: " + warnings);
        if (!warnings.isEmpty()) assertTrue(warnings.get(0).message().contains("falling back to the reference path"));
        List<?> expected = (List<?>) c.out();
        assertClose(Golden.tensor(cast(expected.get(0))), loss);
        Tensor gradOut = (Tensor) c.kwarg("grad_out");
        List<Tensor> inputs = b == null ? List.of(x, w) : List.of(x, w, b);
        List<Tensor> g = Autograd.grad(
                List.of(loss), inputs, Autograd.GradOptions.defaults().gradOutputs(List.of(gradOut)));
        for (int i = 0; i < inputs.size(); i++) assertClose(Golden.tensor(cast(expected.get(i + 1))), g.get(i));
    }

    @SuppressWarnings("unchecked")
    private static java.util.Map<String, Object> cast(Object o) {
        return (java.util.Map<String, Object>) o;
    }

    private static void assertClose(Tensor expected, Tensor actual) {
        assertArrayEquals(expected.shape(), actual.shape());
        double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
        for (int i = 0; i < e.length; i++) {
            if (Double.isNaN(e[i])) assertTrue(Double.isNaN(a[i]), "index " + i + ": expected NaN, got " + a[i]);
            else assertEquals(e[i], a[i], TOL * Math.max(1, Math.abs(e[i])), "index " + i);
        }
    }

    // ---- the spec's worked examples (nn-optim §2.7) ---------------------------------------------------------

    private static final double[][] X = {{1, 2}, {0.5, -1}, {0, 1}};
    private static final double[][] W = {{1, 0}, {0, 1}, {1, 1}};

    private static LinearCrossEntropyOptions twoRowChunks() {
        return LinearCrossEntropyOptions.defaults().withBatchChunkSize(2).withChunkingMethod(null);
    }

    @Test
    void workedExamplesBothPaths() {
        Tensor y = Torch.tensor(new long[] {2, 0, 1});
        for (LinearCrossEntropyOptions o : new LinearCrossEntropyOptions[] {null, twoRowChunks()}) {
            assertEquals(
                    0.5779899,
                    F.linearCrossEntropy(Torch.tensor(X), Torch.tensor(W), y, Reduction.MEAN, o)
                            .item(),
                    1e-6);
            assertArrayEquals(
                    new double[] {0.407606, 0.464369, 0.861995},
                    F.linearCrossEntropy(Torch.tensor(X), Torch.tensor(W), y, Reduction.NONE, o)
                            .toDoubleArray(),
                    1e-6);
            var args = LinearCrossEntropyArgs.defaults()
                    .linearBias(Torch.tensor(new double[] {0, 0.5, -0.5}))
                    .options(o);
            assertEquals(
                    0.5758846,
                    F.linearCrossEntropy(Torch.tensor(X), Torch.tensor(W), y, args)
                            .item(),
                    1e-6);
            assertArrayEquals(
                    new double[] {0.798916, 0.464369, 0.464369},
                    F.linearCrossEntropy(Torch.tensor(X), Torch.tensor(W), y, args.reduction(Reduction.NONE))
                            .toDoubleArray(),
                    1e-6);

            Tensor x = Torch.tensor(X).requiresGrad(true), w = Torch.tensor(W).requiresGrad(true);
            Tensor b = Torch.zeros(3).to(DType.FLOAT64).requiresGrad(true);
            F.linearCrossEntropy(
                            x,
                            w,
                            y,
                            LinearCrossEntropyArgs.defaults().linearBias(b).options(o))
                    .backward();
            assertArrayEquals(
                    new double[] {-0.081576, -0.030010, -0.046748, 0.123823, 0.192560, -0.051787},
                    x.grad().toDoubleArray(),
                    1e-6);
            assertArrayEquals(
                    new double[] {-0.031901, 0.235631, 0.104950, -0.076156, -0.073049, -0.159474},
                    w.grad().toDoubleArray(),
                    1e-6);
            assertArrayEquals(
                    new double[] {-0.042025, -0.064236, 0.106261}, b.grad().toDoubleArray(), 1e-6);
        }
    }

    @Test
    void kDimensionalWeightFallsBackWithWarningAndSameNumbers() {
        Tensor input = Torch.tensor(new double[][] {{1, 2}});
        Tensor w = Torch.tensor(new double[] {1, 0, 0, 1, 1, 1, -1, 0}, DType.FLOAT64, 2, 2, 2);
        Tensor y = Torch.tensor(new long[] {1, 0}).reshape(1, 2);
        assertArrayEquals(
                new double[] {0.126928, 0.048587},
                F.linearCrossEntropy(input, w, y, Reduction.NONE, null).toDoubleArray(),
                1e-6);
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            assertEquals(
                    0.0877577,
                    F.linearCrossEntropy(input, w, y, Reduction.MEAN, LinearCrossEntropyOptions.defaults())
                            .item(),
                    1e-6);
            assertEquals(1, rec.records().size());
            assertEquals(Warnings.Category.USER_WARNING, rec.records().get(0).category());
        }
    }

    // ---- float32 at a realistic-ish size, non-contiguous, half types -----------------------------------------

    private static Tensor randn(long seed, DType dtype, long... shape) {
        Torch.manualSeed(seed);
        return Torch.randn(shape).to(dtype);
    }

    @Test
    void float32ChunkedMatchesReferenceOnNonContiguousInputs() {
        Tensor x = randn(1, DType.FLOAT32, 16, 37).t().requiresGrad(true); // (37, 16), a transposed view
        Tensor w = randn(2, DType.FLOAT32, 50, 16).requiresGrad(true);
        Tensor b = randn(3, DType.FLOAT32, 50).requiresGrad(true);
        Torch.manualSeed(4);
        Tensor y = Torch.randint(0, 50, 37);
        for (Reduction r : Reduction.values()) {
            var args =
                    LinearCrossEntropyArgs.defaults().linearBias(b).reduction(r).ignoreIndex(7);
            Tensor ref = F.linearCrossEntropy(x, w, y, args);
            Tensor got = F.linearCrossEntropy(
                    x, w, y, args.options(LinearCrossEntropyOptions.defaults().withBatchChunkSize(8)));
            assertEquals(DType.FLOAT32, got.dtype());
            // relative: the 'sum' loss is ~318, where one float32 ulp is 3e-5, and the reference path's float32
            // reduction may associate differently from run to run
            assertNear(ref.toDoubleArray(), got.toDoubleArray(), 1e-5, r.toString());
            Tensor seed = randn(5, DType.FLOAT32, ref.shape());
            List<Tensor> gr = Autograd.grad(
                    List.of(ref),
                    List.of(x, w, b),
                    Autograd.GradOptions.defaults().gradOutputs(List.of(seed)));
            List<Tensor> gc = Autograd.grad(
                    List.of(got),
                    List.of(x, w, b),
                    Autograd.GradOptions.defaults().gradOutputs(List.of(seed)));
            for (int i = 0; i < 3; i++) {
                assertEquals(DType.FLOAT32, gc.get(i).dtype());
                assertNear(gr.get(i).toDoubleArray(), gc.get(i).toDoubleArray(), 1e-5, r + " grad " + i);
            }
        }
    }

    /** {@code |e − a| ≤ rtol·max(1, |e|)} elementwise. */
    private static void assertNear(double[] e, double[] a, double rtol, String what) {
        assertEquals(e.length, a.length, what);
        for (int i = 0; i < e.length; i++)
            assertEquals(e[i], a[i], rtol * Math.max(1, Math.abs(e[i])), what + " index " + i);
    }

    @Test
    void halfInputsAccumulateInFloat32() {
        for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
            Tensor x = randn(6, dt, 9, 8).requiresGrad(true),
                    w = randn(7, dt, 20, 8).requiresGrad(true);
            Torch.manualSeed(8);
            Tensor y = Torch.randint(0, 20, 9);
            Tensor got = F.linearCrossEntropy(
                    x, w, y, Reduction.SUM, LinearCrossEntropyOptions.defaults().withBatchChunkSize(4));
            assertEquals(dt, got.dtype());
            got.backward();
            Tensor xr = x.detach().to(DType.FLOAT64).requiresGrad(true),
                    wr = w.detach().to(DType.FLOAT64).requiresGrad(true);
            Tensor ref = F.linearCrossEntropy(xr, wr, y, Reduction.SUM, null);
            ref.backward();
            double tol = dt == DType.FLOAT16 ? 2e-3 : 2e-2;
            assertEquals(ref.item(), got.item(), tol * Math.abs(ref.item()));
            assertEquals(dt, x.grad().dtype());
            assertArrayEquals(
                    xr.grad().toDoubleArray(), x.grad().to(DType.FLOAT64).toDoubleArray(), 4 * tol);
            assertArrayEquals(
                    wr.grad().toDoubleArray(), w.grad().to(DType.FLOAT64).toDoubleArray(), 4 * tol);
        }
    }

    // ---- gradcheck (float64, finite differences) --------------------------------------------------------------

    @Test
    void gradcheckChunkedAllReductionsAndTargetKinds() {
        Tensor x = randn(11, DType.FLOAT64, 5, 3).requiresGrad(true),
                w = randn(12, DType.FLOAT64, 4, 3).requiresGrad(true);
        Tensor b = randn(13, DType.FLOAT64, 4).requiresGrad(true);
        Tensor hard = Torch.tensor(new long[] {0, 3, 1, 1, 2});
        Tensor soft = randn(14, DType.FLOAT64, 5, 4).softmax(1);
        Tensor cw = Torch.tensor(new double[] {0.5, 1, 2, 1.5});
        for (Reduction r : Reduction.values()) {
            for (Tensor y : new Tensor[] {hard, soft}) {
                var args = LinearCrossEntropyArgs.defaults()
                        .weight(cw)
                        .reduction(r)
                        .ignoreIndex(1)
                        .options(LinearCrossEntropyOptions.defaults().withBatchChunkSize(2));
                assertTrue(
                        GradCheck.check(
                                in -> F.linearCrossEntropy(in.get(0), in.get(1), y, args.linearBias(in.get(2))),
                                List.of(x, w, b),
                                GradCheck.Options.defaults()),
                        r + " " + y.dtype());
            }
        }
    }

    /**
     * Enough classes that the kernel cuts each chunk into several column slices (C=300: four slices of 75), with one
     * class per row far above the rest in a later slice, so the slices' partial sums must be rescaled to the row's true
     * max when merged. Against the reference path (linear + cross_entropy), for every reduction, index targets with
     * bias, class weights and an ignored class, and probability targets; chunks of 8 rows, one chunk, and 'auto'.
     */
    @Test
    void manyClassesAcrossColumnSlicesMatchReference() {
        for (DType dt : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
            double tol = dt == DType.FLOAT64 ? 1e-10 : 2e-5;
            Tensor xv = randn(61, dt, 37, 24);
            Tensor wv = randn(62, dt, 300, 24).mul(0.3);
            wv.select(0, 251).mul_(0).add_(xv.sum(0).mul(0.05)); // class 251 (slice 3) dominates most rows
            Tensor x = xv.requiresGrad(true), w = wv.requiresGrad(true);
            Tensor b = randn(63, dt, 300).requiresGrad(true);
            Tensor cw = Torch.rand(300).to(dt).add(0.5);
            Torch.manualSeed(64);
            Tensor hard = Torch.randint(0, 300, 37);
            hard.select(0, 5).fill_(251);
            hard.select(0, 6).fill_(3);
            Tensor soft = randn(65, dt, 37, 300).mul(2).softmax(1);
            var chunks = new LinearCrossEntropyOptions[] {
                LinearCrossEntropyOptions.defaults().withBatchChunkSize(8),
                LinearCrossEntropyOptions.defaults().withChunkingMethod(null),
                LinearCrossEntropyOptions.defaults()
            };
            for (Reduction r : Reduction.values()) {
                for (Tensor y : new Tensor[] {hard, soft}) {
                    var args = LinearCrossEntropyArgs.defaults().linearBias(b).reduction(r);
                    if (y == hard) args = args.weight(cw).ignoreIndex(3);
                    Tensor ref = F.linearCrossEntropy(x, w, y, args);
                    Tensor seed = randn(66, dt, ref.shape()).abs();
                    List<Tensor> gr = Autograd.grad(
                            List.of(ref),
                            List.of(x, w, b),
                            Autograd.GradOptions.defaults().gradOutputs(List.of(seed)));
                    for (LinearCrossEntropyOptions o : chunks) {
                        String what = dt + " " + r + " " + (y == hard ? "index" : "probs") + " " + o.batchChunkSize();
                        Tensor got = F.linearCrossEntropy(x, w, y, args.options(o));
                        assertNear(ref.toDoubleArray(), got.toDoubleArray(), tol, what);
                        List<Tensor> gc = Autograd.grad(
                                List.of(got),
                                List.of(x, w, b),
                                Autograd.GradOptions.defaults().gradOutputs(List.of(seed)));
                        for (int i = 0; i < 3; i++) {
                            assertNear(gr.get(i).toDoubleArray(), gc.get(i).toDoubleArray(), tol, what + " grad " + i);
                        }
                    }
                }
            }
        }
    }

    @Test
    void gradcheckAcrossTwoColumnSlices() {
        // C=130: two column slices of 65 classes per chunk
        Tensor x = randn(67, DType.FLOAT64, 5, 3).requiresGrad(true),
                w = randn(68, DType.FLOAT64, 130, 3).requiresGrad(true);
        Tensor b = randn(69, DType.FLOAT64, 130).requiresGrad(true);
        Tensor hard = Torch.tensor(new long[] {0, 129, 64, 65, 100});
        Tensor soft = randn(70, DType.FLOAT64, 5, 130).softmax(1);
        for (Reduction r : Reduction.values()) {
            for (Tensor y : new Tensor[] {hard, soft}) {
                var args = LinearCrossEntropyArgs.defaults()
                        .reduction(r)
                        .ignoreIndex(65)
                        .options(LinearCrossEntropyOptions.defaults().withBatchChunkSize(3));
                assertTrue(
                        GradCheck.check(
                                in -> F.linearCrossEntropy(in.get(0), in.get(1), y, args.linearBias(in.get(2))),
                                List.of(x, w, b),
                                GradCheck.Options.defaults()),
                        r + " " + y.dtype());
            }
        }
    }

    @Test
    void doubleBackwardRaisesInsteadOfSilentZeros() {
        Tensor x = randn(21, DType.FLOAT64, 4, 3).requiresGrad(true),
                w = randn(22, DType.FLOAT64, 5, 3).requiresGrad(true);
        Tensor y = Torch.tensor(new long[] {0, 4, 1, 2});
        for (Reduction r : new Reduction[] {Reduction.MEAN, Reduction.NONE}) {
            Tensor loss = F.linearCrossEntropy(x, w, y, r, LinearCrossEntropyOptions.defaults())
                    .sum();
            Tensor gx = Autograd.grad(loss, x, true);
            TorchException e = assertThrows(TorchException.class, () -> gx.sum().backward());
            assertTrue(
                    e.getMessage().contains("double backward through the chunked path is not supported"),
                    e.getMessage());
        }
    }

    @Test
    void secondBackwardNeedsAllowRetainGraph() {
        Tensor x = randn(31, DType.FLOAT64, 4, 3).requiresGrad(true),
                w = randn(32, DType.FLOAT64, 5, 3).requiresGrad(true);
        Tensor y = Torch.tensor(new long[] {0, 4, 1, 2});
        var once = F.linearCrossEntropy(x, w, y, Reduction.SUM, LinearCrossEntropyOptions.defaults());
        Autograd.backward(List.of(once), null, true, false, null);
        Tensor first = x.grad().clone();
        TorchException e =
                assertThrows(TorchException.class, () -> Autograd.backward(List.of(once), null, true, false, null));
        assertTrue(e.getMessage().contains("chunked backward called twice"), e.getMessage());

        x.setGrad(null);
        var twice = F.linearCrossEntropy(
                x, w, y, Reduction.SUM, LinearCrossEntropyOptions.defaults().withAllowRetainGraph(true));
        Autograd.backward(List.of(twice), null, true, false, null);
        Autograd.backward(List.of(twice), List.of(Torch.scalarTensor(0.5, DType.FLOAT64)), true, false, null);
        assertArrayEquals(first.mul(1.5).toDoubleArray(), x.grad().toDoubleArray(), 1e-12);

        x.setGrad(null); // 'none' recomputes in backward, so retain_graph always works
        var rows = F.linearCrossEntropy(x, w, y, Reduction.NONE, LinearCrossEntropyOptions.defaults());
        Autograd.backward(List.of(rows.sum()), null, true, false, null);
        Autograd.backward(List.of(rows.sum()), null, true, false, null);
        assertArrayEquals(first.mul(2).toDoubleArray(), x.grad().toDoubleArray(), 1e-12);
    }

    @Test
    void noGradientsAreComputedOrKeptWhenNothingRequiresGrad() {
        Tensor x = randn(41, DType.FLOAT32, 4, 3), w = randn(42, DType.FLOAT32, 5, 3);
        Tensor loss = F.linearCrossEntropy(
                x, w, Torch.tensor(new long[] {0, 4, 1, 2}), Reduction.MEAN, LinearCrossEntropyOptions.defaults());
        assertNull(loss.gradFn());
        assertEquals(
                F.crossEntropy(F.linear(x, w), Torch.tensor(new long[] {0, 4, 1, 2}))
                        .item(),
                loss.item(),
                1e-6);
    }

    @Test
    void emptyBatch() {
        Tensor x = Torch.zeros(0, 3).to(DType.FLOAT64).requiresGrad(true),
                w = randn(51, DType.FLOAT64, 5, 3).requiresGrad(true);
        Tensor y = Torch.zeros(0).to(DType.INT64);
        var o = LinearCrossEntropyOptions.defaults();
        assertTrue(Double.isNaN(F.linearCrossEntropy(x, w, y, Reduction.MEAN, o).item()));
        Tensor sum = F.linearCrossEntropy(x, w, y, Reduction.SUM, o);
        assertEquals(0.0, sum.item());
        sum.backward();
        assertArrayEquals(new double[15], w.grad().toDoubleArray());
        assertArrayEquals(
                new long[] {0}, F.linearCrossEntropy(x, w, y, Reduction.NONE, o).shape());
    }

    @Test
    void metaDeviceGivesShapesOnly() {
        Tensor x = Torch.empty(new long[] {6, 4}, DType.FLOAT32, Device.META);
        Tensor w = Torch.empty(new long[] {9, 4}, DType.FLOAT32, Device.META);
        Tensor y = Torch.empty(new long[] {6}, DType.INT64, Device.META);
        Tensor out = F.linearCrossEntropy(x, w, y, Reduction.NONE, LinearCrossEntropyOptions.defaults());
        assertEquals(Device.META, out.device());
        assertArrayEquals(new long[] {6}, out.shape());
        assertArrayEquals(new long[] {}, F.linearCrossEntropy(x, w, y).shape());
    }

    // ---- options ---------------------------------------------------------------------------------------------

    @Test
    void optionsDefaultsAndResolutionTable() {
        var d = LinearCrossEntropyOptions.defaults();
        assertEquals(new LinearCrossEntropyOptions(false, null, "auto", AccPolicy.AUTO, null), d);
        Device cpu = Device.CPU;
        assertEquals(256, d.resolvedChunkSize(8192, 4096, 128256, false, DType.FLOAT32, cpu));
        assertEquals(8, d.resolvedChunkSize(100, 64, 1000, false, DType.FLOAT32, cpu));
        assertEquals(1, d.resolvedChunkSize(10, 16, 8, false, DType.FLOAT32, cpu));
        assertEquals(4, d.resolvedChunkSize(10, 16, 8, true, DType.FLOAT32, cpu));
        assertEquals(16, d.resolvedChunkSize(1000, 512, 32000, false, DType.FLOAT32, cpu));
        assertEquals(
                8,
                d.withChunkingMethod("aspect_ratio:2").resolvedChunkSize(1000, 512, 32000, false, DType.FLOAT32, cpu));
        assertEquals(128, d.resolvedChunkSize(4096, 1024, 32768, false, DType.FLOAT32, cpu));
        // explicit size beats 'auto'; is clamped to N; None method + no size = one chunk
        assertEquals(4, d.withBatchChunkSize(4).resolvedChunkSize(100, 64, 1000, false, DType.FLOAT32, cpu));
        assertEquals(100, d.withBatchChunkSize(500).resolvedChunkSize(100, 64, 1000, false, DType.FLOAT32, cpu));
        assertEquals(100, d.withChunkingMethod(null).resolvedChunkSize(100, 64, 1000, false, DType.FLOAT32, cpu));
        // half inputs on CPU: 'auto' → 'accurate' (no memory cap) and float32 accumulation
        assertEquals(AccPolicy.ACCURATE, d.resolvedAccPolicy(DType.BFLOAT16, cpu));
        assertEquals(AccPolicy.COMPACT, d.resolvedAccPolicy(DType.FLOAT32, cpu));
        assertEquals(DType.FLOAT32, d.resolvedAccDtype(DType.FLOAT16));
        assertEquals(DType.FLOAT16, d.withAccPolicy("compact").resolvedAccDtype(DType.FLOAT16));
        assertEquals(10, d.resolvedChunkSize(10, 16, 8, false, DType.FLOAT16, cpu));
    }

    @Test
    void optionErrors() {
        var d = LinearCrossEntropyOptions.defaults();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.withAccPolicy("balanced"));
        assertTrue(e.getMessage().contains("'compact'") && e.getMessage().contains("balanced"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AccPolicy.parse("balanced"));
        assertEquals(AccPolicy.COMPACT, d.withAccPolicy("compact").accPolicy());
        e = assertThrows(IllegalArgumentException.class, () -> d.withChunkingMethod("foo"));
        assertTrue(e.getMessage().contains("invalid chunking_method"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> d.withChunkingMethod("aspect_ratio:0"));
        assertEquals("aspect_ratio:3", d.withChunkingMethod("aspect_ratio:3").chunkingMethod());
        assertThrows(IllegalArgumentException.class, () -> d.withBatchChunkSize(0));
        assertThrows(IllegalArgumentException.class, () -> d.withBatchChunkSize(-2));
        assertThrows(IllegalArgumentException.class, () -> d.withAccDtype(DType.INT32));
        e = assertThrows(IllegalArgumentException.class, () -> d.withBatchChunkSize(4)
                .withChunkingMethod("aspect_ratio")
                .resolvedChunkSize(100, 64, 1000, false, DType.FLOAT32, Device.CPU));
        assertTrue(e.getMessage().contains("give different chunk sizes"), e.getMessage());
        assertEquals(
                8,
                d.withBatchChunkSize(8)
                        .withChunkingMethod("aspect_ratio")
                        .resolvedChunkSize(100, 64, 1000, false, DType.FLOAT32, Device.CPU));
    }

    // ---- bad input ---------------------------------------------------------------------------------------------

    @Test
    void badInputErrors() {
        Tensor x = randn(61, DType.FLOAT32, 4, 3), w = randn(62, DType.FLOAT32, 5, 3);
        var chunked = LinearCrossEntropyOptions.defaults();
        for (LinearCrossEntropyOptions o : new LinearCrossEntropyOptions[] {null, chunked}) {
            IndexOutOfBoundsException oob = assertThrows(
                    IndexOutOfBoundsException.class,
                    () -> F.linearCrossEntropy(x, w, Torch.tensor(new long[] {0, 5, 1, 2}), Reduction.MEAN, o));
            assertTrue(oob.getMessage().contains("Target 5 is out of bounds"), oob.getMessage());
            assertThrows(
                    IndexOutOfBoundsException.class,
                    () -> F.linearCrossEntropy(x, w, Torch.tensor(new long[] {0, -1, 1, 2}), Reduction.SUM, o));
            TorchException soft = assertThrows(
                    TorchException.class, () -> F.linearCrossEntropy(x, w, Torch.zeros(4, 4), Reduction.MEAN, o));
            assertTrue(soft.getMessage().contains("[4, 5]") && soft.getMessage().contains("[4, 4]"), soft.getMessage());
            TorchException feat = assertThrows(
                    TorchException.class,
                    () -> F.linearCrossEntropy(
                            x,
                            randn(63, DType.FLOAT32, 5, 2),
                            Torch.tensor(new long[] {0, 1, 1, 2}),
                            Reduction.MEAN,
                            o));
            assertTrue(feat.getMessage().contains("[4, 3]") && feat.getMessage().contains("[5, 2]"), feat.getMessage());
            TorchException cw = assertThrows(
                    TorchException.class,
                    () -> F.linearCrossEntropy(
                            x,
                            w,
                            Torch.tensor(new long[] {0, 1, 1, 2}),
                            LinearCrossEntropyArgs.defaults()
                                    .weight(Torch.ones(4))
                                    .options(o)));
            assertTrue(
                    cw.getMessage().contains("weight tensor should be defined either for all 5 classes"),
                    cw.getMessage());
            assertThrows(
                    TorchException.class,
                    () -> F.linearCrossEntropy(
                            x,
                            w,
                            Torch.tensor(new long[] {0, 1, 1, 2}),
                            LinearCrossEntropyArgs.defaults()
                                    .linearBias(Torch.ones(4))
                                    .options(o)));
        }
        TorchException acc = assertThrows(
                TorchException.class,
                () -> F.linearCrossEntropy(
                        x,
                        w,
                        Torch.tensor(new long[] {0, 1, 1, 2}),
                        Reduction.MEAN,
                        chunked.withAccDtype(DType.FLOAT16)));
        assertTrue(
                acc.getMessage().contains("supports float32 acc_dtype with float16/bfloat16 inputs"), acc.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LinearCrossEntropyArgs.defaults()
                .reduction(null));
    }

    @Test
    void nonInt64ClassTargetsWarnAndTakeTheReferencePath() {
        // §2.3 item 4: only int64 class indices are chunked; any other integer target warns and runs the reference
        // path,
        // i.e. cross_entropy, which takes uint8 and refuses int32 with ATen's message (2.15's nll_loss reads int64 or
        // uint8)
        Tensor x = randn(64, DType.FLOAT64, 4, 3), w = randn(65, DType.FLOAT64, 5, 3);
        Tensor y = Torch.tensor(new long[] {0, 4, 1, 2});
        var chunked = LinearCrossEntropyOptions.defaults();
        for (Reduction r : Reduction.values()) {
            Tensor expected = F.crossEntropy(x.matmul(w.t()), y, r);
            try (WarningRecorder rec = Warnings.catchWarnings()) {
                Tensor got = F.linearCrossEntropy(x, w, y.to(DType.UINT8), r, chunked);
                assertEquals(1, rec.records().size(), r + ": " + rec.records());
                assertTrue(
                        rec.records().get(0).message().contains("the chunked path takes int64 class indices"),
                        rec.records().get(0).message());
                assertArrayEquals(expected.toDoubleArray(), got.toDoubleArray(), 1e-12, r.toString());
            }
            for (DType d : new DType[] {DType.INT32, DType.INT16}) {
                try (WarningRecorder rec = Warnings.catchWarnings()) {
                    TorchException e =
                            assertThrows(TorchException.class, () -> F.linearCrossEntropy(x, w, y.to(d), r, chunked));
                    assertTrue(
                            e.getMessage().contains("expected scalar type Long but found " + d.cppName()),
                            e.getMessage());
                    assertEquals(1, rec.records().size(), "warned before the reference path refused: " + rec.records());
                }
                TorchException ref =
                        assertThrows(TorchException.class, () -> F.linearCrossEntropy(x, w, y.to(d), r, null));
                assertTrue(
                        ref.getMessage().contains("expected scalar type Long but found " + d.cppName()),
                        ref.getMessage());
            }
        }
        // the uint8 reference path is differentiable like the int64 one
        Tensor xg = x.clone().requiresGrad(true);
        F.linearCrossEntropy(xg, w, y.to(DType.UINT8)).backward();
        Tensor xr = x.clone().requiresGrad(true);
        F.crossEntropy(xr.matmul(w.t()), y).backward();
        assertArrayEquals(xr.grad().toDoubleArray(), xg.grad().toDoubleArray(), 1e-12);
    }

    @Test
    void fallbacksWarnForEveryListedReason() {
        Tensor x = randn(71, DType.FLOAT64, 4, 3), w = randn(72, DType.FLOAT64, 5, 3);
        Tensor y = Torch.tensor(new long[] {0, 4, 1, 2});
        Tensor soft = randn(73, DType.FLOAT64, 4, 5).softmax(1);
        var o = LinearCrossEntropyOptions.defaults();
        var base = LinearCrossEntropyArgs.defaults().options(o);
        List<Runnable> fallbacks = List.of(
                () -> F.linearCrossEntropy(x, w, y, base.labelSmoothing(0.2)),
                () -> F.linearCrossEntropy(x, w, soft.to(DType.FLOAT32), base),
                () -> F.linearCrossEntropy(x, w, soft.clone().requiresGrad(true), base),
                () -> F.linearCrossEntropy(
                        x.select(0, 1), w, Torch.tensor(new long[] {3}).reshape(), base),
                () -> F.linearCrossEntropy(
                        x, w, y, base.weight(Torch.ones(5).to(DType.FLOAT64).requiresGrad(true))));
        for (Runnable r : fallbacks) {
            try (WarningRecorder rec = Warnings.catchWarnings()) {
                r.run();
                assertEquals(1, rec.records().size());
                assertTrue(rec.records().get(0).message().startsWith("linear_cross_entropy: "));
            }
        }
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            // soft targets with reduction 'none' stay on the chunked path: per row -Σ_c p_c log softmax(x wᵀ)_c
            Tensor expected = x.matmul(w.t())
                    .logSoftmax(1)
                    .mul(soft)
                    .sum(new long[] {1}, false)
                    .neg();
            assertArrayEquals(
                    expected.toDoubleArray(),
                    F.linearCrossEntropy(x, w, soft, base.reduction(Reduction.NONE))
                            .toDoubleArray(),
                    1e-12);
            assertEquals(List.of(), rec.records());
        }
    }
}
