package org.jtorch.func;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.autograd.Autograd;
import org.jtorch.linalg.Linalg;
import org.jtorch.linalg.LuFactor;
import org.jtorch.nn.functional.F;
import org.jtorch.ops.ConvOps;
import org.jtorch.ops.LinalgSolveOps;
import org.junit.jupiter.api.Test;

/**
 * The batch rules that replaced per-example loops (convolution and its gradients, cdist/pdist, the two-operand
 * solvers): vmap equals the loop of single calls for every pattern of batched operands, with the mapped dim first or
 * not, without running the per-example fallback; per-sample gradients of a small CNN equal the loop of single-sample
 * backward passes; errors name the logical shapes.
 */
class VmapLoopFreeRulesTest {
    private static final int B = 3;
    private static final long[] ONE = {1}, ZERO = {0};

    private static Tensor randn(long... shape) {
        return Torch.randn(shape, DType.FLOAT64);
    }

    /** Runs {@code body} with the fallback warning on and fails if any op ran the per-example loop. */
    private static <T> T withoutFallback(Supplier<T> body) {
        try (WarningRecorder w = Warnings.catchWarnings()) {
            VmapSettings.setFallbackWarningEnabled(true);
            T r = body.get();
            List<String> loops = w.records().stream()
                    .map(x -> x.message())
                    .filter(m -> m.contains("performance drop"))
                    .toList();
            assertTrue(loops.isEmpty(), "ran the per-example loop: " + loops);
            return r;
        }
    }

    private static void close(Tensor want, Tensor got, double tol, String what) {
        assertArrayEquals(want.shape(), got.shape(), what + ": shape");
        double[] w = want.toDoubleArray(), g = got.toDoubleArray();
        for (int i = 0; i < w.length; i++) {
            assertTrue(
                    Math.abs(w[i] - g[i]) <= tol * Math.max(1, Math.abs(w[i])),
                    what + ": element " + i + " is " + g[i] + ", the loop gives " + w[i]);
        }
    }

    /**
     * vmap of {@code op} over the operands whose {@code dims} entry is not null (each stacked along that dim) against
     * the loop that calls {@code op} on example b's operands and stacks the results.
     */
    private static void matchesLoop(
            String what, Function<Tensor[], Tensor> op, IntFunction<Tensor[]> example, Integer[] dims) {
        List<Tensor> loop = new ArrayList<>();
        Tensor[] first = example.apply(0);
        List<List<Tensor>> per = new ArrayList<>();
        for (int i = 0; i < first.length; i++) per.add(new ArrayList<>());
        for (int b = 0; b < B; b++) {
            Tensor[] e = example.apply(b);
            Tensor[] call = e.clone();
            for (int i = 0; i < e.length; i++) {
                if (dims[i] == null) call[i] = first[i]; // unmapped: example 0's operand for every b
                per.get(i).add(e[i]);
            }
            loop.add(op.apply(call));
        }
        Object[] inputs = new Object[first.length];
        for (int i = 0; i < first.length; i++) {
            inputs[i] = dims[i] == null ? first[i] : first[i] == null ? null : Torch.stack(per.get(i), dims[i]);
        }
        Tensor got = withoutFallback(() -> (Tensor) Func.vmap(
                        a -> op.apply(Arrays.copyOf(a, a.length, Tensor[].class)),
                        VmapOptions.defaults().inDims(Arrays.asList((Object[]) dims)))
                .apply(inputs));
        close(Torch.stack(loop), got, 1e-12, what + " " + Arrays.toString(dims));
    }

    /** Every non-empty pattern of mapped operands among the first {@code n}, mapped over dim 0 or over {@code alt}. */
    private static List<Integer[]> patterns(int n, int alt) {
        List<Integer[]> out = new ArrayList<>();
        for (int mask = 1; mask < 1 << n; mask++) {
            for (int useAlt = 0; useAlt < 2; useAlt++) {
                Integer[] d = new Integer[n];
                for (int i = 0; i < n; i++) if ((mask & 1 << i) != 0) d[i] = useAlt == 1 && i == 0 ? alt : 0;
                out.add(d);
            }
        }
        return out;
    }

