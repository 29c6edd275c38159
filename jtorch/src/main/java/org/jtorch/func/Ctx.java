package org.jtorch.func;

import java.util.Arrays;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.ops.BatchCall;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.ShapeOps;
import org.jtorch.storage.TensorImpl;

/**
 * One op call seen by a vmap level: its logical arguments, the destinations of an in-place/out= call, the level's batch
 * size and the dispatch below the level. Batching rules read the arguments through it and run physical ops with
 * {@link #call}, which never comes back to this level.
 */
final class Ctx implements BatchCall {
    final VmapInterpreter vm;
    final OpDef op;
    final Object[] args;
    /** Destinations of an in-place or out= call, else null. */
    final Tensor[] outs;

    final long batch;
    final int level;
    private final Dispatcher.Next next;
    private final Dispatcher.NextOut nextOut;
    private Spec spec;

    Ctx(VmapInterpreter vm, OpDef op, Object[] args, Tensor[] outs, Dispatcher.Next next, Dispatcher.NextOut nextOut) {
        this.vm = vm;
        this.op = op;
        this.args = args;
        this.outs = outs;
        this.batch = vm.batchSize();
        this.level = vm.level();
        this.next = next;
        this.nextOut = nextOut;
    }

    // ---- reading arguments -------------------------------------------------------------------------

    @Override
    public OpDef op() {
        return op;
    }

    @Override
    public Object[] args() {
        return args;
    }

    @Override
    public Tensor[] outs() {
        return outs;
    }

    @Override
    public long batch() {
        return batch;
    }

    @Override
    public boolean batched(Object o) {
        Batched b = Batched.at(o, level);
        return b != null && b.batched();
    }

    @Override
    public boolean batched(int i) {
        return batched(args[i]);
    }

    /** The physical value of a tensor argument without its batch dimension moved: unwrapped if it is ours. */
    static Tensor plain(Object o, int level) {
        Batched b = Batched.at(o, level);
        return b != null ? b.value : (Tensor) o;
    }

    @Override
    public Tensor front(Object o) {
        Batched b = Batched.at(o, level);
        if (b == null) return (Tensor) o;
        if (!b.batched()) return b.value;
        return b.bdim == 0 ? b.value : moveDim(b.value, b.bdim, 0);
    }

    @Override
    public Tensor frontExpanded(Object o) {
        if (batched(o)) return front(o);
        Tensor t = front(o);
        long[] size = new long[t.dim() + 1];
        size[0] = batch;
        System.arraycopy(t.impl().shapeRef(), 0, size, 1, t.dim());
        return expand(unsqueeze(t, 0), size);
    }

    @Override
    public Tensor frontPadded(Object o, int rank) {
        Tensor t = front(o);
        if (!batched(o)) return t;
        for (int r = ((Tensor) o).dim(); r < rank; r++) t = unsqueeze(t, 1);
        return t;
    }

    /** A copy of the arguments with every tensor of this level replaced by its unwrapped physical value. */
    Object[] plainArgs() {
        Object[] a = args.clone();
        for (int i = 0; i < a.length; i++) {
            if (a[i] instanceof Tensor t) a[i] = plain(t, level);
            else if (a[i] instanceof Tensor[] ts) {
                Tensor[] c = ts.clone();
                for (int k = 0; k < c.length; k++) if (c[k] != null) c[k] = plain(c[k], level);
                a[i] = c;
            }
        }
        return a;
    }

    @Override
    public Spec logicalSpec() {
        if (spec != null) return spec;
        if (op.meta() != null) spec = op.meta().infer(metaArgs(args));
        else if (op.viewFn() != null) {
            Tensor r = op.viewFn().apply(metaArgs(args)); // a view's geometry on a meta tensor: its checks, no data
            spec = Spec.of(r.impl().shapeRef(), r.dtype(), Device.META, null);
        }
        return spec;
    }

