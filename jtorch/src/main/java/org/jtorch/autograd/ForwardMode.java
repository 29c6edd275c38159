package org.jtorch.autograd;

import java.util.Arrays;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Operator;
import org.jtorch.ops.ComplexOps;
import org.jtorch.ops.FeatureMetaOps;
import org.jtorch.ops.OpDef;
import org.jtorch.storage.TensorImpl;

/**
 * The interpreter of one dual level on the dispatch state's stack. An op none of whose inputs carries a tangent at the
 * level passes straight through; otherwise the op runs on its arguments (lower levels and autograd see it as usual) and
 * its JVP rule maps the input tangents to the output tangents. Both run with this level lowered out of the dispatch
 * walk: the rule's own ops are then ordinary ops for this level and differentiable ones for the levels below
 * (forward-over-forward) and for autograd (forward-over-reverse). Composite ops pass through: their pieces come back
 * here one by one.
 */
final class ForwardMode extends DispatchState.ModeInterpreter {
    private final DualLevel dual;

    ForwardMode(DualLevel dual, int stackLevel) {
        super(DispatchState.Kind.FORWARD_AD, stackLevel);
        this.dual = dual;
    }

    /** The dual level this interpreter serves. */
    DualLevel dualLevel() {
        return dual;
    }

    @Override
    public Object process(Operator operator, Object[] args, Dispatcher.Next next) {
        OpDef op = (OpDef) operator;
        if (op.compositeFn() != null) return next.call(op, args);
        Tensor[] tangents = tangentsOf(args);
        if (tangents == null) return next.call(op, args);
        Object result = lowered(() -> next.call(op, args));
        Tensor[] outs = result instanceof Tensor t ? new Tensor[] {t} : (Tensor[]) result;
        Tensor[] outTangents = rule(op, args, outs, tangents);
        for (int j = 0; j < outs.length; j++) {
            Tensor t = outTangents[j];
            if (t == null) continue;
            // A rule may hand back an input's tangent itself (an identity); an output of a non-view op must
            // own its tangent, or an in-place update of one would change the other.
            if (!op.has(OpDef.Flag.VIEW) && sharesStorage(t, tangents)) t = lowered(t::clone);
            Tangents.set(outs[j], dual, t);
        }
        return result;
    }

    /**
     * In-place and {@code out=} calls: inputs that the kernel overwrites are copied first (the rule reads their old
     * values), and the new tangent is written into the output's existing tangent, so views of it (and the base whose
     * view is written) follow, as in PyTorch.
     */
    @Override
    public Object processOut(Operator operator, Object[] outArray, Object[] args, Dispatcher.NextOut next) {
        OpDef op = (OpDef) operator;
        Tensor[] outs = (Tensor[]) outArray;
        Tensor[] tangents = tangentsOf(args);
        boolean dualOut = false;
        for (Tensor o : outs) dualOut |= Tangents.get(o, dual) != null;
        if (tangents == null && !dualOut) return next.call(op, outs, args);
        Object[] ruleArgs = tangents == null ? args : beforeWrite(args, outs);
        Object result = lowered(() -> next.call(op, outs, args));
        Tensor[] outTangents = tangents == null ? new Tensor[outs.length] : rule(op, ruleArgs, outs, tangents);
        for (int j = 0; j < outs.length; j++) write(outs[j], outTangents[j]);
        return result;
    }

    /**
     * The tangent of each tensor argument at this level ({@code Tensor[]} arguments expanded), or null if none has one.
     */
    private Tensor[] tangentsOf(Object[] args) {
        boolean any = false;
        int n = 0;
        for (Object a : args) {
            if (a instanceof Tensor t) {
                n++;
                any |= t.forwardGrads() != null && Tangents.get(t, dual) != null;
            } else if (a instanceof Tensor[] ts) {
                n += ts.length;
                for (Tensor t : ts) any |= t != null && t.forwardGrads() != null && Tangents.get(t, dual) != null;
            }
        }
        if (!any) return null;
        Tensor[] tangents = new Tensor[n];
        int i = 0;
        for (Object a : args) {
            if (a instanceof Tensor t) tangents[i++] = Tangents.get(t, dual);
            else if (a instanceof Tensor[] ts)
                for (Tensor t : ts) tangents[i++] = t == null ? null : Tangents.get(t, dual);
        }
        return tangents;
    }

