package org.jtorch.library;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.GradCheck;
import org.jtorch.func.Func;
import org.jtorch.func.VmapOptions;
import org.jtorch.internal.Shapes;

/**
 * The checks of {@link Library#opcheck}, PyTorch's {@code test_schema}, {@code test_faketensor},
 * {@code test_autograd_registration} and a vmap-against-a-loop check, run in that order on copies of the arguments; the
 * first that fails throws an {@link OpCheckError} naming it.
 */
final class OpCheck {
    private static final String SCHEMA = "test_schema";
    private static final String FAKE = "test_faketensor";
    private static final String AUTOGRAD = "test_autograd_registration";
    private static final String VMAP = "test_vmap";

    private final CustomOp op;
    private final Object[] args;
    private final boolean mutates;

    OpCheck(CustomOp op, Object[] args) {
        this.op = op;
        this.args = args.clone();
        this.mutates = op.writtenArgs().length > 0;
    }

    void run() {
        Tensor[] real = checkSchema();
        checkFake(real);
        if (!mutates) {
            checkAutograd();
            checkVmap();
        }
    }

    /** Outputs as the schema says; arguments written exactly where the schema says, with their versions bumped. */
    private Tensor[] checkSchema() {
        Object[] a = copies(args, null);
        Object[] before = copies(a, null);
        int[] versions = new int[a.length];
        for (int i = 0; i < a.length; i++) if (a[i] instanceof Tensor t) versions[i] = t.version();
        Tensor[] outs = outputs(SCHEMA, a);
        int[] written = op.writtenArgs();
        for (int i = 0; i < a.length; i++) {
            if (!(a[i] instanceof Tensor t)) continue;
            String name = op.schema().arguments().get(i).name();
            int index = i;
            boolean declared = Arrays.stream(written).anyMatch(w -> w == index);
            if (!declared && !sameValues((Tensor) before[i], t)) {
                throw fail(
                        SCHEMA,
                        "argument " + name + " was modified but the schema does not mark it written "
                                + "(Tensor(a!)): an undeclared mutation",
                        null);
            }
            if (declared && t.version() == versions[i]) {
                throw fail(
                        SCHEMA, "argument " + name + " is marked written but its version counter was not bumped", null);
            }
        }
        return outs;
    }

    /** The fake implementation on meta tensors gives the real outputs' shapes and dtypes. */
    private void checkFake(Tensor[] real) {
        if (!op.hasFake()) throw fail(FAKE, "no fake implementation registered (registerFake)", null);
        Tensor[] fake = outputs(FAKE, copies(args, Device.META));
        for (int i = 0; i < real.length; i++) {
            if (!Arrays.equals(fake[i].shape(), real[i].shape()) || fake[i].dtype() != real[i].dtype()) {
                throw fail(
                        FAKE,
                        "output " + i + ": the fake implementation gives " + describe(fake[i])
                                + " but the kernel gives " + describe(real[i]),
                        null);
            }
        }
    }

    /**
     * With a registered autograd, gradcheck in float64 over the floating inputs, for each output; without one, a
     * backward through the op must raise the error that names it.
     */
    private void checkAutograd() {
        List<Integer> floating = new ArrayList<>();
        for (int i = 0; i < args.length; i++) if (args[i] instanceof Tensor t && t.isFloatingPoint()) floating.add(i);
        if (floating.isEmpty()) return;
        Object[] a = copies(args, null);
        List<Tensor> inputs = new ArrayList<>();
        for (int i : floating) {
            Tensor t = ((Tensor) a[i]).to(DType.FLOAT64).requiresGrad(true);
            a[i] = t;
            inputs.add(t);
        }
        if (!op.hasAutograd()) {
            checkNoAutogradError(a);
            return;
        }
        int returns = op.schema().returns().size();
        for (int k = 0; k < returns; k++) {
            int output = k;
            Function<List<Tensor>, Tensor> fn = ins -> {
                Object[] b = a.clone();
                for (int j = 0; j < floating.size(); j++) b[floating.get(j)] = ins.get(j);
                Object r = op.call(b);
                return r instanceof Tensor t ? t : ((Tensor[]) r)[output];
            };
            try {
                GradCheck.check(fn, inputs, GradCheck.Options.defaults());
            } catch (TorchException e) {
                throw fail(AUTOGRAD, "gradcheck of output " + k + " in float64: " + e.getMessage(), e);
            }
        }
    }

