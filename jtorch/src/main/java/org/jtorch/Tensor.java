package org.jtorch;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.ServiceLoader;
import org.jtorch.autograd.graph.Node;
import org.jtorch.dispatch.VariableHooks;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.storage.InternalOverlap;
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
    /** Replaced only by {@link #setData} ({@code Variable::set_data}); every other change makes a new tensor. */
    private TensorImpl impl;

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
            if (!requiresGrad) throw new TorchException("can't retainGrad() on Tensor that has requiresGrad() false");
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
        if (impl.isFake()) throw new DataDependentOutputException(op);
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
        if (dtype() == dtype) return this;
        return Aten._TO_COPY.call1(this, dtype, null);
    }

    public Tensor clone() {
        return Aten._TO_COPY.call1(this, null, null);
    }

    public Tensor contiguous() {
        return isContiguous() ? this : clone();
    }

    public Tensor copy_(Tensor src) {
        return Aten._TO_COPY.inPlace(this, src, dtype(), impl.shapeRef());
    }

    public Tensor add(Tensor o) {
        return Aten.ADD_TENSOR.call1(this, o);
    }

    public Tensor add(Tensor o, double alpha) {
        return Aten.ADD_TENSOR.call1(this, o, alphaOf(this, o, alpha));
    }

    public Tensor add(double s) {
        return Aten.ADD_TENSOR.call1(this, s);
    }

    public Tensor add(long s) {
        return Aten.ADD_TENSOR.call1(this, s);
    }

    public Tensor sub(Tensor o) {
        return Aten.SUB_TENSOR.call1(this, o);
    }

    public Tensor sub(Tensor o, double alpha) {
        return Aten.SUB_TENSOR.call1(this, o, alphaOf(this, o, alpha));
    }

    public Tensor sub(double s) {
        return Aten.SUB_TENSOR.call1(this, s);
    }

    public Tensor sub(long s) {
        return Aten.SUB_TENSOR.call1(this, s);
    }

    public Tensor mul(Tensor o) {
        return Aten.MUL_TENSOR.call1(this, o);
    }

    public Tensor mul(double s) {
        return Aten.MUL_TENSOR.call1(this, s);
    }

    public Tensor mul(long s) {
        return Aten.MUL_TENSOR.call1(this, s);
    }

    public Tensor div(Tensor o) {
        return Aten.DIV_TENSOR.call1(this, o);
    }

    public Tensor div(double s) {
        return Aten.DIV_TENSOR.call1(this, s);
    }

    public Tensor div(long s) {
        return Aten.DIV_TENSOR.call1(this, s);
    }

    public Tensor div(Object o, RoundingMode mode) {
        return switch (mode) {
            case NONE -> Aten.DIV_TENSOR.call1(this, o);
            case TRUNC -> Aten.DIV_TENSOR_MODE.call1(this, o, "trunc");
            case FLOOR -> Aten.FLOOR_DIVIDE.call1(this, o);
        };
    }

    public Tensor remainder(Object o) {
        return Aten.REMAINDER_TENSOR.call1(this, o);
    }

    public Tensor fmod(Object o) {
        return Aten.FMOD_TENSOR.call1(this, o);
    }

    public Tensor pow(Tensor o) {
        return Aten.POW_TENSOR_TENSOR.call1(this, o);
    }

    public Tensor logaddexp(Tensor o) {
        return Aten.LOGADDEXP.call1(this, o);
    }

    public Tensor logaddexp2(Tensor o) {
        return Aten.LOGADDEXP2.call1(this, o);
    }

    public Tensor pow(double e) {
        return Aten.POW_TENSOR_TENSOR.call1(this, e);
    }

    public Tensor pow(long e) {
        return Aten.POW_TENSOR_TENSOR.call1(this, e);
    }

    public Tensor maximum(Tensor o) {
        return Aten.MAXIMUM.call1(this, o);
    }

    public Tensor minimum(Tensor o) {
        return Aten.MINIMUM.call1(this, o);
    }

    public Tensor eq(Object o) {
        return Aten.EQ_TENSOR.call1(this, o);
    }

    public Tensor ne(Object o) {
        return Aten.NE_TENSOR.call1(this, o);
    }

    public Tensor lt(Object o) {
        return Aten.LT_TENSOR.call1(this, o);
    }

    public Tensor le(Object o) {
        return Aten.LE_TENSOR.call1(this, o);
    }

    public Tensor gt(Object o) {
        return Aten.GT_TENSOR.call1(this, o);
    }

    public Tensor ge(Object o) {
        return Aten.GE_TENSOR.call1(this, o);
    }

    public Tensor logicalNot() {
        return Aten.LOGICAL_NOT.call1(this);
    }

    public Tensor neg() {
        return Aten.NEG.call1(this);
    }

    public Tensor abs() {
        return Aten.ABS.call1(this);
    }

    public Tensor sign() {
        return Aten.SIGN.call1(this);
    }

    public Tensor reciprocal() {
        return Aten.RECIPROCAL.call1(this);
    }

    public Tensor square() {
        return Aten.SQUARE.call1(this);
    }

    public Tensor exp() {
        return Aten.EXP.call1(this);
    }

    public Tensor exp2() {
        return Aten.EXP2.call1(this);
    }

    public Tensor log() {
        return Aten.LOG.call1(this);
    }

    public Tensor sqrt() {
        return Aten.SQRT.call1(this);
    }

    public Tensor rsqrt() {
        return Aten.RSQRT.call1(this);
    }

    public Tensor sin() {
        return Aten.SIN.call1(this);
    }

    public Tensor cos() {
        return Aten.COS.call1(this);
    }

    public Tensor tanh() {
        return Aten.TANH.call1(this);
    }

    public Tensor sigmoid() {
        return Aten.SIGMOID.call1(this);
    }

    public Tensor lgamma() {
        return Aten.LGAMMA.call1(this);
    }

    public Tensor digamma() {
        return Aten.DIGAMMA.call1(this);
    }

    public Tensor polygamma(long n) {
        return Aten.POLYGAMMA.call1(n, this);
    }

    public Tensor relu() {
        return Aten.RELU.call1(this);
    }

    public Tensor floor() {
        return Aten.FLOOR.call1(this);
    }

    public Tensor ceil() {
        return Aten.CEIL.call1(this);
    }

    public Tensor round() {
        return Aten.ROUND_DECIMALS.call1(this, 0L);
    }

    public Tensor isnan() {
        return Aten.ISNAN.call1(this);
    }

    // in-place forms: the result is written into this tensor (its dtype must hold the result)

    public Tensor add_(Tensor o) {
        return Aten.ADD_TENSOR.inPlace(this, this, o);
    }

    public Tensor sub_(Tensor o) {
        return Aten.SUB_TENSOR.inPlace(this, this, o);
    }

    public Tensor mul_(Tensor o) {
        return Aten.MUL_TENSOR.inPlace(this, this, o);
    }

    public Tensor div_(Tensor o) {
        return Aten.DIV_TENSOR.inPlace(this, this, o);
    }

    public Tensor add_(double s) {
        return Aten.ADD_TENSOR.inPlace(this, this, s);
    }

    public Tensor mul_(double s) {
        return Aten.MUL_TENSOR.inPlace(this, this, s);
    }

    public Tensor exp_() {
        return Aten.EXP.inPlace(this, this);
    }

    /** {@code x.where(condition, y)}: elements of this where condition holds, else of {@code other}. */
    public Tensor where(Tensor condition, Object other) {
        return Aten.WHERE_SELF.call1(condition, this, other);
    }

    @Override
    public String toString() {
        return TensorFormatter.format(this);
    }

    // ---- generated delegations: begin (one line per op entry point in org.jtorch.ops; logic lives there) ----

    public Tensor view(long... size) {
        return Aten.VIEW.call1(this, size.clone());
    }

    public Tensor reshape(long... shape) {
        return Aten.RESHAPE.call1(this, shape.clone());
    }

    public Tensor permute(int... dims) {
        return Aten.PERMUTE.call1(this, longs(dims));
    }

    public Tensor transpose(int dim0, int dim1) {
        return Aten.TRANSPOSE_INT.call1(this, (long) dim0, (long) dim1);
    }

    public Tensor swapaxes(int axis0, int axis1) {
        return Aten.TRANSPOSE_INT.call1(this, (long) axis0, (long) axis1);
    }

    public Tensor t() {
        return Aten.T.call1(this);
    }

    public Tensor mT() {
        return Aten.MT.call1(this);
    }

    public Tensor expand(long... size) {
        return Aten.EXPAND.call1(this, size.clone(), false);
    }

    public Tensor broadcastTo(long... size) {
        return Aten.BROADCAST_TO.call1(this, size.clone());
    }

    public Tensor squeeze() {
        return Aten.SQUEEZE_DIMS.call1(this, null);
    }

    public Tensor squeeze(int dim) {
        return Aten.SQUEEZE_DIMS.call1(this, new long[] {dim});
    }

    public Tensor squeeze(int... dims) {
        return Aten.SQUEEZE_DIMS.call1(this, longs(dims));
    }

    public Tensor unsqueeze(int dim) {
        return Aten.UNSQUEEZE.call1(this, (long) dim);
    }

    public Tensor flatten() {
        return Aten.FLATTEN_USING_INTS.call1(this, 0L, -1L);
    }

    public Tensor flatten(int startDim) {
        return Aten.FLATTEN_USING_INTS.call1(this, (long) startDim, -1L);
    }

    public Tensor flatten(int startDim, int endDim) {
        return Aten.FLATTEN_USING_INTS.call1(this, (long) startDim, (long) endDim);
    }

    public Tensor unflatten(int dim, long... sizes) {
        return Aten.UNFLATTEN_INT.call1(this, (long) dim, sizes.clone());
    }

    public Tensor narrow(int dim, long start, long length) {
        return Aten.NARROW.call1(this, (long) dim, start, length);
    }

    public Tensor select(int dim, long index) {
        return Aten.SELECT_INT.call1(this, (long) dim, index);
    }

    public Tensor slice(int dim, Long start, Long end, long step) {
        return Aten.SLICE_TENSOR.call1(this, (long) dim, start, end, step);
    }

    public Tensor slice(int dim, long start, long end) {
        return Aten.SLICE_TENSOR.call1(this, (long) dim, start, end, 1L);
    }

    public List<Tensor> chunk(int chunks) {
        return Aten.CHUNK.list(this, (long) chunks, 0L);
    }

    public List<Tensor> chunk(int chunks, int dim) {
        return Aten.CHUNK.list(this, (long) chunks, (long) dim);
    }

    public List<Tensor> split(long splitSize) {
        return Aten.SPLIT_TENSOR.list(this, splitSize, 0L);
    }

    public List<Tensor> split(long splitSize, int dim) {
        return Aten.SPLIT_TENSOR.list(this, splitSize, (long) dim);
    }

    public List<Tensor> split(long[] splitSizes) {
        return Aten.SPLIT_WITH_SIZES.list(this, splitSizes.clone(), 0L);
    }

    public List<Tensor> split(long[] splitSizes, int dim) {
        return Aten.SPLIT_WITH_SIZES.list(this, splitSizes.clone(), (long) dim);
    }

    public List<Tensor> splitWithSizes(long[] splitSizes) {
        return Aten.SPLIT_WITH_SIZES.list(this, splitSizes.clone(), 0L);
    }

    public List<Tensor> splitWithSizes(long[] splitSizes, int dim) {
        return Aten.SPLIT_WITH_SIZES.list(this, splitSizes.clone(), (long) dim);
    }

    public List<Tensor> unbind() {
        return Aten.UNBIND_INT.list(this, 0L);
    }

    public List<Tensor> unbind(int dim) {
        return Aten.UNBIND_INT.list(this, (long) dim);
    }

    public Tensor diagonal() {
        return Aten.DIAGONAL.call1(this, 0L, 0L, 1L);
    }

    public Tensor diagonal(long offset) {
        return Aten.DIAGONAL.call1(this, offset, 0L, 1L);
    }

    public Tensor diagonal(long offset, int dim1, int dim2) {
        return Aten.DIAGONAL.call1(this, offset, (long) dim1, (long) dim2);
    }

    public Tensor movedim(int source, int destination) {
        return Aten.MOVEDIM_INTLIST.call1(this, longs(new int[] {source}), longs(new int[] {destination}));
    }

    public Tensor movedim(int[] source, int[] destination) {
        return Aten.MOVEDIM_INTLIST.call1(this, longs(source), longs(destination));
    }

    public Tensor asStrided(long[] size, long[] stride) {
        return Aten.AS_STRIDED.call1(this, size, stride, null);
    }

    public Tensor asStrided(long[] size, long[] stride, long storageOffset) {
        return Aten.AS_STRIDED.call1(this, size, stride, storageOffset);
    }

    public Tensor tril() {
        return Aten.TRIL.call1(this, 0L);
    }

    public Tensor tril(long diagonal) {
        return Aten.TRIL.call1(this, diagonal);
    }

    public Tensor triu() {
        return Aten.TRIU.call1(this, 0L);
    }

    public Tensor triu(long diagonal) {
        return Aten.TRIU.call1(this, diagonal);
    }

    public Tensor flip(int... dims) {
        return Aten.FLIP.call1(this, longs(dims));
    }

    public Tensor roll(long shifts) {
        return Aten.ROLL.call1(this, new long[] {shifts}, new long[0]);
    }

    public Tensor roll(long shifts, int dim) {
        return Aten.ROLL.call1(this, new long[] {shifts}, new long[] {dim});
    }

    public Tensor roll(long[] shifts, int[] dims) {
        return Aten.ROLL.call1(this, shifts.clone(), longs(dims));
    }

    public Tensor repeat(long... repeats) {
        return Aten.REPEAT.call1(this, repeats.clone());
    }

    public Tensor sum() {
        return Aten.SUM_DIM_INTLIST.call1(this, null, false, null);
    }

    public Tensor sum(DType dtype) {
        return Aten.SUM_DIM_INTLIST.call1(this, null, false, dtype);
    }

    public Tensor sum(long dim) {
        return Aten.SUM_DIM_INTLIST.call1(this, dims(dim), false, null);
    }

    public Tensor sum(long dim, boolean keepdim) {
        return Aten.SUM_DIM_INTLIST.call1(this, dims(dim), keepdim, null);
    }

    public Tensor sum(long[] dims, boolean keepdim) {
        return Aten.SUM_DIM_INTLIST.call1(this, dims, keepdim, null);
    }

    public Tensor sum(long[] dims, boolean keepdim, DType dtype) {
        return Aten.SUM_DIM_INTLIST.call1(this, dims, keepdim, dtype);
    }

    public Tensor nansum() {
        return Aten.NANSUM.call1(this, null, false, null);
    }

    public Tensor nansum(long dim) {
        return Aten.NANSUM.call1(this, dims(dim), false, null);
    }

    public Tensor nansum(long[] dims, boolean keepdim, DType dtype) {
        return Aten.NANSUM.call1(this, dims, keepdim, dtype);
    }

    public Tensor mean() {
        return Aten.MEAN_DIM.call1(this, null, false, null);
    }

    public Tensor mean(DType dtype) {
        return Aten.MEAN_DIM.call1(this, null, false, dtype);
    }

    public Tensor mean(long dim) {
        return Aten.MEAN_DIM.call1(this, dims(dim), false, null);
    }

    public Tensor mean(long dim, boolean keepdim) {
        return Aten.MEAN_DIM.call1(this, dims(dim), keepdim, null);
    }

    public Tensor mean(long[] dims, boolean keepdim) {
        return Aten.MEAN_DIM.call1(this, dims, keepdim, null);
    }

    public Tensor mean(long[] dims, boolean keepdim, DType dtype) {
        return Aten.MEAN_DIM.call1(this, dims, keepdim, dtype);
    }

    public Tensor nanmean() {
        return Aten.NANMEAN.call1(this, null, false, null);
    }

    public Tensor nanmean(long dim) {
        return Aten.NANMEAN.call1(this, dims(dim), false, null);
    }

    public Tensor nanmean(long[] dims, boolean keepdim, DType dtype) {
        return Aten.NANMEAN.call1(this, dims, keepdim, dtype);
    }

    public Tensor prod() {
        return Aten.PROD_DIM_INT.call1(this, null, false, null);
    }

    public Tensor prod(DType dtype) {
        return Aten.PROD_DIM_INT.call1(this, null, false, dtype);
    }

    public Tensor prod(long dim) {
        return Aten.PROD_DIM_INT.call1(this, dims(dim), false, null);
    }

    public Tensor prod(long dim, boolean keepdim) {
        return Aten.PROD_DIM_INT.call1(this, dims(dim), keepdim, null);
    }

    public Tensor prod(long dim, boolean keepdim, DType dtype) {
        return Aten.PROD_DIM_INT.call1(this, dims(dim), keepdim, dtype);
    }

    public Tensor amax() {
        return Aten.AMAX.call1(this, null, false);
    }

    public Tensor amax(long dim) {
        return Aten.AMAX.call1(this, dims(dim), false);
    }

    public Tensor amax(long[] dims, boolean keepdim) {
        return Aten.AMAX.call1(this, dims, keepdim);
    }

    public Tensor amin() {
        return Aten.AMIN.call1(this, null, false);
    }

    public Tensor amin(long dim) {
        return Aten.AMIN.call1(this, dims(dim), false);
    }

    public Tensor amin(long[] dims, boolean keepdim) {
        return Aten.AMIN.call1(this, dims, keepdim);
    }

    public Tensor max() {
        return Aten.MAX.call1(this);
    }

    public ValuesIndices max(long dim) {
        return Aten.MAX_DIM.pair(this, dim, false);
    }

    public ValuesIndices max(long dim, boolean keepdim) {
        return Aten.MAX_DIM.pair(this, dim, keepdim);
    }

    public Tensor min() {
        return Aten.MIN.call1(this);
    }

    public ValuesIndices min(long dim) {
        return Aten.MIN_DIM.pair(this, dim, false);
    }

    public ValuesIndices min(long dim, boolean keepdim) {
        return Aten.MIN_DIM.pair(this, dim, keepdim);
    }

    public Tensor argmax() {
        return Aten.ARGMAX.call1(this, null, false);
    }

    public Tensor argmax(boolean keepdim) {
        return Aten.ARGMAX.call1(this, null, keepdim);
    }

    public Tensor argmax(long dim) {
        return Aten.ARGMAX.call1(this, dim, false);
    }

    public Tensor argmax(long dim, boolean keepdim) {
        return Aten.ARGMAX.call1(this, dim, keepdim);
    }

    public Tensor argmin() {
        return Aten.ARGMIN.call1(this, null, false);
    }

    public Tensor argmin(boolean keepdim) {
        return Aten.ARGMIN.call1(this, null, keepdim);
    }

    public Tensor argmin(long dim) {
        return Aten.ARGMIN.call1(this, dim, false);
    }

    public Tensor argmin(long dim, boolean keepdim) {
        return Aten.ARGMIN.call1(this, dim, keepdim);
    }

    public Tensor var() {
        return Aten.VAR_CORRECTION.call1(this, null, null, false);
    }

    public Tensor var(boolean unbiased) {
        return Aten.VAR_CORRECTION.call1(this, null, unbiased ? 1L : 0L, false);
    }

    public Tensor var(long dim) {
        return Aten.VAR_CORRECTION.call1(this, dims(dim), null, false);
    }

    public Tensor var(long[] dims, boolean unbiased, boolean keepdim) {
        return Aten.VAR_CORRECTION.call1(this, dims, unbiased ? 1L : 0L, keepdim);
    }

    public Tensor var(long[] dims, double correction, boolean keepdim) {
        return Aten.VAR_CORRECTION.call1(this, dims, correction, keepdim);
    }

    public Tensor std() {
        return Aten.STD_CORRECTION.call1(this, null, null, false);
    }

    public Tensor std(boolean unbiased) {
        return Aten.STD_CORRECTION.call1(this, null, unbiased ? 1L : 0L, false);
    }

    public Tensor std(long dim) {
        return Aten.STD_CORRECTION.call1(this, dims(dim), null, false);
    }

    public Tensor std(long[] dims, boolean unbiased, boolean keepdim) {
        return Aten.STD_CORRECTION.call1(this, dims, unbiased ? 1L : 0L, keepdim);
    }

    public Tensor std(long[] dims, double correction, boolean keepdim) {
        return Aten.STD_CORRECTION.call1(this, dims, correction, keepdim);
    }

    public Tensor logsumexp(long dim) {
        return Aten.LOGSUMEXP.call1(this, dims(dim), false);
    }

    public Tensor logsumexp(long dim, boolean keepdim) {
        return Aten.LOGSUMEXP.call1(this, dims(dim), keepdim);
    }

    public Tensor logsumexp(long[] dims, boolean keepdim) {
        return Aten.LOGSUMEXP.call1(this, dims, keepdim);
    }

    public Tensor softmax(long dim) {
        return Aten.SOFTMAX_INT.call1(this, dim, null);
    }

    public Tensor softmax(long dim, DType dtype) {
        return Aten.SOFTMAX_INT.call1(this, dim, dtype);
    }

    public Tensor logSoftmax(long dim) {
        return Aten.LOG_SOFTMAX_INT.call1(this, dim, null);
    }

    public Tensor logSoftmax(long dim, DType dtype) {
        return Aten.LOG_SOFTMAX_INT.call1(this, dim, dtype);
    }

    public Tensor cumsum(long dim) {
        return Aten.CUMSUM.call1(this, dim, null);
    }

    public Tensor cumsum(long dim, DType dtype) {
        return Aten.CUMSUM.call1(this, dim, dtype);
    }

    public Tensor cumprod(long dim) {
        return Aten.CUMPROD.call1(this, dim, null);
    }

    public Tensor cumprod(long dim, DType dtype) {
        return Aten.CUMPROD.call1(this, dim, dtype);
    }

    public Tensor all() {
        return Aten.ALL_DIMS.call1(this, null, false);
    }

    public Tensor all(long dim) {
        return Aten.ALL_DIMS.call1(this, dims(dim), false);
    }

    public Tensor all(long[] dims, boolean keepdim) {
        return Aten.ALL_DIMS.call1(this, dims, keepdim);
    }

    public Tensor any() {
        return Aten.ANY_DIMS.call1(this, null, false);
    }

    public Tensor any(long dim) {
        return Aten.ANY_DIMS.call1(this, dims(dim), false);
    }

    public Tensor any(long[] dims, boolean keepdim) {
        return Aten.ANY_DIMS.call1(this, dims, keepdim);
    }

    public Tensor mm(Tensor mat2) {
        return Aten.MM.call1(this, mat2);
    }

    public Tensor addmm(Tensor mat1, Tensor mat2) {
        return Aten.ADDMM.call1(this, mat1, mat2, null, null);
    }

    public Tensor addmm(Tensor mat1, Tensor mat2, Object beta, Object alpha) {
        return Aten.ADDMM.call1(this, mat1, mat2, beta, alpha);
    }

    public Tensor addmm_(Tensor mat1, Tensor mat2, Object beta, Object alpha) {
        return Aten.ADDMM.inPlace(this, this, mat1, mat2, beta, alpha);
    }

    public Tensor bmm(Tensor mat2) {
        return Aten.BMM.call1(this, mat2);
    }

    public Tensor baddbmm(Tensor batch1, Tensor batch2) {
        return Aten.BADDBMM.call1(this, batch1, batch2, null, null);
    }

    public Tensor baddbmm(Tensor batch1, Tensor batch2, Object beta, Object alpha) {
        return Aten.BADDBMM.call1(this, batch1, batch2, beta, alpha);
    }

    public Tensor baddbmm_(Tensor batch1, Tensor batch2, Object beta, Object alpha) {
        return Aten.BADDBMM.inPlace(this, this, batch1, batch2, beta, alpha);
    }

    public Tensor mv(Tensor vec) {
        return Aten.MV.call1(this, vec);
    }

    public Tensor dot(Tensor tensor) {
        return Aten.DOT.call1(this, tensor);
    }

    public Tensor vdot(Tensor other) {
        return Aten.VDOT.call1(this, other);
    }

    public Tensor outer(Tensor vec2) {
        return Aten.OUTER.call1(this, vec2);
    }

    public Tensor matmul(Tensor other) {
        return Aten.MATMUL.call1(this, other);
    }

    public Tensor clamp(Double min, Double max) {
        return Aten.CLAMP.call1(this, scalar(min), scalar(max));
    }

    public Tensor clamp(Long min, Long max) {
        return Aten.CLAMP.call1(this, scalar(min), scalar(max));
    }

    public Tensor clamp(Scalar min, Scalar max) {
        return Aten.CLAMP.call1(this, min, max);
    }

    public Tensor clamp(Tensor min, Tensor max) {
        return Aten.CLAMP_TENSOR.call1(this, min, max);
    }

    public Tensor clampMin(double min) {
        return Aten.CLAMP_MIN.call1(this, Scalar.of(min));
    }

    public Tensor clampMin(long min) {
        return Aten.CLAMP_MIN.call1(this, Scalar.of(min));
    }

    public Tensor clampMin(Scalar min) {
        return Aten.CLAMP_MIN.call1(this, min);
    }

    public Tensor clampMin(Tensor min) {
        return Aten.CLAMP_MIN_TENSOR.call1(this, min);
    }

    public Tensor clampMax(double max) {
        return Aten.CLAMP_MAX.call1(this, Scalar.of(max));
    }

    public Tensor clampMax(long max) {
        return Aten.CLAMP_MAX.call1(this, Scalar.of(max));
    }

    public Tensor clampMax(Scalar max) {
        return Aten.CLAMP_MAX.call1(this, max);
    }

    public Tensor clampMax(Tensor max) {
        return Aten.CLAMP_MAX_TENSOR.call1(this, max);
    }

    public Tensor clamp_(Double min, Double max) {
        return Aten.CLAMP.inPlace(this, this, scalar(min), scalar(max));
    }

    public Tensor clamp_(Long min, Long max) {
        return Aten.CLAMP.inPlace(this, this, scalar(min), scalar(max));
    }

    public Tensor clamp_(Tensor min, Tensor max) {
        return Aten.CLAMP_TENSOR.inPlace(this, this, min, max);
    }

    public Tensor clampMin_(double min) {
        return Aten.CLAMP_MIN.inPlace(this, this, Scalar.of(min));
    }

    public Tensor clampMin_(Tensor min) {
        return Aten.CLAMP_MIN_TENSOR.inPlace(this, this, min);
    }

    public Tensor clampMax_(double max) {
        return Aten.CLAMP_MAX.inPlace(this, this, Scalar.of(max));
    }

    public Tensor clampMax_(Tensor max) {
        return Aten.CLAMP_MAX_TENSOR.inPlace(this, this, max);
    }

    public Tensor lerp(Tensor end, double weight) {
        return Aten.LERP_SCALAR.call1(this, end, weight);
    }

    public Tensor lerp(Tensor end, Scalar weight) {
        return Aten.LERP_SCALAR.call1(this, end, weight);
    }

    public Tensor lerp(Tensor end, Tensor weight) {
        return Aten.LERP_TENSOR.call1(this, end, weight);
    }

    public Tensor lerp_(Tensor end, double weight) {
        return Aten.LERP_SCALAR.inPlace(this, this, end, weight);
    }

    public Tensor lerp_(Tensor end, Tensor weight) {
        return Aten.LERP_TENSOR.inPlace(this, this, end, weight);
    }

    public Tensor addcmul(Tensor t1, Tensor t2) {
        return Aten.ADDCMUL.call1(this, t1, t2, 1L);
    }

    public Tensor addcmul(Tensor t1, Tensor t2, double value) {
        return Aten.ADDCMUL.call1(this, t1, t2, value);
    }

    public Tensor addcmul(Tensor t1, Tensor t2, Scalar value) {
        return Aten.ADDCMUL.call1(this, t1, t2, value);
    }

    public Tensor addcmul_(Tensor t1, Tensor t2, double value) {
        return Aten.ADDCMUL.inPlace(this, this, t1, t2, value);
    }

    public Tensor addcdiv(Tensor t1, Tensor t2) {
        return Aten.ADDCDIV.call1(this, t1, t2, 1L);
    }

    public Tensor addcdiv(Tensor t1, Tensor t2, double value) {
        return Aten.ADDCDIV.call1(this, t1, t2, value);
    }

    public Tensor addcdiv(Tensor t1, Tensor t2, Scalar value) {
        return Aten.ADDCDIV.call1(this, t1, t2, value);
    }

    public Tensor addcdiv_(Tensor t1, Tensor t2, double value) {
        return Aten.ADDCDIV.inPlace(this, this, t1, t2, value);
    }

    public Tensor maskedFill(Tensor mask, Object value) {
        return (value instanceof Tensor ? Aten.MASKED_FILL_TENSOR : Aten.MASKED_FILL_SCALAR).call1(this, mask, value);
    }

    public Tensor maskedFill_(Tensor mask, Object value) {
        InternalOverlap.warn("masked_fill_", "tensor[mask] = scalar", impl);
        return (value instanceof Tensor ? Aten.MASKED_FILL_TENSOR : Aten.MASKED_FILL_SCALAR)
                .inPlace(this, this, mask, value);
    }

    public Tensor real() {
        return Aten.REAL.call1(this);
    }

    public Tensor imag() {
        return Aten.IMAG.call1(this);
    }

    public Tensor conj() {
        return Aten.CONJ.call1(this);
    }

    public Tensor conjPhysical() {
        return Aten.CONJ_PHYSICAL.call1(this);
    }

    public Tensor resolveConj() {
        return Aten.RESOLVE_CONJ.call1(this);
    }

    public Tensor mH() {
        return Aten.MH.call1(this);
    }

    public Tensor adjoint() {
        return Aten.ADJOINT.call1(this);
    }

    public Tensor isreal() {
        return Aten.ISREAL.call1(this);
    }

    public Tensor fill_(double value) {
        return Aten.FILL_SCALAR.inPlace(this, this, value);
    }

    public Tensor fill_(long value) {
        return Aten.FILL_SCALAR.inPlace(this, this, value);
    }

    public Tensor zero_() {
        return fill_(0L);
    }

    public Tensor bernoulli() {
        return Aten.BERNOULLI.call1(this, null);
    }

    public Tensor bernoulli(Generator generator) {
        return Aten.BERNOULLI.call1(this, generator);
    }

    public Tensor bernoulli(double p) {
        return Aten.BERNOULLI_P.call1(this, p, null);
    }

    public Tensor bernoulli(double p, Generator generator) {
        return Aten.BERNOULLI_P.call1(this, p, generator);
    }

    public Tensor multinomial(long numSamples) {
        return Aten.MULTINOMIAL.call1(this, numSamples, false, null);
    }

    public Tensor multinomial(long numSamples, boolean replacement) {
        return Aten.MULTINOMIAL.call1(this, numSamples, replacement, null);
    }

    public Tensor multinomial(long numSamples, boolean replacement, Generator generator) {
        return Aten.MULTINOMIAL.call1(this, numSamples, replacement, generator);
    }

    public Tensor uniform_() {
        return Aten.UNIFORM.inPlace(this, this, 0.0, 1.0, null);
    }

    public Tensor uniform_(double from, double to) {
        return Aten.UNIFORM.inPlace(this, this, from, to, null);
    }

    public Tensor uniform_(double from, double to, Generator generator) {
        return Aten.UNIFORM.inPlace(this, this, from, to, generator);
    }

    public Tensor normal_() {
        return Aten.NORMAL_FUNCTIONAL.inPlace(this, this, 0.0, 1.0, null);
    }

    public Tensor normal_(double mean, double std) {
        return Aten.NORMAL_FUNCTIONAL.inPlace(this, this, mean, std, null);
    }

    public Tensor normal_(double mean, double std, Generator generator) {
        return Aten.NORMAL_FUNCTIONAL.inPlace(this, this, mean, std, generator);
    }

    public Tensor exponential_() {
        return Aten.EXPONENTIAL.inPlace(this, this, 1.0, null);
    }

    public Tensor exponential_(double lambd) {
        return Aten.EXPONENTIAL.inPlace(this, this, lambd, null);
    }

    public Tensor exponential_(double lambd, Generator generator) {
        return Aten.EXPONENTIAL.inPlace(this, this, lambd, generator);
    }

    public Tensor geometric_(double p) {
        return Aten.GEOMETRIC.inPlace(this, this, p, null);
    }

    public Tensor geometric_(double p, Generator generator) {
        return Aten.GEOMETRIC.inPlace(this, this, p, generator);
    }

    public Tensor cauchy_() {
        return Aten.CAUCHY.inPlace(this, this, 0.0, 1.0, null);
    }

    public Tensor cauchy_(double median, double sigma) {
        return Aten.CAUCHY.inPlace(this, this, median, sigma, null);
    }

    public Tensor cauchy_(double median, double sigma, Generator generator) {
        return Aten.CAUCHY.inPlace(this, this, median, sigma, generator);
    }

    public Tensor logNormal_() {
        return Aten.LOG_NORMAL.inPlace(this, this, 1.0, 2.0, null);
    }

    public Tensor logNormal_(double mean, double std) {
        return Aten.LOG_NORMAL.inPlace(this, this, mean, std, null);
    }

    public Tensor logNormal_(double mean, double std, Generator generator) {
        return Aten.LOG_NORMAL.inPlace(this, this, mean, std, generator);
    }

    public Tensor bernoulli_(double p) {
        return Aten.BERNOULLI_P.inPlace(this, this, p, null);
    }

    public Tensor bernoulli_(double p, Generator generator) {
        return Aten.BERNOULLI_P.inPlace(this, this, p, generator);
    }

    public Tensor bernoulli_(Tensor p) {
        return Aten.BERNOULLI_TENSOR.inPlace(this, this, p, null);
    }

    public Tensor bernoulli_(Tensor p, Generator generator) {
        return Aten.BERNOULLI_TENSOR.inPlace(this, this, p, generator);
    }

    public Tensor random_() {
        return Aten.RANDOM.inPlace(this, this, null);
    }

    public Tensor random_(Generator generator) {
        return Aten.RANDOM.inPlace(this, this, generator);
    }

    public Tensor random_(long to) {
        return Aten.RANDOM_FROM.inPlace(this, this, 0L, to, null);
    }

    public Tensor random_(long from, long to) {
        return Aten.RANDOM_FROM.inPlace(this, this, from, to, null);
    }

    public Tensor random_(long from, long to, Generator generator) {
        return Aten.RANDOM_FROM.inPlace(this, this, from, to, generator);
    }

    public Tensor random_(long from, Long to) {
        return Aten.RANDOM_FROM.inPlace(this, this, from, to, null);
    }

    public Tensor random_(long from, Long to, Generator generator) {
        return Aten.RANDOM_FROM.inPlace(this, this, from, to, generator);
    }

    public Tensor repeatInterleave(long repeats) {
        return Aten.REPEAT_INTERLEAVE_SELF_INT.call1(this, repeats, null, null);
    }

    public Tensor repeatInterleave(long repeats, int dim) {
        return Aten.REPEAT_INTERLEAVE_SELF_INT.call1(this, repeats, (long) dim, null);
    }

    public Tensor repeatInterleave(long repeats, Integer dim, Long outputSize) {
        return Aten.REPEAT_INTERLEAVE_SELF_INT.call1(this, repeats, dim == null ? null : (long) dim, outputSize);
    }

    public Tensor repeatInterleave(Tensor repeats) {
        return Aten.REPEAT_INTERLEAVE_SELF_TENSOR.call1(this, repeats, null, null);
    }

    public Tensor repeatInterleave(Tensor repeats, int dim) {
        return Aten.REPEAT_INTERLEAVE_SELF_TENSOR.call1(this, repeats, (long) dim, null);
    }

    public Tensor repeatInterleave(Tensor repeats, Integer dim, Long outputSize) {
        return Aten.REPEAT_INTERLEAVE_SELF_TENSOR.call1(this, repeats, dim == null ? null : (long) dim, outputSize);
    }

    public Tensor diff() {
        return Aten.DIFF.call1(this, 1L, -1L, null, null);
    }

    public Tensor diff(long n) {
        return Aten.DIFF.call1(this, n, -1L, null, null);
    }

    public Tensor diff(long n, int dim) {
        return Aten.DIFF.call1(this, n, (long) dim, null, null);
    }

    public Tensor diff(long n, int dim, Tensor prepend, Tensor append) {
        return Aten.DIFF.call1(this, n, (long) dim, prepend, append);
    }

    public Tensor diag() {
        return Aten.DIAG.call1(this, 0L);
    }

    public Tensor diag(long diagonal) {
        return Aten.DIAG.call1(this, diagonal);
    }

    public Tensor diagEmbed() {
        return Aten.DIAG_EMBED.call1(this, 0L, -2L, -1L);
    }

    public Tensor diagEmbed(long offset) {
        return Aten.DIAG_EMBED.call1(this, offset, -2L, -1L);
    }

    public Tensor diagEmbed(long offset, int dim1, int dim2) {
        return Aten.DIAG_EMBED.call1(this, offset, (long) dim1, (long) dim2);
    }

    public Tensor index(Index... spec) {
        return OpHooks.indexing().index(this, spec);
    }

    public Tensor indexPut_(Index[] spec, Tensor values) {
        return indexPut_(spec, values, false);
    }

    public Tensor indexPut_(Index[] spec, Tensor values, boolean accumulate) {
        return OpHooks.indexing().indexPutSpec(this, spec, values, accumulate);
    }

    public Tensor indexPut_(Index[] spec, Object value) {
        return OpHooks.indexing().indexPutSpec(this, spec, value, false);
    }

    public Tensor indexPut(Tensor[] indices, Tensor values) {
        return Aten.INDEX_PUT.call1(this, indices.clone(), values, false);
    }

    public Tensor indexPut(Tensor[] indices, Tensor values, boolean accumulate) {
        return Aten.INDEX_PUT.call1(this, indices.clone(), values, accumulate);
    }

    public Tensor indexPut_(Tensor[] indices, Tensor values) {
        return indexPut_(indices, values, false);
    }

    public Tensor indexPut_(Tensor[] indices, Tensor values, boolean accumulate) {
        return OpHooks.indexing().indexPutTensors(this, indices.clone(), values, accumulate);
    }

    public Tensor nonzero() {
        return Aten.NONZERO.call1(this);
    }

    public List<Tensor> nonzero(boolean asTuple) {
        return asTuple ? Aten.NONZERO_NUMPY.list(this) : List.of(Aten.NONZERO.call1(this));
    }

    public Tensor nonzeroStatic(long size, long fillValue) {
        return Aten.NONZERO_STATIC.call1(this, size, fillValue);
    }

    public Tensor countNonzero(long... dims) {
        return Aten.COUNT_NONZERO_DIM_INTLIST.call1(this, dims.clone());
    }

    public Tensor maskedSelect(Tensor mask) {
        return Aten.MASKED_SELECT.call1(this, mask);
    }

    public Tensor maskedScatter(Tensor mask, Tensor source) {
        return Aten.MASKED_SCATTER.call1(this, mask, source);
    }

    public Tensor maskedScatter_(Tensor mask, Tensor source) {
        return OpHooks.indexing().maskedScatter(this, mask, source);
    }

    public Tensor take(Tensor index) {
        return Aten.TAKE.call1(this, index);
    }

    public Tensor takeAlongDim(Tensor indices) {
        return Aten.TAKE_ALONG_DIM.call1(this, indices, null);
    }

    public Tensor takeAlongDim(Tensor indices, int dim) {
        return Aten.TAKE_ALONG_DIM.call1(this, indices, (long) dim);
    }

    public Tensor gather(int dim, Tensor index) {
        return Aten.GATHER.call1(this, (long) dim, index, false);
    }

    public Tensor scatter(int dim, Tensor index, Tensor src) {
        return Aten.SCATTER_SRC.call1(this, (long) dim, index, src);
    }

    public Tensor scatter(int dim, Tensor index, Object value) {
        return (value instanceof Tensor ? Aten.SCATTER_SRC : Aten.SCATTER_VALUE).call1(this, (long) dim, index, value);
    }

    public Tensor scatter_(int dim, Tensor index, Tensor src) {
        return writeWithoutOverlap(Aten.SCATTER_SRC, this, (long) dim, index, src);
    }

    public Tensor scatter_(int dim, Tensor index, Object value) {
        return writeWithoutOverlap(
                value instanceof Tensor ? Aten.SCATTER_SRC : Aten.SCATTER_VALUE, this, (long) dim, index, value);
    }

    public Tensor scatterAdd(int dim, Tensor index, Tensor src) {
        return Aten.SCATTER_ADD.call1(this, (long) dim, index, src);
    }

    public Tensor scatterAdd_(int dim, Tensor index, Tensor src) {
        return writeWithoutOverlap(Aten.SCATTER_ADD, this, (long) dim, index, src);
    }

    public Tensor scatterReduce(int dim, Tensor index, Tensor src, String reduce) {
        return Aten.SCATTER_REDUCE_TWO.call1(this, (long) dim, index, src, reduce, true);
    }

    public Tensor scatterReduce(int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
        return Aten.SCATTER_REDUCE_TWO.call1(this, (long) dim, index, src, reduce, includeSelf);
    }

    public Tensor scatterReduce_(int dim, Tensor index, Tensor src, String reduce) {
        return scatterReduce_(dim, index, src, reduce, true);
    }

    public Tensor scatterReduce_(int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
        return writeWithoutOverlap(Aten.SCATTER_REDUCE_TWO, this, (long) dim, index, src, reduce, includeSelf);
    }

    public Tensor indexSelect(int dim, Tensor index) {
        return Aten.INDEX_SELECT.call1(this, (long) dim, index);
    }

    public Tensor indexAdd(int dim, Tensor index, Tensor source) {
        return Aten.INDEX_ADD.call1(this, (long) dim, index, source, 1L);
    }

    public Tensor indexAdd(int dim, Tensor index, Tensor source, Object alpha) {
        return Aten.INDEX_ADD.call1(this, (long) dim, index, source, alpha);
    }

    public Tensor indexAdd_(int dim, Tensor index, Tensor source) {
        return indexAdd_(dim, index, source, 1L);
    }

    public Tensor indexAdd_(int dim, Tensor index, Tensor source, Object alpha) {
        return writeWithoutOverlap(Aten.INDEX_ADD, this, (long) dim, index, source, alpha);
    }

    public Tensor indexCopy(int dim, Tensor index, Tensor source) {
        return Aten.INDEX_COPY.call1(this, (long) dim, index, source);
    }

    public Tensor indexCopy_(int dim, Tensor index, Tensor source) {
        return writeWithoutOverlap(Aten.INDEX_COPY, this, (long) dim, index, source);
    }

    public Tensor indexFill(int dim, Tensor index, Object value) {
        return (value instanceof Tensor ? Aten.INDEX_FILL_INT_TENSOR : Aten.INDEX_FILL_INT_SCALAR)
                .call1(this, (long) dim, index, value);
    }

    public Tensor indexFill_(int dim, Tensor index, Object value) {
        InternalOverlap.warn("index_fill_", "tensor[mask] = scalar", impl);
        return (value instanceof Tensor ? Aten.INDEX_FILL_INT_TENSOR : Aten.INDEX_FILL_INT_SCALAR)
                .inPlace(this, this, (long) dim, index, value);
    }

    public ValuesIndices sort() {
        return Aten.SORT_STABLE.pair(this, false, -1L, false);
    }

    public ValuesIndices sort(long dim) {
        return Aten.SORT_STABLE.pair(this, false, dim, false);
    }

    public ValuesIndices sort(long dim, boolean descending) {
        return Aten.SORT_STABLE.pair(this, false, dim, descending);
    }

    public ValuesIndices sort(boolean stable, long dim, boolean descending) {
        return Aten.SORT_STABLE.pair(this, stable, dim, descending);
    }

    public Tensor argsort() {
        return Aten.ARGSORT_STABLE.call1(this, false, -1L, false);
    }

    public Tensor argsort(long dim) {
        return Aten.ARGSORT_STABLE.call1(this, false, dim, false);
    }

    public Tensor argsort(long dim, boolean descending) {
        return Aten.ARGSORT_STABLE.call1(this, false, dim, descending);
    }

    public Tensor argsort(long dim, boolean descending, boolean stable) {
        return Aten.ARGSORT_STABLE.call1(this, stable, dim, descending);
    }

    public Tensor msort() {
        return Aten.MSORT.call1(this);
    }

    public ValuesIndices topk(long k) {
        return Aten.TOPK.pair(this, k, -1L, true, true);
    }

    public ValuesIndices topk(long k, long dim) {
        return Aten.TOPK.pair(this, k, dim, true, true);
    }

    public ValuesIndices topk(long k, long dim, boolean largest) {
        return Aten.TOPK.pair(this, k, dim, largest, true);
    }

    public ValuesIndices topk(long k, long dim, boolean largest, boolean sorted) {
        return Aten.TOPK.pair(this, k, dim, largest, sorted);
    }

    public ValuesIndices kthvalue(long k) {
        return Aten.KTHVALUE.pair(this, k, -1L, false);
    }

    public ValuesIndices kthvalue(long k, long dim) {
        return Aten.KTHVALUE.pair(this, k, dim, false);
    }

    public ValuesIndices kthvalue(long k, long dim, boolean keepdim) {
        return Aten.KTHVALUE.pair(this, k, dim, keepdim);
    }

    public ValuesIndices cummax(long dim) {
        return Aten.CUMMAX.pair(this, dim);
    }

    public ValuesIndices cummin(long dim) {
        return Aten.CUMMIN.pair(this, dim);
    }

    public Tensor unique() {
        return Aten._UNIQUE2.first(this, true, false, false);
    }

    public UniqueResult unique(boolean sorted, boolean returnInverse, boolean returnCounts) {
        return Aten._UNIQUE2.unique(returnInverse, returnCounts, this, sorted, returnInverse, returnCounts);
    }

    public UniqueResult unique(boolean sorted, boolean returnInverse, boolean returnCounts, long dim) {
        return Aten.UNIQUE_DIM.unique(returnInverse, returnCounts, this, dim, sorted, returnInverse, returnCounts);
    }

    public Tensor uniqueConsecutive() {
        return Aten.UNIQUE_CONSECUTIVE.first(this, false, false, null);
    }

    public UniqueResult uniqueConsecutive(boolean returnInverse, boolean returnCounts) {
        return Aten.UNIQUE_CONSECUTIVE.unique(returnInverse, returnCounts, this, returnInverse, returnCounts, null);
    }

    public UniqueResult uniqueConsecutive(boolean returnInverse, boolean returnCounts, long dim) {
        return Aten.UNIQUE_CONSECUTIVE.unique(returnInverse, returnCounts, this, returnInverse, returnCounts, dim);
    }

    public Tensor histc() {
        return Aten.HISTC.call1(this, 100L, 0.0, 0.0);
    }

    public Tensor histc(long bins) {
        return Aten.HISTC.call1(this, bins, 0.0, 0.0);
    }

    public Tensor histc(long bins, double min, double max) {
        return Aten.HISTC.call1(this, bins, min, max);
    }

    public Tensor bincount() {
        return Aten.BINCOUNT.call1(this, null, 0L);
    }

    public Tensor bincount(Tensor weights) {
        return Aten.BINCOUNT.call1(this, weights, 0L);
    }

    public Tensor bincount(Tensor weights, long minlength) {
        return Aten.BINCOUNT.call1(this, weights, minlength);
    }

    // ---- generated delegations: end

    // ---- devices (org.jtorch.ops.DeviceCopyOps) ----

    /** {@code Tensor.to(device)}: this tensor when it is already on {@code device}, else a copy there. */
    public Tensor to(Device device) {
        Device target = DeviceTypes.withCurrentIndex(device);
        if (device() == target) return this;
        return Aten._TO_DEVICE.call1(this, target);
    }

    /** {@code Tensor.cpu()}: this tensor on the CPU. */
    public Tensor cpu() {
        return to(Device.CPU);
    }

    // ---- parameter conversion in place (nn.Module.to and friends) ----

    /**
     * {@code tensor.data = newData} ({@code Variable::set_data}): this tensor takes {@code newData}'s storage, geometry
     * and dtype and keeps its identity and its autograd state (requires-grad, grad, hooks). {@code nn.Module.to(dtype)}
     * converts parameters this way, so that an optimizer built before the conversion keeps updating the model's
     * parameters. The version counter is {@code newData}'s; a leaf's gradient accumulator is renewed when the dtype or
     * device changes, as PyTorch resets it. Returns this.
     */
    public Tensor setData(Tensor newData) {
        java.util.Objects.requireNonNull(newData, "newData");
        if (payload != null || newData.payload != null) {
            throw new TorchException("set_data: Attempted to call `variable.set_data(tensor)`, but `variable` and "
                    + "`tensor` have incompatible tensor type.");
        }
        boolean typeChanged = newData.impl.dtype() != impl.dtype() || newData.device() != device();
        impl = newData.impl;
        synchronized (this) {
            if (typeChanged && accumulator != null)
                accumulator = Hooks.AUTOGRAD.renewGradAccumulator(this, accumulator);
        }
        return this;
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
        return Aten.LINALG_MATRIX_EXP.call1(this);
    }

    /** {@code Tensor.matrix_power(n)}: {@code torch.linalg.matrix_power(self, n)}. */
    public Tensor matrixPower(long n) {
        return Aten.LINALG_MATRIX_POWER.call1(this, n);
    }

    // ---- PyTorch-shaped conveniences: the names a PyTorch user tries first ----------------------------------------

    /** {@code x.size()}: the sizes as a {@link Size}, which prints as {@code torch.Size([2, 3])}. */
    public Size size() {
        return Size.of(impl.shapeRef());
    }

    /**
     * {@code x.T}: the dimensions in reverse order ({@code permute(n-1, ..., 0)}), as PyTorch's {@code numpy_T}. As in
     * PyTorch, a tensor that is not 2-D gets a one-time {@code UserWarning}: {@link #mT()} transposes batches of
     * matrices.
     */
    public Tensor T() {
        int n = dim();
        if (n != 2 && n != 0) {
            Warnings.warnOnce(
                    Warnings.Category.USER_WARNING,
                    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it "
                            + "will throw an error in a future release. Consider `x.mT` to transpose batches of "
                            + "matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions "
                            + "of a tensor.");
        }
        if (n == 0) {
            Warnings.warnOnce(
                    Warnings.Category.USER_WARNING,
                    "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.");
        }
        long[] reversed = new long[n];
        for (int i = 0; i < n; i++) reversed[i] = n - 1 - i;
        return Aten.PERMUTE.call1(this, reversed);
    }

    /** {@code x.float()} ({@code float} is a Java keyword): {@code to(DType.FLOAT32)}, this tensor if already so. */
    public Tensor toFloat() {
        return to(DType.FLOAT32);
    }

    /** {@code x.double()} ({@code double} is a Java keyword): {@code to(DType.FLOAT64)}. */
    public Tensor toDouble() {
        return to(DType.FLOAT64);
    }

    /** {@code x.long()} ({@code long} is a Java keyword): {@code to(DType.INT64)}. */
    public Tensor toLong() {
        return to(DType.INT64);
    }

    /** {@code x.int()} ({@code int} is a Java keyword): {@code to(DType.INT32)}. */
    public Tensor toInt() {
        return to(DType.INT32);
    }

    /** {@code x.half()}: {@code to(DType.FLOAT16)}. */
    public Tensor half() {
        return to(DType.FLOAT16);
    }

    /** {@code x.bfloat16()}: {@code to(DType.BFLOAT16)}. */
    public Tensor bfloat16() {
        return to(DType.BFLOAT16);
    }

    /** {@code x.bool()}: {@code to(DType.BOOL)}. */
    public Tensor bool() {
        return to(DType.BOOL);
    }

    /**
     * {@code x.tolist()}: the elements as nested {@code List}s, one level per dimension; a 0-d tensor gives its element
     * alone. Elements are Java's counterparts of Python's numbers: {@code Double} for floating dtypes, {@code Long} for
     * integer dtypes (uint64 values above {@link Long#MAX_VALUE} as their two's-complement bits), {@code Boolean} for
     * bool and a complex {@link Scalar} for complex dtypes.
     */
    public Object tolist() {
        List<Object> flat = new java.util.ArrayList<>(Math.toIntExact(numel()));
        DType d = dtype();
        if (d == DType.BOOL) {
            for (boolean b : toBooleanArray()) flat.add(b);
        } else if (d.isComplex()) {
            double[] v = toDoubleArray();
            for (int i = 0; i < v.length; i += 2) flat.add(Scalar.complex(v[i], v[i + 1]));
        } else if (d.isFloatingPoint()) {
            for (double v : toDoubleArray()) flat.add(v);
        } else {
            for (long v : toLongArray()) flat.add(v);
        }
        if (dim() == 0) return flat.getFirst();
        return nested(flat, impl.shapeRef(), 0, 0);
    }

    /** The row-major elements from {@code offset} on, as lists nested from dimension {@code dim} on. */
    private static List<Object> nested(List<Object> flat, long[] shape, int dim, int offset) {
        int n = (int) shape[dim];
        if (dim == shape.length - 1) return List.copyOf(flat.subList(offset, offset + n));
        int block = 1;
        for (int d = dim + 1; d < shape.length; d++) block *= (int) shape[d];
        List<Object> out = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(nested(flat, shape, dim + 1, offset + i * block));
        return List.copyOf(out);
    }

    // ---- argument conversions of the entry points above ----------------------------------------------------------

    static Object alphaOf(Tensor a, Tensor b, double alpha) {
        if (alpha == Math.rint(alpha)
                && !(a.isFloatingPoint() || a.isComplex() || b.isFloatingPoint() || b.isComplex())) {
            return (long) alpha; // an integral alpha is an int scalar, as in Python
        }
        return alpha;
    }

    private static long[] dims(long dim) {
        return new long[] {dim};
    }

    private static long[] longs(int[] a) {
        long[] r = new long[a.length];
        for (int i = 0; i < a.length; i++) r[i] = a[i];
        return r;
    }

    /** An optional bound as the op takes it: absent stays null. */
    private static Scalar scalar(Object o) {
        return o == null ? null : Scalar.of(o);
    }

    /**
     * An in-place write of {@code args[0]} (the op's self) through an op that refuses a destination whose elements
     * share memory (an expanded tensor).
     */
    private static Tensor writeWithoutOverlap(AtenOp op, Object... args) {
        Tensor self = (Tensor) args[0];
        InternalOverlap.check(self.impl);
        return op.inPlace(self, args);
    }
}
