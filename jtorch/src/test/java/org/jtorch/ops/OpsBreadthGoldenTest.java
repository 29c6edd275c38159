package org.jtorch.ops;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;
import org.jtorch.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ops added for PyTorch users' breadth (special pointwise functions, activations, similarities, statistics, shape
 * helpers, indexing options) against PyTorch 2.13 ({@code make_golden_ops_breadth.py}): values, result dtypes, errors,
 * and the gradients of {@code sum(W * out)} for the inputs a case lists in {@code _grad}. The generic sweeps (meta,
 * gradcheck, forward AD, vmap) cover the same ops through the op table.
 */
class OpsBreadthGoldenTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("ops_breadth.json").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        Golden.check(c, List.of(), false, () -> run(c));
    }

    private static Object run(Golden.Case c) {
        List<Integer> grad = gradIndices(c);
        int n = c.argCount() - (grad.isEmpty() ? 0 : 1);
        List<Object> args = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Object a = c.arg(i);
            if (a instanceof Tensor t && grad.contains(i)) t.requiresGrad(true);
            args.add(a);
        }
        if (c.expectsError()) return call(c, args);
        List<Tensor> outs = outputs(call(c, args));
        if (grad.isEmpty()) return outs;
        Tensor out = outs.get(0), w = c.tensorArg(c.argCount() - 1);
        Tensor loss = out.isComplex()
                ? Torch.real(w.conj().mul(out)).sum()
                : w.mul(out).sum();
        loss.backward();
        List<Object> result = new ArrayList<>();
        for (Tensor t : outs) result.add(t.detach());
        for (int i : grad) result.add(((Tensor) args.get(i)).grad());
        return result;
    }

    @SuppressWarnings("unchecked")
    private static List<Integer> gradIndices(Golden.Case c) {
        if (!c.has("_grad")) return List.of();
        List<Integer> out = new ArrayList<>();
        for (Object o : (List<Object>) c.kwarg("_grad")) out.add(((Number) o).intValue());
        return out;
    }

    private static List<Tensor> outputs(Object result) {
        if (result instanceof Tensor t) return List.of(t);
        if (result instanceof Tensor[] ts) return List.of(ts);
        if (result instanceof Record r) {
            List<Tensor> out = new ArrayList<>();
            for (var component : r.getClass().getRecordComponents()) {
                try {
                    out.add((Tensor) component.getAccessor().invoke(r));
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            return out;
        }
        throw new IllegalArgumentException("unexpected result " + result);
    }

    @SuppressWarnings("unchecked")
    private static long[] dims(Golden.Case c) {
        if (!c.has("dim")) return null;
        Object d = c.kwarg("dim");
        if (d instanceof Number n) return new long[] {n.longValue()};
        return ((List<Object>) d)
                .stream().mapToLong(o -> ((Number) o).longValue()).toArray();
    }

    private static Double correction(Golden.Case c) {
        return c.has("correction") ? dkw(c, "correction", 1) : null;
    }

    private static Tensor quantile(Golden.Case c, Tensor x, Object q) {
        Long dim = c.has("dim") ? lkw(c, "dim", 0) : null;
        boolean keepdim = bkw(c, "keepdim", false), nan = c.op().equals("nanquantile");
        String mode = (String) kw(c, "interpolation", "linear");
        if (q instanceof Tensor qt) {
            return nan ? Torch.nanquantile(x, qt, dim, keepdim, mode) : Torch.quantile(x, qt, dim, keepdim, mode);
        }
        double qd = ((Number) q).doubleValue();
        return nan ? Torch.nanquantile(x, qd, dim, keepdim, mode) : Torch.quantile(x, qd, dim, keepdim, mode);
    }

    private static Tensor norm(Golden.Case c, Tensor x) {
        if (!c.has("p")) return Torch.norm(x);
        Object p = c.kwarg("p");
        boolean keepdim = bkw(c, "keepdim", false);
        if (p instanceof String s) return Torch.norm(x, s, dims(c), keepdim);
        double pd = ((Number) p).doubleValue();
        if (c.has("dtype")) return Torch.norm(x, pd, dims(c), keepdim, (org.jtorch.DType) c.kwarg("dtype"));
        return c.has("dim") ? Torch.norm(x, pd, dims(c), keepdim) : Torch.norm(x, pd);
    }

    @SuppressWarnings("unchecked")
    private static long[] longs(Object list) {
        return ((List<Object>) list)
                .stream().mapToLong(o -> ((Number) o).longValue()).toArray();
    }

    private static Object meshgrid(Golden.Case c, List<Object> a) {
        Tensor[] grids = Torch.meshgrid((String) c.kwarg("indexing"), a.toArray(Tensor[]::new));
        return c.has("_first_times_two") ? grids[0].mul(2L) : grids;
    }

    private static Tensor triangle(Golden.Case c, List<Object> a) {
        long row = ((Number) a.get(0)).longValue(), col = ((Number) a.get(1)).longValue();
        long offset = a.size() > 2 ? ((Number) a.get(2)).longValue() : 0;
        org.jtorch.DType dtype = c.has("dtype") ? (org.jtorch.DType) c.kwarg("dtype") : null;
        return c.op().equals("tril_indices")
                ? Torch.trilIndices(row, col, offset, dtype, org.jtorch.Device.CPU)
                : Torch.triuIndices(row, col, offset, dtype, org.jtorch.Device.CPU);
    }

    private static Object kw(Golden.Case c, String name, Object fallback) {
        return c.has(name) ? c.kwarg(name) : fallback;
    }

    private static double dkw(Golden.Case c, String name, double fallback) {
        return ((Number) kw(c, name, fallback)).doubleValue();
    }

    private static long lkw(Golden.Case c, String name, long fallback) {
        return ((Number) kw(c, name, fallback)).longValue();
    }

    private static boolean bkw(Golden.Case c, String name, boolean fallback) {
        return (Boolean) kw(c, name, fallback);
    }

    private static Object call(Golden.Case c, List<Object> a) {
        Tensor x = !a.isEmpty() && a.get(0) instanceof Tensor t ? t : null;
        return switch (c.op()) {
            // special pointwise functions
            case "sinc" -> x.sinc();
            case "i0" -> Torch.i0(x);
            case "special_i1" -> Torch.specialI1(x);
            case "heaviside" -> x.heaviside((Tensor) a.get(1));
            case "expm1" -> Torch.expm1(x);
            case "log1p" -> Torch.log1p(x);
            // activations and similarities
            case "hardswish" -> F.hardswish(x);
            case "log_sigmoid" -> F.logsigmoid(x);
            case "relu6" -> F.relu6(x);
            case "selu" -> F.selu(x);
            case "softsign" -> F.softsign(x);
            case "softplus" -> F.softplus(x, dkw(c, "beta", 1), dkw(c, "threshold", 20));
            case "glu" -> F.glu(x, lkw(c, "dim", -1));
            case "cosine_similarity" -> F.cosineSimilarity(x, (Tensor) a.get(1), lkw(c, "dim", 1), dkw(c, "eps", 1e-8));
            case "pairwise_distance" ->
                F.pairwiseDistance(x, (Tensor) a.get(1), dkw(c, "p", 2), dkw(c, "eps", 1e-6), bkw(c, "keepdim", false));
            // statistics
            case "aminmax" ->
                c.has("dim") ? Torch.aminmax(x, lkw(c, "dim", 0), bkw(c, "keepdim", false)) : Torch.aminmax(x);
            case "std_mean" -> Torch.stdMean(x, dims(c), correction(c), bkw(c, "keepdim", false));
            case "var_mean" -> Torch.varMean(x, dims(c), correction(c), bkw(c, "keepdim", false));
            case "median" -> c.has("dim") ? Torch.median(x, lkw(c, "dim", 0), bkw(c, "keepdim", false)) : x.median();
            case "nanmedian" ->
                c.has("dim") ? Torch.nanmedian(x, lkw(c, "dim", 0), bkw(c, "keepdim", false)) : Torch.nanmedian(x);
            case "quantile", "nanquantile" -> quantile(c, x, a.get(1));
            case "cov" ->
                Torch.cov(
                        x, lkw(c, "correction", 1), (Tensor) kw(c, "fweights", null), (Tensor) kw(c, "aweights", null));
            case "corrcoef" -> Torch.corrcoef(x);
            case "logcumsumexp" -> x.logcumsumexp(lkw(c, "dim", 0));
            case "trace" -> x.trace();
            case "logdet" -> Torch.logdet(x);
            case "norm" -> norm(c, x);
            // grids and index sets
            case "tile" -> Torch.tile(x, longs(a.get(1)));
            case "meshgrid" -> meshgrid(c, a);
            case "kron" -> Torch.kron(x, (Tensor) a.get(1));
            case "cartesian_prod" -> Torch.cartesianProd(a.toArray(Tensor[]::new));
            case "tril_indices", "triu_indices" -> triangle(c, a);
            // options PyTorch accepts
            case "nansum" -> x.nansum(dims(c), false, (org.jtorch.DType) c.kwarg("dtype"));
            case "gather" -> x.gather(((Number) a.get(1)).intValue(), (Tensor) a.get(2));
            case "scatter" -> x.scatter(((Number) a.get(1)).intValue(), (Tensor) a.get(2), a.get(3));
            case "scatter_add" -> x.scatterAdd(((Number) a.get(1)).intValue(), (Tensor) a.get(2), (Tensor) a.get(3));
            case "add_bool" -> x.add(true);
            default -> throw new IllegalArgumentException("no Java call for " + c.op());
        };
    }
}
