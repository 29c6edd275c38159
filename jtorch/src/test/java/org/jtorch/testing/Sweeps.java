package org.jtorch.testing;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/** What the derivative sweeps over the op table share: naming, in-domain inputs, floating arguments and outputs. */
public final class Sweeps {
    private Sweeps() {}

    /** Runs a check with the sample's name in its failure (the report shows dynamic tests by index only). */
    public static void named(String name, Runnable check) {
        try {
            check.run();
        } catch (org.opentest4j.TestAbortedException skipped) {
            throw skipped;
        } catch (AssertionError | RuntimeException failed) {
            throw new AssertionError(name + ": " + failed, failed);
        }
    }

    /** Values in (0.1, 0.9) (and (1.1, 1.9) for acosh), away from every pointwise op's poles and branch cuts. */
    public static Tensor inDomain(String op, long[] shape, DType dtype, int seed) {
        int n = (int) org.jtorch.internal.Shapes.numel(shape);
        double[] re = new double[n], im = new double[n];
        for (int i = 0; i < n; i++) {
            re[i] = 0.1 + ((i * 7 + seed * 3) % 11) * 0.08 + ("acosh".equals(op) ? 1 : 0);
            im[i] = 0.1 + ((i * 5 + seed * 7 + 3) % 11) * 0.03;
        }
        Tensor r = Torch.tensor(re, DType.FLOAT64, n).reshape(shape);
        return dtype.isComplex()
                ? Torch.complex(r, Torch.tensor(im, DType.FLOAT64, n).reshape(shape))
                : r;
    }

    /** The arguments with every differentiable tensor (also inside tensor lists) replaced by {@code f} of it. */
    public static Object[] replaceFloats(Object[] args, java.util.function.UnaryOperator<Tensor> f) {
        Map<Tensor, Tensor> seen = new IdentityHashMap<>(); // an argument passed twice stays one input
        Object[] out = args.clone();
        for (int i = 0; i < out.length; i++) {
            if (out[i] instanceof Tensor t && differentiable(t)) out[i] = seen.computeIfAbsent(t, f::apply);
            else if (out[i] instanceof Tensor[] ts) {
                Tensor[] c = ts.clone();
                for (int k = 0; k < c.length; k++) {
                    if (c[k] != null && differentiable(c[k])) c[k] = seen.computeIfAbsent(c[k], f::apply);
                }
                out[i] = c;
            }
        }
        return out;
    }

    /** A float64 or complex128 tensor with data: what the sweeps differentiate. */
    public static boolean differentiable(Tensor t) {
        return (t.dtype() == DType.FLOAT64 || t.dtype() == DType.COMPLEX128) && !t.isMeta();
    }

    /** The differentiable outputs of a result: a tensor, a tensor array or a record of tensors. */
    public static List<Tensor> floatOutputs(Object result) {
        List<Tensor> outs = new ArrayList<>();
        if (result instanceof Tensor t) {
            if (differentiable(t)) outs.add(t);
        } else if (result instanceof Tensor[] ts) {
            for (Tensor t : ts) if (t != null && differentiable(t)) outs.add(t);
        } else if (result instanceof Record r) {
            for (var c : r.getClass().getRecordComponents()) {
                try {
                    if (c.getAccessor().invoke(r) instanceof Tensor t && differentiable(t)) outs.add(t);
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return outs;
    }
}
