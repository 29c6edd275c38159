package org.jtorch.func;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;

/**
 * Transforms composed with each other, against independent references: loops of plain autograd, closed-form
 * derivatives, and double loops.
 */
class FuncCompositionTest {
    private static void close(Tensor want, Tensor got, double tol) {
        assertArrayEquals(want.shape(), got.shape(), "shape");
        double[] w = want.toDoubleArray(), g = got.toDoubleArray();
        for (int i = 0; i < w.length; i++) assertEquals(w[i], g[i], tol * Math.max(1, Math.abs(w[i])), "element " + i);
    }

    private static Tensor randn(long... shape) {
        return Torch.randn(shape).to(DType.FLOAT64);
    }

    private static Sequential mlp() {
        Torch.manualSeed(7);
        return new Sequential(new Linear(5, 8, true, DType.FLOAT64), new ReLU(), new Linear(8, 3, true, DType.FLOAT64));
    }

    /** Unbatched parameters, one sample per example: functorch's per-sample-gradient recipe. */
    @Test
    void perSampleGradientsOfAnMlpEqualTheLoop() {
        Sequential model = mlp();
        Map<String, Tensor> params = new LinkedHashMap<>();
        for (var e : model.namedParameters().entrySet())
            params.put(e.getKey(), e.getValue().detach());
        Torch.manualSeed(3);
        Tensor xs = randn(6, 5);
        Tensor ys = Torch.tensor(new long[] {0, 2, 1, 1, 0, 2});
        Function<Object[], Object> loss = a -> {
            @SuppressWarnings("unchecked")
            Map<String, Tensor> p = (Map<String, Tensor>) a[0];
            Tensor out = Func.functionalCall(model, p, ((Tensor) a[1]).unsqueeze(0));
            return F.crossEntropy(out, ((Tensor) a[2]).unsqueeze(0));
        };
        @SuppressWarnings("unchecked")
        Map<String, Tensor> perSample = (Map<String, Tensor>) Func.vmap(
                        Func.grad(loss, Func.GradOptions.defaults()),
                        VmapOptions.defaults().inDims(null, 0, 0))
                .apply(new Object[] {params, xs, ys});
        // the loop: plain autograd on each sample with the module's own parameters
        for (var name : params.keySet()) {
            List<Tensor> rows = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                List<Tensor> ps = new ArrayList<>(model.namedParameters().values());
                Tensor l = F.crossEntropy(
                        model.call(xs.select(0, i).unsqueeze(0)),
                        ys.select(0, i).unsqueeze(0));
                List<Tensor> g = Autograd.grad(List.of(l), ps, Autograd.GradOptions.defaults());
                rows.add(g.get(new ArrayList<>(model.namedParameters().keySet()).indexOf(name)));
            }
            close(Torch.stack(rows), perSample.get(name), 1e-10);
        }
        // the per-sample gradients are not their sum (what autograd on the physical batch would give)
        Tensor w = perSample.get("0.weight");
        assertFalse(Arrays.equals(w.select(0, 0).toDoubleArray(), w.select(0, 1).toDoubleArray()));
    }

    @Test
    void functionalCallRestoresParametersEvenWhenTheCallThrows() {
        Sequential model = mlp();
        Tensor before = model.getParameter("0.weight");
        Map<String, Tensor> swapped = Map.of("0.weight", Torch.zeros(8, 5).to(DType.FLOAT64));
        Tensor out = Func.functionalCall(model, swapped, Torch.ones(1, 5).to(DType.FLOAT64));
        assertArrayEquals(new long[] {1, 3}, out.shape());
        assertSame(before, model.getParameter("0.weight"));
        Map<String, Tensor> bad = Map.of("0.weight", Torch.zeros(8, 4).to(DType.FLOAT64));
        org.junit.jupiter.api.Assertions.assertThrows(
                RuntimeException.class,
                () -> Func.functionalCall(model, bad, Torch.ones(1, 5).to(DType.FLOAT64)));
        assertSame(before, model.getParameter("0.weight"));
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> Func.functionalCall(
                        model, Map.of("nope", Torch.zeros(1)), Torch.ones(1, 5).to(DType.FLOAT64)));
    }

    @Test
    void gradOfVmap() {
        Tensor x = randn(4, 3);
        Function<Tensor, Tensor> rows = Func.vmap(r -> r.sin().sum());
        close(x.cos(), Func.grad((Tensor t) -> rows.apply(t).sum()).apply(x), 1e-12);
    }

    @Test
    void vmapOfVmapEqualsADoubleLoop() {
        Tensor x = randn(2, 3, 4), y = randn(2, 3, 4);
        Function<Object[], Object> inner =
                Func.vmap(a -> Torch.dot((Tensor) a[0], (Tensor) a[1]), VmapOptions.defaults());
        Tensor got = (Tensor) Func.vmap(inner, VmapOptions.defaults()).apply(new Object[] {x, y});
        Tensor want = Torch.zeros(2, 3).to(DType.FLOAT64);
        double[] w = new double[6];
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++)
                w[i * 3 + j] = Torch.dot(
                                x.select(0, i).select(0, j), y.select(0, i).select(0, j))
                        .item();
        close(Torch.tensor(w).view(2, 3), got, 1e-12);
        assertEquals(2, want.dim());
    }

    @Test
    void nestedVmapWithDifferentInDims() {
        Tensor x = randn(3, 4, 2); // outer maps dim 0 (3), inner maps the last dim (2) of each [4, 2]
        Function<Object[], Object> inner = Func.vmap(
                a -> ((Tensor) a[0]).exp().sum(), VmapOptions.defaults().inDims(1));
        Tensor got = (Tensor) Func.vmap(inner, VmapOptions.defaults()).apply(new Object[] {x});
        close(x.exp().sum(1), got, 1e-12);
    }

    @Test
    void hessiansOfKnownFunctions() {
        Tensor x = randn(4);
        Function<Tensor, Tensor> cubes = t -> t.pow(3.0).sum();
        Tensor want = Torch.diagEmbed(x.mul(6.0));
        close(want, Func.hessian(cubes).apply(x), 1e-10);
        close(want, Func.jacrev(Func.jacrev(cubes)).apply(x), 1e-10);
        close(want, Func.jacfwd(Func.jacfwd(cubes)).apply(x), 1e-10);
        // f(x) = (a.x)^2 has the Hessian 2 a a^T
        Tensor a = randn(4);
        Function<Tensor, Tensor> quad = t -> Torch.dot(a, t).square();
        close(Torch.outer(a, a).mul(2.0), Func.hessian(quad).apply(x), 1e-10);
        // log-sum-exp: H = diag(p) - p p^T with p = softmax(x)
        Tensor p = F.softmax(x, 0);
        close(
                Torch.diagEmbed(p).sub(Torch.outer(p, p)),
                Func.hessian(t -> t.exp().sum().log()).apply(x),
                1e-10);
    }

    @Test
    void gradOfGrad() {
        Tensor x = randn(5);
        Function<Tensor, Tensor> g = Func.grad(t -> t.pow(3.0).sum());
        close(x.mul(6.0), Func.grad((Tensor t) -> g.apply(t).sum()).apply(x), 1e-10);
    }

    @Test
    void jvpOfGradIsTheHessianVectorProduct() {
        // f = Σ x³: grad f = 3x², so the jvp of grad f along v is 6 x v (forward over reverse)
        Tensor x = randn(5), v = randn(5);
        Function<Tensor, Tensor> g = Func.grad(t -> t.pow(3.0).sum());
        close(x.mul(6.0).mul(v), (Tensor) Func.jvp(g, x, v).jvpOut(), 1e-10);
    }

    @Test
    void perSampleJacobians() {
        Tensor x = randn(3, 4);
        Tensor got = Func.vmap(Func.jacrev(t -> t.sin())).apply(x);
        for (int i = 0; i < 3; i++) close(Torch.diagEmbed(x.select(0, i).cos()), got.select(0, i), 1e-12);
        Tensor fwd = Func.vmap(Func.jacfwd(t -> t.sin())).apply(x);
        close(got, fwd, 1e-12);
    }

    @Test
    void vmapOfVmapOfJvp() {
        Tensor x = randn(2, 3, 4), v = randn(2, 3, 4);
        Function<Object[], Object> jvp =
                a -> Func.jvp(t -> t.sin(), (Tensor) a[0], (Tensor) a[1]).jvpOut();
        Tensor got = (Tensor) Func.vmap(Func.vmap(jvp, VmapOptions.defaults()), VmapOptions.defaults())
                .apply(new Object[] {x, v});
        close(x.cos().mul(v), got, 1e-12);
    }

    @Test
    void vmapOfGradWithAuxAndArgnums() {
        Tensor w = randn(3), xs = randn(4, 3);
        Function<Object[], Object> f = a -> {
            Tensor l = Torch.dot((Tensor) a[0], (Tensor) a[1]).square();
            return new Object[] {l, l.detach()};
        };
        Object[] r = (Object[]) Func.vmap(
                        Func.grad(
                                f,
                                Func.GradOptions.defaults().argnumsTuple(0, 1).hasAux(true)),
                        VmapOptions.defaults().inDims(null, 0))
                .apply(new Object[] {w, xs});
        Object[] grads = (Object[]) r[0];
        Tensor dots = xs.matmul(w);
        close(dots.unsqueeze(1).mul(xs).mul(2.0), (Tensor) grads[0], 1e-12);
        close(dots.unsqueeze(1).mul(w).mul(2.0), (Tensor) grads[1], 1e-12);
        close(dots.square(), (Tensor) r[1], 1e-12);
    }

    @Test
    void gradOfPerSampleGradientsReachesClosedOverParameters() {
        // d/dw sum_i d/dx_i (w.x_i)^2 = d/dw sum_i 2 (w.x_i) w = sum_i 2 (x_i w^T + (w.x_i) I) summed over rows...
        Tensor w = randn(3).requiresGrad(true), xs = randn(4, 3);
        Function<Tensor, Tensor> perX = Func.vmap(Func.grad(x -> Torch.dot(w, x).square()));
        Tensor total = perX.apply(xs).sum();
        Tensor gw = Autograd.grad(total, w, false);
        // sum over i and components k of 2 (w.x_i) w_k: gradient wrt w = 2 sum_i (x_i * sum(w) + (w.x_i) * 1)
        Tensor sx = xs.sum(0);
        Tensor dots = xs.matmul(w.detach());
        Tensor want = sx.mul(w.detach().sum())
                .add(Torch.ones(3).to(DType.FLOAT64).mul(dots.sum()))
                .mul(2.0);
        close(want, gw, 1e-10);
    }

    @Test
    void moduleHelper() {
        Module m = mlp();
        assertEquals(4, m.namedParameters().size());
    }
}