    // ---- convolution -----------------------------------------------------------------------------------------

    /** A grouped, strided, dilated convolution, plain and transposed, with every pattern of batched operands. */
    @Test
    void convolutionWithBatchedInputWeightAndBias() {
        Tensor[][] plain = new Tensor[B][], transposed = new Tensor[B][];
        for (int b = 0; b < B; b++) {
            plain[b] = new Tensor[] {randn(2, 4, 7, 6), randn(6, 2, 3, 2), randn(6)};
            transposed[b] = new Tensor[] {randn(2, 4, 4, 3), randn(4, 3, 2, 3), randn(6)};
        }
        long[] stride = {2, 1}, padding = {1, 0}, dilation = {1, 2};
        for (Integer[] d : patterns(3, 2)) {
            matchesLoop(
                    "conv2d groups=2",
                    t -> ConvOps.convolution(t[0], t[1], t[2], stride, padding, dilation, false, ZERO, 2),
                    b -> plain[b],
                    d);
            matchesLoop(
                    "conv_transpose2d groups=2",
                    t -> ConvOps.convolution(t[0], t[1], t[2], stride, padding, dilation, true, ONE, 2),
                    b -> transposed[b],
                    d);
        }
    }

    @Test
    void convolution1dWithoutBias() {
        Tensor[][] ex = new Tensor[B][];
        for (int b = 0; b < B; b++) ex[b] = new Tensor[] {randn(3, 2, 9), randn(5, 2, 3)};
        for (Integer[] d : patterns(2, 2)) {
            matchesLoop(
                    "conv1d", t -> ConvOps.convolution(t[0], t[1], null, ONE, ONE, ONE, false, ZERO, 1), b -> ex[b], d);
        }
    }

    /** The two gradient ops, grouped, with every pattern of batched operands. */
    @Test
    void convolutionGradientsWithBatchedOperands() {
        long[] stride = {2, 1}, padding = {0, 1}, dilation = {1, 2};
        long[] inputSizes = {2, 4, 6, 6}, weightSizes = {6, 2, 3, 3};
        Tensor[][] gi = new Tensor[B][], gw = new Tensor[B][];
        for (int b = 0; b < B; b++) {
            gi[b] = new Tensor[] {randn(2, 6, 2, 4), randn(6, 2, 3, 3)};
            gw[b] = new Tensor[] {randn(2, 6, 2, 4), randn(2, 4, 6, 6)};
        }
        for (Integer[] d : patterns(2, 3)) {
            matchesLoop(
                    "convolution_backward_input",
                    t -> ConvOps.CONVOLUTION_BACKWARD_INPUT.call1(
                            t[0], t[1], inputSizes, stride, padding, dilation, 2L),
                    b -> gi[b],
                    d);
            matchesLoop(
                    "convolution_backward_weight",
                    t -> ConvOps.CONVOLUTION_BACKWARD_WEIGHT.call1(
                            t[0], t[1], weightSizes, stride, padding, dilation, 2L),
                    b -> gw[b],
                    d);
        }
    }

    /** conv, relu, strided conv, relu, linear; cross entropy of one sample. */
    private static Tensor cnnLoss(Tensor w1, Tensor b1, Tensor w2, Tensor w3, Tensor x, Tensor y) {
        Tensor h = F.relu(F.conv2d(x.unsqueeze(0), w1, b1, ONE, ONE, ONE, 1));
        h = F.relu(F.conv2d(h, w2, null, new long[] {2}, ZERO, ONE, 2));
        return F.crossEntropy(F.linear(h.flatten(1), w3), y.unsqueeze(0));
    }

