package org.jtorch.nn.functional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ValuesIndices;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.autograd.GradCheck;
import org.jtorch.func.Func;
import org.jtorch.func.VmapSettings;
import org.jtorch.ops.AdaptiveMaxPoolOps;
import org.jtorch.ops.Pool3dOps;
import org.junit.jupiter.api.Test;

/**
 * The 3-d and adaptive max pools' first and second derivatives against finite differences in float64 (gradcheck,
 * gradgradcheck through the backward ops), and vmap of every pool, its backward and max_unpool against a loop over the
 * examples, with no per-example fallback.
 */
class Pool3dGradVmapTest {
    private static final long[] ONE = {1}, ZERO = {0};

    /** Distinct values, so a max pool's argmax is stable under gradcheck's perturbations. */
    private static Tensor leaf(long... shape) {
        long n = 1;
        for (long v : shape) n *= v;
        Torch.manualSeed(n);
        Tensor perm = Torch.randperm(n).to(DType.FLOAT64).div(n);
        return perm.reshape(shape).requiresGrad(true);
    }

    private static void check(Function<List<Tensor>, Tensor> fn, Tensor... inputs) {
        assertTrue(GradCheck.check(fn, List.of(inputs), GradCheck.Options.defaults()));
        assertTrue(GradCheck.checkSecondOrder(fn, List.of(inputs), GradCheck.Options.defaults()));
    }

    @Test
    void maxPool3dDerivatives() {
        check(
                x -> F.maxPool3d(
                        x.get(0),
                        new long[] {3, 2, 2},
                        new long[] {2, 1, 2},
                        new long[] {1, 1, 0},
                        new long[] {1, 2, 1},
                        true),
                leaf(1, 2, 5, 6, 5));
        check(x -> F.maxPool3d(x.get(0), 2), leaf(2, 4, 4, 4));
    }

    @Test
    void avgPool3dDerivatives() {
        check(
                x -> F.avgPool3d(
                        x.get(0), new long[] {3, 2, 3}, new long[] {2, 1, 2}, new long[] {1, 1, 1}, true, false, null),
                leaf(1, 2, 5, 6, 7));
        check(x -> F.avgPool3d(x.get(0), new long[] {2}, ONE, ONE, false, true, 3L), leaf(2, 3, 3, 4));
    }

    @Test
    void adaptivePoolDerivatives() {
        check(x -> F.adaptiveAvgPool3d(x.get(0), 2, 3, 2), leaf(1, 2, 5, 4, 3));
        check(x -> F.adaptiveMaxPool3d(x.get(0), 2, 3, 2), leaf(1, 2, 5, 4, 3));
        check(x -> F.adaptiveMaxPool2d(x.get(0), 3, 2), leaf(2, 2, 7, 5));
        check(x -> F.adaptiveMaxPool1d(x.get(0), 4), leaf(2, 3, 9));
        check(x -> F.lpPool3d(x.get(0).add(0.5), 2.0, new long[] {2}, null, false), leaf(1, 2, 4, 4, 4));
    }

    @Test
    void backwardOpsAreDifferentiableInBothInputs() {
        Tensor x = leaf(1, 2, 4, 4, 4);
        Tensor[] r = Pool3dOps.maxPool3dWithIndices(x.detach(), new long[] {2}, null, ZERO, ONE, false);
        Tensor indices = r[1];
        check(
                g -> Pool3dOps.MAX_POOL3D_WITH_INDICES_BACKWARD.call1(
                        g.get(0), g.get(1), new long[] {2}, new long[0], ZERO, ONE, false, indices),
                leaf(1, 2, 2, 2, 2),
                leaf(1, 2, 4, 4, 4));
        Tensor[] a = (Tensor[])
                AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL2D.call(x.detach().flatten(1, 2), new long[] {3, 3});
        check(
                g -> AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL2D_BACKWARD.call1(g.get(0), g.get(1), a[1]),
                leaf(1, 8, 3, 3),
                leaf(1, 8, 4, 4));
    }

    /** vmap of {@code fn} equals stacking {@code fn} of each example, and no op fell back to the loop. */
    private static void vmapMatchesLoop(Function<Tensor, Tensor> fn, Tensor batch) {
        VmapSettings.setFallbackWarningEnabled(true);
        Tensor got;
        try (WarningRecorder w = Warnings.catchWarnings()) {
            got = Func.vmap(fn).apply(batch);
            assertEquals(List.of(), w.records().stream().map(r -> r.message()).toList(), "vmap fell back to a loop");
        }
        Tensor[] each = new Tensor[(int) batch.size(0)];
        for (int i = 0; i < each.length; i++) each[i] = fn.apply(batch.select(0, i));
        Tensor want = Torch.stack(List.of(each), 0);
        assertEquals(want.dtype(), got.dtype());
        assertArrayEquals(want.shape(), got.shape());
        assertArrayEquals(
                want.to(DType.FLOAT64).toDoubleArray(), got.to(DType.FLOAT64).toDoubleArray(), 1e-12);
    }

