package org.jtorch;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.ServiceLoader;
import org.jtorch.autograd.graph.Node;
import org.jtorch.dispatch.VariableHooks;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.ops.ArrangeOps;
import org.jtorch.ops.ClampOps;
import org.jtorch.ops.ComplexOps;
import org.jtorch.ops.Creation;
import org.jtorch.ops.IndexingOps;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.MatmulOps;
import org.jtorch.ops.RandomOps;
import org.jtorch.ops.ReductionOps;
import org.jtorch.ops.ScatterOps;
import org.jtorch.ops.SearchOps;
import org.jtorch.ops.ShapeOps;
import org.jtorch.ops.SortOps;
import org.jtorch.ops.TernaryOps;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;
import org.jtorch.utils.hooks.RemovableHandle;

/**
 * The user-facing tensor: a {@link TensorImpl} (a strided window onto a {@link Storage}: offset, sizes, strides, dtype)
 * plus the autograd fields. Views share storage; sizes, strides and offsets are in elements and always {@code long}.
 * Kernels see only the impl ({@link #impl()}); this class is the handle users hold.
 *
 * <p>Methods mirror {@code torch.Tensor}: {@code x.add(y)}, in-place {@code x.add_(y)}. Every op runs through the
 * dispatcher; this class holds no op logic.
 */
public final class Tensor {
    private final TensorImpl impl;
    private boolean requiresGrad;
    private Tensor grad;
    private Node<Tensor> gradFn;
    private int outputNr;
    private Node<Tensor> accumulator;
    private boolean retainsGrad;
    /** The tensor whose storage this view was made from ({@code _base}), or null. */
    private Tensor base;
    /** Forward-AD tangents per dual level, made and read by forward AD only; null when none. */
    private ForwardGrad forwardGrads;
    /** What a transform wrapper holds (vmap's batched tensor); null for every ordinary tensor. */
    private TransformPayload payload;

    /**
     * The forward-AD tangents of a tensor, one per dual level (PyTorch's {@code ForwardGrad}): forward AD
     * ({@code org.jtorch.autograd}, above this class) makes and reads them; here they are only held and handed on.
     */
    public interface ForwardGrad {}

    /**
     * Autograd's side of a tensor (hooks, {@code retain_grad}, accumulators, {@code backward}), found when a tensor
     * first needs it, so that loading this class loads no autograd. Autograd lies above this class: it implements the
     * dispatcher's {@link VariableHooks}, as PyTorch's autograd implements ATen's {@code VariableHooksInterface}.
     */
    private static final class Hooks {
        static final VariableHooks<Tensor> AUTOGRAD = installed();

