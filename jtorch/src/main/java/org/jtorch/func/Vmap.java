package org.jtorch.func;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.ShapeOps;

/** {@code torch.vmap}: input checks, chunking, entering a level and taking the batch dims out of the outputs. */
final class Vmap {
    private Vmap() {}

    static Object call(Function<Object[], Object> fn, String name, VmapOptions o, Object[] args) {
        Object inDims = o.inDims();
        String prefix = "vmap(" + name + ", in_dims=" + PyTree.str(inDims) + ", ...)(<inputs>): ";
        if (!(inDims instanceof Integer || inDims instanceof List<?> || inDims instanceof Object[])) {
            throw new IllegalArgumentException(
                    prefix + "expected `in_dims` to be int or a (potentially nested) tuple matching "
                            + "the structure of inputs, got: " + typeName(inDims) + ".");
        }
        if (args.length == 0) {
            throw new IllegalArgumentException(
                    "vmap(" + name + ")(<inputs>): got no inputs. Maybe you forgot to add inputs, or "
                            + "you are trying to vmap over a function with no inputs. The latter is unsupported.");
        }
        checkOutDims(o.outDims(), name);
        List<Object> leaves = PyTree.leaves(args);
        List<Integer> dims = PyTree.broadcastDims(inDims, args);
        if (dims == null) {
            throw new IllegalArgumentException(
                    prefix + "in_dims is not compatible with the structure of `inputs`. in_dims has " + "structure "
                            + PyTree.str(inDims) + " but inputs has " + args.length + " positional arguments.");
        }
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < leaves.size(); i++) {
            Integer d = dims.get(i);
            if (d == null) continue;
            if (!(leaves.get(i) instanceof Tensor t)) {
                throw new IllegalArgumentException(
                        prefix + "Got in_dim=" + d + " for an input but the input is of type "
                                + typeName(leaves.get(i))
                                + ". We cannot vmap over non-Tensor arguments, please use None as the "
                                + "respective in_dim");
            }
            int r = t.dim();
            if (d < -r || d >= r) {
                throw new IllegalArgumentException(prefix + "Got in_dim=" + d
                        + " for some input, but that input is a Tensor of " + "dimensionality " + r
                        + " so expected in_dim to satisfy -" + r + " <= in_dim < " + r + ".");
            }
            if (d < 0) dims.set(i, d + r);
            sizes.add((int) t.size(dims.get(i)));
        }
        if (sizes.isEmpty()) throw new IllegalArgumentException("vmap: Expected at least one Tensor to vmap over");
        for (int s : sizes) {
            if (s != sizes.get(0)) {
                throw new IllegalArgumentException(
                        "vmap: Expected all tensors to have the same size in the mapped dimension, got " + "sizes "
                                + sizes + " for the mapped dimension");
            }
        }
        long batch = sizes.get(0);
        Integer chunk = o.chunkSize();
        if (chunk != null && chunk <= 0) {
            throw new IllegalArgumentException(
                    "vmap: chunk_size should be None or greater than 0. (got " + chunk + ")");
        }
        if (chunk == null || chunk >= batch) return flat(fn, name, o, args, leaves, dims, batch);
        List<Object> parts = new ArrayList<>();
        for (long start = 0; start < batch; start += chunk) {
            long len = Math.min(chunk, batch - start);
            List<Object> sliced = new ArrayList<>(leaves);
            for (int i = 0; i < leaves.size(); i++) {
                Integer d = dims.get(i);
                if (d != null) sliced.set(i, ShapeOps.narrow((Tensor) leaves.get(i), d, start, len));
            }
            parts.add(flat(fn, name, o, args, sliced, dims, len));
        }
        return concat(parts, o.outDims());
    }

    /** Runs one vmap level over the whole (chunk of the) batch. */
    private static Object flat(
            Function<Object[], Object> fn,
            String name,
            VmapOptions o,
            Object[] args,
            List<Object> leaves,
            List<Integer> dims,
            long batch) {
        int level = DispatchState.nextLevel();
        VmapInterpreter vm = new VmapInterpreter(level, batch, o.randomness());
        List<Object> wrapped = new ArrayList<>(leaves);
        for (int i = 0; i < leaves.size(); i++) {
            Integer d = dims.get(i);
            if (d != null) wrapped.set(i, Batched.wrap((Tensor) leaves.get(i), d, level));
        }
        Object[] batchedArgs = (Object[]) PyTree.rebuild(args, wrapped.iterator());
        Object out;
        try (var _ = DispatchState.enter(vm)) {
            out = fn.apply(batchedArgs);
        }
        return unwrap(out, name, o.outDims(), level, batch);
    }

    private static Object unwrap(Object out, String name, Object outDims, int level, long batch) {
        List<Object> leaves = PyTree.leaves(out);
        List<Integer> dims = PyTree.broadcastDims(outDims, out);
        if (dims == null
                && !PyTree.isContainer(out)
                && (outDims instanceof List<?> l && l.size() == 1 || outDims instanceof Object[] a && a.length == 1)) {
            dims = PyTree.broadcastDims(PyTree.children(outDims).get(0), out);
        }
        if (dims == null) {
            throw new IllegalArgumentException("vmap(" + name + ", ..., out_dims=" + PyTree.str(outDims)
                    + ")(<inputs>): out_dims "
                    + "is not compatible with the structure of `outputs`. out_dims has structure " + PyTree.str(outDims)
                    + " but outputs has " + leaves.size() + " leaves.");
        }
        List<Object> result = new ArrayList<>();
        for (int i = 0; i < leaves.size(); i++)
            result.add(removeBatchDim(leaves.get(i), name, dims.get(i), level, batch));
        return PyTree.rebuild(out, result.iterator());
    }

    private static Object removeBatchDim(Object leaf, String name, Integer outDim, int level, long batch) {
        Batched b = Batched.at(leaf, level);
        if (outDim == null) {
            if (b != null && b.batched()) {
                throw new IllegalArgumentException("vmap(" + name + ", ...): `" + name
                        + "` can not return a BatchedTensor when " + "out_dim is None");
            }
            return b != null ? b.value : leaf;
        }
        if (!(leaf instanceof Tensor t)) {
            throw new IllegalArgumentException(
                    "vmap(" + name + ", ...): `" + name + "` must only return Tensors, got type " + typeName(leaf)
                            + ". Did you mean to set out_dims= to None for output?");
        }
        Tensor value = b != null ? b.value : t;
        int rank = (b != null && b.batched() ? value.dim() : value.dim() + 1);
        int d = org.jtorch.internal.Shapes.wrapDim(outDim, rank);
        if (b != null && b.batched()) return ShapeOps.movedim(value, b.bdim, d);
        long[] shape = new long[rank];
        long[] vs = value.impl().shapeRef();
        for (int i = 0, j = 0; i < rank; i++) shape[i] = i == d ? batch : vs[j++];
        return ShapeOps.expand(ShapeOps.unsqueeze(value, d), shape);
    }

    /** Chunk results joined along each output's batch dim. */
    private static Object concat(List<Object> parts, Object outDims) {
        Object first = parts.get(0);
        List<List<Object>> leaves = new ArrayList<>();
        for (Object p : parts) leaves.add(PyTree.leaves(p));
        List<Integer> dims = PyTree.broadcastDims(outDims, first);
        if (dims == null) dims = PyTree.broadcastDims(PyTree.children(outDims).get(0), first);
        List<Object> joined = new ArrayList<>();
        for (int i = 0; i < leaves.get(0).size(); i++) {
            Integer d = dims.get(i);
            if (d == null) {
                joined.add(leaves.get(0).get(i));
                continue;
            }
            List<Tensor> ts = new ArrayList<>();
            for (List<Object> l : leaves) ts.add((Tensor) l.get(i));
            joined.add(JoinOps.cat(
                    ts, org.jtorch.internal.Shapes.wrapDim(d, ts.get(0).dim())));
        }
        return PyTree.rebuild(first, joined.iterator());
    }

    private static void checkOutDims(Object outDims, String name) {
        if (outDims == null || outDims instanceof Integer) return;
        if (outDims instanceof Object[] || outDims instanceof List<?>) {
            for (Object c : PyTree.children(outDims)) checkOutDims(c, name);
            return;
        }
        throw new IllegalArgumentException(
                "vmap(" + name + ", ..., out_dims=" + outDims + "): `out_dims` must be an int, None "
                        + "or a python collection of ints representing where in the outputs the vmapped "
                        + "dimension should appear.");
    }

    static String typeName(Object o) {
        if (o == null) return "<class 'NoneType'>";
        if (o instanceof Integer || o instanceof Long) return "<class 'int'>";
        if (o instanceof Double || o instanceof Float) return "<class 'float'>";
        if (o instanceof Boolean) return "<class 'bool'>";
        if (o instanceof String) return "<class 'str'>";
        return "<class '" + o.getClass().getName() + "'>";
    }
}
