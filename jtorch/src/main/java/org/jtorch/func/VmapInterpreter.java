package org.jtorch.func;

import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.autograd.GradMode;
import org.jtorch.autograd.Recorder;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Operator;
import org.jtorch.ops.OpDef;

/**
 * One vmap level on the dispatch state's interpreter stack (functorch's vmap interpreter). An op whose arguments hold
 * no tensor of this level passes through untouched. Otherwise the op's batching rule runs on the physical tensors below
 * this level (a composite op is expanded here, so its pieces meet their own rules) and the results are wrapped again;
 * an op without a rule runs once per example and the results are stacked (the slow fallback, with a one-time
 * performance warning naming the op).
 *
 * <p>When a grad transform runs inside this vmap, its inputs are tensors of this level that require grad themselves
 * (not through their physical value): such an op is recorded here on the logical tensors, so that its backward runs per
 * example; the physical computation underneath is recorded only for tensors of outer transforms.
 */
final class VmapInterpreter extends DispatchState.ModeInterpreter {
    static {
        BatchRules.install();
    }

    private final long batchSize;
    private final Randomness randomness;
    /** Above zero while a rule runs for an op already recorded on the logical tensors. */
    private int recordingLogical;

    VmapInterpreter(int level, long batchSize, Randomness randomness) {
        super(DispatchState.Kind.VMAP, level);
        this.batchSize = batchSize;
        this.randomness = randomness;
    }

    long batchSize() {
        return batchSize;
    }

    Randomness randomness() {
        return randomness;
    }

    @Override
    public Object process(Operator operator, Object[] args, Dispatcher.Next next) {
        OpDef op = (OpDef) operator;
        if (op.has(OpDef.Flag.RANDOM) && randomness == Randomness.ERROR) throw randomError();
        boolean own = holdsOwn(args);
        if (op.compositeFn() != null) {
            if (!own) return op.has(OpDef.Flag.RANDOM) ? op.compositeFn().apply(args) : next.call(op, args);
            // Expanded here, so that its pieces meet their rules; a rule of the composite itself runs first.
            OpDef.BatchRule rule = op.batchRule();
            if (rule != null) {
                Object r = rule.apply(new Ctx(this, op, args, null, next, null));
                if (r != OpDef.BatchRule.DECLINE) return r;
            }
            return op.compositeFn().apply(args);
        }
        if (op.has(OpDef.Flag.RANDOM)) return RandomRules.apply(new Ctx(this, op, args, null, next, null), own);
        if (!own) return next.call(op, args);
        return run(new Ctx(this, op, args, null, next, null));
    }

    @Override
    public Object processOut(Operator operator, Object[] outArray, Object[] args, Dispatcher.NextOut next) {
        OpDef op = (OpDef) operator;
        Tensor[] outs = (Tensor[]) outArray;
        if (op.has(OpDef.Flag.RANDOM) && randomness == Randomness.ERROR) throw randomError();
        boolean own = holdsOwn(args) || holdsOwn(outs);
        Dispatcher.Next plainNext = (o, a) -> next.call(o, null, a); // helper ops: plain calls below this level
        if (op.has(OpDef.Flag.RANDOM)) return RandomRules.apply(new Ctx(this, op, args, outs, plainNext, next), own);
        if (!own) return next.call(op, outs, args);
        return run(new Ctx(this, op, args, outs, plainNext, next));
    }

    /** Runs a call that involves this level, recording it on the logical tensors if a grad level inside needs it. */
    private Object run(Ctx c) {
        boolean logical = recordingLogical == 0
                && GradMode.isEnabled()
                && c.op.isDifferentiable()
                && (ownRequiresGrad(c.args) || c.outs != null && ownRequiresGrad(c.outs));
        if (!logical) return compute(c);
        Recorder.Pending pending = c.outs != null ? Recorder.begin(c.op, c.args, c.outs, true) : null;
        Object result;
        recordingLogical++;
        try {
            result = compute(c);
        } finally {
            recordingLogical--;
        }
        if (c.outs != null) {
            for (Tensor o : c.outs) o.impl().bumpVersion();
            pending.finish(c.outs);
        } else {
            Tensor[] outs = result instanceof Tensor t ? new Tensor[] {t} : (Tensor[]) result;
            Recorder.begin(c.op, c.args, outs, false).finish(outs);
        }
        return result;
    }

    private Object compute(Ctx c) {
        if (c.outs != null) checkInPlace(c);
        if (!anyBatched(c.args) && (c.outs == null || !anyBatched(c.outs))) return unbatched(c);
        OpDef.BatchRule rule = c.op.batchRule();
        if (rule != null) {
            Object r = rule.apply(c);
            if (r != OpDef.BatchRule.DECLINE) return r;
        }
        return fallback(c);
    }

    /** Every tensor of this level is a lifted, unbatched one: run on the values, keep them lifted. */
    private Object unbatched(Ctx c) {
        Object[] a = c.plainArgs();
        if (c.outs != null) {
            Tensor[] dest = new Tensor[c.outs.length];
            for (int i = 0; i < dest.length; i++) dest[i] = Ctx.plain(c.outs[i], level);
            c.callOut(c.op, dest, a);
            return c.outsResult();
        }
        Object r = c.call(c.op, a);
        if (r instanceof Tensor t) return Batched.wrap(t, -1, level);
        if (r instanceof Tensor[] ts) {
            Tensor[] w = new Tensor[ts.length];
            for (int i = 0; i < ts.length; i++) w[i] = ts[i] == null ? null : Batched.wrap(ts[i], -1, level);
            return w;
        }
        return r;
    }

