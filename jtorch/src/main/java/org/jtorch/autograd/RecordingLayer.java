package org.jtorch.autograd;

import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.AutogradLayer;
import org.jtorch.ops.OpDef;

/**
 * Autograd's implementation of the dispatcher's {@link AutogradLayer}: records op calls with {@link Recorder} and
 * follows writes into views with {@link ViewRebase}. The dispatcher finds it through the {@code META-INF/services}
 * entry for {@link AutogradLayer} (the module's {@code provides} clause on the module path); nothing else needs to
 * create one.
 *
 * <p>A service provider must be public, and it lives here because it drives autograd's package-private machinery; the
 * layer it implements is the dispatcher's and not exported, so it is no API.
 */
@SuppressWarnings("exports")
public final class RecordingLayer implements AutogradLayer {
    /** For {@link java.util.ServiceLoader}. */
    public RecordingLayer() {}

    @Override
    public boolean anyRequiresGrad(Object[] args) {
        return Recorder.anyRequiresGrad(args);
    }

    @Override
    public Recording begin(OpDef op, Object[] args, Tensor[] outs, boolean inPlace) {
        return Recorder.begin(op, args, outs, inPlace);
    }

    @Override
    public void checkWrite(Tensor out) {
        if (out.viewWriteRefusal() != null) throw new TorchException(out.viewWriteRefusal());
        if (out.isLeaf() && out.requiresGrad()) {
            throw new TorchException("a leaf Variable that requires grad is being used in an in-place operation.");
        }
        if (out.viewBase() != null) ViewRebase.check(out);
    }

    @Override
    public void rebaseWrittenViews(Tensor[] outs, Object[] args) {
        for (Tensor out : outs) {
            if (out.viewBase() != null && out.gradFn() != null) ViewRebase.rebase(out, slotOf(out, args));
        }
    }

    /** The input slot (tensor arguments flattened, as the recorder numbers them) holding {@code t}, or -1. */
    private static int slotOf(Tensor t, Object[] args) {
        int slot = 0;
        for (Object a : args) {
            if (a instanceof Tensor x) {
                if (x == t) return slot;
                slot++;
            } else if (a instanceof Tensor[] xs) {
                for (Tensor x : xs) {
                    if (x == t) return slot;
                    slot++;
                }
            }
        }
        return -1;
    }

    @Override
    public java.util.List<Tensor> gradWithGraph(
            java.util.List<Tensor> outputs, java.util.List<Tensor> gradOutputs, java.util.List<Tensor> inputs) {
        return Autograd.grad(
                outputs,
                inputs,
                Autograd.GradOptions.defaults()
                        .gradOutputs(gradOutputs)
                        .createGraph(true)
                        .allowUnused(true));
    }
}
