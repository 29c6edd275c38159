package org.jtorch.func;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.ShapeOps;

/** The pieces of {@code jacrev}/{@code jacfwd}: standard bases and the reshape of stacked rows into a Jacobian. */
final class Jacobians {
    private Jacobians() {}

    /** The identity as {@code numel(t)} basis tensors of t's shape, stacked along dim 0. */
    static Tensor basis(Tensor t) {
        long n = t.numel();
        long[] shape = new long[t.dim() + 1];
        shape[0] = n;
        System.arraycopy(t.impl().shapeRef(), 0, shape, 1, t.dim());
        return org.jtorch.Torch.eye(n, n, t.dtype(), Device.CPU).reshape(shape);
    }

    /** Rows {@code [numel(out), *in]} (one per output element) as the Jacobian {@code [*out, *in]}. */
    static Tensor fromRows(Tensor rows, long[] out, long[] in) {
        long[] shape = new long[out.length + in.length];
        System.arraycopy(out, 0, shape, 0, out.length);
        System.arraycopy(in, 0, shape, out.length, in.length);
        return rows.reshape(shape);
    }

    static Tensor[] emptyColumns(List<Tensor> inputs) {
        Tensor[] cols = new Tensor[inputs.size()];
        for (int i = 0; i < cols.length; i++) {
            long[] s = inputs.get(i).shape();
            long[] shape = new long[s.length + 1];
            System.arraycopy(s, 0, shape, 1, s.length);
            cols[i] = org.jtorch.Torch.zeros(shape, inputs.get(i).dtype(), Device.CPU);
        }
        return cols;
    }

    /** jacfwd: per differentiated argument, a vmap over its basis of tangents pushed through {@code fn}. */
    static Object jacfwd(
            Function<Object[], Object> fn, Func.GradOptions options, Randomness randomness, Object[] args) {
        Differentiation.checkArgnums(options.argnums(), args.length, "jacfwd");
        int[] nums = Differentiation.wrapArgnums(options.argnums(), args.length);
        Object[] perArg = new Object[nums.length];
        Object aux = null;
        for (int k = 0; k < nums.length; k++) {
            int num = nums[k];
            if (!(args[num] instanceof Tensor x)) {
                throw new TorchException(
                        "jacfwd: Expected argnums to point to Tensors, got " + Vmap.typeName(args[num]));
            }
            Function<Object[], Object> partial = xs -> {
                Object[] a = args.clone();
                a[num] = xs[0];
                return fn.apply(a);
            };
            Function<Object[], Object> column = v -> {
                JvpResult r = Func.tangents(partial, new Object[] {x}, new Object[] {v[0]}, options.hasAux());
                return new Object[] {r.jvpOut(), r.aux()};
            };
            Object[] out =
                    (Object[]) Func.vmap(column, new VmapOptions(0, java.util.Arrays.asList(0, null), randomness, null))
                            .apply(new Object[] {basis(x)});
            aux = out[1];
            List<Object> jac = new ArrayList<>();
            for (Object leaf : PyTree.leaves(out[0])) {
                Tensor cols = (Tensor) leaf; // [numel(x), *out]
                int r = cols.dim();
                Tensor moved = ShapeOps.movedim(cols, 0, r - 1);
                long[] outShape = java.util.Arrays.copyOf(moved.shape(), r - 1);
                jac.add(fromRows(moved.contiguous(), outShape, x.shape()));
            }
            perArg[k] = PyTree.rebuild(out[0], jac.iterator());
        }
        Object j = options.tuple() ? perArg : perArg[0];
        return options.hasAux() ? new Object[] {j, aux} : j;
    }
}