    /** PyTorch's refusal of an in-place write of batched values into a destination that is not batched. */
    private void checkInPlace(Ctx c) {
        boolean argsBatched = anyBatched(c.args);
        for (Tensor o : c.outs) {
            if (argsBatched && !c.batched(o)) {
                throw new TorchException(
                        "vmap: " + c.op.name() + "_(self, *extra_args) is not possible because there exists a "
                                + "Tensor `other` in extra_args that has more elements than `self`. This "
                                + "happened due to `other` being "
                                + "vmapped over but `self` not being vmapped over in a vmap. Please try to "
                                + "use out-of-place operators "
                                + "instead of " + c.op.name()
                                + "_. If said operator is being called inside the PyTorch framework, please "
                                + "file a bug report instead.");
            }
        }
    }

    /** The per-example loop: runs the op on each example's slices and stacks the results along dim 0. */
    Object fallback(Ctx c) {
        if (c.op.has(OpDef.Flag.DYNAMIC_OUTPUT_SHAPE)) {
            throw new TorchException(
                    "vmap: We do not support batching operators that can output dynamic shape. Attempted to "
                            + "vmap over " + c.op.schema().namespace() + "::" + c.op.name()
                            + ". Please voice your support in "
                            + "https://github.com/pytorch/functorch/issues/256");
        }
        warnFallback(c.op);
        return loop(c);
    }

    /** The loop itself, without the warning (random ops under randomness "different" use it by design). */
    Object loop(Ctx c) {
        int n = Math.toIntExact(batchSize);
        if (c.outs != null) {
            Tensor[] dest = new Tensor[c.outs.length];
            for (int k = 0; k < dest.length; k++) dest[k] = c.front(c.outs[k]);
            for (int b = 0; b < n; b++) {
                Tensor[] db = new Tensor[dest.length];
                for (int k = 0; k < dest.length; k++) db[k] = c.select(dest[k], 0, b);
                Object[] ab = slice(c, b);
                for (int i = 0; i < ab.length; i++) {
                    for (int k = 0; k < dest.length; k++) if (c.args[i] == c.outs[k]) ab[i] = db[k];
                }
                c.callOut(c.op, db, ab);
            }
            return c.outsResult();
        }
        Object[] results = new Object[n];
        for (int b = 0; b < n; b++) results[b] = c.call(c.op, slice(c, b));
        if (n == 0)
            throw new TorchException("vmap: the per-example fallback of "
                    + c.op.schema().namespace() + "::" + c.op.name() + " needs a non-empty batch");
        if (results[0] instanceof Tensor) {
            Tensor[] parts = new Tensor[n];
            for (int b = 0; b < n; b++) parts[b] = (Tensor) results[b];
            return Batched.wrap(c.stack(parts), 0, level);
        }
        if (results[0] instanceof Tensor[] first) {
            Tensor[] out = new Tensor[first.length];
            for (int k = 0; k < first.length; k++) {
                Tensor[] parts = new Tensor[n];
                for (int b = 0; b < n; b++) parts[b] = ((Tensor[]) results[b])[k];
                out[k] = Batched.wrap(c.stack(parts), 0, level);
            }
            return out;
        }
        throw new TorchException("vmap: " + c.op.schema().namespace() + "::" + c.op.name()
                + " returned a value the per-example fallback cannot stack");
    }

    /** The arguments of example {@code b}. */
    private Object[] slice(Ctx c, int b) {
        Object[] a = c.args.clone();
        for (int i = 0; i < a.length; i++) {
            if (a[i] instanceof Tensor t) a[i] = sliceOne(c, t, b);
            else if (a[i] instanceof Tensor[] ts) {
                Tensor[] s = ts.clone();
                for (int k = 0; k < s.length; k++) if (s[k] != null) s[k] = sliceOne(c, s[k], b);
                a[i] = s;
            }
        }
        return a;
    }

    private Tensor sliceOne(Ctx c, Tensor t, int b) {
        Batched p = Batched.at(t, level);
        if (p == null) return t;
        return p.batched() ? c.select(p.value, p.bdim, b) : p.value;
    }

    /** The fallback's performance warning, printed once per op (the message names it) unless filters say otherwise. */
    static void warnFallback(OpDef op) {
        if (!VmapSettings.fallbackWarningEnabled()) return;
        Warnings.warnOnce(
                Warnings.Category.USER_WARNING,
                "There is a performance drop because we have not yet "
                        + "implemented the batching rule for " + op.schema().namespace() + "::" + BatchRules.key(op)
                        + ". Please file us an issue on "
                        + "GitHub so that we can prioritize its implementation.");
    }

    static TorchException randomError() {
        return new TorchException("vmap: called random operation while in randomness error mode. Please either use the "
                + "'same' or 'different' randomness flags on vmap or perform the randomness operation out of vmap");
    }

    // ---- scanning arguments --------------------------------------------------------------------------

    private boolean holdsOwn(Object[] args) {
        for (Object a : args) {
            if (Batched.at(a, level) != null) return true;
            if (a instanceof Tensor[] ts) for (Tensor t : ts) if (Batched.at(t, level) != null) return true;
        }
        return false;
    }

    private boolean anyBatched(Object[] args) {
        for (Object a : args) {
            Batched b = Batched.at(a, level);
            if (b != null && b.batched()) return true;
            if (a instanceof Tensor[] ts) {
                for (Tensor t : ts) {
                    Batched q = Batched.at(t, level);
                    if (q != null && q.batched()) return true;
                }
            }
        }
        return false;
    }

    private boolean ownRequiresGrad(Object[] args) {
        for (Object a : args) {
            if (Batched.at(a, level) != null && ((Tensor) a).requiresGrad()) return true;
            if (a instanceof Tensor[] ts)
                for (Tensor t : ts) if (Batched.at(t, level) != null && t.requiresGrad()) return true;
        }
        return false;
    }
}