    private static Object[] metaArgs(Object[] args) {
        Object[] a = args.clone();
        for (int i = 0; i < a.length; i++) {
            if (a[i] instanceof Tensor t) a[i] = meta(t);
            else if (a[i] instanceof Tensor[] ts) {
                Tensor[] c = new Tensor[ts.length];
                for (int k = 0; k < c.length; k++) c[k] = ts[k] == null ? null : meta(ts[k]);
                a[i] = c;
            }
        }
        return a;
    }

    private static Tensor meta(Tensor t) {
        return Tensor.of(TensorImpl.meta(t.impl().shapeRef(), t.dtype()));
    }

    // ---- running physical ops below this level ------------------------------------------------------

    @Override
    public Object call(OpDef o, Object... a) {
        return next.call(o, a);
    }

    @Override
    public Tensor call1(OpDef o, Object... a) {
        return (Tensor) next.call(o, a);
    }

    @Override
    public void callOut(OpDef o, Tensor[] dest, Object... a) {
        nextOut.call(o, dest, a);
    }

    @Override
    public Object dispatch(OpDef o, Object... a) {
        return vm.process(o, a, next);
    }

    @Override
    public Tensor dispatch1(OpDef o, Object... a) {
        return (Tensor) vm.process(o, a, next);
    }

    @Override
    public Object perExample() {
        return vm.fallback(this);
    }

    @Override
    public Tensor lift(Tensor physical) {
        return Batched.wrap(physical, 0, level);
    }

    @Override
    public Tensor moveDim(Tensor t, int from, int to) {
        if (from == to) return t;
        int n = t.dim();
        long[] perm = new long[n];
        int k = 0;
        for (int d = 0; d < n; d++) if (d != from) perm[k++] = d;
        long[] out = new long[n];
        for (int d = 0, j = 0; d < n; d++) out[d] = d == to ? from : perm[j++];
        return call1(ShapeOps.PERMUTE, t, out);
    }

    @Override
    public Tensor unsqueeze(Tensor t, int d) {
        return call1(ShapeOps.UNSQUEEZE, t, (long) d);
    }

    @Override
    public Tensor expand(Tensor t, long[] size) {
        return call1(ShapeOps.EXPAND, t, size, false);
    }

    @Override
    public Tensor reshape(Tensor t, long... size) {
        return call1(ShapeOps.RESHAPE, t, size);
    }

    Tensor select(Tensor t, int d, long i) {
        return call1(ShapeOps.SELECT, t, (long) d, i);
    }

    /** Physical results stacked along a new dim 0. */
    Tensor stack(Tensor[] parts) {
        Tensor[] u = new Tensor[parts.length];
        for (int i = 0; i < u.length; i++) u[i] = unsqueeze(parts[i], 0);
        return call1(JoinOps.CAT, u, 0L);
    }

    @Override
    public long[] withBatch(long[] shape) {
        long[] s = new long[shape.length + 1];
        s[0] = batch;
        System.arraycopy(shape, 0, s, 1, shape.length);
        return s;
    }

    /** Each output is reshaped to {@code [B] + logical shape} if the rule computed another layout (0-d cases). */
    @Override
    public Object wrap(Object phys) {
        Spec s = spec;
        if (phys instanceof Tensor t) return Batched.wrap(fix(t, s, 0), 0, level);
        if (phys instanceof Tensor[] ts) {
            Tensor[] w = new Tensor[ts.length];
            for (int i = 0; i < ts.length; i++) w[i] = ts[i] == null ? null : Batched.wrap(fix(ts[i], s, i), 0, level);
            return w;
        }
        return phys;
    }

    private Tensor fix(Tensor t, Spec s, int i) {
        if (s == null || i >= s.shapes().length) return t;
        long[] want = withBatch(s.shapes()[i]);
        return Arrays.equals(t.impl().shapeRef(), want) ? t : reshape(t, want);
    }

    @Override
    public Object outsResult() {
        return outs.length == 1 ? outs[0] : outs;
    }
}