    /**
     * Per-sample gradients of a small CNN by vmap(grad) equal the loop of single-sample backward passes, with the
     * samples mapped over dim 0 and the weights shared, and (ensembling) with the weights mapped and the sample shared.
     */
    @Test
    void perSampleGradientsOfACnnMatchTheLoop() {
        Tensor w1 = randn(4, 1, 3, 3), b1 = randn(4), w2 = randn(6, 2, 3, 3), w3 = randn(3, 6 * 3 * 3);
        Tensor xs = randn(B, 1, 8, 8), ys = Torch.tensor(new long[] {0, 2, 1});
        Function<Object[], Object> grads = Func.grad(
                a -> cnnLoss((Tensor) a[0], (Tensor) a[1], (Tensor) a[2], (Tensor) a[3], (Tensor) a[4], (Tensor) a[5]),
                Func.GradOptions.defaults().argnumsTuple(0, 1, 2, 3));
        Object[] got = (Object[]) withoutFallback(
                () -> Func.vmap(grads, VmapOptions.defaults().inDims(Arrays.asList(null, null, null, null, 0, 0)))
                        .apply(new Object[] {w1, b1, w2, w3, xs, ys}));
        List<Tensor> params = new ArrayList<>();
        for (Tensor p : List.of(w1, b1, w2, w3)) params.add(p.detach().requiresGrad(true));
        for (int b = 0; b < B; b++) {
            Tensor loss = cnnLoss(
                    params.get(0), params.get(1), params.get(2), params.get(3), xs.select(0, b), ys.select(0, b));
            List<Tensor> want = Autograd.grad(List.of(loss), params, Autograd.GradOptions.defaults());
            for (int k = 0; k < 4; k++) close(want.get(k), ((Tensor) got[k]).select(0, b), 1e-12, "sample " + b);
        }

        // an ensemble of weights on one sample: the weights batched, the input not
        Tensor w1s = randn(B, 4, 1, 3, 3), w2s = randn(B, 6, 2, 3, 3);
        Object[] ens = (Object[]) withoutFallback(
                () -> Func.vmap(grads, VmapOptions.defaults().inDims(Arrays.asList(0, null, 0, null, null, null)))
                        .apply(new Object[] {w1s, b1, w2s, w3, xs.select(0, 0), ys.select(0, 0)}));
        for (int b = 0; b < B; b++) {
            List<Tensor> ps = List.of(
                    w1s.select(0, b).detach().requiresGrad(true),
                    b1.detach().requiresGrad(true),
                    w2s.select(0, b).detach().requiresGrad(true),
                    w3.detach().requiresGrad(true));
            Tensor loss = cnnLoss(ps.get(0), ps.get(1), ps.get(2), ps.get(3), xs.select(0, 0), ys.select(0, 0));
            List<Tensor> want = Autograd.grad(List.of(loss), ps, Autograd.GradOptions.defaults());
            for (int k = 0; k < 4; k++) close(want.get(k), ((Tensor) ens[k]).select(0, b), 1e-12, "member " + b);
        }
    }

    /** conv, relu, max pool, grouped conv, relu, max pool, linear; cross entropy of one sample. */
    private static Tensor maxPoolCnnLoss(Tensor w1, Tensor b1, Tensor w2, Tensor w3, Tensor x, Tensor y) {
        Tensor h = F.maxPool2d(F.relu(F.conv2d(x.unsqueeze(0), w1, b1, ONE, ZERO, ONE, 1)), new long[] {2});
        h = F.maxPool2d(F.relu(F.conv2d(h, w2, null, ONE, ZERO, ONE, 2)), new long[] {2});
        return F.crossEntropy(F.linear(h.flatten(1), w3), y.unsqueeze(0));
    }

