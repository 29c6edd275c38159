package org.jtorch.ops;

import java.util.Arrays;
import java.util.ServiceLoader;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.storage.TensorImpl;

/**
 * How an op runs once the dispatcher's interpreters have had their turn: composite expansion → view geometry or meta
 * rule → allocation on the inputs' device → the kernel of that device (the op's CPU kernel, or the one a device backend
 * registered, see {@link Backends}), with the {@link AutogradLayer} recording the call when grad mode is on. Under a
 * fake-tensor mode ({@link DispatchState#isFakeAllocation()}) the outputs are fake and no kernel runs, as on meta.
 */
final class Execution {
    private Execution() {}

    /** The autograd layer, installed when this class is first used, so before the first op runs. */
    private static final AutogradLayer AUTOGRAD = installedAutograd();

    private static AutogradLayer installedAutograd() {
        return ServiceLoader.load(AutogradLayer.class, AutogradLayer.class.getClassLoader())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no implementation of " + AutogradLayer.class.getName()
                        + " is installed (its META-INF/services entry is missing from the class path)"));
    }

    /** The installed autograd layer. */
    static AutogradLayer autograd() {
        return AUTOGRAD;
    }

    /** The out-of-place call of {@code op}; {@code state} is the calling thread's dispatch state. */
    static Object call(DispatchState state, OpDef op, Object[] args) {
        op.alertIfNondeterministic(args); // first, as ATen's kernels alert before they check their arguments
        OpDef.Composite composite = op.compositeFn();
        if (composite != null) {
            if (op.vjp() != null && DispatchState.noneEntered() && recorded(state, op, args)) {
                return callRecordedWhole(state, op, composite, args);
            }
            return composite.apply(args); // its pieces record themselves
        }
        boolean record = recorded(state, op, args);
        OpDef.ViewFn view = op.viewFn();
        if (view != null) {
            Tensor result = view.apply(args);
            if (record) AUTOGRAD.begin(op, args, new Tensor[] {result}, false).finish(new Tensor[] {result});
            return result;
        }
        Spec spec = op.meta().infer(args);
        Tensor[] outs = new Tensor[spec.outputs()];
        Device device = spec.device();
        boolean fake = state.isFakeAllocation();
        for (int i = 0; i < outs.length; i++) {
            long[] shape = spec.shapes()[i];
            DType dtype = spec.dtypes()[i];
            outs[i] = Tensor.of(fake ? TensorImpl.fake(shape, dtype, device) : output(shape, dtype, device));
        }
        // fake outputs hold no data: the meta rule was all there was to run
        if (!fake && device != Device.META) {
            refuseFake(op, args);
            (device == Device.CPU ? op.kernel() : Backends.kernel(op, device)).run(args, outs, spec);
        }
        if (record) AUTOGRAD.begin(op, args, outs, false).finish(outs);
        return outs.length == 1 ? outs[0] : outs;
    }

    private static boolean recorded(DispatchState state, OpDef op, Object[] args) {
        return state.isRecording() && op.isDifferentiable() && AUTOGRAD.anyRequiresGrad(args);
    }

    /**
     * A composite with a derivative of its own (PyTorch's CompositeExplicitAutograd ops, such as {@code split}, whose
     * backward is one {@code cat} where its pieces' would be a zero-filled gradient each and a sum of them): in plain
     * eager code its pieces run unrecorded and autograd records the op as one node. Under any interpreter (tracing,
     * vmap, forward AD, fake tensors, DebugMode) it decomposes as every composite does, so they see the same pieces.
     */
    private static Object callRecordedWhole(DispatchState state, OpDef op, OpDef.Composite composite, Object[] args) {
        Object result;
        try (var _ = DispatchState.suppressRecording()) {
            result = composite.apply(args);
        }
        Tensor[] outs = result instanceof Tensor t ? new Tensor[] {t} : (Tensor[]) result;
        AUTOGRAD.begin(op, args, outs, false).finish(outs);
        return result;
    }

    /**
     * A structured op's output before its kernel runs. On the CPU its memory is left uninitialized, as ATen's
     * {@code at::empty} leaves it: a kernel writes every element of its outputs (it must, since {@link #callOut} hands
     * it the caller's {@code out=} tensors as they are), so zeroing them first would be a wasted pass over memory.
     */
    private static TensorImpl output(long[] shape, DType dtype, Device device) {
        if (device == Device.CPU) return TensorImpl.emptyUninitialized(shape, dtype);
        return Backends.emptyWithData(shape, dtype, device);
    }

    /** The call of {@code op} into the existing tensors {@code outs}. */
    static void callOut(OpDef op, Tensor[] outs, Object[] args) {
        op.alertIfNondeterministic(args);
        if (op.meta() == null) throw new TorchException(op.name() + ": has no out= variant");
        Spec spec = op.meta().infer(args);
        if (outs.length != spec.outputs()) {
            throw new TorchException(op.name() + "(): expected " + spec.outputs() + " out tensors, got " + outs.length);
        }
        DispatchState state = DispatchState.current();
        Tensor[] targets = new Tensor[outs.length];
        boolean direct = true;
        for (int i = 0; i < outs.length; i++) {
            Tensor out = outs[i];
            long[] shape = spec.shapes()[i];
            DType dt = spec.dtypes()[i];
            checkOut(op, out, shape, dt, spec.device());
            if (out.dtype() == dt || state.isFakeAllocation()) targets[i] = out;
            else {
                targets[i] = Tensor.of(Backends.empty(shape, dt, spec.device()));
                direct = false;
            }
        }
        boolean grad = state.isRecording();
        boolean record = grad && (op.isDifferentiable() && AUTOGRAD.anyRequiresGrad(args) || anyRequiresGrad(outs));
        if (grad) {
            for (Tensor out : outs) {
                if (record || out.requiresGrad() || out.viewWriteRefusal() != null) AUTOGRAD.checkWrite(out);
            }
        }
        AutogradLayer.Recording recording = record ? AUTOGRAD.begin(op, args, outs, true) : null;
        Device device = spec.device();
        if (device == Device.META || state.isFakeAllocation()) {
            if (recording != null) {
                recording.finish(outs);
                AUTOGRAD.rebaseWrittenViews(outs, args);
            }
            return;
        }
        refuseFake(op, args);
        refuseFake(op, outs);
        state.setGradEnabled(false); // a dtype-converting copy below is part of this op
        try {
            (device == Device.CPU ? op.kernel() : Backends.kernel(op, device)).run(args, targets, spec);
            for (int i = 0; i < outs.length; i++) {
                if (!direct && targets[i] != outs[i]) outs[i].copy_(targets[i]);
                outs[i].impl().bumpVersion();
            }
        } finally {
            state.setGradEnabled(grad);
        }
        if (recording != null) {
            recording.finish(outs);
            AUTOGRAD.rebaseWrittenViews(outs, args);
        }
    }

    /** Refuses an existing tensor {@code out} as the output of {@code op} that the meta rule says has this shape. */
    static void checkOut(OpDef op, Tensor out, long[] shape, DType dt, Device device) {
        if (!Arrays.equals(out.shape(), shape)) {
            throw new TorchException(op.name() + "(): output with shape " + Shapes.str(out.shape())
                    + " doesn't match the broadcast shape " + Shapes.str(shape));
        }
        if (out.dtype() != dt && !TypePromotion.canCast(dt, out.dtype())) {
            throw new TorchException(op.name() + "(): result type " + dt.cppName()
                    + " can't be cast to the desired output type " + out.dtype().cppName());
        }
        if (out.device() != device) {
            throw new TorchException(
                    op.name() + "(): Expected out tensor to be on " + device + " but got " + out.device());
        }
    }

    /**
     * A fake tensor about to reach a kernel: it has no data. Only a fake-tensor mode runs ops on fake tensors (PyTorch
     * re-enters the tensor's own mode; JTorch asks for the mode to be entered).
     */
    private static void refuseFake(OpDef op, Object[] args) {
        for (Object a : args) {
            boolean fake = a instanceof Tensor t && t.impl().isFake();
            if (!fake && a instanceof Tensor[] ts)
                for (Tensor t : ts) fake |= t != null && t.impl().isFake();
            if (fake) {
                throw new TorchException(op.name() + ": got a fake tensor outside FakeTensorMode: fake tensors hold no "
                        + "data, so ops on them run only inside a FakeTensorMode");
            }
        }
    }

    private static boolean anyRequiresGrad(Tensor[] ts) {
        for (Tensor t : ts) if (t.requiresGrad()) return true;
        return false;
    }
}
