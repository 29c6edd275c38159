package org.jtorch.testing;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.Warnings;
import org.jtorch.autograd.Autograd;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Schema;
import org.jtorch.dispatch.SchemaType;
import org.jtorch.ops.OpDef;

/**
 * Runs one differential-run case in JTorch and writes it as one JSON line for {@code diffrun.py}: the op, its arguments
 * by schema name, and what JTorch gave (the result or the error), and, for cases with derivatives, the gradients of a
 * weighted sum of the differentiable outputs with respect to every float64 input.
 *
 * <p>The gradients are taken at contiguous copies of the inputs (leaves), in the order the arguments list them; the
 * weights of output {@code o} are {@link #weight}, which {@code diffrun.py} computes the same way. Second derivatives
 * are those of the weighted sum of the first ones (weights of output {@code 100 + i} for input {@code i}).
 *
 * <p>In a complex128 case the complex128 inputs are leaves too, and a complex output {@code y} enters the real loss as
 * {@code Σ Re(y · conj(v))} with {@code v = w(o) + i w(o + 50)}, the real-output term {@code Σ y · w(o)} extended to
 * complex numbers; the gradients compared are PyTorch's conjugate Wirtinger ones, {@code ∂L/∂Re x + i ∂L/∂Im x}. A
 * complex first gradient enters the second-order sum the same way; refusing the second derivatives there is reported
 * apart ({@code second_error}), so that the first ones are still compared.
 */
public final class DiffRunJTorch {
    private DiffRunJTorch() {}

    /** The case as a JSON line, or null when an argument has no encoding (the run counts such cases). */
    public static String line(DiffRunCases.Case c) {
        OpDef op = c.op();
        Object[] args = c.build();
        List<Schema.Argument> schema = op.schema().arguments();
        if (args.length > schema.size()) return null;
        DiffRunJson json = new DiffRunJson();
        json.raw("{\"op\":").string(OpDb.key(op)).raw(",\"sample\":").string(c.sample());
        json.raw(",\"dtype\":")
                .string(c.dtype().pyName())
                .raw(",\"variant\":")
                .string(c.variant().name());
        json.raw(",\"values\":").raw(Boolean.toString(!op.has(OpDef.Flag.RANDOM)));
        json.raw(",\"names\":[");
        for (int i = 0; i < args.length; i++)
            json.raw(i > 0 ? "," : "").string(schema.get(i).name());
        json.raw("],\"args\":[");
        for (int i = 0; i < args.length; i++) {
            if (i > 0) json.raw(",");
            if (!json.argument(args[i])) return null;
        }
        json.raw("]");
        try (var _ = Warnings.catchWarnings()) {
            Object result = asDeclared(op, Dispatcher.call(op, args));
            json.raw(",\"result\":");
            if (!json.result(result)) return null;
        } catch (RuntimeException refused) {
            json.raw(",\"error\":").string(String.valueOf(refused.getMessage()));
            return json.raw("}").toString();
        }
        if (c.gradients() > 0) gradients(c, json);
        return json.raw("}").toString();
    }

    /** A single tensor the dispatcher gives for a {@code Tensor[]} return, as the one-element list it stands for. */
    private static Object asDeclared(OpDef op, Object result) {
        List<Schema.Return> returns = op.schema().returns();
        boolean list = returns.size() == 1 && returns.get(0).type() instanceof SchemaType.ListType;
        return list && result instanceof Tensor t ? new Tensor[] {t} : result;
    }

    /** The weight of element {@code k} of output {@code o}: exact in every floating dtype. */
    static double weight(int o, long k) {
        return ((k * 7 + o * 3L) % 11) / 4.0 - 1.25;
    }