    /**
     * Per-sample gradients of a float32 max-pool CNN, as in the benchmarks, equal the loop within float32 rounding:
     * enough samples that the batched pools scan whole vectors of planes and the per-sample weight gradients are
     * grouped convolutions of many groups (the second layer's own 2 groups times the batch), with the samples mapped
     * over dim 1 of their stack.
     */
    @Test
    void perSampleGradientsOfAFloat32MaxPoolCnnMatchTheLoop() {
        int n = 24;
        Tensor w1 = Torch.randn(8, 1, 3, 3), b1 = Torch.randn(8), w2 = Torch.randn(6, 4, 3, 3);
        Tensor w3 = Torch.randn(3, 6 * 2 * 2), xs = Torch.randn(1, n, 14, 14), ys = Torch.randint(0, 3, n);
        Function<Object[], Object> grads = Func.grad(
                a -> maxPoolCnnLoss(
                        (Tensor) a[0], (Tensor) a[1], (Tensor) a[2], (Tensor) a[3], (Tensor) a[4], (Tensor) a[5]),
                Func.GradOptions.defaults().argnumsTuple(0, 1, 2, 3));
        Object[] got = (Object[]) withoutFallback(
                () -> Func.vmap(grads, VmapOptions.defaults().inDims(Arrays.asList(null, null, null, null, 1, 0)))
                        .apply(new Object[] {w1, b1, w2, w3, xs, ys}));
        List<Tensor> params = new ArrayList<>();
        for (Tensor p : List.of(w1, b1, w2, w3)) params.add(p.detach().requiresGrad(true));
        for (int b = 0; b < n; b++) {
            Tensor loss = maxPoolCnnLoss(
                    params.get(0), params.get(1), params.get(2), params.get(3), xs.select(1, b), ys.select(0, b));
            List<Tensor> want = Autograd.grad(List.of(loss), params, Autograd.GradOptions.defaults());
            for (int k = 0; k < 4; k++) {
                assertEquals(DType.FLOAT32, ((Tensor) got[k]).dtype());
                close(want.get(k), ((Tensor) got[k]).select(0, b), 1e-4, "sample " + b + ", parameter " + k);
            }
        }
    }

    /** A shape error names the shapes each example has, as the loop's error does. */
    @Test
    void convolutionErrorsNameTheLogicalShapes() {
        Tensor xs = randn(B, 2, 3, 5, 5), w = randn(4, 2, 3, 3);
        TorchException e = assertThrows(TorchException.class, () -> Func.vmap((Tensor x) -> F.conv2d(x, w))
                .apply(xs));
        assertEquals(
                "Given groups=1, weight of size [4, 2, 3, 3], expected input[2, 3, 5, 5] to have 2 channels, but got 3 "
                        + "channels instead",
                e.getMessage());
        Tensor ws = randn(B, 4, 3, 9, 9), x = randn(1, 3, 5, 5);
        TorchException big = assertThrows(TorchException.class, () -> Func.vmap((Tensor k) -> F.conv2d(x, k))
                .apply(ws));
        assertEquals(
                "Calculated padded input size per channel: (5 x 5). Kernel size: (9 x 9). Kernel size can't be greater"
                        + " than actual input size",
                big.getMessage());
    }

    // ---- distances and solvers ----------------------------------------------------------------------------------

    @Test
    void cdistBroadcastsTheBatchAgainstUnbatchedBatchDims() {
        Tensor[][] ex = new Tensor[B][];
        for (int b = 0; b < B; b++) ex[b] = new Tensor[] {randn(4, 3), randn(2, 5, 3)};
        for (double p : new double[] {0, 1, 1.5, 2, Double.POSITIVE_INFINITY}) {
            for (Integer[] d : patterns(2, 1))
                matchesLoop("cdist p=" + p, t -> Torch.cdist(t[0], t[1], p), b -> ex[b], d);
        }
        Tensor[][] big = new Tensor[B][]; // more than 25 rows: the matrix-product path
        for (int b = 0; b < B; b++) big[b] = new Tensor[] {randn(30, 3), randn(2, 27, 3)};
        for (Integer[] d : patterns(2, 1)) matchesLoop("cdist mm", t -> Torch.cdist(t[0], t[1]), b -> big[b], d);
    }

