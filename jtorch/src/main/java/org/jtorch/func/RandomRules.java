package org.jtorch.func;

import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.Backends;
import org.jtorch.ops.CopyOps;

/** Random ops inside vmap under randomness "same" and "different" ("error" refuses them before this). */
final class RandomRules {
    private RandomRules() {}

    static Object apply(Ctx c, boolean own) {
        return c.vm.randomness() == Randomness.SAME ? same(c, own) : different(c, own);
    }

    /** Independent values per example: one draw over the whole batch, or one draw per example. */
    private static Object different(Ctx c, boolean own) {
        if (c.outs != null) {
            if (!own || !c.batched(c.outs[0])) {
                throw new TorchException(
                        "vmap: Cannot ask for different inplace randomness on an unbatched tensor. This will "
                                + "appear like same randomness. If this is necessary for your usage, "
                                + "please file an issue with functorch.");
            }
            Tensor[] dest = new Tensor[c.outs.length];
            for (int k = 0; k < dest.length; k++) dest[k] = c.front(c.outs[k]);
            Object[] a = c.plainArgs();
            for (int i = 0; i < a.length; i++) if (c.args[i] == c.outs[0]) a[i] = dest[0];
            c.callOut(c.op, dest, a);
            return c.outsResult();
        }
        return c.vm.loop(c); // a fresh draw per example
    }

    /**
     * The same values for every example: one draw of the logical shape (replayed per example when inputs are batched).
     */
    private static Object same(Ctx c, boolean own) {
        if (!own) return c.call(c.op, c.args);
        if (c.outs != null) {
            Tensor target = c.outs[0];
            Tensor once = Tensor.of(Backends.empty(target.impl().shapeRef(), target.dtype(), target.device()));
            Object[] a = c.plainArgs();
            for (int i = 0; i < a.length; i++) if (c.args[i] == target) a[i] = once;
            c.callOut(c.op, new Tensor[] {once}, a);
            Tensor dest = c.front(target);
            c.callOut(
                    CopyOps.TO_COPY,
                    new Tensor[] {dest},
                    once,
                    dest.dtype(),
                    dest.impl().shapeRef());
            return c.outsResult();
        }
        // Batched inputs (e.g. bernoulli of batched probabilities): each example replays the same state of the
        // generator the op draws from, the one passed to it or else the default one.
        Generator g = generatorOf(c.args);
        byte[] start = g.getStateBytes();
        int n = Math.toIntExact(c.batch);
        Object[] results = new Object[n];
        byte[] end = start;
        for (int b = 0; b < n; b++) {
            g.setState(start);
            Object[] a = c.args.clone();
            for (int i = 0; i < a.length; i++) {
                Batched p = Batched.at(a[i], c.level);
                if (p != null) a[i] = p.batched() ? c.select(p.value, p.bdim, b) : p.value;
            }
            results[b] = c.call(c.op, a);
            end = g.getStateBytes();
        }
        g.setState(end);
        if (!(results[0] instanceof Tensor))
            throw new TorchException("vmap: aten::" + c.op.name() + " with randomness='same' "
                    + "and batched inputs must return one tensor");
        Tensor[] parts = new Tensor[n];
        for (int b = 0; b < n; b++) parts[b] = (Tensor) results[b];
        return Batched.wrap(c.stack(parts), 0, c.level);
    }

    /** The generator passed to a random op, or the default one when it has none. */
    private static Generator generatorOf(Object[] args) {
        for (Object a : args) if (a instanceof Generator g) return g;
        return Generator.defaultGenerator();
    }
}