    private static void gradients(DiffRunCases.Case c, DiffRunJson json) {
        List<Tensor> leaves = new ArrayList<>();
        boolean complex = c.dtype() == DType.COMPLEX128;
        Object[] args = Sweeps.replaceFloats(c.build(), x -> {
            if (!differentiated(x.dtype(), complex)) return x;
            Tensor leaf = x.detach().contiguous().requiresGrad(true);
            leaves.add(leaf);
            return leaf;
        });
        if (leaves.isEmpty()) return;
        List<Integer> outs = new ArrayList<>();
        List<Tensor> first, second = null;
        String error = null, secondError = null;
        try (var _ = Warnings.catchWarnings()) {
            Object result;
            try {
                result = Dispatcher.call(c.op(), args);
            } catch (RuntimeException refused) {
                return; // refuses at contiguous leaves what it accepted strided: a value mismatch already
            }
            Tensor loss = weightedSum(outputs(c.op(), result), outs, complex);
            if (outs.isEmpty()) return;
            try {
                first = grad(loss, leaves, c.gradients() > 1);
                if (c.gradients() > 1 && !complex) second = secondGrad(first, leaves);
            } catch (RuntimeException refused) {
                first = null;
                error = String.valueOf(refused.getMessage());
            }
            // a complex case's second derivatives apart: refusing them leaves the first ones compared
            if (first != null && c.gradients() > 1 && complex) {
                try {
                    second = secondGrad(first, leaves);
                } catch (RuntimeException refused) {
                    secondError = String.valueOf(refused.getMessage());
                }
            }
        }
        json.raw(",\"grad\":{\"outs\":[");
        for (int i = 0; i < outs.size(); i++)
            json.raw(i > 0 ? "," : "").raw(outs.get(i).toString());
        json.raw("],\"second\":").raw(Boolean.toString(c.gradients() > 1));
        if (error != null) json.raw(",\"error\":").string(error);
        else {
            json.raw(",\"first\":").result(first);
            if (second != null) json.raw(",\"second_grads\":").result(second);
            if (secondError != null) json.raw(",\"second_error\":").string(secondError);
        }
        json.raw("}");
    }

    /** The gradients of the weighted sum of the first gradients that depend on the inputs. */
    private static List<Tensor> secondGrad(List<Tensor> first, List<Tensor> leaves) {
        Tensor sum = null;
        for (int i = 0; i < first.size(); i++) {
            Tensor g = first.get(i);
            if (g == null || !g.requiresGrad()) continue;
            Tensor term = weighted(g, 100 + i);
            sum = sum == null ? term : sum.add(term);
        }
        return sum == null ? nulls(leaves.size()) : grad(sum, leaves, false);
    }

    private static List<Tensor> grad(Tensor loss, List<Tensor> leaves, boolean createGraph) {
        if (!loss.requiresGrad()) return nulls(leaves.size());
        return Autograd.grad(
                List.of(loss),
                leaves,
                Autograd.GradOptions.defaults().allowUnused(true).createGraph(createGraph));
    }

    private static List<Tensor> nulls(int n) {
        List<Tensor> none = new ArrayList<>();
        for (int i = 0; i < n; i++) none.add(null);
        return none;
    }

    /** The outputs by index (-1 for a single tensor), null where an output is declared without gradient. */
    private static Tensor[] outputs(OpDef op, Object result) {
        if (result instanceof Tensor t) return new Tensor[] {t};
        List<Tensor> outs = new ArrayList<>();
        if (result instanceof Tensor[] ts) {
            for (int i = 0; i < ts.length; i++) outs.add(op.outputHasGrad(i) ? ts[i] : null);
        } else if (result instanceof Record r) {
            RecordComponent[] cs = r.getClass().getRecordComponents();
            for (int i = 0; i < cs.length; i++) {
                try {
                    Object v = cs[i].getAccessor().invoke(r);
                    outs.add(v instanceof Tensor t && op.outputHasGrad(i) ? t : null);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return outs.toArray(Tensor[]::new);
    }

    /** Whether tensors of {@code dtype} are differentiated: float64, and complex128 in a complex case. */
    private static boolean differentiated(DType dtype, boolean complexCase) {
        return dtype == DType.FLOAT64 || complexCase && dtype == DType.COMPLEX128;
    }

    /**
     * The weighted sum of the differentiated outputs that require grad (complex ones through {@code Re(y · conj(v))});
     * their indices go to {@code used}.
     */
    private static Tensor weightedSum(Tensor[] outputs, List<Integer> used, boolean complex) {
        Tensor sum = null;
        for (int o = 0; o < outputs.length; o++) {
            Tensor y = outputs[o];
            if (y == null || !differentiated(y.dtype(), complex) || !y.requiresGrad()) continue;
            Tensor term = weighted(y, o);
            sum = sum == null ? term : sum.add(term);
            used.add(outputs.length == 1 ? -1 : o);
        }
        return sum;
    }

    /** {@code Σ y · w(o)}; for a complex y {@code Σ Re(y · conj(v))} with {@code v = w(o) + i w(o + 50)}. */
    private static Tensor weighted(Tensor y, int o) {
        if (!y.isComplex()) return y.mul(weights(o, y)).sum();
        return Torch.real(y.mul(Torch.complex(weights(o, y), weights(o + 50, y)).conj()))
                .sum();
    }

    private static Tensor weights(int o, Tensor like) {
        double[] w = new double[(int) like.numel()];
        for (int k = 0; k < w.length; k++) w[k] = weight(o, k);
        return Torch.tensor(w, DType.FLOAT64, like.shape());
    }
}