    @Test
    void pdistAndItsGradient() {
        Tensor[][] ex = new Tensor[B][];
        for (int b = 0; b < B; b++) ex[b] = new Tensor[] {randn(5, 3)};
        for (double p : new double[] {0, 1, 2, 3, Double.POSITIVE_INFINITY}) {
            for (Integer[] d : patterns(1, 1)) matchesLoop("pdist p=" + p, t -> Torch.pdist(t[0], p), b -> ex[b], d);
        }
        Tensor xs = randn(B, 5, 3);
        Tensor got = withoutFallback(() -> Func.vmap(
                        Func.grad((Tensor x) -> Torch.pdist(x, 3.0).square().sum()))
                .apply(xs));
        for (int b = 0; b < B; b++) {
            Tensor x = xs.select(0, b).detach().requiresGrad(true);
            Tensor want = Autograd.grad(
                            List.of(Torch.pdist(x, 3.0).square().sum()), List.of(x), Autograd.GradOptions.defaults())
                    .get(0);
            close(want, got.select(0, b), 1e-12, "pdist gradient of sample " + b);
        }
        Tensor one = randn(B, 1, 3);
        assertArrayEquals(
                new long[] {B, 0},
                Func.vmap((Tensor x) -> Torch.pdist(x)).apply(one).shape());
    }

    @Test
    void solveTriangularBroadcasts() {
        Tensor[][] ex = new Tensor[B][];
        for (int b = 0; b < B; b++) {
            Tensor a = randn(4, 4)
                    .triu()
                    .add(Torch.eye(4, 4, DType.FLOAT64, Device.CPU).mul(4.0));
            ex[b] = new Tensor[] {a, randn(2, 4, 3)};
        }
        for (Integer[] d : patterns(2, 2)) {
            matchesLoop("solve_triangular", t -> Linalg.solveTriangular(t[0], t[1], true), b -> ex[b], d);
            matchesLoop(
                    "solve_triangular right",
                    t -> Linalg.solveTriangular(t[0], t[1].mT(), true, false, true),
                    b -> ex[b],
                    d);
        }
    }

    @Test
    void luSolveWithBatchedFactorsOrRightHandSides() {
        Tensor[][] ex = new Tensor[B][];
        for (int b = 0; b < B; b++) {
            LuFactor f = Linalg.luFactor(
                    randn(4, 4).add(Torch.eye(4, 4, DType.FLOAT64, Device.CPU).mul(3.0)));
            ex[b] = new Tensor[] {f.lu(), f.pivots(), randn(2, 4, 2)};
        }
        // the pivots go with their LU: both mapped or neither
        for (Integer[] d : List.of(
                new Integer[] {0, 0, null}, new Integer[] {null, null, 0}, new Integer[] {0, 0, 1}, new Integer[] {
                    1, 0, 2
                })) {
            matchesLoop("lu_solve", t -> Linalg.luSolve(t[0], t[1], t[2]), b -> ex[b], d);
            matchesLoop("lu_solve adjoint", t -> Linalg.luSolve(t[0], t[1], t[2], true, true), b -> ex[b], d);
        }
    }

