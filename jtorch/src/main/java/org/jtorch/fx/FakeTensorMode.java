package org.jtorch.fx;

import java.util.IdentityHashMap;
import java.util.Map;
import org.jtorch.DynamicOutputShapeException;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Operator;
import org.jtorch.ops.OpDef;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * {@code torch._subclasses.fake_tensor.FakeTensorMode}: while it is open, tensors carry metadata and no data. A fake
 * tensor has sizes, strides, a storage offset, a dtype, the device it claims to be on ({@code cpu} for the fake of a
 * CPU tensor) and requires-grad, and a storage that holds nothing; every op on fake tensors runs its meta rule only, so
 * the results have exactly the metadata the real op would give, at no cost in memory or time.
 *
 * <ul>
 *   <li><b>How ops propagate.</b> A structured op runs its meta rule and makes fake outputs on the device the rule
 *       names (no kernel runs); a view op computes its geometry over the same fake storage; a composite op runs its
 *       parts, which come back through this mode (as CompositeImplicitAutograd ops decompose before PyTorch's fake mode
 *       sees them); a custom op runs the fake implementation registered with {@code registerFake}. Autograd records on
 *       fake tensors as on real ones, so requires-grad propagates.
 *   <li><b>Real tensors entering</b> an op are converted with {@link #fromTensor} (PyTorch's mode asks for that to be
 *       done by hand unless {@code allow_non_fake_inputs}; here it is always allowed). The conversion is memoized: one
 *       real tensor gives one fake tensor, and tensors sharing a storage give fake tensors sharing one fake storage.
 *       Factory ops ({@code zeros}, {@code randn}) run inside the mode make fake tensors.
 *   <li><b>Data</b> cannot be read: {@code item()}, {@code toDoubleArray()} and the other reads of a fake tensor throw
 *       {@link org.jtorch.DataDependentOutputException} naming the read, and an op whose output shape depends on its
 *       input's values (tagged {@link OpDef.Flag#DYNAMIC_OUTPUT_SHAPE}: {@code nonzero}, {@code masked_select},
 *       {@code unique}...) throws {@link DynamicOutputShapeException} naming the op.
 *   <li><b>Checkpoints</b> loaded with {@code Serialization.load} while the mode is open give fake tensors on the
 *       device the checkpoint (or {@code mapLocation}) names, without reading the tensors' bytes; tensors that shared a
 *       storage in the file share one fake storage (PyTorch 2.15: storage sharing survives {@code torch.load} under
 *       fake mode).
 * </ul>
 *
 * <p>A fake tensor is meant to be used inside the mode that made it: an op on one outside any fake mode throws a
 * {@link TorchException} before a kernel would read its (absent) data.
 */
public final class FakeTensorMode implements AutoCloseable {
    private final Map<Tensor, Tensor> fakes = new IdentityHashMap<>();
    private final Map<Storage, Storage> storages = new IdentityHashMap<>();
    private DispatchState.Scope scope;

    private FakeTensorMode() {}

    /** Opens a fake-tensor mode on this thread (PyTorch's {@code with FakeTensorMode() as mode}); close it to leave. */
    public static FakeTensorMode open() {
        FakeTensorMode mode = new FakeTensorMode();
        mode.scope = DispatchState.enter(mode.new Interpreter());
        return mode;
    }

    /** Whether {@code t} is a fake tensor ({@code isinstance(t, FakeTensor)}). */
    public static boolean isFake(Tensor t) {
        return t.impl().isFake();
    }

    /**
     * The fake tensor standing for {@code real} ({@code from_tensor}): the same sizes, strides, storage offset, dtype,
     * device and requires-grad, over a fake storage of the same size, one per real storage. A view's fake is a view of
     * its base's fake. A fake tensor is returned as it is.
     */
    public Tensor fromTensor(Tensor real) {
        if (isFake(real)) return real;
        if (real.transformPayload() != null) {
            throw new TorchException("FakeTensorMode.fromTensor: a transform's wrapper (vmap's batched tensor) has no "
                    + "metadata of its own to copy; convert the tensors before entering the transform");
        }
        Tensor known = fakes.get(real);
        if (known != null) return known;
        TensorImpl impl = real.impl();
        Storage storage = storages.computeIfAbsent(impl.storage(), s -> Storage.fake(s.device(), s.kind(), s.slots()));
        TensorImpl fakeImpl = TensorImpl.of(storage, impl.storageOffset(), real.shape(), real.stride(), impl.dtype());
        Tensor base = real.viewBase();
        Tensor fake = base == null ? Tensor.of(fakeImpl) : Tensor.viewOf(fromTensor(base), fakeImpl);
        if (real.requiresGrad()) fake.requiresGrad(true);
        fakes.put(real, fake);
        return fake;
    }