    private void checkNoAutogradError(Object[] a) {
        try {
            outputs(AUTOGRAD, a)[0].sum().backward();
        } catch (TorchException e) {
            String m = String.valueOf(e.getMessage());
            if (m.contains(op.qualifiedName()) && m.contains("no autograd registered")) return;
            throw fail(AUTOGRAD, "backward without a registered autograd raised an unclear error: " + m, e);
        }
        throw fail(AUTOGRAD, "backward ran although no autograd is registered", null);
    }

    /** vmap over a batch of two examples equals calling the op on each. */
    private void checkVmap() {
        Integer[] inDims = new Integer[args.length];
        Object[] batched = new Object[args.length];
        List<Object[]> examples = List.of(copies(args, null), copies(args, null));
        boolean any = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof Tensor t) {
                Tensor second = t.isFloatingPoint() ? t.mul(0.75) : t.clone();
                examples.get(1)[i] = second;
                batched[i] = Torch.stack(List.of(t, second));
                inDims[i] = 0;
                any = true;
            } else batched[i] = args[i];
        }
        if (!any) return;
        Object result;
        try {
            result = Func.vmap(op::call, VmapOptions.defaults().inDims(inDims)).apply(batched);
        } catch (TorchException e) {
            throw fail(VMAP, "vmap raised: " + e.getMessage(), e);
        }
        Tensor[] outs = op.outputs(result, "op under vmap");
        for (int b = 0; b < examples.size(); b++) {
            Tensor[] expected = outputs(VMAP, examples.get(b));
            for (int k = 0; k < outs.length; k++) {
                Tensor got = outs[k].select(0, b);
                if (!close(got, expected[k])) {
                    throw fail(
                            VMAP,
                            "output " + k + " of example " + b + " under vmap differs from the op on the "
                                    + "example alone: " + describe(got) + " vs " + describe(expected[k]),
                            null);
                }
            }
        }
    }

    // ---- helpers ------------------------------------------------------------------------------------------

    private Tensor[] outputs(String check, Object[] a) {
        try {
            return op.outputs(op.call(a), "op");
        } catch (TorchException e) {
            throw fail(check, "the op raised: " + e.getMessage(), e);
        }
    }

    /** Copies of the arguments (detached tensors, on {@code device} when given); other values as they are. */
    private static Object[] copies(Object[] a, Device device) {
        Object[] c = a.clone();
        for (int i = 0; i < c.length; i++) {
            if (c[i] instanceof Tensor t)
                c[i] = device == null ? t.detach().clone() : t.detach().to(device);
        }
        return c;
    }

    private static boolean sameValues(Tensor a, Tensor b) {
        return Arrays.equals(a.shape(), b.shape())
                && a.dtype() == b.dtype()
                && Arrays.equals(a.toDoubleArray(), b.toDoubleArray());
    }

    private static boolean close(Tensor a, Tensor b) {
        if (!Arrays.equals(a.shape(), b.shape()) || a.dtype() != b.dtype()) return false;
        double[] x = a.toDoubleArray(), y = b.toDoubleArray();
        for (int i = 0; i < x.length; i++) {
            boolean bothNan = Double.isNaN(x[i]) && Double.isNaN(y[i]);
            if (!bothNan && !(Math.abs(x[i] - y[i]) <= 1e-6 + 1e-5 * Math.abs(y[i]))) return false;
        }
        return true;
    }

    private static String describe(Tensor t) {
        return t.dtype().name().toLowerCase(java.util.Locale.ROOT) + Shapes.str(t.shape());
    }

    private OpCheckError fail(String check, String detail, Throwable cause) {
        return new OpCheckError(check, op, detail, cause);
    }
}