        // ServiceLoader knows the raw interface only; the module's one provider, org.jtorch.autograd.TensorHooks,
        // implements VariableHooks<Tensor>.
        @SuppressWarnings("unchecked")
        private static VariableHooks<Tensor> installed() {
            return ServiceLoader.load(VariableHooks.class, VariableHooks.class.getClassLoader())
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no implementation of "
                            + VariableHooks.class.getName()
                            + " is installed (its META-INF/services entry is missing from the class path)"));
        }
    }

    /**
     * The contents of a transform wrapper: a tensor whose shape is the logical (per-example) shape seen by the
     * transformed function while its data lives in another tensor (functorch's BatchedTensorImpl). The transform that
     * made it unwraps it on the mode stack before any kernel runs; this layer only needs to keep the payload across
     * {@link #detach()} and to refuse direct data reads.
     */
    public interface TransformPayload {
        /** The payload of {@code detach()} of the wrapper. */
        TransformPayload detached();

        /** The error for a direct data read ({@code item()}, {@code toDoubleArray()}...) of the wrapper. */
        TorchException dataAccess(String op);
    }

    private Tensor(TensorImpl impl) {
        this.impl = impl;
    }

    /**
     * Internal, not API: the tensor over {@code impl}, owning its layout (not a view of another tensor). Ops use it to
     * hand out what their kernels produced. ({@code TensorImpl} is in a package the module does not export: a client
     * can neither name nor use it.)
     */
    @SuppressWarnings("exports")
    public static Tensor of(TensorImpl impl) {
        return new Tensor(java.util.Objects.requireNonNull(impl, "impl"));
    }

    /**
     * Internal, not API: a view of {@code base} over {@code view}, which shares {@code base}'s storage; the result
     * records {@code base} (or base's own base) as its {@link #viewBase()}, as PyTorch's views do.
     */
    @SuppressWarnings("exports")
    public static Tensor viewOf(Tensor base, TensorImpl view) {
        Tensor t = new Tensor(view);
        t.base = base.base != null ? base.base : base;
        return t;
    }

    /** Internal, not API: the storage, geometry and dtype that kernels read. */
    @SuppressWarnings("exports")
    public TensorImpl impl() {
        return impl;
    }

    /** The base of a view ({@code _base}), or null for a tensor that owns its storage's layout. */
    public Tensor viewBase() {
        return base;
    }

    /**
     * A transform wrapper with logical sizes {@code shape}: it owns no data (a read raises the payload's error) and
     * every op on it is handled by the transform on the mode stack that knows the payload.
     */
    public static Tensor transformWrapper(long[] shape, DType dtype, Device device, TransformPayload payload) {
        Storage s = device == Device.META
                ? Storage.meta(dtype.storageKind(), 0)
                : Storage.ofSegment(dtype.storageKind(), MemorySegment.NULL);
        Tensor t = new Tensor(TensorImpl.contiguous(s, shape, dtype));
        t.payload = java.util.Objects.requireNonNull(payload, "payload");
        return t;
    }

    /** The payload of a transform wrapper, or null for an ordinary tensor. */
    public TransformPayload transformPayload() {
        return payload;
    }

    // ---- geometry -------------------------------------------------------------------------------

    /** Sizes; the returned array is a copy. */
    public long[] shape() {
        return impl.shapeRef().clone();
    }

    public long size(int dim) {
        return impl.size(dim);
    }

    /** Strides in elements; a copy. */
    public long[] stride() {
        return impl.strideRef().clone();
    }

    public long stride(int dim) {
        return impl.stride(dim);
    }

    public int dim() {
        return impl.dim();
    }

    public int ndim() {
        return impl.dim();
    }

    public long numel() {
        return impl.numel();
    }

    public DType dtype() {
        return impl.dtype();
    }

    public Device device() {
        return impl.device();
    }

    public boolean isMeta() {
        return impl.isMeta();
    }

    public boolean isContiguous() {
        return impl.isContiguous();
    }

    public long storageOffset() {
        return impl.storageOffset();
    }

    public boolean isComplex() {
        return impl.dtype().isComplex();
    }

    public boolean isFloatingPoint() {
        return impl.dtype().isFloatingPoint();
    }

    public long elementSize() {
        return impl.dtype().itemSize();
    }

    /** The storage; the same object for tensors that share memory ({@code untyped_storage()}). */
    public Object untypedStorage() {
        return impl.storage();
    }

    /** Version counter shared by all views (bumped by in-place ops); PyTorch's {@code _version}. */
    public int version() {
        return impl.version();
    }

    // ---- autograd ----------------------------------------------------------------------------------

    /**
     * Whether gradients flow to this tensor: a leaf marked with {@code requiresGrad(true)} or the result of a recorded
     * op.
     */
    public boolean requiresGrad() {
        return requiresGrad || gradFn != null;
    }

    /** {@code requires_grad_(flag)}: returns this. Only leaves of floating or complex dtype can be marked. */
    public Tensor requiresGrad(boolean flag) {
        if (gradFn != null) {
            if (flag) return this;
            throw new TorchException("you can only change requires_grad flags of leaf variables. If you want to use a "
                    + "computed variable in a subgraph that doesn't require differentiation use "
                    + "var_no_grad = var.detach().");
        }
        if (flag && !(impl.dtype().isFloatingPoint() || impl.dtype().isComplex())) {
            throw new TorchException("only Tensors of floating point and complex dtype can require gradients");
        }
        this.requiresGrad = flag;
        return this;
    }

    /** The accumulated gradient of a leaf (or of a tensor that called {@link #retainGrad()}). */
    public Tensor grad() {
        return grad;
    }

    public void setGrad(Tensor g) {
        if (g != null && !java.util.Arrays.equals(g.impl.shapeRef(), impl.shapeRef())) {
            throw new TorchException("assigned grad has data of a different size");
        }
        this.grad = g;
    }

    /** The node that produced this tensor ({@code grad_fn}), or null for leaves. */
    public Node<Tensor> gradFn() {
        return gradFn;
    }

    /** Which output of {@link #gradFn()} this tensor is. */
    public int outputNr() {
        return outputNr;
    }

    /** Whether this is a leaf of the autograd graph (no {@code grad_fn}). */
    public boolean isLeaf() {
        return gradFn == null;
    }

    /** Attaches autograd history; used by the recorder, with a node of the autograd engine. */
    public void setGradFn(Node<Tensor> node, int outputNr) {
        this.gradFn = node;
        this.outputNr = outputNr;
    }

    /** The node that accumulates this leaf's gradient (one per leaf, so hooks and accumulation are shared). */
    public synchronized Node<Tensor> gradAccumulator() {
        if (accumulator == null) accumulator = Hooks.AUTOGRAD.newGradAccumulator(this);
        return accumulator;
    }

    /** A tensor sharing this one's storage, without history and not requiring grad ({@code detach()}). */
    public Tensor detach() {
        Tensor t = new Tensor(impl);
        if (payload != null) t.payload = payload.detached();
        return t;
    }

    /** {@code detach_()}: drops this tensor's history in place. */
    public Tensor detach_() {
        gradFn = null;
        requiresGrad = false;
        return this;
    }

    /** {@code retain_grad()}: a non-leaf keeps its gradient in {@link #grad()} after backward. */
    public void retainGrad() {
        if (gradFn == null) {
            if (!requiresGrad) throw new TorchException("can't retain_grad on Tensor that has requires_grad=False");
            return; // leaves always keep their gradient
        }
        if (retainsGrad) return;
        retainsGrad = true;
        Hooks.AUTOGRAD.retainGrad(this);
    }

    public boolean retainsGrad() {
        return retainsGrad;
    }

    /**
     * {@code register_hook(fn)}: {@code fn} sees (and may replace) the gradient of this tensor; the handle removes the
     * hook.
     */
    public RemovableHandle registerHook(java.util.function.UnaryOperator<Tensor> fn) {
        return Hooks.AUTOGRAD.registerHook(this, fn);
    }

    /** {@code backward()} of a one-element tensor. */
    public void backward() {
        Hooks.AUTOGRAD.backward(java.util.List.of(this), null, null, false, null);
    }

    /** {@code backward(gradient)}. */
    public void backward(Tensor gradient) {
        Hooks.AUTOGRAD.backward(
                java.util.List.of(this), java.util.Collections.singletonList(gradient), null, false, null);
    }

    /** {@code backward(gradient, retain_graph, create_graph)}; a null gradient means ones for a scalar. */
    public void backward(Tensor gradient, boolean retainGraph, boolean createGraph) {
        Hooks.AUTOGRAD.backward(
                java.util.List.of(this), java.util.Collections.singletonList(gradient), retainGraph, createGraph, null);
    }

    // ---- data access ----------------------------------------------------------------------------

    private MemorySegment data(String op) {
        if (payload != null) throw payload.dataAccess(op);
        if (impl.isMeta()) throw new TorchException(op + "(): Cannot access data of a tensor on the meta device");
        return impl.storage().segment();
    }

    /** The value of a one-element tensor ({@code item()}), converted to double (the real part for complex). */
    public double item() {
        if (impl.numel() != 1) {
            throw new TorchException("a Tensor with " + impl.numel() + " elements cannot be converted to Scalar");
        }
        return ElementIO.of(impl.dtype()).getDouble(data("item"), impl.elementIndex(0));
    }

    /** {@code item()} for integer tensors, exact for all 64 bits. */
    public long longItem() {
        if (impl.numel() != 1) {
            throw new TorchException("a Tensor with " + impl.numel() + " elements cannot be converted to Scalar");
        }
        return ElementIO.of(impl.dtype()).getLong(data("item"), impl.elementIndex(0));
    }

    /** All elements in row-major order, converted to double. Complex tensors give (re, im) pairs. */
    public double[] toDoubleArray() {
        MemorySegment s = data("toDoubleArray");
        ElementIO io = ElementIO.of(impl.dtype());
        int n = Math.toIntExact(impl.numel());
        if (impl.dtype().isComplex()) {
            double[] out = new double[2 * n];
            for (int i = 0; i < n; i++) {
                long e = impl.elementIndex(i);
                out[2 * i] = io.getDouble(s, e);
                out[2 * i + 1] = io.getImag(s, e);
            }
            return out;
        }
        double[] out = new double[n];
        for (int i = 0; i < n; i++) out[i] = io.getDouble(s, impl.elementIndex(i));
        return out;
    }

    /** All elements in row-major order, converted to float. */
    public float[] toFloatArray() {
        double[] d = toDoubleArray();
        float[] f = new float[d.length];
        for (int i = 0; i < d.length; i++) f[i] = (float) d[i];
        return f;
    }

    /** All elements in row-major order, converted to long (floating values truncate toward zero). */
    public long[] toLongArray() {
        MemorySegment s = data("toLongArray");
        ElementIO io = ElementIO.of(impl.dtype());
        int n = Math.toIntExact(impl.numel());
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = io.getLong(s, impl.elementIndex(i));
        return out;
    }

    /** All elements as booleans (non-zero is true). */
    public boolean[] toBooleanArray() {
        double[] d = toDoubleArray();
        boolean[] b = new boolean[(int) impl.numel()];
        int step = impl.dtype().isComplex() ? 2 : 1;
        for (int i = 0; i < b.length; i++) b[i] = d[step * i] != 0 || (step == 2 && d[2 * i + 1] != 0);
        return b;
    }

    // ---- ops (one-line delegations; the definitions live in org.jtorch.ops) -----------------------

    public Tensor to(DType dtype) {
        return org.jtorch.ops.CopyOps.to(this, dtype);
    }

    public Tensor clone() {
        return org.jtorch.ops.CopyOps.clone(this);
    }

    public Tensor contiguous() {
        return org.jtorch.ops.CopyOps.contiguous(this);
    }

    public Tensor copy_(Tensor src) {
        return org.jtorch.ops.CopyOps.copy_(this, src);
    }

    public Tensor add(Tensor o) {
        return Torch.add(this, o);
    }

    public Tensor add(Tensor o, double alpha) {
        return Torch.add(this, o, alpha);
    }

    public Tensor add(double s) {
        return Torch.add(this, s);
    }

    public Tensor add(long s) {
        return Torch.add(this, s);
    }

    public Tensor sub(Tensor o) {
        return Torch.sub(this, o);
    }

    public Tensor sub(Tensor o, double alpha) {
        return Torch.sub(this, o, alpha);
    }

    public Tensor sub(double s) {
        return Torch.sub(this, s);
    }

    public Tensor sub(long s) {
        return Torch.sub(this, s);
    }

    public Tensor mul(Tensor o) {
        return Torch.mul(this, o);
    }

    public Tensor mul(double s) {
        return Torch.mul(this, s);
    }

    public Tensor mul(long s) {
        return Torch.mul(this, s);
    }

    public Tensor div(Tensor o) {
        return Torch.div(this, o);
    }

    public Tensor div(double s) {
        return Torch.div(this, s);
    }

    public Tensor div(long s) {
        return Torch.div(this, s);
    }

    public Tensor div(Object o, RoundingMode mode) {
        return Torch.div(this, o, mode);
    }

    public Tensor remainder(Object o) {
        return Torch.remainder(this, o);
    }

    public Tensor fmod(Object o) {
        return Torch.fmod(this, o);
    }

    public Tensor pow(Tensor o) {
        return Torch.pow(this, o);
    }

    public Tensor logaddexp(Tensor o) {
        return Torch.logaddexp(this, o);
    }

    public Tensor logaddexp2(Tensor o) {
        return Torch.logaddexp2(this, o);
    }

    public Tensor pow(double e) {
        return Torch.pow(this, e);
    }

    public Tensor pow(long e) {
        return Torch.pow(this, e);
    }

    public Tensor maximum(Tensor o) {
        return Torch.maximum(this, o);
    }

    public Tensor minimum(Tensor o) {
        return Torch.minimum(this, o);
    }

    public Tensor eq(Object o) {
        return Torch.eq(this, o);
    }

    public Tensor ne(Object o) {
        return Torch.ne(this, o);
    }

    public Tensor lt(Object o) {
        return Torch.lt(this, o);
    }

    public Tensor le(Object o) {
        return Torch.le(this, o);
    }

    public Tensor gt(Object o) {
        return Torch.gt(this, o);
    }

    public Tensor ge(Object o) {
        return Torch.ge(this, o);
    }

    public Tensor logicalNot() {
        return Torch.logicalNot(this);
    }

    public Tensor neg() {
        return Torch.neg(this);
    }

    public Tensor abs() {
        return Torch.abs(this);
    }

    public Tensor sign() {
        return Torch.sign(this);
    }

    public Tensor reciprocal() {
        return Torch.reciprocal(this);
    }

    public Tensor square() {
        return Torch.square(this);
    }

    public Tensor exp() {
        return Torch.exp(this);
    }

    public Tensor exp2() {
        return Torch.exp2(this);
    }

    public Tensor log() {
        return Torch.log(this);
    }

    public Tensor sqrt() {
        return Torch.sqrt(this);
    }

    public Tensor rsqrt() {
        return Torch.rsqrt(this);
    }

    public Tensor sin() {
        return Torch.sin(this);
    }

    public Tensor cos() {
        return Torch.cos(this);
    }

    public Tensor tanh() {
        return Torch.tanh(this);
    }

    public Tensor sigmoid() {
        return Torch.sigmoid(this);
    }

    public Tensor lgamma() {
        return Torch.lgamma(this);
    }

    public Tensor digamma() {
        return Torch.digamma(this);
    }

    public Tensor polygamma(long n) {
        return Torch.polygamma(n, this);
    }

    public Tensor relu() {
        return Torch.relu(this);
    }

    public Tensor floor() {
        return Torch.floor(this);
    }

    public Tensor ceil() {
        return Torch.ceil(this);
    }

    public Tensor round() {
        return Torch.round(this);
    }

    public Tensor isnan() {
        return Torch.isnan(this);
    }

    // in-place forms: the result is written into this tensor (its dtype must hold the result)

    public Tensor add_(Tensor o) {
        return Torch.addOut(this, this, o);
    }

    public Tensor sub_(Tensor o) {
        return Torch.subOut(this, this, o);
    }

    public Tensor mul_(Tensor o) {
        return Torch.mulOut(this, this, o);
    }

    public Tensor div_(Tensor o) {
        return Torch.divOut(this, this, o);
    }

    public Tensor add_(double s) {
        return Torch.out(this, org.jtorch.ops.PointwiseOps.ADD, this, s);
    }

    public Tensor mul_(double s) {
        return Torch.out(this, org.jtorch.ops.PointwiseOps.MUL, this, s);
    }

    public Tensor exp_() {
        return Torch.expOut(this, this);
    }

    /** {@code x.where(condition, y)}: elements of this where condition holds, else of {@code other}. */
    public Tensor where(Tensor condition, Object other) {
        return TernaryOps.where(condition, this, other);
    }

    @Override
    public String toString() {
        return TensorFormatter.format(this);
    }

    // ---- generated delegations: begin (one line per op entry point in org.jtorch.ops; logic lives there) ----

    public Tensor view(long... size) {
        return ShapeOps.view(this, size);
    }

    public Tensor reshape(long... shape) {
        return ShapeOps.reshape(this, shape);
    }

    public Tensor permute(int... dims) {
        return ShapeOps.permute(this, dims);
    }

    public Tensor transpose(int dim0, int dim1) {
        return ShapeOps.transpose(this, dim0, dim1);
    }

    public Tensor swapaxes(int axis0, int axis1) {
        return ShapeOps.swapaxes(this, axis0, axis1);
    }

    public Tensor t() {
        return ShapeOps.t(this);
    }

    public Tensor mT() {
        return ShapeOps.mT(this);
    }

    public Tensor expand(long... size) {
        return ShapeOps.expand(this, size);
    }

    public Tensor broadcastTo(long... size) {
        return ShapeOps.broadcastTo(this, size);
    }

    public Tensor squeeze() {
        return ShapeOps.squeeze(this);
    }

    public Tensor squeeze(int dim) {
        return ShapeOps.squeeze(this, dim);
    }

    public Tensor squeeze(int... dims) {
        return ShapeOps.squeeze(this, dims);
    }

    public Tensor unsqueeze(int dim) {
        return ShapeOps.unsqueeze(this, dim);
    }

    public Tensor flatten() {
        return ShapeOps.flatten(this);
    }

    public Tensor flatten(int startDim) {
        return ShapeOps.flatten(this, startDim);
    }

    public Tensor flatten(int startDim, int endDim) {
        return ShapeOps.flatten(this, startDim, endDim);
    }

    public Tensor unflatten(int dim, long... sizes) {
        return ShapeOps.unflatten(this, dim, sizes);
    }

    public Tensor narrow(int dim, long start, long length) {
        return ShapeOps.narrow(this, dim, start, length);
    }

    public Tensor select(int dim, long index) {
        return ShapeOps.select(this, dim, index);
    }

    public Tensor slice(int dim, Long start, Long end, long step) {
        return ShapeOps.slice(this, dim, start, end, step);
    }

    public Tensor slice(int dim, long start, long end) {
        return ShapeOps.slice(this, dim, start, end);
    }

    public List<Tensor> chunk(int chunks) {
        return ShapeOps.chunk(this, chunks);
    }

    public List<Tensor> chunk(int chunks, int dim) {
        return ShapeOps.chunk(this, chunks, dim);
    }

    public List<Tensor> split(long splitSize) {
        return ShapeOps.split(this, splitSize);
    }

    public List<Tensor> split(long splitSize, int dim) {
        return ShapeOps.split(this, splitSize, dim);
    }

    public List<Tensor> split(long[] splitSizes) {
        return ShapeOps.split(this, splitSizes);
    }

    public List<Tensor> split(long[] splitSizes, int dim) {
        return ShapeOps.split(this, splitSizes, dim);
    }

    public List<Tensor> splitWithSizes(long[] splitSizes) {
        return ShapeOps.split(this, splitSizes);
    }

    public List<Tensor> splitWithSizes(long[] splitSizes, int dim) {
        return ShapeOps.split(this, splitSizes, dim);
    }

    public List<Tensor> unbind() {
        return ShapeOps.unbind(this);
    }

    public List<Tensor> unbind(int dim) {
        return ShapeOps.unbind(this, dim);
    }

    public Tensor diagonal() {
        return ShapeOps.diagonal(this);
    }

    public Tensor diagonal(long offset) {
        return ShapeOps.diagonal(this, offset);
    }

    public Tensor diagonal(long offset, int dim1, int dim2) {
        return ShapeOps.diagonal(this, offset, dim1, dim2);
    }

    public Tensor movedim(int source, int destination) {
        return ShapeOps.movedim(this, source, destination);
    }

    public Tensor movedim(int[] source, int[] destination) {
        return ShapeOps.movedim(this, source, destination);
    }

    public Tensor asStrided(long[] size, long[] stride) {
        return ShapeOps.asStrided(this, size, stride);
    }

    public Tensor asStrided(long[] size, long[] stride, long storageOffset) {
        return ShapeOps.asStrided(this, size, stride, storageOffset);
    }

    public Tensor tril() {
        return JoinOps.tril(this);
    }

    public Tensor tril(long diagonal) {
        return JoinOps.tril(this, diagonal);
    }

    public Tensor triu() {
        return JoinOps.triu(this);
    }

    public Tensor triu(long diagonal) {
        return JoinOps.triu(this, diagonal);
    }

    public Tensor flip(int... dims) {
        return JoinOps.flip(this, dims);
    }

    public Tensor roll(long shifts) {
        return JoinOps.roll(this, shifts);
    }

    public Tensor roll(long shifts, int dim) {
        return JoinOps.roll(this, shifts, dim);
    }

    public Tensor roll(long[] shifts, int[] dims) {
        return JoinOps.roll(this, shifts, dims);
    }

    public Tensor repeat(long... repeats) {
        return JoinOps.repeat(this, repeats);
    }

    public Tensor sum() {
        return ReductionOps.sum(this);
    }

    public Tensor sum(DType dtype) {
        return ReductionOps.sum(this, dtype);
    }

    public Tensor sum(long dim) {
        return ReductionOps.sum(this, dim);
    }

    public Tensor sum(long dim, boolean keepdim) {
        return ReductionOps.sum(this, dim, keepdim);
    }

    public Tensor sum(long[] dims, boolean keepdim) {
        return ReductionOps.sum(this, dims, keepdim);
    }

    public Tensor sum(long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.sum(this, dims, keepdim, dtype);
    }

    public Tensor nansum() {
        return ReductionOps.nansum(this);
    }

    public Tensor nansum(long dim) {
        return ReductionOps.nansum(this, dim);
    }

    public Tensor nansum(long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.nansum(this, dims, keepdim, dtype);
    }

    public Tensor mean() {
        return ReductionOps.mean(this);
    }

    public Tensor mean(DType dtype) {
        return ReductionOps.mean(this, dtype);
    }

    public Tensor mean(long dim) {
        return ReductionOps.mean(this, dim);
    }

    public Tensor mean(long dim, boolean keepdim) {
        return ReductionOps.mean(this, dim, keepdim);
    }

    public Tensor mean(long[] dims, boolean keepdim) {
        return ReductionOps.mean(this, dims, keepdim);
    }

    public Tensor mean(long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.mean(this, dims, keepdim, dtype);
    }

    public Tensor nanmean() {
        return ReductionOps.nanmean(this);
    }

    public Tensor nanmean(long dim) {
        return ReductionOps.nanmean(this, dim);
    }

    public Tensor nanmean(long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.nanmean(this, dims, keepdim, dtype);
    }

    public Tensor prod() {
        return ReductionOps.prod(this);
    }

    public Tensor prod(DType dtype) {
        return ReductionOps.prod(this, dtype);
    }

    public Tensor prod(long dim) {
        return ReductionOps.prod(this, dim);
    }

    public Tensor prod(long dim, boolean keepdim) {
        return ReductionOps.prod(this, dim, keepdim);
    }

    public Tensor prod(long dim, boolean keepdim, DType dtype) {
        return ReductionOps.prod(this, dim, keepdim, dtype);
    }

    public Tensor amax() {
        return ReductionOps.amax(this);
    }

    public Tensor amax(long dim) {
        return ReductionOps.amax(this, dim);
    }

    public Tensor amax(long[] dims, boolean keepdim) {
        return ReductionOps.amax(this, dims, keepdim);
    }

    public Tensor amin() {
        return ReductionOps.amin(this);
    }

    public Tensor amin(long dim) {
        return ReductionOps.amin(this, dim);
    }

    public Tensor amin(long[] dims, boolean keepdim) {
        return ReductionOps.amin(this, dims, keepdim);
    }

    public Tensor max() {
        return ReductionOps.max(this);
    }

    public ValuesIndices max(long dim) {
        return ReductionOps.max(this, dim);
    }

    public ValuesIndices max(long dim, boolean keepdim) {
        return ReductionOps.max(this, dim, keepdim);
    }

    public Tensor min() {
        return ReductionOps.min(this);
    }

    public ValuesIndices min(long dim) {
        return ReductionOps.min(this, dim);
    }

    public ValuesIndices min(long dim, boolean keepdim) {
        return ReductionOps.min(this, dim, keepdim);
    }

    public Tensor argmax() {
        return ReductionOps.argmax(this);
    }

    public Tensor argmax(boolean keepdim) {
        return ReductionOps.argmax(this, keepdim);
    }

    public Tensor argmax(long dim) {
        return ReductionOps.argmax(this, dim);
    }

    public Tensor argmax(long dim, boolean keepdim) {
        return ReductionOps.argmax(this, dim, keepdim);
    }

    public Tensor argmin() {
        return ReductionOps.argmin(this);
    }

    public Tensor argmin(boolean keepdim) {
        return ReductionOps.argmin(this, keepdim);
    }

    public Tensor argmin(long dim) {
        return ReductionOps.argmin(this, dim);
    }

    public Tensor argmin(long dim, boolean keepdim) {
        return ReductionOps.argmin(this, dim, keepdim);
    }

    public Tensor var() {
        return ReductionOps.var(this);
    }

    public Tensor var(boolean unbiased) {
        return ReductionOps.var(this, unbiased);
    }

    public Tensor var(long dim) {
        return ReductionOps.var(this, dim);
    }

    public Tensor var(long[] dims, boolean unbiased, boolean keepdim) {
        return ReductionOps.var(this, dims, unbiased, keepdim);
    }

    public Tensor var(long[] dims, double correction, boolean keepdim) {
        return ReductionOps.var(this, dims, correction, keepdim);
    }

    public Tensor std() {
        return ReductionOps.std(this);
    }

    public Tensor std(boolean unbiased) {
        return ReductionOps.std(this, unbiased);
    }

    public Tensor std(long dim) {
        return ReductionOps.std(this, dim);
    }

    public Tensor std(long[] dims, boolean unbiased, boolean keepdim) {
        return ReductionOps.std(this, dims, unbiased, keepdim);
    }

    public Tensor std(long[] dims, double correction, boolean keepdim) {
        return ReductionOps.std(this, dims, correction, keepdim);
    }

    public Tensor logsumexp(long dim) {
        return ReductionOps.logsumexp(this, dim);
    }

    public Tensor logsumexp(long dim, boolean keepdim) {
        return ReductionOps.logsumexp(this, dim, keepdim);
    }

    public Tensor logsumexp(long[] dims, boolean keepdim) {
        return ReductionOps.logsumexp(this, dims, keepdim);
    }

    public Tensor softmax(long dim) {
        return ReductionOps.softmax(this, dim);
    }

    public Tensor softmax(long dim, DType dtype) {
        return ReductionOps.softmax(this, dim, dtype);
    }

    public Tensor logSoftmax(long dim) {
        return ReductionOps.logSoftmax(this, dim);
    }

    public Tensor logSoftmax(long dim, DType dtype) {
        return ReductionOps.logSoftmax(this, dim, dtype);
    }

    public Tensor cumsum(long dim) {
        return ReductionOps.cumsum(this, dim);
    }

    public Tensor cumsum(long dim, DType dtype) {
        return ReductionOps.cumsum(this, dim, dtype);
    }

    public Tensor cumprod(long dim) {
        return ReductionOps.cumprod(this, dim);
    }

    public Tensor cumprod(long dim, DType dtype) {
        return ReductionOps.cumprod(this, dim, dtype);
    }

    public Tensor all() {
        return ReductionOps.all(this);
    }

    public Tensor all(long dim) {
        return ReductionOps.all(this, dim);
    }

    public Tensor all(long[] dims, boolean keepdim) {
        return ReductionOps.all(this, dims, keepdim);
    }

    public Tensor any() {
        return ReductionOps.any(this);
    }

    public Tensor any(long dim) {
        return ReductionOps.any(this, dim);
    }

    public Tensor any(long[] dims, boolean keepdim) {
        return ReductionOps.any(this, dims, keepdim);
    }

    public Tensor mm(Tensor mat2) {
        return MatmulOps.mm(this, mat2);
    }

    public Tensor addmm(Tensor mat1, Tensor mat2) {
        return MatmulOps.addmm(this, mat1, mat2);
    }

    public Tensor addmm(Tensor mat1, Tensor mat2, Object beta, Object alpha) {
        return MatmulOps.addmm(this, mat1, mat2, beta, alpha);
    }

    public Tensor addmm_(Tensor mat1, Tensor mat2, Object beta, Object alpha) {
        return MatmulOps.addmm_(this, mat1, mat2, beta, alpha);
    }

    public Tensor bmm(Tensor mat2) {
        return MatmulOps.bmm(this, mat2);
    }

    public Tensor baddbmm(Tensor batch1, Tensor batch2) {
        return MatmulOps.baddbmm(this, batch1, batch2);
    }

    public Tensor baddbmm(Tensor batch1, Tensor batch2, Object beta, Object alpha) {
        return MatmulOps.baddbmm(this, batch1, batch2, beta, alpha);
    }

    public Tensor baddbmm_(Tensor batch1, Tensor batch2, Object beta, Object alpha) {
        return MatmulOps.baddbmm_(this, batch1, batch2, beta, alpha);
    }

    public Tensor mv(Tensor vec) {
        return MatmulOps.mv(this, vec);
    }

    public Tensor dot(Tensor tensor) {
        return MatmulOps.dot(this, tensor);
    }

    public Tensor vdot(Tensor other) {
        return MatmulOps.vdot(this, other);
    }

    public Tensor outer(Tensor vec2) {
        return MatmulOps.outer(this, vec2);
    }

    public Tensor matmul(Tensor other) {
        return MatmulOps.matmul(this, other);
    }

    public Tensor clamp(Double min, Double max) {
        return ClampOps.clamp(this, min, max);
    }

    public Tensor clamp(Long min, Long max) {
        return ClampOps.clamp(this, min, max);
    }

    public Tensor clamp(Scalar min, Scalar max) {
        return ClampOps.clamp(this, min, max);
    }

    public Tensor clamp(Tensor min, Tensor max) {
        return ClampOps.clamp(this, min, max);
    }

    public Tensor clampMin(double min) {
        return ClampOps.clampMin(this, min);
    }

    public Tensor clampMin(long min) {
        return ClampOps.clampMin(this, min);
    }

    public Tensor clampMin(Scalar min) {
        return ClampOps.clampMin(this, min);
    }

    public Tensor clampMin(Tensor min) {
        return ClampOps.clampMin(this, min);
    }

    public Tensor clampMax(double max) {
        return ClampOps.clampMax(this, max);
    }

    public Tensor clampMax(long max) {
        return ClampOps.clampMax(this, max);
    }

    public Tensor clampMax(Scalar max) {
        return ClampOps.clampMax(this, max);
    }

    public Tensor clampMax(Tensor max) {
        return ClampOps.clampMax(this, max);
    }

    public Tensor clamp_(Double min, Double max) {
        return ClampOps.clamp_(this, min, max);
    }

    public Tensor clamp_(Long min, Long max) {
        return ClampOps.clamp_(this, min, max);
    }

    public Tensor clamp_(Tensor min, Tensor max) {
        return ClampOps.clamp_(this, min, max);
    }

    public Tensor clampMin_(double min) {
        return ClampOps.clampMin_(this, min);
    }

    public Tensor clampMin_(Tensor min) {
        return ClampOps.clampMin_(this, min);
    }

    public Tensor clampMax_(double max) {
        return ClampOps.clampMax_(this, max);
    }

    public Tensor clampMax_(Tensor max) {
        return ClampOps.clampMax_(this, max);
    }

    public Tensor lerp(Tensor end, double weight) {
        return TernaryOps.lerp(this, end, weight);
    }

    public Tensor lerp(Tensor end, Scalar weight) {
        return TernaryOps.lerp(this, end, weight);
    }

    public Tensor lerp(Tensor end, Tensor weight) {
        return TernaryOps.lerp(this, end, weight);
    }

    public Tensor lerp_(Tensor end, double weight) {
        return TernaryOps.lerp_(this, end, weight);
    }

    public Tensor lerp_(Tensor end, Tensor weight) {
        return TernaryOps.lerp_(this, end, weight);
    }

    public Tensor addcmul(Tensor t1, Tensor t2) {
        return TernaryOps.addcmul(this, t1, t2);
    }

    public Tensor addcmul(Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcmul(this, t1, t2, value);
    }

    public Tensor addcmul(Tensor t1, Tensor t2, Scalar value) {
        return TernaryOps.addcmul(this, t1, t2, value);
    }

    public Tensor addcmul_(Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcmul_(this, t1, t2, value);
    }

    public Tensor addcdiv(Tensor t1, Tensor t2) {
        return TernaryOps.addcdiv(this, t1, t2);
    }

    public Tensor addcdiv(Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcdiv(this, t1, t2, value);
    }

    public Tensor addcdiv(Tensor t1, Tensor t2, Scalar value) {
        return TernaryOps.addcdiv(this, t1, t2, value);
    }

    public Tensor addcdiv_(Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcdiv_(this, t1, t2, value);
    }

    public Tensor maskedFill(Tensor mask, Object value) {
        return TernaryOps.maskedFill(this, mask, value);
    }

    public Tensor maskedFill_(Tensor mask, Object value) {
        return TernaryOps.maskedFill_(this, mask, value);
    }

    public Tensor real() {
        return ComplexOps.real(this);
    }

    public Tensor imag() {
        return ComplexOps.imag(this);
    }

    public Tensor conj() {
        return ComplexOps.conj(this);
    }

    public Tensor conjPhysical() {
        return ComplexOps.conjPhysical(this);
    }

    public Tensor resolveConj() {
        return ComplexOps.resolveConj(this);
    }

    public Tensor mH() {
        return ComplexOps.mH(this);
    }

    public Tensor adjoint() {
        return ComplexOps.adjoint(this);
    }

    public Tensor isreal() {
        return ComplexOps.isreal(this);
    }

    public Tensor fill_(double value) {
        return Creation.fill_(this, value);
    }

    public Tensor fill_(long value) {
        return Creation.fill_(this, value);
    }

    public Tensor zero_() {
        return Creation.zero_(this);
    }

    public Tensor bernoulli() {
        return RandomOps.bernoulli(this);
    }

    public Tensor bernoulli(Generator generator) {
        return RandomOps.bernoulli(this, generator);
    }

    public Tensor bernoulli(double p) {
        return RandomOps.bernoulli(this, p);
    }

    public Tensor bernoulli(double p, Generator generator) {
        return RandomOps.bernoulli(this, p, generator);
    }

    public Tensor multinomial(long numSamples) {
        return RandomOps.multinomial(this, numSamples);
    }

    public Tensor multinomial(long numSamples, boolean replacement) {
        return RandomOps.multinomial(this, numSamples, replacement);
    }

    public Tensor multinomial(long numSamples, boolean replacement, Generator generator) {
        return RandomOps.multinomial(this, numSamples, replacement, generator);
    }

    public Tensor uniform_() {
        return RandomOps.uniform_(this);
    }

    public Tensor uniform_(double from, double to) {
        return RandomOps.uniform_(this, from, to);
    }

    public Tensor uniform_(double from, double to, Generator generator) {
        return RandomOps.uniform_(this, from, to, generator);
    }

    public Tensor normal_() {
        return RandomOps.normal_(this);
    }

    public Tensor normal_(double mean, double std) {
        return RandomOps.normal_(this, mean, std);
    }

    public Tensor normal_(double mean, double std, Generator generator) {
        return RandomOps.normal_(this, mean, std, generator);
    }

    public Tensor exponential_() {
        return RandomOps.exponential_(this);
    }

    public Tensor exponential_(double lambd) {
        return RandomOps.exponential_(this, lambd);
    }

    public Tensor exponential_(double lambd, Generator generator) {
        return RandomOps.exponential_(this, lambd, generator);
    }

    public Tensor geometric_(double p) {
        return RandomOps.geometric_(this, p);
    }

    public Tensor geometric_(double p, Generator generator) {
        return RandomOps.geometric_(this, p, generator);
    }

    public Tensor cauchy_() {
        return RandomOps.cauchy_(this);
    }

    public Tensor cauchy_(double median, double sigma) {
        return RandomOps.cauchy_(this, median, sigma);
    }

    public Tensor cauchy_(double median, double sigma, Generator generator) {
        return RandomOps.cauchy_(this, median, sigma, generator);
    }

    public Tensor logNormal_() {
        return RandomOps.logNormal_(this);
    }

    public Tensor logNormal_(double mean, double std) {
        return RandomOps.logNormal_(this, mean, std);
    }

    public Tensor logNormal_(double mean, double std, Generator generator) {
        return RandomOps.logNormal_(this, mean, std, generator);
    }

    public Tensor bernoulli_(double p) {
        return RandomOps.bernoulli_(this, p);
    }

    public Tensor bernoulli_(double p, Generator generator) {
        return RandomOps.bernoulli_(this, p, generator);
    }

    public Tensor bernoulli_(Tensor p) {
        return RandomOps.bernoulli_(this, p);
    }

    public Tensor bernoulli_(Tensor p, Generator generator) {
        return RandomOps.bernoulli_(this, p, generator);
    }

    public Tensor random_() {
        return RandomOps.random_(this);
    }

    public Tensor random_(Generator generator) {
        return RandomOps.random_(this, generator);
    }

    public Tensor random_(long to) {
        return RandomOps.random_(this, to);
    }

    public Tensor random_(long from, long to) {
        return RandomOps.random_(this, from, to);
    }

    public Tensor random_(long from, long to, Generator generator) {
        return RandomOps.random_(this, from, to, generator);
    }

    public Tensor random_(long from, Long to) {
        return RandomOps.random_(this, from, to);
    }

    public Tensor random_(long from, Long to, Generator generator) {
        return RandomOps.random_(this, from, to, generator);
    }

    public Tensor repeatInterleave(long repeats) {
        return ArrangeOps.repeatInterleave(this, repeats);
    }

    public Tensor repeatInterleave(long repeats, int dim) {
        return ArrangeOps.repeatInterleave(this, repeats, dim);
    }

    public Tensor repeatInterleave(long repeats, Integer dim, Long outputSize) {
        return ArrangeOps.repeatInterleave(this, repeats, dim, outputSize);
    }

    public Tensor repeatInterleave(Tensor repeats) {
        return ArrangeOps.repeatInterleave(this, repeats);
    }

    public Tensor repeatInterleave(Tensor repeats, int dim) {
        return ArrangeOps.repeatInterleave(this, repeats, dim);
    }

    public Tensor repeatInterleave(Tensor repeats, Integer dim, Long outputSize) {
        return ArrangeOps.repeatInterleave(this, repeats, dim, outputSize);
    }

    public Tensor diff() {
        return ArrangeOps.diff(this);
    }

    public Tensor diff(long n) {
        return ArrangeOps.diff(this, n);
    }

    public Tensor diff(long n, int dim) {
        return ArrangeOps.diff(this, n, dim);
    }

    public Tensor diff(long n, int dim, Tensor prepend, Tensor append) {
        return ArrangeOps.diff(this, n, dim, prepend, append);
    }

    public Tensor diag() {
        return ArrangeOps.diag(this);
    }

    public Tensor diag(long diagonal) {
        return ArrangeOps.diag(this, diagonal);
    }

    public Tensor diagEmbed() {
        return ArrangeOps.diagEmbed(this);
    }

    public Tensor diagEmbed(long offset) {
        return ArrangeOps.diagEmbed(this, offset);
    }

    public Tensor diagEmbed(long offset, int dim1, int dim2) {
        return ArrangeOps.diagEmbed(this, offset, dim1, dim2);
    }

    public Tensor index(Index... spec) {
        return IndexingOps.index(this, spec);
    }

    public Tensor indexPut_(Index[] spec, Tensor values) {
        return IndexingOps.indexPut_(this, spec, values);
    }

    public Tensor indexPut_(Index[] spec, Tensor values, boolean accumulate) {
        return IndexingOps.indexPut_(this, spec, values, accumulate);
    }

    public Tensor indexPut_(Index[] spec, Object value) {
        return IndexingOps.indexPut_(this, spec, value);
    }

    public Tensor indexPut(Tensor[] indices, Tensor values) {
        return IndexingOps.indexPut(this, indices, values);
    }

    public Tensor indexPut(Tensor[] indices, Tensor values, boolean accumulate) {
        return IndexingOps.indexPut(this, indices, values, accumulate);
    }

    public Tensor indexPut_(Tensor[] indices, Tensor values) {
        return IndexingOps.indexPut_(this, indices, values);
    }

    public Tensor indexPut_(Tensor[] indices, Tensor values, boolean accumulate) {
        return IndexingOps.indexPut_(this, indices, values, accumulate);
    }

    public Tensor nonzero() {
        return IndexingOps.nonzero(this);
    }

    public List<Tensor> nonzero(boolean asTuple) {
        return IndexingOps.nonzero(this, asTuple);
    }

    public Tensor nonzeroStatic(long size, long fillValue) {
        return IndexingOps.nonzeroStatic(this, size, fillValue);
    }

    public Tensor countNonzero(long... dims) {
        return IndexingOps.countNonzero(this, dims);
    }

    public Tensor maskedSelect(Tensor mask) {
        return IndexingOps.maskedSelect(this, mask);
    }

    public Tensor maskedScatter(Tensor mask, Tensor source) {
        return IndexingOps.maskedScatter(this, mask, source);
    }

    public Tensor maskedScatter_(Tensor mask, Tensor source) {
        return IndexingOps.maskedScatter_(this, mask, source);
    }

    public Tensor take(Tensor index) {
        return IndexingOps.take(this, index);
    }

    public Tensor takeAlongDim(Tensor indices) {
        return IndexingOps.takeAlongDim(this, indices);
    }

    public Tensor takeAlongDim(Tensor indices, int dim) {
        return IndexingOps.takeAlongDim(this, indices, dim);
    }

    public Tensor gather(int dim, Tensor index) {
        return ScatterOps.gather(this, dim, index);
    }

    public Tensor scatter(int dim, Tensor index, Tensor src) {
        return ScatterOps.scatter(this, dim, index, src);
    }

    public Tensor scatter(int dim, Tensor index, Object value) {
        return ScatterOps.scatter(this, dim, index, value);
    }

    public Tensor scatter_(int dim, Tensor index, Tensor src) {
        return ScatterOps.scatter_(this, dim, index, src);
    }

    public Tensor scatter_(int dim, Tensor index, Object value) {
        return ScatterOps.scatter_(this, dim, index, value);
    }

    public Tensor scatterAdd(int dim, Tensor index, Tensor src) {
        return ScatterOps.scatterAdd(this, dim, index, src);
    }

    public Tensor scatterAdd_(int dim, Tensor index, Tensor src) {
        return ScatterOps.scatterAdd_(this, dim, index, src);
    }

    public Tensor scatterReduce(int dim, Tensor index, Tensor src, String reduce) {
        return ScatterOps.scatterReduce(this, dim, index, src, reduce);
    }

    public Tensor scatterReduce(int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
        return ScatterOps.scatterReduce(this, dim, index, src, reduce, includeSelf);
    }

    public Tensor scatterReduce_(int dim, Tensor index, Tensor src, String reduce) {
        return ScatterOps.scatterReduce_(this, dim, index, src, reduce);
    }

    public Tensor scatterReduce_(int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
        return ScatterOps.scatterReduce_(this, dim, index, src, reduce, includeSelf);
    }

    public Tensor indexSelect(int dim, Tensor index) {
        return ScatterOps.indexSelect(this, dim, index);
    }

    public Tensor indexAdd(int dim, Tensor index, Tensor source) {
        return ScatterOps.indexAdd(this, dim, index, source);
    }

    public Tensor indexAdd(int dim, Tensor index, Tensor source, Object alpha) {
        return ScatterOps.indexAdd(this, dim, index, source, alpha);
    }

    public Tensor indexAdd_(int dim, Tensor index, Tensor source) {
        return ScatterOps.indexAdd_(this, dim, index, source);
    }

    public Tensor indexAdd_(int dim, Tensor index, Tensor source, Object alpha) {
        return ScatterOps.indexAdd_(this, dim, index, source, alpha);
    }

    public Tensor indexCopy(int dim, Tensor index, Tensor source) {
        return ScatterOps.indexCopy(this, dim, index, source);
    }

    public Tensor indexCopy_(int dim, Tensor index, Tensor source) {
        return ScatterOps.indexCopy_(this, dim, index, source);
    }

    public Tensor indexFill(int dim, Tensor index, Object value) {
        return ScatterOps.indexFill(this, dim, index, value);
    }

    public Tensor indexFill_(int dim, Tensor index, Object value) {
        return ScatterOps.indexFill_(this, dim, index, value);
    }

    public ValuesIndices sort() {
        return SortOps.sort(this);
    }

    public ValuesIndices sort(long dim) {
        return SortOps.sort(this, dim);
    }

    public ValuesIndices sort(long dim, boolean descending) {
        return SortOps.sort(this, dim, descending);
    }

    public ValuesIndices sort(boolean stable, long dim, boolean descending) {
        return SortOps.sort(this, stable, dim, descending);
    }

    public Tensor argsort() {
        return SortOps.argsort(this);
    }

    public Tensor argsort(long dim) {
        return SortOps.argsort(this, dim);
    }

    public Tensor argsort(long dim, boolean descending) {
        return SortOps.argsort(this, dim, descending);
    }

    public Tensor argsort(long dim, boolean descending, boolean stable) {
        return SortOps.argsort(this, dim, descending, stable);
    }

    public Tensor msort() {
        return SortOps.msort(this);
    }

    public ValuesIndices topk(long k) {
        return SortOps.topk(this, k);
    }

    public ValuesIndices topk(long k, long dim) {
        return SortOps.topk(this, k, dim);
    }

    public ValuesIndices topk(long k, long dim, boolean largest) {
        return SortOps.topk(this, k, dim, largest);
    }

    public ValuesIndices topk(long k, long dim, boolean largest, boolean sorted) {
        return SortOps.topk(this, k, dim, largest, sorted);
    }

    public ValuesIndices kthvalue(long k) {
        return SortOps.kthvalue(this, k);
    }

    public ValuesIndices kthvalue(long k, long dim) {
        return SortOps.kthvalue(this, k, dim);
    }

    public ValuesIndices kthvalue(long k, long dim, boolean keepdim) {
        return SortOps.kthvalue(this, k, dim, keepdim);
    }

    public ValuesIndices cummax(long dim) {
        return SortOps.cummax(this, dim);
    }

    public ValuesIndices cummin(long dim) {
        return SortOps.cummin(this, dim);
    }

    public Tensor unique() {
        return SortOps.unique(this);
    }

    public UniqueResult unique(boolean sorted, boolean returnInverse, boolean returnCounts) {
        return SortOps.unique(this, sorted, returnInverse, returnCounts);
    }

    public UniqueResult unique(boolean sorted, boolean returnInverse, boolean returnCounts, long dim) {
        return SortOps.unique(this, sorted, returnInverse, returnCounts, dim);
    }

    public Tensor uniqueConsecutive() {
        return SortOps.uniqueConsecutive(this);
    }

    public UniqueResult uniqueConsecutive(boolean returnInverse, boolean returnCounts) {
        return SortOps.uniqueConsecutive(this, returnInverse, returnCounts);
    }

    public UniqueResult uniqueConsecutive(boolean returnInverse, boolean returnCounts, long dim) {
        return SortOps.uniqueConsecutive(this, returnInverse, returnCounts, dim);
    }

    public Tensor histc() {
        return SearchOps.histc(this);
    }

    public Tensor histc(long bins) {
        return SearchOps.histc(this, bins);
    }

    public Tensor histc(long bins, double min, double max) {
        return SearchOps.histc(this, bins, min, max);
    }

    public Tensor histc(long bins, double min, double max, Tensor out) {
        return SearchOps.histc(this, bins, min, max, out);
    }

    public Tensor bincount() {
        return SearchOps.bincount(this);
    }

    public Tensor bincount(Tensor weights) {
        return SearchOps.bincount(this, weights);
    }

    public Tensor bincount(Tensor weights, long minlength) {
        return SearchOps.bincount(this, weights, minlength);
    }

    // ---- generated delegations: end

    // ---- devices (org.jtorch.ops.DeviceCopyOps) ----

    /** {@code Tensor.to(device)}: this tensor when it is already on {@code device}, else a copy there. */
    public Tensor to(Device device) {
        return org.jtorch.ops.DeviceCopyOps.to(this, device);
    }

    /** {@code Tensor.cpu()}: this tensor on the CPU. */
    public Tensor cpu() {
        return org.jtorch.ops.DeviceCopyOps.cpu(this);
    }

    // ---- autograd additions: post-accumulate-grad hooks, and the forward-AD tangent slot
    // (org.jtorch.autograd.ForwardAD) ----

    /**
     * {@code register_post_accumulate_grad_hook(hook)}: {@code hook(this)} runs after a backward updated this leaf's
     * grad.
     */
    public RemovableHandle registerPostAccumulateGradHook(java.util.function.Consumer<Tensor> hook) {
        return Hooks.AUTOGRAD.registerPostAccumulateGradHook(this, hook);
    }

    /** The forward-AD tangents of this tensor, or null; only forward AD reads them. */
    public ForwardGrad forwardGrads() {
        return forwardGrads;
    }

    /** Replaces the forward-AD tangents (by another tensor's, or by null); only forward AD makes new ones. */
    public void setForwardGrads(ForwardGrad grads) {
        this.forwardGrads = grads;
    }

    // ---- torch.linalg aliases as methods (matrix_exp, matrix_power)

    /** {@code Tensor.matrix_exp()}: {@code torch.linalg.matrix_exp(self)}. */
    public Tensor matrixExp() {
        return org.jtorch.ops.LinalgSolveOps.matrixExp(this);
    }

    /** {@code Tensor.matrix_power(n)}: {@code torch.linalg.matrix_power(self, n)}. */
    public Tensor matrixPower(long n) {
        return org.jtorch.ops.LinalgSolveOps.matrixPower(this, n);
    }
}