    /**
     * The fake tensor that the fake mode in effect on this thread gives (or will give) {@code real}, or null when no
     * fake mode is in effect. A tracer above a fake mode records a real tensor as a constant and binds this fake to the
     * same node: the ops below see only the fake, and an autograd node that saves it for backward must still read the
     * constant.
     */
    static Tensor fakeInEffect(Tensor real) {
        if (isFake(real) || real.transformPayload() != null) return null;
        return DispatchState.innermostInEffect(DispatchState.Kind.FAKE) instanceof Interpreter mode
                ? mode.owner().fromTensor(real)
                : null;
    }

    /**
     * A fake tensor with the metadata a graph recorded ({@code meta["val"]} of a placeholder), over a fake storage of
     * its own just large enough for its strides: what shape propagation feeds a graph.
     */
    public Tensor fromMeta(TensorMeta meta) {
        long[] shape = meta.shape(), stride = meta.stride();
        long extent = 1;
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] == 0) extent = 0;
            else if (extent > 0) extent += (shape[i] - 1) * stride[i];
        }
        long slots = extent * meta.dtype().slotsPerElement();
        Storage storage = Storage.fake(meta.device(), meta.dtype().storageKind(), slots);
        Tensor fake = Tensor.of(TensorImpl.of(storage, 0, shape, stride, meta.dtype()));
        if (meta.requiresGrad()) fake.requiresGrad(true);
        return fake;
    }

    private Object[] fakeArgs(Object[] args) {
        Object[] out = args.clone();
        for (int i = 0; i < out.length; i++) {
            if (out[i] instanceof Tensor t) out[i] = fromTensor(t);
            else if (out[i] instanceof Tensor[] ts) out[i] = fakeTensors(ts);
        }
        return out;
    }

    private Tensor[] fakeTensors(Tensor[] ts) {
        Tensor[] out = new Tensor[ts.length];
        for (int i = 0; i < ts.length; i++) out[i] = ts[i] == null ? null : fromTensor(ts[i]);
        return out;
    }

    /** The mode's entry on the dispatch state: converts the arguments and runs each op on fake tensors. */
    private final class Interpreter extends DispatchState.ModeInterpreter {
        Interpreter() {
            super(DispatchState.Kind.FAKE, DispatchState.nextLevel());
        }

        FakeTensorMode owner() {
            return FakeTensorMode.this;
        }

        @Override
        public Object process(Operator operator, Object[] args, Dispatcher.Next next) {
            OpDef op = (OpDef) operator;
            Object[] fake = fakeArgs(args);
            if (op.has(OpDef.Flag.DYNAMIC_OUTPUT_SHAPE)) throw new DynamicOutputShapeException(op.qualifiedName());
            // a composite's parts come back through this mode; what it allocates itself is fake too
            try (var _ = DispatchState.fakeAllocation()) {
                return next.call(op, fake);
            }
        }

        /** An in-place or {@code out=} call writes fake tensors: the real ones it names are converted, not written. */
        @Override
        public Object processOut(Operator operator, Object[] outs, Object[] args, Dispatcher.NextOut next) {
            OpDef op = (OpDef) operator;
            Object[] fake = fakeArgs(args);
            Tensor[] fakeOuts = fakeTensors((Tensor[]) outs);
            if (op.has(OpDef.Flag.DYNAMIC_OUTPUT_SHAPE)) throw new DynamicOutputShapeException(op.qualifiedName());
            try (var _ = DispatchState.fakeAllocation()) {
                return next.call(op, fakeOuts, fake);
            }
        }
    }

    /** Leaves the mode; the fake tensors it made stay fake (and can only be used inside another fake mode). */
    @Override
    public void close() {
        scope.close();
    }
}