    @Test
    void householderProductAndLstsq() {
        Tensor[][] hh = new Tensor[B][], ls = new Tensor[B][];
        for (int b = 0; b < B; b++) {
            hh[b] = new Tensor[] {randn(5, 3), randn(2)};
            ls[b] = new Tensor[] {randn(5, 3), randn(2, 5, 2)};
        }
        for (Integer[] d : patterns(2, 1)) {
            matchesLoop("householder_product", t -> Linalg.householderProduct(t[0], t[1]), b -> hh[b], d);
        }
        for (Integer[] d : patterns(2, 1)) {
            for (String driver : new String[] {"gels", "gelsy", "gelsd", "gelss"}) {
                for (int k = 0; k < 3; k++) {
                    int output = k;
                    matchesLoop(
                            "_linalg_lstsq_solve " + driver + " output " + k,
                            t -> ((Tensor[]) LinalgSolveOps.LSTSQ_SOLVE.call(t[0], t[1], null, driver))[output],
                            b -> ls[b],
                            d);
                }
            }
            // gelsd and gelss return residuals only if every matrix has full rank (these have): all four outputs
            for (String driver : new String[] {"gels", "gelsy", "gelsd", "gelss"}) {
                matchesLoop(
                        "lstsq " + driver,
                        t -> Linalg.lstsq(t[0], t[1], null, driver).solution(),
                        b -> ls[b],
                        d);
                matchesLoop(
                        "lstsq " + driver,
                        t -> Linalg.lstsq(t[0], t[1], null, driver).residuals(),
                        b -> ls[b],
                        d);
                matchesLoop(
                        "lstsq " + driver,
                        t -> Linalg.lstsq(t[0], t[1], null, driver).rank(),
                        b -> ls[b],
                        d);
                matchesLoop(
                        "lstsq " + driver,
                        t -> Linalg.lstsq(t[0], t[1], null, driver).singularValues(),
                        b -> ls[b],
                        d);
            }
        }
        Object[] r = (Object[]) Func.vmap(
                        a -> {
                            var l = (Tensor[]) LinalgSolveOps.LSTSQ_SOLVE.call(a[0], a[1], null, "gelsd");
                            return new Object[] {l[1], l[2]};
                        },
                        VmapOptions.defaults().inDims(Arrays.asList(0, null)))
                .apply(new Object[] {randn(B, 5, 3), randn(5, 2)});
        assertArrayEquals(new long[] {B}, ((Tensor) r[0]).shape());
        assertArrayEquals(new long[] {B, 3}, ((Tensor) r[1]).shape());
    }

    // ---- randomness ---------------------------------------------------------------------------------------------

    /**
     * randomness "same" draws from the generator passed to the op, also when the op's inputs are batched (each example
     * replays that generator's state); the default generator is left alone.
     */
    @Test
    void sameRandomnessHonoursAnExplicitGenerator() {
        Tensor probs = Torch.full(new long[] {B, 6}, 0.5, DType.FLOAT64, Device.CPU);
        byte[] before = Generator.defaultGenerator().getStateBytes();
        Generator g = new Generator().manualSeed(5);
        Tensor got = (Tensor) Func.vmap(
                        a -> Torch.bernoulli((Tensor) a[0], g),
                        VmapOptions.defaults().randomness("same"))
                .apply(new Object[] {probs});
        Generator fresh = new Generator().manualSeed(5);
        Tensor want = Torch.bernoulli(Torch.full(new long[] {6}, 0.5, DType.FLOAT64, Device.CPU), fresh);
        for (int b = 0; b < B; b++) close(want, got.select(0, b), 0, "example " + b);
        assertArrayEquals(fresh.getStateBytes(), g.getStateBytes(), "the generator advanced by one draw");
        assertArrayEquals(before, Generator.defaultGenerator().getStateBytes(), "the default generator is untouched");

        Tensor means = Torch.zeros(new long[] {B, 4}, DType.FLOAT64);
        Generator h = new Generator().manualSeed(7);
        Tensor added = (Tensor) Func.vmap(
                        a -> ((Tensor) a[0]).add(Torch.randn(new long[] {4}, DType.FLOAT64, Device.CPU, h)),
                        VmapOptions.defaults().randomness("same"))
                .apply(new Object[] {means});
        Tensor draw = Torch.randn(new long[] {4}, DType.FLOAT64, Device.CPU, new Generator().manualSeed(7));
        for (int b = 0; b < B; b++) close(draw, added.select(0, b), 0, "example " + b);
    }
}