    @Test
    void vmapOfEveryPoolMatchesTheLoop() {
        Tensor batched = leaf(3, 2, 2, 5, 6, 5).detach(); // B × [N, C, D, H, W]
        Tensor unbatched = leaf(3, 2, 5, 6, 5).detach(); // B × [C, D, H, W]
        for (Tensor b : List.of(batched, unbatched)) {
            vmapMatchesLoop(x -> F.maxPool3d(x, new long[] {3, 2, 2}, new long[] {2, 1, 2}, ONE, ONE, true), b);
            vmapMatchesLoop(
                    x -> F.maxPool3dWithIndices(x, new long[] {2}, null, ZERO, ONE, false)
                            .indices(),
                    b);
            vmapMatchesLoop(x -> F.avgPool3d(x, new long[] {3}, new long[] {2}, ONE, true, false, null), b);
            vmapMatchesLoop(x -> F.adaptiveAvgPool3d(x, 2, 3, 2), b);
            vmapMatchesLoop(x -> F.adaptiveMaxPool3dWithIndices(x, 2, 3, 2).indices(), b);
            vmapMatchesLoop(x -> F.adaptiveMaxPool3d(x, 2, 3, 2), b);
            Tensor planes = b.flatten(-3, -2); // the same data as 2-d planes
            vmapMatchesLoop(x -> F.maxPool2d(x, new long[] {3, 2}, new long[] {2, 1}, ONE, ONE, true), planes);
            vmapMatchesLoop(x -> F.avgPool2d(x, new long[] {2}, ONE, ONE, false, false, 3L), planes);
            vmapMatchesLoop(x -> F.adaptiveAvgPool2d(x, 4, 3), planes);
            vmapMatchesLoop(x -> F.adaptiveMaxPool2dWithIndices(x, 4, 3).indices(), planes);
            vmapMatchesLoop(x -> F.adaptiveMaxPool1d(x, 4), b.flatten(-3, -1));
        }
    }

    @Test
    void vmapOfBackwardsAndDoubleBackwardsMatchesTheLoop() {
        Tensor batch = leaf(3, 2, 2, 4, 4, 4).detach();
        Function<Tensor, Tensor> maxGrad =
                Func.grad(x -> F.maxPool3d(x, 2).pow(2).sum());
        vmapMatchesLoop(maxGrad, batch);
        vmapMatchesLoop(
                Func.grad(x -> F.avgPool3d(x, new long[] {3}, ONE, ONE, false, true, null)
                        .pow(2)
                        .sum()),
                batch);
        vmapMatchesLoop(Func.grad(x -> F.adaptiveAvgPool3d(x, 3).pow(2).sum()), batch);
        vmapMatchesLoop(Func.grad(x -> F.adaptiveMaxPool3d(x, 3).pow(2).sum()), batch);
        vmapMatchesLoop(Func.grad(x -> F.maxPool2d(x.flatten(1, 2), 2).pow(2).sum()), batch);
        vmapMatchesLoop(
                Func.grad(x -> F.adaptiveMaxPool2d(x.flatten(1, 2), 3).pow(2).sum()), batch);
        // second order: the gradient of a gradient runs the backward ops' own derivatives under vmap
        vmapMatchesLoop(Func.grad(x -> maxGrad.apply(x).mul(x).sum()), batch);
    }

    @Test
    void vmapOfMaxUnpoolMatchesTheLoop() {
        Tensor batch = leaf(3, 2, 2, 4, 6, 4).detach();
        vmapMatchesLoop(
                x -> {
                    ValuesIndices p = F.maxPool3dWithIndices(x, new long[] {2}, null, ZERO, ONE, false);
                    return F.maxUnpool3d(p.values(), p.indices(), new long[] {2}, null, ZERO, null);
                },
                batch);
        vmapMatchesLoop(
                x -> {
                    ValuesIndices p = F.maxPool2dWithIndices(x.flatten(1, 2), new long[] {2}, null, ZERO, ONE, false);
                    return F.maxUnpool2d(p.values(), p.indices(), new long[] {2}, null, ZERO, null);
                },
                batch);
    }
}