    /** Output tangents from the op's JVP rule, shaped and typed like the outputs; null where an output has none. */
    private Tensor[] rule(OpDef op, Object[] args, Tensor[] outs, Tensor[] tangents) {
        Tensor[] none = new Tensor[outs.length];
        if (!op.isDifferentiable()) return none;
        boolean differentiableOut = false;
        for (Tensor o : outs) differentiableOut |= o.isFloatingPoint() || o.isComplex();
        if (!differentiableOut) return none;
        OpDef.Jvp jvp = op.jvp();
        if (jvp == null) {
            throw new UnsupportedOperationException("Trying to use forward AD with " + op.name()
                    + " that does not support it because it has not been implemented yet.");
        }
        Tensor[] r = lowered(() -> jvp.apply(args, outs, tangents));
        Tensor[] shaped = new Tensor[outs.length];
        for (int j = 0; j < outs.length && j < r.length; j++) {
            Tensor o = outs[j], t = r[j];
            if (t == null || !(o.isFloatingPoint() || o.isComplex()) || !op.outputHasGrad(j)) continue;
            shaped[j] = lowered(() -> conform(t, o));
        }
        return shaped;
    }

    /** {@code t} with {@code out}'s shape and dtype (a rule may return a broadcastable or promoted tangent). */
    private static Tensor conform(Tensor t, Tensor out) {
        if (t.isComplex() && !out.isComplex()) t = ComplexOps.real(t);
        if (t.dtype() != out.dtype()) t = t.to(out.dtype());
        if (!Arrays.equals(t.impl().shapeRef(), out.impl().shapeRef()))
            t = t.expand(out.shape()).contiguous();
        return t;
    }

    /** The arguments with every tensor that shares storage with an output replaced by a copy taken now. */
    private Object[] beforeWrite(Object[] args, Tensor[] outs) {
        Object[] copy = args.clone();
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] instanceof Tensor t && aliasesAny(t, outs)) copy[i] = lowered(t::clone);
            else if (copy[i] instanceof Tensor[] ts) {
                Tensor[] c = ts.clone();
                for (int k = 0; k < c.length; k++)
                    if (c[k] != null && aliasesAny(c[k], outs)) c[k] = lowered(c[k]::clone);
                copy[i] = c;
            }
        }
        return copy;
    }

    /** Makes {@code newTangent} (null = zero) the tangent of the written output {@code out}. */
    private void write(Tensor out, Tensor newTangent) {
        if (!(out.isFloatingPoint() || out.isComplex())) return;
        Tensor existing = Tangents.get(out, dual);
        if (existing != null) {
            lowered(() -> newTangent == null ? existing.zero_() : existing.copy_(newTangent));
            return;
        }
        if (newTangent == null) return;
        Tensor base = out.viewBase();
        Tensor target;
        if (base == null) {
            // dispatched, so that a tangent batched by vmap gets a batched destination with the output's geometry
            target = lowered(() -> FeatureMetaOps.newZerosWithSameFeatureMeta(newTangent, out, 0));
        } else {
            // Writing a dual into a view makes the base dual too: its tangent is zero outside the view.
            Tensor baseTangent = Tangents.get(base, dual);
            if (baseTangent == null) {
                baseTangent = Tensor.of(TensorImpl.of(
                        ForwardAD.storageLike(base), base.storageOffset(), base.shape(), base.stride(), base.dtype()));
                Tangents.set(base, dual, baseTangent);
            }
            target = baseTangent.impl().storage().slots()
                            == base.impl().storage().slots()
                    ? Tensor.viewOf(
                            baseTangent, baseTangent.impl().viewOf(out.storageOffset(), out.shape(), out.stride()))
                    : Tensor.of(TensorImpl.of(
                            ForwardAD.storageLike(out), out.storageOffset(), out.shape(), out.stride(), out.dtype()));
        }
        lowered(() -> target.copy_(newTangent));
        Tangents.set(out, dual, target);
    }

    private static boolean aliasesAny(Tensor t, Tensor[] outs) {
        for (Tensor o : outs) if (o.impl().storage().sameMemory(t.impl().storage())) return true;
        return false;
    }

    private static boolean sharesStorage(Tensor t, Tensor[] tangents) {
        for (Tensor s : tangents)
            if (s != null && s.impl().storage().sameMemory(t.impl().storage())) return true;
        return false;
    }

    private <T> T lowered(java.util.function.Supplier<T> body) {
        return DispatchState.runBelow(this, body);
    }
}
