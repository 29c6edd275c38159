package org.jtorch;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.ServiceLoader;
import org.jtorch.autograd.graph.Node;
import org.jtorch.dispatch.DispatchState;
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

    private String viewWriteRefusal;
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
     * {@link #detach()} and to refuse direct data reads. No PyTorch counterpart: in PyTorch this is C++ (functorch).
     */
    public interface TransformPayload {
        /** The payload of {@code Tensor.detach()} of the wrapper. */
        TransformPayload detached();

        /** The error for a direct data read ({@code Tensor.item()}, {@code toDoubleArray()}...) of the wrapper. */
        TorchException dataAccess(String op);
    }

    private Tensor(TensorImpl impl) {
        this.impl = impl;
    }

    /**
     * Internal, not API: the tensor over {@code impl}, owning its layout (not a view of another tensor). Ops use it to
     * hand out what their kernels produced. ({@code TensorImpl} is in a package the module does not export: a client
     * can neither name nor use it.) No PyTorch counterpart.
     */
    @SuppressWarnings("exports")
    public static Tensor of(TensorImpl impl) {
        return new Tensor(java.util.Objects.requireNonNull(impl, "impl"));
    }

    /**
     * Internal, not API: a view of {@code base} over {@code view}, which shares {@code base}'s storage; the result
     * records {@code base} (or base's own base) as its {@link #viewBase()}, as PyTorch's views do
     * ({@code Tensor._base}).
     */
    @SuppressWarnings("exports")
    public static Tensor viewOf(Tensor base, TensorImpl view) {
        Tensor t = new Tensor(view);
        t.base = base.base != null ? base.base : base;
        t.viewWriteRefusal = base.viewWriteRefusal;
        if (t.viewWriteRefusal == null
                && t.base.requiresGrad()
                && !DispatchState.current().isGradEnabled()) {
            t.viewWriteRefusal = NO_GRAD_VIEW_WRITE;
        }
        return t;
    }

    private static final String NO_GRAD_VIEW_WRITE = "A view was created in no_grad mode and is being modified "
            + "inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. "
            + "You can clarify your code by moving both the view and the inplace either both inside the no_grad block "
            + "(if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked).";

    /**
     * Internal, not API: the error an in-place write through this view raises while grad mode is on, or null — set for
     * views made in no-grad mode of a tensor that requires grad, for the outputs of ops returning several views (see
     * {@link #refuseViewWrites}), and inherited by views of such views, as PyTorch's {@code CreationMeta} is. No
     * PyTorch counterpart.
     */
    public String viewWriteRefusal() {
        return viewWriteRefusal;
    }

    /**
     * Internal, not API: makes in-place writes through this view raise {@code error} while grad mode is on (an op that
     * returns several views, as {@code unbind} and {@code split}, marks its outputs so). No PyTorch counterpart.
     */
    public void refuseViewWrites(String error) {
        this.viewWriteRefusal = error;
    }

    /** Internal, not API: the storage, geometry and dtype that kernels read (no PyTorch counterpart). */
    @SuppressWarnings("exports")
    public TensorImpl impl() {
        return impl;
    }

    /** The base of a view ({@code Tensor._base}), or null for a tensor that owns its storage's layout. */
    public Tensor viewBase() {
        return base;
    }

    /**
     * A transform wrapper with logical sizes {@code shape}: it owns no data (a read raises the payload's error) and
     * every op on it is handled by the transform on the mode stack that knows the payload. No PyTorch counterpart:
     * functorch makes its wrappers in C++.
     */
    public static Tensor transformWrapper(long[] shape, DType dtype, Device device, TransformPayload payload) {
        Storage s = device == Device.META
                ? Storage.meta(dtype.storageKind(), 0)
                : Storage.ofSegment(dtype.storageKind(), MemorySegment.NULL);
        Tensor t = new Tensor(TensorImpl.contiguous(s, shape, dtype));
        t.payload = java.util.Objects.requireNonNull(payload, "payload");
        return t;
    }

    /** The payload of a transform wrapper, or null for an ordinary tensor (no PyTorch counterpart). */
    public TransformPayload transformPayload() {
        return payload;
    }

    // ---- geometry -------------------------------------------------------------------------------

    /** Sizes ({@code Tensor.shape}, {@code Tensor.size()}); the returned array is a copy. */
    public long[] shape() {
        return impl.shapeRef().clone();
    }

    /** {@code Tensor.size}: returns the size of the {@code self} tensor. */
    public long size(int dim) {
        return impl.size(dim);
    }

    /** Strides in elements ({@code Tensor.stride()}); a copy. */
    public long[] stride() {
        return impl.strideRef().clone();
    }

    /** {@code Tensor.stride}: returns the stride of {@code self} tensor. */
    public long stride(int dim) {
        return impl.stride(dim);
    }

    /** {@code Tensor.dim}: returns the number of dimensions of {@code self} tensor. */
    public int dim() {
        return impl.dim();
    }

    /** {@code Tensor.ndim}: alias for {@code Tensor.dim()}. */
    public int ndim() {
        return impl.dim();
    }

    /**
     * {@code Tensor.numel}: returns the total number of elements in the {@code input} tensor; see {@code torch.numel}.
     */
    public long numel() {
        return impl.numel();
    }

    /** {@code Tensor.dtype}: the element type of this tensor. */
    public DType dtype() {
        return impl.dtype();
    }

    /** {@code Tensor.device}: is the {@code torch.device} where this Tensor is. */
    public Device device() {
        return impl.device();
    }

    /** {@code Tensor.is_meta}: is {@code true} if the Tensor is a meta tensor, {@code false} otherwise. */
    public boolean isMeta() {
        return impl.isMeta();
    }

    /**
     * {@code Tensor.is_contiguous}: returns {@code true} if {@code self} tensor is contiguous in memory in the order
     * specified by memory format.
     */
    public boolean isContiguous() {
        return impl.isContiguous();
    }

    /**
     * {@code Tensor.storage_offset}: returns {@code self} tensor's offset in the underlying storage in terms of number
     * of storage elements (not bytes).
     */
    public long storageOffset() {
        return impl.storageOffset();
    }

    /** {@code Tensor.is_complex}: returns {@code true} if the data type of {@code self} is a complex data type. */
    public boolean isComplex() {
        return impl.dtype().isComplex();
    }

    /**
     * {@code Tensor.is_floating_point}: returns {@code true} if the data type of {@code self} is a floating point data
     * type.
     */
    public boolean isFloatingPoint() {
        return impl.dtype().isFloatingPoint();
    }

    /** {@code Tensor.element_size}: returns the size in bytes of an individual element. */
    public long elementSize() {
        return impl.dtype().itemSize();
    }

    /**
     * The storage; the same object for tensors that share memory ({@code Tensor.untyped_storage()}), also across
     * {@link #view(DType)}.
     */
    public Object untypedStorage() {
        return impl.storage().root();
    }

    /** Version counter shared by all views (bumped by in-place ops); PyTorch's {@code Tensor._version}. */
    public int version() {
        return impl.version();
    }

    // ---- autograd ----------------------------------------------------------------------------------

    /**
     * Whether gradients flow to this tensor ({@code Tensor.requires_grad}): a leaf marked with
     * {@code requiresGrad(true)} or the result of a recorded op.
     */
    public boolean requiresGrad() {
        return requiresGrad || gradFn != null;
    }

    /** {@code Tensor.requires_grad_(flag)}: returns this. Only leaves of floating or complex dtype can be marked. */
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

    /** The accumulated gradient ({@code Tensor.grad}) of a leaf (or of a tensor that called {@link #retainGrad()}). */
    public Tensor grad() {
        return grad;
    }

    /** {@code Tensor.grad = g}: assigns this tensor's gradient; it must have this tensor's shape, or be null. */
    public void setGrad(Tensor g) {
        if (g != null && !java.util.Arrays.equals(g.impl.shapeRef(), impl.shapeRef())) {
            throw new TorchException("assigned grad has data of a different size");
        }
        // a gradient outlives the call that computed it: never handed back by a MemoryScope it was made in
        if (g != null) org.jtorch.storage.ArrayPool.keepInOpenScopes(g.impl.storage());
        this.grad = g;
    }

    /** The node that produced this tensor ({@code Tensor.grad_fn}), or null for leaves. */
    public Node<Tensor> gradFn() {
        return gradFn;
    }

    /** Which output of {@link #gradFn()} this tensor is ({@code Tensor.output_nr}). */
    public int outputNr() {
        return outputNr;
    }

    /** Whether this is a leaf of the autograd graph, with no {@code grad_fn} ({@code Tensor.is_leaf}). */
    public boolean isLeaf() {
        return gradFn == null;
    }

    /** Attaches autograd history; used by the recorder, with a node of the autograd engine (no PyTorch counterpart). */
    public void setGradFn(Node<Tensor> node, int outputNr) {
        this.gradFn = node;
        this.outputNr = outputNr;
    }

    /**
     * The node that accumulates this leaf's gradient (one per leaf, so hooks and accumulation are shared); the
     * {@code AccumulateGrad} node of the {@code torch.autograd} graph, which PyTorch reaches via
     * {@code next_functions}.
     */
    public synchronized Node<Tensor> gradAccumulator() {
        if (accumulator == null) accumulator = Hooks.AUTOGRAD.newGradAccumulator(this);
        return accumulator;
    }

    /** A tensor sharing this one's storage, without history and not requiring grad ({@code Tensor.detach()}). */
    public Tensor detach() {
        Tensor t = new Tensor(impl);
        if (payload != null) t.payload = payload.detached();
        return t;
    }

    /** {@code Tensor.detach_()}: drops this tensor's history in place. */
    public Tensor detach_() {
        gradFn = null;
        requiresGrad = false;
        return this;
    }

    /** {@code Tensor.retain_grad()}: a non-leaf keeps its gradient in {@link #grad()} after backward. */
    public void retainGrad() {
        if (gradFn == null) {
            if (!requiresGrad) throw new TorchException("can't retainGrad() on Tensor that has requiresGrad() false");
            return; // leaves always keep their gradient
        }
        if (retainsGrad) return;
        retainsGrad = true;
        Hooks.AUTOGRAD.retainGrad(this);
    }

    /**
     * {@code Tensor.retains_grad}: is {@code true} if this Tensor is non-leaf and its {@code grad} is enabled to be
     * populated during {@code backward}, {@code false} otherwise.
     */
    public boolean retainsGrad() {
        return retainsGrad;
    }

    /**
     * {@code Tensor.register_hook(fn)}: {@code fn} sees (and may replace) the gradient of this tensor; the handle
     * removes the hook.
     */
    public RemovableHandle registerHook(java.util.function.UnaryOperator<Tensor> fn) {
        return Hooks.AUTOGRAD.registerHook(this, fn);
    }

    /** {@code Tensor.backward()} of a one-element tensor. */
    public void backward() {
        Hooks.AUTOGRAD.backward(java.util.List.of(this), null, null, false, null);
    }

    /** {@code Tensor.backward(gradient)}. */
    public void backward(Tensor gradient) {
        Hooks.AUTOGRAD.backward(
                java.util.List.of(this), java.util.Collections.singletonList(gradient), null, false, null);
    }

    /** {@code Tensor.backward(gradient, retain_graph, create_graph)}; a null gradient means ones for a scalar. */
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

    /** The value of a one-element tensor ({@code Tensor.item()}), converted to double (the real part for complex). */
    public double item() {
        if (impl.numel() != 1) {
            throw new TorchException("a Tensor with " + impl.numel() + " elements cannot be converted to Scalar");
        }
        return ElementIO.of(impl.dtype()).getDouble(data("item"), impl.elementIndex(0));
    }

    /** {@code Tensor.item()} for integer tensors, exact for all 64 bits. */
    public long longItem() {
        if (impl.numel() != 1) {
            throw new TorchException("a Tensor with " + impl.numel() + " elements cannot be converted to Scalar");
        }
        return ElementIO.of(impl.dtype()).getLong(data("item"), impl.elementIndex(0));
    }

    /** All elements in row-major order, converted to double ({@code Tensor.tolist()}, flat). Complex gives (re, im). */
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

    /** All elements in row-major order, converted to float ({@code Tensor.tolist()}, flattened). */
    public float[] toFloatArray() {
        double[] d = toDoubleArray();
        float[] f = new float[d.length];
        for (int i = 0; i < d.length; i++) f[i] = (float) d[i];
        return f;
    }

    /** All elements in row-major order, converted to long, floats truncated ({@code Tensor.tolist()}, flattened). */
    public long[] toLongArray() {
        MemorySegment s = data("toLongArray");
        ElementIO io = ElementIO.of(impl.dtype());
        int n = Math.toIntExact(impl.numel());
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = io.getLong(s, impl.elementIndex(i));
        return out;
    }

    /** All elements as booleans, non-zero is true ({@code Tensor.tolist()}, flattened). */
    public boolean[] toBooleanArray() {
        double[] d = toDoubleArray();
        boolean[] b = new boolean[(int) impl.numel()];
        int step = impl.dtype().isComplex() ? 2 : 1;
        for (int i = 0; i < b.length; i++) b[i] = d[step * i] != 0 || (step == 2 && d[2 * i + 1] != 0);
        return b;
    }

    // ---- ops (one-line delegations; the definitions live in org.jtorch.ops) -----------------------

    /** {@code Tensor.to}: performs Tensor dtype and/or device conversion. */
    public Tensor to(DType dtype) {
        if (dtype() == dtype) return this;
        return Aten._TO_COPY.call1(this, dtype, null);
    }

    /** {@code Tensor.clone}: returns a copy of {@code input}; see {@code torch.clone}. */
    public Tensor clone() {
        return Aten._TO_COPY.call1(this, null, null);
    }

    /**
     * {@code Tensor.contiguous}: returns a contiguous in memory tensor containing the same data as {@code self} tensor.
     */
    public Tensor contiguous() {
        return isContiguous() ? this : clone();
    }

    /** {@code Tensor.copy_}: copies the elements from {@code src} into {@code self} tensor and returns {@code self}. */
    public Tensor copy_(Tensor src) {
        return Aten._TO_COPY.inPlace(this, src, dtype(), impl.shapeRef());
    }

    /** {@code Tensor.add}: add a scalar or tensor to {@code self} tensor. */
    public Tensor add(Tensor o) {
        return Aten.ADD_TENSOR.call1(this, o);
    }

    /** {@code Tensor.add}: add a scalar or tensor to {@code self} tensor. */
    public Tensor add(Tensor o, double alpha) {
        return Aten.ADD_TENSOR.call1(this, o, alphaOf(this, o, alpha));
    }

    /** {@code Tensor.add}: add a scalar or tensor to {@code self} tensor. */
    public Tensor add(double s) {
        return Aten.ADD_TENSOR.call1(this, s);
    }

    /** {@code Tensor.add}: add a scalar or tensor to {@code self} tensor. */
    public Tensor add(long s) {
        return Aten.ADD_TENSOR.call1(this, s);
    }

    /**
     * {@code Tensor.add} of a Python bool ({@code tensor + True}): a weak bool scalar, so the tensor's dtype is kept (a
     * bool tensor gives the logical or).
     */
    public Tensor add(boolean s) {
        return Aten.ADD_TENSOR.call1(this, s);
    }

    /**
     * {@code Tensor.sub}: subtracts {@code other}, scaled by {@code alpha}, from {@code input}; see {@code torch.sub}.
     */
    public Tensor sub(Tensor o) {
        return Aten.SUB_TENSOR.call1(this, o);
    }

    /**
     * {@code Tensor.sub}: subtracts {@code other}, scaled by {@code alpha}, from {@code input}; see {@code torch.sub}.
     */
    public Tensor sub(Tensor o, double alpha) {
        return Aten.SUB_TENSOR.call1(this, o, alphaOf(this, o, alpha));
    }

    /**
     * {@code Tensor.sub}: subtracts {@code other}, scaled by {@code alpha}, from {@code input}; see {@code torch.sub}.
     */
    public Tensor sub(double s) {
        return Aten.SUB_TENSOR.call1(this, s);
    }

    /**
     * {@code Tensor.sub}: subtracts {@code other}, scaled by {@code alpha}, from {@code input}; see {@code torch.sub}.
     */
    public Tensor sub(long s) {
        return Aten.SUB_TENSOR.call1(this, s);
    }

    /** {@code Tensor.mul}: multiplies {@code input} by {@code other}; see {@code torch.mul}. */
    public Tensor mul(Tensor o) {
        return Aten.MUL_TENSOR.call1(this, o);
    }

    /** {@code Tensor.mul}: multiplies {@code input} by {@code other}; see {@code torch.mul}. */
    public Tensor mul(double s) {
        return Aten.MUL_TENSOR.call1(this, s);
    }

    /** {@code Tensor.mul}: multiplies {@code input} by {@code other}; see {@code torch.mul}. */
    public Tensor mul(long s) {
        return Aten.MUL_TENSOR.call1(this, s);
    }

    /**
     * {@code Tensor.div}: divides each element of the input {@code input} by the corresponding element of
     * {@code other}; see {@code torch.div}.
     */
    public Tensor div(Tensor o) {
        return Aten.DIV_TENSOR.call1(this, o);
    }

    /**
     * {@code Tensor.div}: divides each element of the input {@code input} by the corresponding element of
     * {@code other}; see {@code torch.div}.
     */
    public Tensor div(double s) {
        return Aten.DIV_TENSOR.call1(this, s);
    }

    /**
     * {@code Tensor.div}: divides each element of the input {@code input} by the corresponding element of
     * {@code other}; see {@code torch.div}.
     */
    public Tensor div(long s) {
        return Aten.DIV_TENSOR.call1(this, s);
    }

    /**
     * {@code Tensor.div}: divides each element of the input {@code input} by the corresponding element of
     * {@code other}; see {@code torch.div}.
     */
    public Tensor div(Object o, RoundingMode mode) {
        return switch (mode) {
            case NONE -> Aten.DIV_TENSOR.call1(this, o);
            case TRUNC -> Aten.DIV_TENSOR_MODE.call1(this, o, "trunc");
            case FLOOR -> Aten.FLOOR_DIVIDE.call1(this, o);
        };
    }

    /**
     * {@code Tensor.remainder}: the remainder of division, element-wise, with the sign of the divisor (Python's
     * {@code %}).
     */
    public Tensor remainder(Object o) {
        return Aten.REMAINDER_TENSOR.call1(this, o);
    }

    /**
     * {@code Tensor.fmod}: the remainder of division, element-wise, with the sign of the dividend (C++'s
     * {@code std::fmod}).
     */
    public Tensor fmod(Object o) {
        return Aten.FMOD_TENSOR.call1(this, o);
    }

    /**
     * {@code Tensor.pow}: takes the power of each element in {@code input} with {@code exponent} and returns a tensor
     * with the result; see {@code torch.pow}.
     */
    public Tensor pow(Tensor o) {
        return Aten.POW_TENSOR_TENSOR.call1(this, o);
    }

    /** {@code Tensor.logaddexp}: logarithm of the sum of exponentiations of the inputs; see {@code torch.logaddexp}. */
    public Tensor logaddexp(Tensor o) {
        return Aten.LOGADDEXP.call1(this, o);
    }

    /**
     * {@code Tensor.logaddexp2}: logarithm of the sum of exponentiations of the inputs in base-2; see
     * {@code torch.logaddexp2}.
     */
    public Tensor logaddexp2(Tensor o) {
        return Aten.LOGADDEXP2.call1(this, o);
    }

    /**
     * {@code Tensor.pow}: takes the power of each element in {@code input} with {@code exponent} and returns a tensor
     * with the result; see {@code torch.pow}.
     */
    public Tensor pow(double e) {
        return Aten.POW_TENSOR_TENSOR.call1(this, e);
    }

    /**
     * {@code Tensor.pow}: takes the power of each element in {@code input} with {@code exponent} and returns a tensor
     * with the result; see {@code torch.pow}.
     */
    public Tensor pow(long e) {
        return Aten.POW_TENSOR_TENSOR.call1(this, e);
    }

    /**
     * {@code Tensor.pow} of a Python bool ({@code tensor ** True}): a weak bool exponent, so the tensor's dtype is
     * kept; see {@code torch.pow}.
     */
    public Tensor pow(boolean e) {
        return Aten.POW_TENSOR_TENSOR.call1(this, e);
    }

    /**
     * {@code Tensor.maximum}: computes the element-wise maximum of {@code input} and {@code other}; see
     * {@code torch.maximum}.
     */
    public Tensor maximum(Tensor o) {
        return Aten.MAXIMUM.call1(this, o);
    }

    /**
     * {@code Tensor.minimum}: computes the element-wise minimum of {@code input} and {@code other}; see
     * {@code torch.minimum}.
     */
    public Tensor minimum(Tensor o) {
        return Aten.MINIMUM.call1(this, o);
    }

    /** {@code Tensor.eq}: computes element-wise equality; see {@code torch.eq}. */
    public Tensor eq(Object o) {
        return Aten.EQ_TENSOR.call1(this, o);
    }

    /** {@code Tensor.ne}: computes {@code input != other} element-wise. */
    public Tensor ne(Object o) {
        return Aten.NE_TENSOR.call1(this, o);
    }

    /** {@code Tensor.lt}: computes {@code input < other} element-wise. */
    public Tensor lt(Object o) {
        return Aten.LT_TENSOR.call1(this, o);
    }

    /** {@code Tensor.le}: computes {@code input <= other} element-wise. */
    public Tensor le(Object o) {
        return Aten.LE_TENSOR.call1(this, o);
    }

    /** {@code Tensor.gt}: computes {@code input > other} element-wise. */
    public Tensor gt(Object o) {
        return Aten.GT_TENSOR.call1(this, o);
    }

    /** {@code Tensor.ge}: computes {@code input >= other} element-wise. */
    public Tensor ge(Object o) {
        return Aten.GE_TENSOR.call1(this, o);
    }

    /**
     * {@code Tensor.logical_not}: computes the element-wise logical NOT of the given input tensor; see
     * {@code torch.logical_not}.
     */
    public Tensor logicalNot() {
        return Aten.LOGICAL_NOT.call1(this);
    }

    /**
     * {@code Tensor.neg}: returns a new tensor with the negative of the elements of {@code input}; see
     * {@code torch.neg}.
     */
    public Tensor neg() {
        return Aten.NEG.call1(this);
    }

    /** {@code Tensor.abs}: computes the absolute value of each element in {@code input}; see {@code torch.abs}. */
    public Tensor abs() {
        return Aten.ABS.call1(this);
    }

    /**
     * {@code Tensor.sign}: returns a new tensor with the signs of the elements of {@code input}; see
     * {@code torch.sign}.
     */
    public Tensor sign() {
        return Aten.SIGN.call1(this);
    }

    /**
     * {@code Tensor.reciprocal}: returns a new tensor with the reciprocal of the elements of {@code input}; see
     * {@code torch.reciprocal}.
     */
    public Tensor reciprocal() {
        return Aten.RECIPROCAL.call1(this);
    }

    /**
     * {@code Tensor.square}: returns a new tensor with the square of the elements of {@code input}; see
     * {@code torch.square}.
     */
    public Tensor square() {
        return Aten.SQUARE.call1(this);
    }

    /**
     * {@code Tensor.exp}: returns a new tensor with the exponential of the elements of the input tensor {@code input};
     * see {@code torch.exp}.
     */
    public Tensor exp() {
        return Aten.EXP.call1(this);
    }

    /** {@code Tensor.exp2}: alias for {@code torch.special.exp2}; see {@code torch.exp2}. */
    public Tensor exp2() {
        return Aten.EXP2.call1(this);
    }

    /**
     * {@code Tensor.log}: returns a new tensor with the natural logarithm of the elements of {@code input}; see
     * {@code torch.log}.
     */
    public Tensor log() {
        return Aten.LOG.call1(this);
    }

    /**
     * {@code Tensor.sqrt}: returns a new tensor with the square-root of the elements of {@code input}; see
     * {@code torch.sqrt}.
     */
    public Tensor sqrt() {
        return Aten.SQRT.call1(this);
    }

    /**
     * {@code Tensor.rsqrt}: returns a new tensor with the reciprocal of the square-root of each of the elements of
     * {@code input}; see {@code torch.rsqrt}.
     */
    public Tensor rsqrt() {
        return Aten.RSQRT.call1(this);
    }

    /**
     * {@code Tensor.sin}: returns a new tensor with the sine of the elements in the {@code input} tensor, where each
     * value in this input tensor is in radians; see {@code torch.sin}.
     */
    public Tensor sin() {
        return Aten.SIN.call1(this);
    }

    /**
     * {@code Tensor.cos}: returns a new tensor with the cosine of the elements of {@code input} given in radians; see
     * {@code torch.cos}.
     */
    public Tensor cos() {
        return Aten.COS.call1(this);
    }

    /**
     * {@code Tensor.tanh}: returns a new tensor with the hyperbolic tangent of the elements of {@code input}; see
     * {@code torch.tanh}.
     */
    public Tensor tanh() {
        return Aten.TANH.call1(this);
    }

    /** {@code Tensor.sigmoid}: alias for {@code torch.special.expit}; see {@code torch.sigmoid}. */
    public Tensor sigmoid() {
        return Aten.SIGMOID.call1(this);
    }

    /**
     * {@code Tensor.lgamma}: computes the natural logarithm of the absolute value of the gamma function on
     * {@code input}; see {@code torch.lgamma}.
     */
    public Tensor lgamma() {
        return Aten.LGAMMA.call1(this);
    }

    /** {@code Tensor.digamma}: alias for {@code torch.special.digamma}; see {@code torch.digamma}. */
    public Tensor digamma() {
        return Aten.DIGAMMA.call1(this);
    }

    /** {@code Tensor.polygamma}: alias for {@code torch.special.polygamma}; see {@code torch.polygamma}. */
    public Tensor polygamma(long n) {
        return Aten.POLYGAMMA.call1(n, this);
    }

    /** {@code Tensor.trace}: the sum of the main diagonal of a matrix; see {@code torch.trace}. */
    public Tensor trace() {
        return Aten.TRACE.call1(this);
    }

    /** {@code Tensor.logdet}: log det of a square matrix (or batch); see {@code torch.logdet}. */
    public Tensor logdet() {
        return Aten.LOGDET.call1(this);
    }

    /**
     * {@code Tensor.logcumsumexp}: log of the running sum of exponentials along dim; see {@code torch.logcumsumexp}.
     */
    public Tensor logcumsumexp(long dim) {
        return Aten.LOGCUMSUMEXP.call1(this, dim);
    }

    /** {@code Tensor.median}: the lower median of all elements; see {@code torch.median}. */
    public Tensor median() {
        return Aten.MEDIAN.call1(this);
    }

    /** {@code Tensor.nanmedian}: the lower median of the non-NaN elements; see {@code torch.nanmedian}. */
    public Tensor nanmedian() {
        return Aten.NANMEDIAN.call1(this);
    }

    /** {@code Tensor.sinc}: the normalised sinc, sin(πx)/(πx); see {@code torch.sinc}. */
    public Tensor sinc() {
        return Aten.SINC.call1(this);
    }

    /** {@code Tensor.i0}: the modified Bessel function I₀; see {@code torch.i0}. */
    public Tensor i0() {
        return Aten.I0.call1(this);
    }

    /** {@code Tensor.heaviside}: the Heaviside step with {@code values} at 0; see {@code torch.heaviside}. */
    public Tensor heaviside(Tensor values) {
        return Aten.HEAVISIDE.call1(this, values);
    }

    /** {@code Tensor.igamma(other)}: P(this, other), the regularized lower incomplete gamma function. */
    public Tensor igamma(Tensor other) {
        return Aten.IGAMMA.call1(this, other);
    }

    /** {@code Tensor.igammac(other)}: Q(this, other) = 1 - P(this, other). */
    public Tensor igammac(Tensor other) {
        return Aten.IGAMMAC.call1(this, other);
    }

    /** {@code Tensor.relu}: applies the rectified linear unit {@code max(0, x)} element-wise. */
    public Tensor relu() {
        return Aten.RELU.call1(this);
    }

    /**
     * {@code Tensor.floor}: returns a new tensor with the floor of the elements of {@code input}, the largest integer
     * less than or equal to each element; see {@code torch.floor}.
     */
    public Tensor floor() {
        return Aten.FLOOR.call1(this);
    }

    /**
     * {@code Tensor.ceil}: returns a new tensor with the ceil of the elements of {@code input}, the smallest integer
     * greater than or equal to each element; see {@code torch.ceil}.
     */
    public Tensor ceil() {
        return Aten.CEIL.call1(this);
    }

    /** {@code Tensor.round}: rounds elements of {@code input} to the nearest integer; see {@code torch.round}. */
    public Tensor round() {
        return Aten.ROUND_DECIMALS.call1(this, 0L);
    }

    /**
     * {@code Tensor.isnan}: returns a new tensor with boolean elements representing if each element of {@code input} is
     * NaN or not; see {@code torch.isnan}.
     */
    public Tensor isnan() {
        return Aten.ISNAN.call1(this);
    }

    /** {@code Tensor.isclose(other)}: see {@code torch.isclose} (rtol = 1e-05, atol = 1e-08, equal_nan = False). */
    public Tensor isclose(Tensor other) {
        return isclose(other, 1e-05, 1e-08, false);
    }

    /** {@code Tensor.isclose(other, rtol, atol, equal_nan)}: see {@code torch.isclose}. */
    public Tensor isclose(Tensor other, double rtol, double atol, boolean equalNan) {
        return Aten.ISCLOSE.call1(this, other, rtol, atol, equalNan);
    }

    /** {@code Tensor.allclose(other)}: see {@code torch.allclose} (rtol = 1e-05, atol = 1e-08, equal_nan = False). */
    public boolean allclose(Tensor other) {
        return allclose(other, 1e-05, 1e-08, false);
    }

    /** {@code Tensor.allclose(other, rtol, atol, equal_nan)}: see {@code torch.allclose}. */
    public boolean allclose(Tensor other, double rtol, double atol, boolean equalNan) {
        return isclose(other, rtol, atol, equalNan).all().item() != 0;
    }

    // in-place forms: the result is written into this tensor (its dtype must hold the result)

    /** {@code Tensor.add_}: in-place version of {@code Tensor.add}. */
    public Tensor add_(Tensor o) {
        return Aten.ADD_TENSOR.inPlace(this, this, o);
    }

    /** {@code Tensor.sub_}: in-place version of {@code Tensor.sub}. */
    public Tensor sub_(Tensor o) {
        return Aten.SUB_TENSOR.inPlace(this, this, o);
    }

    /** {@code Tensor.mul_}: in-place version of {@code Tensor.mul}. */
    public Tensor mul_(Tensor o) {
        return Aten.MUL_TENSOR.inPlace(this, this, o);
    }

    /** {@code Tensor.div_}: in-place version of {@code Tensor.div}. */
    public Tensor div_(Tensor o) {
        return Aten.DIV_TENSOR.inPlace(this, this, o);
    }

    /** {@code Tensor.add_}: in-place version of {@code Tensor.add}. */
    public Tensor add_(double s) {
        return Aten.ADD_TENSOR.inPlace(this, this, s);
    }

    /** {@code Tensor.mul_}: in-place version of {@code Tensor.mul}. */
    public Tensor mul_(double s) {
        return Aten.MUL_TENSOR.inPlace(this, this, s);
    }

    /** {@code Tensor.exp_}: in-place version of {@code Tensor.exp}. */
    public Tensor exp_() {
        return Aten.EXP.inPlace(this, this);
    }

    /** {@code Tensor.where(condition, y)}: elements of this where condition holds, else of {@code other}. */
    public Tensor where(Tensor condition, Object other) {
        return Aten.WHERE_SELF.call1(condition, this, other);
    }

    @Override
    public String toString() {
        return TensorFormatter.format(this);
    }

    // ---- generated delegations: begin (one line per op entry point in org.jtorch.ops; logic lives there) ----

    /**
     * {@code Tensor.view}: returns a new tensor with the same data as the {@code self} tensor but of a different
     * {@code shape}.
     */
    public Tensor view(long... size) {
        return Aten.VIEW.call1(this, size.clone());
    }

    /**
     * {@code Tensor.view(dtype)}: this tensor's memory read as {@code dtype}, sharing it (writes show through both).
     * Elements of another size regroup the last dimension, which must have stride 1; the result never requires grad.
     */
    public Tensor view(DType dtype) {
        return Aten.VIEW_DTYPE.call1(this, dtype);
    }

    /**
     * {@code Tensor.reshape}: returns a tensor with the same data and number of elements as {@code self} but with the
     * specified shape.
     */
    public Tensor reshape(long... shape) {
        return Aten.RESHAPE.call1(this, shape.clone());
    }

    /** {@code Tensor.permute}: returns a view of the tensor with its dimensions permuted. */
    public Tensor permute(int... dims) {
        return Aten.PERMUTE.call1(this, longs(dims));
    }

    /**
     * {@code Tensor.transpose}: returns a tensor that is a transposed version of {@code input}; see
     * {@code torch.transpose}.
     */
    public Tensor transpose(int dim0, int dim1) {
        return Aten.TRANSPOSE_INT.call1(this, (long) dim0, (long) dim1);
    }

    /** {@code Tensor.swapaxes}: alias for {@code torch.transpose}; see {@code torch.swapaxes}. */
    public Tensor swapaxes(int axis0, int axis1) {
        return Aten.TRANSPOSE_INT.call1(this, (long) axis0, (long) axis1);
    }

    /**
     * {@code Tensor.t}: expects {@code input} to be &lt;= 2-D tensor and transposes dimensions 0 and 1; see
     * {@code torch.t}.
     */
    public Tensor t() {
        return Aten.T.call1(this);
    }

    /** {@code Tensor.mT}: a view of the tensor with its last two dimensions transposed. */
    public Tensor mT() {
        return Aten.MT.call1(this);
    }

    /**
     * {@code Tensor.expand}: returns a new view of the {@code self} tensor with singleton dimensions expanded to a
     * larger size.
     */
    public Tensor expand(long... size) {
        return Aten.EXPAND.call1(this, size.clone(), false);
    }

    /** {@code Tensor.broadcast_to}: broadcasts {@code input} to the shape {@code size}, as a view. */
    public Tensor broadcastTo(long... size) {
        return Aten.BROADCAST_TO.call1(this, size.clone());
    }

    /**
     * {@code Tensor.squeeze}: returns a tensor with all specified dimensions of {@code input} of size 1 removed; see
     * {@code torch.squeeze}.
     */
    public Tensor squeeze() {
        return Aten.SQUEEZE_DIMS.call1(this, null);
    }

    /**
     * {@code Tensor.squeeze}: returns a tensor with all specified dimensions of {@code input} of size 1 removed; see
     * {@code torch.squeeze}.
     */
    public Tensor squeeze(int dim) {
        return Aten.SQUEEZE_DIMS.call1(this, new long[] {dim});
    }

    /**
     * {@code Tensor.squeeze}: returns a tensor with all specified dimensions of {@code input} of size 1 removed; see
     * {@code torch.squeeze}.
     */
    public Tensor squeeze(int... dims) {
        return Aten.SQUEEZE_DIMS.call1(this, longs(dims));
    }

    /**
     * {@code Tensor.unsqueeze}: returns a new tensor with a dimension of size one inserted at the specified position;
     * see {@code torch.unsqueeze}.
     */
    public Tensor unsqueeze(int dim) {
        return Aten.UNSQUEEZE.call1(this, (long) dim);
    }

    /**
     * {@code Tensor.flatten}: flattens {@code input} by reshaping it into a one-dimensional tensor; see
     * {@code torch.flatten}.
     */
    public Tensor flatten() {
        return Aten.FLATTEN_USING_INTS.call1(this, 0L, -1L);
    }

    /**
     * {@code Tensor.flatten}: flattens {@code input} by reshaping it into a one-dimensional tensor; see
     * {@code torch.flatten}.
     */
    public Tensor flatten(int startDim) {
        return Aten.FLATTEN_USING_INTS.call1(this, (long) startDim, -1L);
    }

    /**
     * {@code Tensor.flatten}: flattens {@code input} by reshaping it into a one-dimensional tensor; see
     * {@code torch.flatten}.
     */
    public Tensor flatten(int startDim, int endDim) {
        return Aten.FLATTEN_USING_INTS.call1(this, (long) startDim, (long) endDim);
    }

    /**
     * {@code Tensor.unflatten}: expands a dimension of the input tensor over multiple dimensions; see
     * {@code torch.unflatten}.
     */
    public Tensor unflatten(int dim, long... sizes) {
        return Aten.UNFLATTEN_INT.call1(this, (long) dim, sizes.clone());
    }

    /**
     * {@code Tensor.narrow}: returns a new tensor that is a narrowed version of {@code input} tensor; see
     * {@code torch.narrow}.
     */
    public Tensor narrow(int dim, long start, long length) {
        return Aten.NARROW.call1(this, (long) dim, start, length);
    }

    /**
     * {@code Tensor.select}: slices the {@code input} tensor along the selected dimension at the given index; see
     * {@code torch.select}.
     */
    public Tensor select(int dim, long index) {
        return Aten.SELECT_INT.call1(this, (long) dim, index);
    }

    /**
     * {@code torch.ops.aten.slice}: the view {@code self[..., start:end:step]} along {@code dim} (ATen's
     * {@code aten::slice.Tensor}); a null bound is open.
     */
    public Tensor slice(int dim, Long start, Long end, long step) {
        return Aten.SLICE_TENSOR.call1(this, (long) dim, start, end, step);
    }

    /**
     * {@code torch.ops.aten.slice}: the view {@code self[..., start:end:step]} along {@code dim} (ATen's
     * {@code aten::slice.Tensor}); a null bound is open.
     */
    public Tensor slice(int dim, long start, long end) {
        return Aten.SLICE_TENSOR.call1(this, (long) dim, start, end, 1L);
    }

    /**
     * {@code Tensor.chunk}: attempts to split a tensor into the specified number of chunks; see {@code torch.chunk}.
     */
    public List<Tensor> chunk(int chunks) {
        return Aten.CHUNK.list(this, (long) chunks, 0L);
    }

    /**
     * {@code Tensor.chunk}: attempts to split a tensor into the specified number of chunks; see {@code torch.chunk}.
     */
    public List<Tensor> chunk(int chunks, int dim) {
        return Aten.CHUNK.list(this, (long) chunks, (long) dim);
    }

    /** {@code Tensor.split}: splits the tensor into chunks; see {@code torch.split}. */
    public List<Tensor> split(long splitSize) {
        return Aten.SPLIT_TENSOR.list(this, splitSize, 0L);
    }

    /** {@code Tensor.split}: splits the tensor into chunks; see {@code torch.split}. */
    public List<Tensor> split(long splitSize, int dim) {
        return Aten.SPLIT_TENSOR.list(this, splitSize, (long) dim);
    }

    /** {@code Tensor.split}: splits the tensor into chunks; see {@code torch.split}. */
    public List<Tensor> split(long[] splitSizes) {
        return Aten.SPLIT_WITH_SIZES.list(this, splitSizes.clone(), 0L);
    }

    /** {@code Tensor.split}: splits the tensor into chunks; see {@code torch.split}. */
    public List<Tensor> split(long[] splitSizes, int dim) {
        return Aten.SPLIT_WITH_SIZES.list(this, splitSizes.clone(), (long) dim);
    }

    /** {@code Tensor.split_with_sizes}: splits the tensor along {@code dim} into views of the given sizes. */
    public List<Tensor> splitWithSizes(long[] splitSizes) {
        return Aten.SPLIT_WITH_SIZES.list(this, splitSizes.clone(), 0L);
    }

    /** {@code Tensor.split_with_sizes}: splits the tensor along {@code dim} into views of the given sizes. */
    public List<Tensor> splitWithSizes(long[] splitSizes, int dim) {
        return Aten.SPLIT_WITH_SIZES.list(this, splitSizes.clone(), (long) dim);
    }

    /** {@code Tensor.unbind}: removes a tensor dimension; see {@code torch.unbind}. */
    public List<Tensor> unbind() {
        return Aten.UNBIND_INT.list(this, 0L);
    }

    /** {@code Tensor.unbind}: removes a tensor dimension; see {@code torch.unbind}. */
    public List<Tensor> unbind(int dim) {
        return Aten.UNBIND_INT.list(this, (long) dim);
    }

    /**
     * {@code Tensor.diagonal}: returns a partial view of {@code input} with the its diagonal elements with respect to
     * {@code dim1} and {@code dim2} appended as a dimension at the end of the shape; see {@code torch.diagonal}.
     */
    public Tensor diagonal() {
        return Aten.DIAGONAL.call1(this, 0L, 0L, 1L);
    }

    /**
     * {@code Tensor.diagonal}: returns a partial view of {@code input} with the its diagonal elements with respect to
     * {@code dim1} and {@code dim2} appended as a dimension at the end of the shape; see {@code torch.diagonal}.
     */
    public Tensor diagonal(long offset) {
        return Aten.DIAGONAL.call1(this, offset, 0L, 1L);
    }

    /**
     * {@code Tensor.diagonal}: returns a partial view of {@code input} with the its diagonal elements with respect to
     * {@code dim1} and {@code dim2} appended as a dimension at the end of the shape; see {@code torch.diagonal}.
     */
    public Tensor diagonal(long offset, int dim1, int dim2) {
        return Aten.DIAGONAL.call1(this, offset, (long) dim1, (long) dim2);
    }

    /**
     * {@code Tensor.movedim}: moves the dimension(s) of {@code input} at the position(s) in {@code source} to the
     * position(s) in {@code destination}; see {@code torch.movedim}.
     */
    public Tensor movedim(int source, int destination) {
        return Aten.MOVEDIM_INTLIST.call1(this, longs(new int[] {source}), longs(new int[] {destination}));
    }

    /**
     * {@code Tensor.movedim}: moves the dimension(s) of {@code input} at the position(s) in {@code source} to the
     * position(s) in {@code destination}; see {@code torch.movedim}.
     */
    public Tensor movedim(int[] source, int[] destination) {
        return Aten.MOVEDIM_INTLIST.call1(this, longs(source), longs(destination));
    }

    /**
     * {@code Tensor.as_strided}: create a view of an existing torch.Tensor {@code input} with specified {@code size},
     * {@code stride} and {@code storage_offset}; see {@code torch.as_strided}.
     */
    public Tensor asStrided(long[] size, long[] stride) {
        return Aten.AS_STRIDED.call1(this, size, stride, null);
    }

    /**
     * {@code Tensor.as_strided}: create a view of an existing torch.Tensor {@code input} with specified {@code size},
     * {@code stride} and {@code storage_offset}; see {@code torch.as_strided}.
     */
    public Tensor asStrided(long[] size, long[] stride, long storageOffset) {
        return Aten.AS_STRIDED.call1(this, size, stride, storageOffset);
    }

    /**
     * {@code Tensor.tril}: returns the lower triangular part of the matrix (2-D tensor) or batch of matrices
     * {@code input}, the other elements of the result tensor {@code out} are set to 0; see {@code torch.tril}.
     */
    public Tensor tril() {
        return Aten.TRIL.call1(this, 0L);
    }

    /**
     * {@code Tensor.tril}: returns the lower triangular part of the matrix (2-D tensor) or batch of matrices
     * {@code input}, the other elements of the result tensor {@code out} are set to 0; see {@code torch.tril}.
     */
    public Tensor tril(long diagonal) {
        return Aten.TRIL.call1(this, diagonal);
    }

    /**
     * {@code Tensor.triu}: returns the upper triangular part of a matrix (2-D tensor) or batch of matrices
     * {@code input}, the other elements of the result tensor {@code out} are set to 0; see {@code torch.triu}.
     */
    public Tensor triu() {
        return Aten.TRIU.call1(this, 0L);
    }

    /**
     * {@code Tensor.triu}: returns the upper triangular part of a matrix (2-D tensor) or batch of matrices
     * {@code input}, the other elements of the result tensor {@code out} are set to 0; see {@code torch.triu}.
     */
    public Tensor triu(long diagonal) {
        return Aten.TRIU.call1(this, diagonal);
    }

    /** {@code Tensor.flip}: reverse the order of an n-D tensor along given axis in dims; see {@code torch.flip}. */
    public Tensor flip(int... dims) {
        return Aten.FLIP.call1(this, longs(dims));
    }

    /** {@code Tensor.roll}: roll the tensor {@code input} along the given dimension(s); see {@code torch.roll}. */
    public Tensor roll(long shifts) {
        return Aten.ROLL.call1(this, new long[] {shifts}, new long[0]);
    }

    /** {@code Tensor.roll}: roll the tensor {@code input} along the given dimension(s); see {@code torch.roll}. */
    public Tensor roll(long shifts, int dim) {
        return Aten.ROLL.call1(this, new long[] {shifts}, new long[] {dim});
    }

    /** {@code Tensor.roll}: roll the tensor {@code input} along the given dimension(s); see {@code torch.roll}. */
    public Tensor roll(long[] shifts, int[] dims) {
        return Aten.ROLL.call1(this, shifts.clone(), longs(dims));
    }

    /** {@code Tensor.repeat}: repeats this tensor along the specified dimensions. */
    public Tensor repeat(long... repeats) {
        return Aten.REPEAT.call1(this, repeats.clone());
    }

    /** {@code Tensor.sum}: the sum of all elements. */
    public Tensor sum() {
        return Aten.SUM_DIM_INTLIST.call1(this, null, false, null);
    }

    /** {@code Tensor.sum}: the sum of all elements. */
    public Tensor sum(DType dtype) {
        return Aten.SUM_DIM_INTLIST.call1(this, null, false, dtype);
    }

    /** {@code Tensor.sum}: the sum over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public Tensor sum(long dim) {
        return Aten.SUM_DIM_INTLIST.call1(this, dims(dim), false, null);
    }

    /** {@code Tensor.sum}: the sum over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public Tensor sum(long dim, boolean keepdim) {
        return Aten.SUM_DIM_INTLIST.call1(this, dims(dim), keepdim, null);
    }

    /** {@code Tensor.sum}: the sum over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public Tensor sum(long[] dims, boolean keepdim) {
        return Aten.SUM_DIM_INTLIST.call1(this, dims, keepdim, null);
    }

    /** {@code Tensor.sum}: the sum over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public Tensor sum(long[] dims, boolean keepdim, DType dtype) {
        return Aten.SUM_DIM_INTLIST.call1(this, dims, keepdim, dtype);
    }

    /** {@code Tensor.nansum}: the sum of all elements, treating NaNs as zero. */
    public Tensor nansum() {
        return Aten.NANSUM.call1(this, null, false, null);
    }

    /** {@code Tensor.nansum}: the sum over the given dimension(s), treating NaNs as zero. */
    public Tensor nansum(long dim) {
        return Aten.NANSUM.call1(this, dims(dim), false, null);
    }

    /** {@code Tensor.nansum}: the sum over the given dimension(s), treating NaNs as zero. */
    public Tensor nansum(long[] dims, boolean keepdim, DType dtype) {
        return Aten.NANSUM.call1(this, dims, keepdim, dtype);
    }

    /** {@code Tensor.mean}: the mean of all elements. */
    public Tensor mean() {
        return Aten.MEAN_DIM.call1(this, null, false, null);
    }

    /** {@code Tensor.mean}: the mean of all elements. */
    public Tensor mean(DType dtype) {
        return Aten.MEAN_DIM.call1(this, null, false, dtype);
    }

    /** {@code Tensor.mean}: the mean over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public Tensor mean(long dim) {
        return Aten.MEAN_DIM.call1(this, dims(dim), false, null);
    }

    /** {@code Tensor.mean}: the mean over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public Tensor mean(long dim, boolean keepdim) {
        return Aten.MEAN_DIM.call1(this, dims(dim), keepdim, null);
    }

    /** {@code Tensor.mean}: the mean over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public Tensor mean(long[] dims, boolean keepdim) {
        return Aten.MEAN_DIM.call1(this, dims, keepdim, null);
    }

    /** {@code Tensor.mean}: the mean over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public Tensor mean(long[] dims, boolean keepdim, DType dtype) {
        return Aten.MEAN_DIM.call1(this, dims, keepdim, dtype);
    }

    /** {@code Tensor.nanmean}: the mean of all non-NaN elements. */
    public Tensor nanmean() {
        return Aten.NANMEAN.call1(this, null, false, null);
    }

    /** {@code Tensor.nanmean}: the mean of the non-NaN elements over the given dimension(s). */
    public Tensor nanmean(long dim) {
        return Aten.NANMEAN.call1(this, dims(dim), false, null);
    }

    /** {@code Tensor.nanmean}: the mean of the non-NaN elements over the given dimension(s). */
    public Tensor nanmean(long[] dims, boolean keepdim, DType dtype) {
        return Aten.NANMEAN.call1(this, dims, keepdim, dtype);
    }

    /** {@code Tensor.prod}: the product of all elements. */
    public Tensor prod() {
        return Aten.PROD_DIM_INT.call1(this, null, false, null);
    }

    /** {@code Tensor.prod}: the product of all elements. */
    public Tensor prod(DType dtype) {
        return Aten.PROD_DIM_INT.call1(this, null, false, dtype);
    }

    /** {@code Tensor.prod}: the product over dimension {@code dim}, kept as size 1 when {@code keepdim}. */
    public Tensor prod(long dim) {
        return Aten.PROD_DIM_INT.call1(this, dims(dim), false, null);
    }

    /** {@code Tensor.prod}: the product over dimension {@code dim}, kept as size 1 when {@code keepdim}. */
    public Tensor prod(long dim, boolean keepdim) {
        return Aten.PROD_DIM_INT.call1(this, dims(dim), keepdim, null);
    }

    /** {@code Tensor.prod}: the product over dimension {@code dim}, kept as size 1 when {@code keepdim}. */
    public Tensor prod(long dim, boolean keepdim, DType dtype) {
        return Aten.PROD_DIM_INT.call1(this, dims(dim), keepdim, dtype);
    }

    /**
     * {@code Tensor.amax}: returns the maximum value of each slice of the {@code input} tensor in the given
     * dimension(s) {@code dim}; see {@code torch.amax}.
     */
    public Tensor amax() {
        return Aten.AMAX.call1(this, null, false);
    }

    /**
     * {@code Tensor.amax}: returns the maximum value of each slice of the {@code input} tensor in the given
     * dimension(s) {@code dim}; see {@code torch.amax}.
     */
    public Tensor amax(long dim) {
        return Aten.AMAX.call1(this, dims(dim), false);
    }

    /**
     * {@code Tensor.amax}: returns the maximum value of each slice of the {@code input} tensor in the given
     * dimension(s) {@code dim}; see {@code torch.amax}.
     */
    public Tensor amax(long[] dims, boolean keepdim) {
        return Aten.AMAX.call1(this, dims, keepdim);
    }

    /**
     * {@code Tensor.amin}: returns the minimum value of each slice of the {@code input} tensor in the given
     * dimension(s) {@code dim}; see {@code torch.amin}.
     */
    public Tensor amin() {
        return Aten.AMIN.call1(this, null, false);
    }

    /**
     * {@code Tensor.amin}: returns the minimum value of each slice of the {@code input} tensor in the given
     * dimension(s) {@code dim}; see {@code torch.amin}.
     */
    public Tensor amin(long dim) {
        return Aten.AMIN.call1(this, dims(dim), false);
    }

    /**
     * {@code Tensor.amin}: returns the minimum value of each slice of the {@code input} tensor in the given
     * dimension(s) {@code dim}; see {@code torch.amin}.
     */
    public Tensor amin(long[] dims, boolean keepdim) {
        return Aten.AMIN.call1(this, dims, keepdim);
    }

    /** {@code Tensor.max}: the maximum of all elements. */
    public Tensor max() {
        return Aten.MAX.call1(this);
    }

    /**
     * {@code Tensor.max}: the maximum along {@code dim} and the index where it occurs ({@code values},
     * {@code indices}).
     */
    public ValuesIndices max(long dim) {
        return Aten.MAX_DIM.pair(this, dim, false);
    }

    /**
     * {@code Tensor.max}: the maximum along {@code dim} and the index where it occurs ({@code values},
     * {@code indices}).
     */
    public ValuesIndices max(long dim, boolean keepdim) {
        return Aten.MAX_DIM.pair(this, dim, keepdim);
    }

    /** {@code Tensor.min}: the minimum of all elements. */
    public Tensor min() {
        return Aten.MIN.call1(this);
    }

    /**
     * {@code Tensor.min}: the minimum along {@code dim} and the index where it occurs ({@code values},
     * {@code indices}).
     */
    public ValuesIndices min(long dim) {
        return Aten.MIN_DIM.pair(this, dim, false);
    }

    /**
     * {@code Tensor.min}: the minimum along {@code dim} and the index where it occurs ({@code values},
     * {@code indices}).
     */
    public ValuesIndices min(long dim, boolean keepdim) {
        return Aten.MIN_DIM.pair(this, dim, keepdim);
    }

    /** {@code Tensor.argmax}: the index of the maximum of the flattened tensor. */
    public Tensor argmax() {
        return Aten.ARGMAX.call1(this, null, false);
    }

    /** {@code Tensor.argmax}: the index of the maximum of the flattened tensor. */
    public Tensor argmax(boolean keepdim) {
        return Aten.ARGMAX.call1(this, null, keepdim);
    }

    /** {@code Tensor.argmax}: the indices of the maxima along {@code dim}. */
    public Tensor argmax(long dim) {
        return Aten.ARGMAX.call1(this, dim, false);
    }

    /** {@code Tensor.argmax}: the indices of the maxima along {@code dim}. */
    public Tensor argmax(long dim, boolean keepdim) {
        return Aten.ARGMAX.call1(this, dim, keepdim);
    }

    /** {@code Tensor.argmin}: the index of the minimum of the flattened tensor. */
    public Tensor argmin() {
        return Aten.ARGMIN.call1(this, null, false);
    }

    /** {@code Tensor.argmin}: the index of the minimum of the flattened tensor. */
    public Tensor argmin(boolean keepdim) {
        return Aten.ARGMIN.call1(this, null, keepdim);
    }

    /** {@code Tensor.argmin}: the indices of the minima along {@code dim}. */
    public Tensor argmin(long dim) {
        return Aten.ARGMIN.call1(this, dim, false);
    }

    /** {@code Tensor.argmin}: the indices of the minima along {@code dim}. */
    public Tensor argmin(long dim, boolean keepdim) {
        return Aten.ARGMIN.call1(this, dim, keepdim);
    }

    /**
     * {@code Tensor.var}: calculates the variance over the dimensions specified by {@code dim}; see {@code torch.var}.
     */
    public Tensor var() {
        return Aten.VAR_CORRECTION.call1(this, null, null, false);
    }

    /**
     * {@code Tensor.var}: calculates the variance over the dimensions specified by {@code dim}; see {@code torch.var}.
     */
    public Tensor var(boolean unbiased) {
        return Aten.VAR_CORRECTION.call1(this, null, unbiased ? 1L : 0L, false);
    }

    /**
     * {@code Tensor.var}: calculates the variance over the dimensions specified by {@code dim}; see {@code torch.var}.
     */
    public Tensor var(long dim) {
        return Aten.VAR_CORRECTION.call1(this, dims(dim), null, false);
    }

    /**
     * {@code Tensor.var}: calculates the variance over the dimensions specified by {@code dim}; see {@code torch.var}.
     */
    public Tensor var(long[] dims, boolean unbiased, boolean keepdim) {
        return Aten.VAR_CORRECTION.call1(this, dims, unbiased ? 1L : 0L, keepdim);
    }

    /**
     * {@code Tensor.var}: calculates the variance over the dimensions specified by {@code dim}; see {@code torch.var}.
     */
    public Tensor var(long[] dims, double correction, boolean keepdim) {
        return Aten.VAR_CORRECTION.call1(this, dims, correction, keepdim);
    }

    /**
     * {@code Tensor.std}: calculates the standard deviation over the dimensions specified by {@code dim}; see
     * {@code torch.std}.
     */
    public Tensor std() {
        return Aten.STD_CORRECTION.call1(this, null, null, false);
    }

    /**
     * {@code Tensor.std}: calculates the standard deviation over the dimensions specified by {@code dim}; see
     * {@code torch.std}.
     */
    public Tensor std(boolean unbiased) {
        return Aten.STD_CORRECTION.call1(this, null, unbiased ? 1L : 0L, false);
    }

    /**
     * {@code Tensor.std}: calculates the standard deviation over the dimensions specified by {@code dim}; see
     * {@code torch.std}.
     */
    public Tensor std(long dim) {
        return Aten.STD_CORRECTION.call1(this, dims(dim), null, false);
    }

    /**
     * {@code Tensor.std}: calculates the standard deviation over the dimensions specified by {@code dim}; see
     * {@code torch.std}.
     */
    public Tensor std(long[] dims, boolean unbiased, boolean keepdim) {
        return Aten.STD_CORRECTION.call1(this, dims, unbiased ? 1L : 0L, keepdim);
    }

    /**
     * {@code Tensor.std}: calculates the standard deviation over the dimensions specified by {@code dim}; see
     * {@code torch.std}.
     */
    public Tensor std(long[] dims, double correction, boolean keepdim) {
        return Aten.STD_CORRECTION.call1(this, dims, correction, keepdim);
    }

    /**
     * {@code Tensor.logsumexp}: returns the log of summed exponentials of each row of the {@code input} tensor in the
     * given dimension {@code dim}; see {@code torch.logsumexp}.
     */
    public Tensor logsumexp(long dim) {
        return Aten.LOGSUMEXP.call1(this, dims(dim), false);
    }

    /**
     * {@code Tensor.logsumexp}: returns the log of summed exponentials of each row of the {@code input} tensor in the
     * given dimension {@code dim}; see {@code torch.logsumexp}.
     */
    public Tensor logsumexp(long dim, boolean keepdim) {
        return Aten.LOGSUMEXP.call1(this, dims(dim), keepdim);
    }

    /**
     * {@code Tensor.logsumexp}: returns the log of summed exponentials of each row of the {@code input} tensor in the
     * given dimension {@code dim}; see {@code torch.logsumexp}.
     */
    public Tensor logsumexp(long[] dims, boolean keepdim) {
        return Aten.LOGSUMEXP.call1(this, dims, keepdim);
    }

    /** {@code Tensor.softmax}: alias for {@code torch.nn.functional.softmax}. */
    public Tensor softmax(long dim) {
        return Aten.SOFTMAX_INT.call1(this, dim, null);
    }

    /** {@code Tensor.softmax}: alias for {@code torch.nn.functional.softmax}. */
    public Tensor softmax(long dim, DType dtype) {
        return Aten.SOFTMAX_INT.call1(this, dim, dtype);
    }

    /**
     * {@code Tensor.log_softmax}: applies softmax followed by the logarithm along {@code dim}, computed stably in one
     * op.
     */
    public Tensor logSoftmax(long dim) {
        return Aten.LOG_SOFTMAX_INT.call1(this, dim, null);
    }

    /**
     * {@code Tensor.log_softmax}: applies softmax followed by the logarithm along {@code dim}, computed stably in one
     * op.
     */
    public Tensor logSoftmax(long dim, DType dtype) {
        return Aten.LOG_SOFTMAX_INT.call1(this, dim, dtype);
    }

    /**
     * {@code Tensor.cumsum}: returns the cumulative sum of elements of {@code input} in the dimension {@code dim}; see
     * {@code torch.cumsum}.
     */
    public Tensor cumsum(long dim) {
        return Aten.CUMSUM.call1(this, dim, null);
    }

    /**
     * {@code Tensor.cumsum}: returns the cumulative sum of elements of {@code input} in the dimension {@code dim}; see
     * {@code torch.cumsum}.
     */
    public Tensor cumsum(long dim, DType dtype) {
        return Aten.CUMSUM.call1(this, dim, dtype);
    }

    /**
     * {@code Tensor.cumprod}: returns the cumulative product of elements of {@code input} in the dimension {@code dim};
     * see {@code torch.cumprod}.
     */
    public Tensor cumprod(long dim) {
        return Aten.CUMPROD.call1(this, dim, null);
    }

    /**
     * {@code Tensor.cumprod}: returns the cumulative product of elements of {@code input} in the dimension {@code dim};
     * see {@code torch.cumprod}.
     */
    public Tensor cumprod(long dim, DType dtype) {
        return Aten.CUMPROD.call1(this, dim, dtype);
    }

    /** {@code Tensor.all}: tests if all elements are true (non-zero). */
    public Tensor all() {
        return Aten.ALL_DIMS.call1(this, null, false);
    }

    /** {@code Tensor.all}: tests, along the given dimension(s), if all elements are true (non-zero). */
    public Tensor all(long dim) {
        return Aten.ALL_DIMS.call1(this, dims(dim), false);
    }

    /** {@code Tensor.all}: tests, along the given dimension(s), if all elements are true (non-zero). */
    public Tensor all(long[] dims, boolean keepdim) {
        return Aten.ALL_DIMS.call1(this, dims, keepdim);
    }

    /** {@code Tensor.any}: tests if any element is true (non-zero). */
    public Tensor any() {
        return Aten.ANY_DIMS.call1(this, null, false);
    }

    /** {@code Tensor.any}: tests, along the given dimension(s), if any element is true (non-zero). */
    public Tensor any(long dim) {
        return Aten.ANY_DIMS.call1(this, dims(dim), false);
    }

    /** {@code Tensor.any}: tests, along the given dimension(s), if any element is true (non-zero). */
    public Tensor any(long[] dims, boolean keepdim) {
        return Aten.ANY_DIMS.call1(this, dims, keepdim);
    }

    /**
     * {@code Tensor.mm}: performs a matrix multiplication of the matrices {@code input} and {@code mat2}; see
     * {@code torch.mm}.
     */
    public Tensor mm(Tensor mat2) {
        return Aten.MM.call1(this, mat2);
    }

    /**
     * {@code Tensor.addmm}: performs a matrix multiplication of the matrices {@code mat1} and {@code mat2}; see
     * {@code torch.addmm}.
     */
    public Tensor addmm(Tensor mat1, Tensor mat2) {
        return Aten.ADDMM.call1(this, mat1, mat2, null, null);
    }

    /**
     * {@code Tensor.addmm}: performs a matrix multiplication of the matrices {@code mat1} and {@code mat2}; see
     * {@code torch.addmm}.
     */
    public Tensor addmm(Tensor mat1, Tensor mat2, Object beta, Object alpha) {
        return Aten.ADDMM.call1(this, mat1, mat2, beta, alpha);
    }

    /** {@code Tensor.addmm_}: in-place version of {@code Tensor.addmm}. */
    public Tensor addmm_(Tensor mat1, Tensor mat2, Object beta, Object alpha) {
        return Aten.ADDMM.inPlace(this, this, mat1, mat2, beta, alpha);
    }

    /**
     * {@code Tensor.bmm}: performs a batch matrix-matrix product of matrices stored in {@code input} and {@code mat2};
     * see {@code torch.bmm}.
     */
    public Tensor bmm(Tensor mat2) {
        return Aten.BMM.call1(this, mat2);
    }

    /**
     * {@code Tensor.baddbmm}: performs a batch matrix-matrix product of matrices in {@code batch1} and {@code batch2};
     * see {@code torch.baddbmm}.
     */
    public Tensor baddbmm(Tensor batch1, Tensor batch2) {
        return Aten.BADDBMM.call1(this, batch1, batch2, null, null);
    }

    /**
     * {@code Tensor.baddbmm}: performs a batch matrix-matrix product of matrices in {@code batch1} and {@code batch2};
     * see {@code torch.baddbmm}.
     */
    public Tensor baddbmm(Tensor batch1, Tensor batch2, Object beta, Object alpha) {
        return Aten.BADDBMM.call1(this, batch1, batch2, beta, alpha);
    }

    /** {@code Tensor.baddbmm_}: in-place version of {@code Tensor.baddbmm}. */
    public Tensor baddbmm_(Tensor batch1, Tensor batch2, Object beta, Object alpha) {
        return Aten.BADDBMM.inPlace(this, this, batch1, batch2, beta, alpha);
    }

    /**
     * {@code Tensor.mv}: performs a matrix-vector product of the matrix {@code input} and the vector {@code vec}; see
     * {@code torch.mv}.
     */
    public Tensor mv(Tensor vec) {
        return Aten.MV.call1(this, vec);
    }

    /** {@code Tensor.dot}: computes the dot product of two 1D tensors; see {@code torch.dot}. */
    public Tensor dot(Tensor tensor) {
        return Aten.DOT.call1(this, tensor);
    }

    /** {@code Tensor.vdot}: computes the dot product of two 1D vectors along a dimension; see {@code torch.vdot}. */
    public Tensor vdot(Tensor other) {
        return Aten.VDOT.call1(this, other);
    }

    /** {@code Tensor.outer}: outer product of {@code input} and {@code vec2}; see {@code torch.outer}. */
    public Tensor outer(Tensor vec2) {
        return Aten.OUTER.call1(this, vec2);
    }

    /** {@code Tensor.matmul}: matrix product of two tensors; see {@code torch.matmul}. */
    public Tensor matmul(Tensor other) {
        return Aten.MATMUL.call1(this, other);
    }

    /**
     * {@code Tensor.clamp}: clamps all elements in {@code input} into the range [ {@code min}, {@code max} ]; see
     * {@code torch.clamp}.
     */
    public Tensor clamp(Double min, Double max) {
        return Aten.CLAMP.call1(this, scalar(min), scalar(max));
    }

    /**
     * {@code Tensor.clamp}: clamps all elements in {@code input} into the range [ {@code min}, {@code max} ]; see
     * {@code torch.clamp}.
     */
    public Tensor clamp(Long min, Long max) {
        return Aten.CLAMP.call1(this, scalar(min), scalar(max));
    }

    /**
     * {@code Tensor.clamp}: clamps all elements in {@code input} into the range [ {@code min}, {@code max} ]; see
     * {@code torch.clamp}.
     */
    public Tensor clamp(Scalar min, Scalar max) {
        return Aten.CLAMP.call1(this, min, max);
    }

    /**
     * {@code Tensor.clamp}: clamps all elements in {@code input} into the range [ {@code min}, {@code max} ]; see
     * {@code torch.clamp}.
     */
    public Tensor clamp(Tensor min, Tensor max) {
        return Aten.CLAMP_TENSOR.call1(this, min, max);
    }

    /** {@code Tensor.clamp_min}: clamps every element to at least {@code min}. */
    public Tensor clampMin(double min) {
        return Aten.CLAMP_MIN.call1(this, Scalar.of(min));
    }

    /** {@code Tensor.clamp_min}: clamps every element to at least {@code min}. */
    public Tensor clampMin(long min) {
        return Aten.CLAMP_MIN.call1(this, Scalar.of(min));
    }

    /** {@code Tensor.clamp_min}: clamps every element to at least {@code min}. */
    public Tensor clampMin(Scalar min) {
        return Aten.CLAMP_MIN.call1(this, min);
    }

    /** {@code Tensor.clamp_min}: clamps every element to at least {@code min}. */
    public Tensor clampMin(Tensor min) {
        return Aten.CLAMP_MIN_TENSOR.call1(this, min);
    }

    /** {@code Tensor.clamp_max}: clamps every element to at most {@code max}. */
    public Tensor clampMax(double max) {
        return Aten.CLAMP_MAX.call1(this, Scalar.of(max));
    }

    /** {@code Tensor.clamp_max}: clamps every element to at most {@code max}. */
    public Tensor clampMax(long max) {
        return Aten.CLAMP_MAX.call1(this, Scalar.of(max));
    }

    /** {@code Tensor.clamp_max}: clamps every element to at most {@code max}. */
    public Tensor clampMax(Scalar max) {
        return Aten.CLAMP_MAX.call1(this, max);
    }

    /** {@code Tensor.clamp_max}: clamps every element to at most {@code max}. */
    public Tensor clampMax(Tensor max) {
        return Aten.CLAMP_MAX_TENSOR.call1(this, max);
    }

    /** {@code Tensor.clamp_}: in-place version of {@code Tensor.clamp}. */
    public Tensor clamp_(Double min, Double max) {
        return Aten.CLAMP.inPlace(this, this, scalar(min), scalar(max));
    }

    /** {@code Tensor.clamp_}: in-place version of {@code Tensor.clamp}. */
    public Tensor clamp_(Long min, Long max) {
        return Aten.CLAMP.inPlace(this, this, scalar(min), scalar(max));
    }

    /** {@code Tensor.clamp_}: in-place version of {@code Tensor.clamp}. */
    public Tensor clamp_(Tensor min, Tensor max) {
        return Aten.CLAMP_TENSOR.inPlace(this, this, min, max);
    }

    /**
     * {@code Tensor.clamp_min_}: in-place {@code clamp_min}: clamps every element of {@code self} to at least
     * {@code min}.
     */
    public Tensor clampMin_(double min) {
        return Aten.CLAMP_MIN.inPlace(this, this, Scalar.of(min));
    }

    /**
     * {@code Tensor.clamp_min_}: in-place {@code clamp_min}: clamps every element of {@code self} to at least
     * {@code min}.
     */
    public Tensor clampMin_(Tensor min) {
        return Aten.CLAMP_MIN_TENSOR.inPlace(this, this, min);
    }

    /**
     * {@code Tensor.clamp_max_}: in-place {@code clamp_max}: clamps every element of {@code self} to at most
     * {@code max}.
     */
    public Tensor clampMax_(double max) {
        return Aten.CLAMP_MAX.inPlace(this, this, Scalar.of(max));
    }

    /**
     * {@code Tensor.clamp_max_}: in-place {@code clamp_max}: clamps every element of {@code self} to at most
     * {@code max}.
     */
    public Tensor clampMax_(Tensor max) {
        return Aten.CLAMP_MAX_TENSOR.inPlace(this, this, max);
    }

    /**
     * {@code Tensor.lerp}: does a linear interpolation of two tensors {@code start} (given by {@code input}) and
     * {@code end} based on a scalar or tensor {@code weight} and returns the resulting {@code out} tensor; see
     * {@code torch.lerp}.
     */
    public Tensor lerp(Tensor end, double weight) {
        return Aten.LERP_SCALAR.call1(this, end, weight);
    }

    /**
     * {@code Tensor.lerp}: does a linear interpolation of two tensors {@code start} (given by {@code input}) and
     * {@code end} based on a scalar or tensor {@code weight} and returns the resulting {@code out} tensor; see
     * {@code torch.lerp}.
     */
    public Tensor lerp(Tensor end, Scalar weight) {
        return Aten.LERP_SCALAR.call1(this, end, weight);
    }

    /**
     * {@code Tensor.lerp}: does a linear interpolation of two tensors {@code start} (given by {@code input}) and
     * {@code end} based on a scalar or tensor {@code weight} and returns the resulting {@code out} tensor; see
     * {@code torch.lerp}.
     */
    public Tensor lerp(Tensor end, Tensor weight) {
        return Aten.LERP_TENSOR.call1(this, end, weight);
    }

    /** {@code Tensor.lerp_}: in-place version of {@code Tensor.lerp}. */
    public Tensor lerp_(Tensor end, double weight) {
        return Aten.LERP_SCALAR.inPlace(this, this, end, weight);
    }

    /** {@code Tensor.lerp_}: in-place version of {@code Tensor.lerp}. */
    public Tensor lerp_(Tensor end, Tensor weight) {
        return Aten.LERP_TENSOR.inPlace(this, this, end, weight);
    }

    /**
     * {@code Tensor.addcmul}: performs the element-wise multiplication of {@code tensor1} by {@code tensor2},
     * multiplies the result by the scalar {@code value} and adds it to {@code input}; see {@code torch.addcmul}.
     */
    public Tensor addcmul(Tensor t1, Tensor t2) {
        return Aten.ADDCMUL.call1(this, t1, t2, 1L);
    }

    /**
     * {@code Tensor.addcmul}: performs the element-wise multiplication of {@code tensor1} by {@code tensor2},
     * multiplies the result by the scalar {@code value} and adds it to {@code input}; see {@code torch.addcmul}.
     */
    public Tensor addcmul(Tensor t1, Tensor t2, double value) {
        return Aten.ADDCMUL.call1(this, t1, t2, value);
    }

    /**
     * {@code Tensor.addcmul}: performs the element-wise multiplication of {@code tensor1} by {@code tensor2},
     * multiplies the result by the scalar {@code value} and adds it to {@code input}; see {@code torch.addcmul}.
     */
    public Tensor addcmul(Tensor t1, Tensor t2, Scalar value) {
        return Aten.ADDCMUL.call1(this, t1, t2, value);
    }

    /** {@code Tensor.addcmul_}: in-place version of {@code Tensor.addcmul}. */
    public Tensor addcmul_(Tensor t1, Tensor t2, double value) {
        return Aten.ADDCMUL.inPlace(this, this, t1, t2, value);
    }

    /**
     * {@code Tensor.addcdiv}: performs the element-wise division of {@code tensor1} by {@code tensor2}, multiplies the
     * result by the scalar {@code value} and adds it to {@code input}; see {@code torch.addcdiv}.
     */
    public Tensor addcdiv(Tensor t1, Tensor t2) {
        return Aten.ADDCDIV.call1(this, t1, t2, 1L);
    }

    /**
     * {@code Tensor.addcdiv}: performs the element-wise division of {@code tensor1} by {@code tensor2}, multiplies the
     * result by the scalar {@code value} and adds it to {@code input}; see {@code torch.addcdiv}.
     */
    public Tensor addcdiv(Tensor t1, Tensor t2, double value) {
        return Aten.ADDCDIV.call1(this, t1, t2, value);
    }

    /**
     * {@code Tensor.addcdiv}: performs the element-wise division of {@code tensor1} by {@code tensor2}, multiplies the
     * result by the scalar {@code value} and adds it to {@code input}; see {@code torch.addcdiv}.
     */
    public Tensor addcdiv(Tensor t1, Tensor t2, Scalar value) {
        return Aten.ADDCDIV.call1(this, t1, t2, value);
    }

    /** {@code Tensor.addcdiv_}: in-place version of {@code Tensor.addcdiv}. */
    public Tensor addcdiv_(Tensor t1, Tensor t2, double value) {
        return Aten.ADDCDIV.inPlace(this, this, t1, t2, value);
    }

    /** {@code Tensor.masked_fill}: out-of-place version of {@code torch.Tensor.masked_fill_}. */
    public Tensor maskedFill(Tensor mask, Object value) {
        return (value instanceof Tensor ? Aten.MASKED_FILL_TENSOR : Aten.MASKED_FILL_SCALAR).call1(this, mask, value);
    }

    /**
     * {@code Tensor.masked_fill_}: fills elements of {@code self} tensor with {@code value} where {@code mask} is
     * {@code true}.
     */
    public Tensor maskedFill_(Tensor mask, Object value) {
        InternalOverlap.warn("masked_fill_", "tensor[mask] = scalar", impl);
        return (value instanceof Tensor ? Aten.MASKED_FILL_TENSOR : Aten.MASKED_FILL_SCALAR)
                .inPlace(this, this, mask, value);
    }

    /**
     * {@code Tensor.real}: returns a new tensor containing real values of the {@code self} tensor for a complex-valued
     * input tensor.
     */
    public Tensor real() {
        return Aten.REAL.call1(this);
    }

    /** {@code Tensor.imag}: returns a new tensor containing imaginary values of the {@code self} tensor. */
    public Tensor imag() {
        return Aten.IMAG.call1(this);
    }

    /** {@code Tensor.conj}: returns a view of {@code input} with a flipped conjugate bit; see {@code torch.conj}. */
    public Tensor conj() {
        return Aten.CONJ.call1(this);
    }

    /**
     * {@code Tensor.conj_physical}: computes the element-wise conjugate of the given {@code input} tensor; see
     * {@code torch.conj_physical}.
     */
    public Tensor conjPhysical() {
        return Aten.CONJ_PHYSICAL.call1(this);
    }

    /**
     * {@code Tensor.resolve_conj}: returns a new tensor with materialized conjugation if {@code input}'s conjugate bit
     * is set to {@code true}, else returns {@code input}; see {@code torch.resolve_conj}.
     */
    public Tensor resolveConj() {
        return Aten.RESOLVE_CONJ.call1(this);
    }

    /** {@code Tensor.mH}: a view of the tensor with its last two dimensions transposed and conjugated. */
    public Tensor mH() {
        return Aten.MH.call1(this);
    }

    /** {@code Tensor.adjoint}: a view of the tensor with its last two dimensions transposed and conjugated. */
    public Tensor adjoint() {
        return Aten.ADJOINT.call1(this);
    }

    /**
     * {@code Tensor.isreal}: returns a new tensor with boolean elements representing if each element of {@code input}
     * is real-valued or not; see {@code torch.isreal}.
     */
    public Tensor isreal() {
        return Aten.ISREAL.call1(this);
    }

    /** {@code Tensor.fill_}: fills {@code self} tensor with the specified value. */
    public Tensor fill_(double value) {
        return Aten.FILL_SCALAR.inPlace(this, this, value);
    }

    /** {@code Tensor.fill_}: fills {@code self} tensor with the specified value. */
    public Tensor fill_(long value) {
        return Aten.FILL_SCALAR.inPlace(this, this, value);
    }

    /** {@code Tensor.zero_}: fills {@code self} tensor with zeros. */
    public Tensor zero_() {
        return fill_(0L);
    }

    /**
     * {@code Tensor.bernoulli}: draws binary random numbers (0 or 1) from a Bernoulli distribution whose probabilities
     * are the input's elements (or {@code p}).
     */
    public Tensor bernoulli() {
        return Aten.BERNOULLI.call1(this, null);
    }

    /**
     * {@code Tensor.bernoulli}: draws binary random numbers (0 or 1) from a Bernoulli distribution whose probabilities
     * are the input's elements (or {@code p}).
     */
    public Tensor bernoulli(Generator generator) {
        return Aten.BERNOULLI.call1(this, generator);
    }

    /**
     * {@code Tensor.bernoulli}: draws binary random numbers (0 or 1) from a Bernoulli distribution whose probabilities
     * are the input's elements (or {@code p}).
     */
    public Tensor bernoulli(double p) {
        return Aten.BERNOULLI_P.call1(this, p, null);
    }

    /**
     * {@code Tensor.bernoulli}: draws binary random numbers (0 or 1) from a Bernoulli distribution whose probabilities
     * are the input's elements (or {@code p}).
     */
    public Tensor bernoulli(double p, Generator generator) {
        return Aten.BERNOULLI_P.call1(this, p, generator);
    }

    /**
     * {@code Tensor.multinomial}: returns a tensor where each row contains {@code num_samples} indices sampled from the
     * multinomial (a stricter definition would be multivariate, refer to
     * {@code torch.distributions.multinomial.Multinomial} for more details) probability distribution located in the
     * corresponding row of tensor {@code input}; see {@code torch.multinomial}.
     */
    public Tensor multinomial(long numSamples) {
        return Aten.MULTINOMIAL.call1(this, numSamples, false, null);
    }

    /**
     * {@code Tensor.multinomial}: returns a tensor where each row contains {@code num_samples} indices sampled from the
     * multinomial (a stricter definition would be multivariate, refer to
     * {@code torch.distributions.multinomial.Multinomial} for more details) probability distribution located in the
     * corresponding row of tensor {@code input}; see {@code torch.multinomial}.
     */
    public Tensor multinomial(long numSamples, boolean replacement) {
        return Aten.MULTINOMIAL.call1(this, numSamples, replacement, null);
    }

    /**
     * {@code Tensor.multinomial}: returns a tensor where each row contains {@code num_samples} indices sampled from the
     * multinomial (a stricter definition would be multivariate, refer to
     * {@code torch.distributions.multinomial.Multinomial} for more details) probability distribution located in the
     * corresponding row of tensor {@code input}; see {@code torch.multinomial}.
     */
    public Tensor multinomial(long numSamples, boolean replacement, Generator generator) {
        return Aten.MULTINOMIAL.call1(this, numSamples, replacement, generator);
    }

    /**
     * {@code Tensor.uniform_}: fills {@code self} tensor with numbers sampled from the continuous uniform distribution.
     */
    public Tensor uniform_() {
        return Aten.UNIFORM.inPlace(this, this, 0.0, 1.0, null);
    }

    /**
     * {@code Tensor.uniform_}: fills {@code self} tensor with numbers sampled from the continuous uniform distribution.
     */
    public Tensor uniform_(double from, double to) {
        return Aten.UNIFORM.inPlace(this, this, from, to, null);
    }

    /**
     * {@code Tensor.uniform_}: fills {@code self} tensor with numbers sampled from the continuous uniform distribution.
     */
    public Tensor uniform_(double from, double to, Generator generator) {
        return Aten.UNIFORM.inPlace(this, this, from, to, generator);
    }

    /**
     * {@code Tensor.normal_}: fills {@code self} tensor with elements samples from the normal distribution
     * parameterized by {@code mean} and {@code std}.
     */
    public Tensor normal_() {
        return Aten.NORMAL_FUNCTIONAL.inPlace(this, this, 0.0, 1.0, null);
    }

    /**
     * {@code Tensor.normal_}: fills {@code self} tensor with elements samples from the normal distribution
     * parameterized by {@code mean} and {@code std}.
     */
    public Tensor normal_(double mean, double std) {
        return Aten.NORMAL_FUNCTIONAL.inPlace(this, this, mean, std, null);
    }

    /**
     * {@code Tensor.normal_}: fills {@code self} tensor with elements samples from the normal distribution
     * parameterized by {@code mean} and {@code std}.
     */
    public Tensor normal_(double mean, double std, Generator generator) {
        return Aten.NORMAL_FUNCTIONAL.inPlace(this, this, mean, std, generator);
    }

    /**
     * {@code Tensor.exponential_}: fills {@code self} tensor with elements drawn from the PDF (probability density
     * function).
     */
    public Tensor exponential_() {
        return Aten.EXPONENTIAL.inPlace(this, this, 1.0, null);
    }

    /**
     * {@code Tensor.exponential_}: fills {@code self} tensor with elements drawn from the PDF (probability density
     * function).
     */
    public Tensor exponential_(double lambd) {
        return Aten.EXPONENTIAL.inPlace(this, this, lambd, null);
    }

    /**
     * {@code Tensor.exponential_}: fills {@code self} tensor with elements drawn from the PDF (probability density
     * function).
     */
    public Tensor exponential_(double lambd, Generator generator) {
        return Aten.EXPONENTIAL.inPlace(this, this, lambd, generator);
    }

    /** {@code Tensor.geometric_}: fills {@code self} tensor with elements drawn from the geometric distribution. */
    public Tensor geometric_(double p) {
        return Aten.GEOMETRIC.inPlace(this, this, p, null);
    }

    /** {@code Tensor.geometric_}: fills {@code self} tensor with elements drawn from the geometric distribution. */
    public Tensor geometric_(double p, Generator generator) {
        return Aten.GEOMETRIC.inPlace(this, this, p, generator);
    }

    /** {@code Tensor.cauchy_}: fills the tensor with numbers drawn from the Cauchy distribution. */
    public Tensor cauchy_() {
        return Aten.CAUCHY.inPlace(this, this, 0.0, 1.0, null);
    }

    /** {@code Tensor.cauchy_}: fills the tensor with numbers drawn from the Cauchy distribution. */
    public Tensor cauchy_(double median, double sigma) {
        return Aten.CAUCHY.inPlace(this, this, median, sigma, null);
    }

    /** {@code Tensor.cauchy_}: fills the tensor with numbers drawn from the Cauchy distribution. */
    public Tensor cauchy_(double median, double sigma, Generator generator) {
        return Aten.CAUCHY.inPlace(this, this, median, sigma, generator);
    }

    /**
     * {@code Tensor.log_normal_}: fills {@code self} with samples from the log-normal distribution with the given
     * {@code mean} and {@code std} of the underlying normal.
     */
    public Tensor logNormal_() {
        return Aten.LOG_NORMAL.inPlace(this, this, 1.0, 2.0, null);
    }

    /**
     * {@code Tensor.log_normal_}: fills {@code self} with samples from the log-normal distribution with the given
     * {@code mean} and {@code std} of the underlying normal.
     */
    public Tensor logNormal_(double mean, double std) {
        return Aten.LOG_NORMAL.inPlace(this, this, mean, std, null);
    }

    /**
     * {@code Tensor.log_normal_}: fills {@code self} with samples from the log-normal distribution with the given
     * {@code mean} and {@code std} of the underlying normal.
     */
    public Tensor logNormal_(double mean, double std, Generator generator) {
        return Aten.LOG_NORMAL.inPlace(this, this, mean, std, generator);
    }

    /**
     * {@code Tensor.bernoulli_}: fills each element of {@code self} with an independent sample from
     * Bernoulli({@code p}).
     */
    public Tensor bernoulli_(double p) {
        return Aten.BERNOULLI_P.inPlace(this, this, p, null);
    }

    /**
     * {@code Tensor.bernoulli_}: fills each element of {@code self} with an independent sample from
     * Bernoulli({@code p}).
     */
    public Tensor bernoulli_(double p, Generator generator) {
        return Aten.BERNOULLI_P.inPlace(this, this, p, generator);
    }

    /**
     * {@code Tensor.bernoulli_}: fills each element of {@code self} with an independent sample from
     * Bernoulli({@code p}).
     */
    public Tensor bernoulli_(Tensor p) {
        return Aten.BERNOULLI_TENSOR.inPlace(this, this, p, null);
    }

    /**
     * {@code Tensor.bernoulli_}: fills each element of {@code self} with an independent sample from
     * Bernoulli({@code p}).
     */
    public Tensor bernoulli_(Tensor p, Generator generator) {
        return Aten.BERNOULLI_TENSOR.inPlace(this, this, p, generator);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public Tensor random_() {
        return Aten.RANDOM.inPlace(this, this, null);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public Tensor random_(Generator generator) {
        return Aten.RANDOM.inPlace(this, this, generator);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public Tensor random_(long to) {
        return Aten.RANDOM_FROM.inPlace(this, this, 0L, to, null);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public Tensor random_(long from, long to) {
        return Aten.RANDOM_FROM.inPlace(this, this, from, to, null);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public Tensor random_(long from, long to, Generator generator) {
        return Aten.RANDOM_FROM.inPlace(this, this, from, to, generator);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public Tensor random_(long from, Long to) {
        return Aten.RANDOM_FROM.inPlace(this, this, from, to, null);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public Tensor random_(long from, Long to, Generator generator) {
        return Aten.RANDOM_FROM.inPlace(this, this, from, to, generator);
    }

    /** {@code Tensor.repeat_interleave}: repeat elements of a tensor; see {@code torch.repeat_interleave}. */
    public Tensor repeatInterleave(long repeats) {
        return Aten.REPEAT_INTERLEAVE_SELF_INT.call1(this, repeats, null, null);
    }

    /** {@code Tensor.repeat_interleave}: repeat elements of a tensor; see {@code torch.repeat_interleave}. */
    public Tensor repeatInterleave(long repeats, int dim) {
        return Aten.REPEAT_INTERLEAVE_SELF_INT.call1(this, repeats, (long) dim, null);
    }

    /** {@code Tensor.repeat_interleave}: repeat elements of a tensor; see {@code torch.repeat_interleave}. */
    public Tensor repeatInterleave(long repeats, Integer dim, Long outputSize) {
        return Aten.REPEAT_INTERLEAVE_SELF_INT.call1(this, repeats, dim == null ? null : (long) dim, outputSize);
    }

    /** {@code Tensor.repeat_interleave}: repeat elements of a tensor; see {@code torch.repeat_interleave}. */
    public Tensor repeatInterleave(Tensor repeats) {
        return Aten.REPEAT_INTERLEAVE_SELF_TENSOR.call1(this, repeats, null, null);
    }

    /** {@code Tensor.repeat_interleave}: repeat elements of a tensor; see {@code torch.repeat_interleave}. */
    public Tensor repeatInterleave(Tensor repeats, int dim) {
        return Aten.REPEAT_INTERLEAVE_SELF_TENSOR.call1(this, repeats, (long) dim, null);
    }

    /** {@code Tensor.repeat_interleave}: repeat elements of a tensor; see {@code torch.repeat_interleave}. */
    public Tensor repeatInterleave(Tensor repeats, Integer dim, Long outputSize) {
        return Aten.REPEAT_INTERLEAVE_SELF_TENSOR.call1(this, repeats, dim == null ? null : (long) dim, outputSize);
    }

    /** {@code Tensor.diff}: computes the n-th forward difference along the given dimension; see {@code torch.diff}. */
    public Tensor diff() {
        return Aten.DIFF.call1(this, 1L, -1L, null, null);
    }

    /** {@code Tensor.diff}: computes the n-th forward difference along the given dimension; see {@code torch.diff}. */
    public Tensor diff(long n) {
        return Aten.DIFF.call1(this, n, -1L, null, null);
    }

    /** {@code Tensor.diff}: computes the n-th forward difference along the given dimension; see {@code torch.diff}. */
    public Tensor diff(long n, int dim) {
        return Aten.DIFF.call1(this, n, (long) dim, null, null);
    }

    /** {@code Tensor.diff}: computes the n-th forward difference along the given dimension; see {@code torch.diff}. */
    public Tensor diff(long n, int dim, Tensor prepend, Tensor append) {
        return Aten.DIFF.call1(this, n, (long) dim, prepend, append);
    }

    /**
     * {@code Tensor.diag}: if {@code input} is a vector (1-D tensor), then returns a 2-D square tensor with the
     * elements of {@code input} as the diagonal; see {@code torch.diag}.
     */
    public Tensor diag() {
        return Aten.DIAG.call1(this, 0L);
    }

    /**
     * {@code Tensor.diag}: if {@code input} is a vector (1-D tensor), then returns a 2-D square tensor with the
     * elements of {@code input} as the diagonal; see {@code torch.diag}.
     */
    public Tensor diag(long diagonal) {
        return Aten.DIAG.call1(this, diagonal);
    }

    /**
     * {@code Tensor.diag_embed}: creates a tensor whose diagonals of certain 2D planes (specified by {@code dim1} and
     * {@code dim2}) are filled by {@code input}; see {@code torch.diag_embed}.
     */
    public Tensor diagEmbed() {
        return Aten.DIAG_EMBED.call1(this, 0L, -2L, -1L);
    }

    /**
     * {@code Tensor.diag_embed}: creates a tensor whose diagonals of certain 2D planes (specified by {@code dim1} and
     * {@code dim2}) are filled by {@code input}; see {@code torch.diag_embed}.
     */
    public Tensor diagEmbed(long offset) {
        return Aten.DIAG_EMBED.call1(this, offset, -2L, -1L);
    }

    /**
     * {@code Tensor.diag_embed}: creates a tensor whose diagonals of certain 2D planes (specified by {@code dim1} and
     * {@code dim2}) are filled by {@code input}; see {@code torch.diag_embed}.
     */
    public Tensor diagEmbed(long offset, int dim1, int dim2) {
        return Aten.DIAG_EMBED.call1(this, offset, (long) dim1, (long) dim2);
    }

    /**
     * {@code Tensor.__getitem__}: indexes with Python's {@code x[spec]} semantics (integers, slices, None, Ellipsis,
     * tensors, masks).
     */
    public Tensor index(Index... spec) {
        return OpHooks.indexing().index(this, spec);
    }

    /**
     * {@code Tensor.index_put_}: puts values from the tensor {@code values} into the tensor {@code self} using the
     * indices specified in {@code indices} (which is a tuple of Tensors).
     */
    public Tensor indexPut_(Index[] spec, Tensor values) {
        return indexPut_(spec, values, false);
    }

    /**
     * {@code Tensor.index_put_}: puts values from the tensor {@code values} into the tensor {@code self} using the
     * indices specified in {@code indices} (which is a tuple of Tensors).
     */
    public Tensor indexPut_(Index[] spec, Tensor values, boolean accumulate) {
        return OpHooks.indexing().indexPutSpec(this, spec, values, accumulate);
    }

    /**
     * {@code Tensor.index_put_}: puts values from the tensor {@code values} into the tensor {@code self} using the
     * indices specified in {@code indices} (which is a tuple of Tensors).
     */
    public Tensor indexPut_(Index[] spec, Object value) {
        return OpHooks.indexing().indexPutSpec(this, spec, value, false);
    }

    /** {@code Tensor.index_put}: out-place version of {@code Tensor.index_put_}. */
    public Tensor indexPut(Tensor[] indices, Tensor values) {
        return Aten.INDEX_PUT.call1(this, indices.clone(), values, false);
    }

    /** {@code Tensor.index_put}: out-place version of {@code Tensor.index_put_}. */
    public Tensor indexPut(Tensor[] indices, Tensor values, boolean accumulate) {
        return Aten.INDEX_PUT.call1(this, indices.clone(), values, accumulate);
    }

    /**
     * {@code Tensor.index_put_}: puts values from the tensor {@code values} into the tensor {@code self} using the
     * indices specified in {@code indices} (which is a tuple of Tensors).
     */
    public Tensor indexPut_(Tensor[] indices, Tensor values) {
        return indexPut_(indices, values, false);
    }

    /**
     * {@code Tensor.index_put_}: puts values from the tensor {@code values} into the tensor {@code self} using the
     * indices specified in {@code indices} (which is a tuple of Tensors).
     */
    public Tensor indexPut_(Tensor[] indices, Tensor values, boolean accumulate) {
        return OpHooks.indexing().indexPutTensors(this, indices.clone(), values, accumulate);
    }

    /** {@code Tensor.nonzero}: the indices of the non-zero elements, one row per element. */
    public Tensor nonzero() {
        return Aten.NONZERO.call1(this);
    }

    /** {@code Tensor.nonzero(as_tuple)}: with {@code asTuple}, one tensor of indices per dimension. */
    public List<Tensor> nonzero(boolean asTuple) {
        return asTuple ? Aten.NONZERO_NUMPY.list(this) : List.of(Aten.NONZERO.call1(this));
    }

    /**
     * {@code Tensor.nonzero_static}: returns a 2-D tensor where each row is the index for a non-zero value; see
     * {@code torch.nonzero_static}.
     */
    public Tensor nonzeroStatic(long size, long fillValue) {
        return Aten.NONZERO_STATIC.call1(this, size, fillValue);
    }

    /**
     * {@code Tensor.count_nonzero}: counts the number of non-zero values in the tensor {@code input} along the given
     * {@code dim}; see {@code torch.count_nonzero}.
     */
    public Tensor countNonzero(long... dims) {
        return Aten.COUNT_NONZERO_DIM_INTLIST.call1(this, dims.clone());
    }

    /**
     * {@code Tensor.masked_select}: returns a new 1-D tensor which indexes the {@code input} tensor according to the
     * boolean mask {@code mask} which is a BoolTensor; see {@code torch.masked_select}.
     */
    public Tensor maskedSelect(Tensor mask) {
        return Aten.MASKED_SELECT.call1(this, mask);
    }

    /** {@code Tensor.masked_scatter}: out-of-place version of {@code torch.Tensor.masked_scatter_}. */
    public Tensor maskedScatter(Tensor mask, Tensor source) {
        return Aten.MASKED_SCATTER.call1(this, mask, source);
    }

    /**
     * {@code Tensor.masked_scatter_}: copies elements from {@code source} into {@code self} tensor at positions where
     * the {@code mask} is {@code true}.
     */
    public Tensor maskedScatter_(Tensor mask, Tensor source) {
        return OpHooks.indexing().maskedScatter(this, mask, source);
    }

    /**
     * {@code Tensor.take}: returns a new tensor with the elements of {@code input} at the given indices; see
     * {@code torch.take}.
     */
    public Tensor take(Tensor index) {
        return Aten.TAKE.call1(this, index);
    }

    /**
     * {@code Tensor.put}: a copy of this tensor with the elements of {@code source} written at the flat (row-major)
     * positions {@code index} (int64, negative counting from the end); a position named twice keeps the last value.
     */
    public Tensor put(Tensor index, Tensor source) {
        return put(index, source, false);
    }

    /** {@code Tensor.put(index, source, accumulate)}: with {@code accumulate}, values add to the elements instead. */
    public Tensor put(Tensor index, Tensor source, boolean accumulate) {
        return Aten.PUT.call1(this, index, source, accumulate);
    }

    /**
     * {@code Tensor.put_}: writes the elements of {@code source} at the flat (row-major) positions {@code index} of
     * this tensor. Without {@code accumulate} PyTorch has no deterministic implementation, so it raises under
     * {@code Torch.useDeterministicAlgorithms(true)}.
     */
    public Tensor put_(Tensor index, Tensor source) {
        return put_(index, source, false);
    }

    /** {@code Tensor.put_(index, source, accumulate)}: with {@code accumulate}, values add to the elements instead. */
    public Tensor put_(Tensor index, Tensor source, boolean accumulate) {
        return writeWithoutOverlap(Aten.PUT, this, index, source, accumulate);
    }

    /**
     * {@code Tensor.take_along_dim}: selects values from {@code input} at the 1-dimensional indices from
     * {@code indices} along the given {@code dim}; see {@code torch.take_along_dim}.
     */
    public Tensor takeAlongDim(Tensor indices) {
        return Aten.TAKE_ALONG_DIM.call1(this, indices, null);
    }

    /**
     * {@code Tensor.take_along_dim}: selects values from {@code input} at the 1-dimensional indices from
     * {@code indices} along the given {@code dim}; see {@code torch.take_along_dim}.
     */
    public Tensor takeAlongDim(Tensor indices, int dim) {
        return Aten.TAKE_ALONG_DIM.call1(this, indices, (long) dim);
    }

    /**
     * {@code Tensor.unfold(dimension, size, step)}: a view holding every window of {@code size} elements along
     * {@code dimension}, one every {@code step}, in a new last dim.
     */
    public Tensor unfold(int dimension, long size, long step) {
        return Aten.UNFOLD.call1(this, (long) dimension, size, step);
    }

    /** {@code Tensor.gather}: gathers values along an axis specified by dim; see {@code torch.gather}. */
    public Tensor gather(int dim, Tensor index) {
        return Aten.GATHER.call1(this, (long) dim, index, false);
    }

    /**
     * {@code Tensor.gather(dim, index, sparse_grad=sparseGrad)}: with the flag, PyTorch's gradient of this tensor is
     * sparse COO; JTorch has no sparse layout and gives the dense tensor it densifies to (see
     * {@link Torch#gather(Tensor, int, Tensor, boolean)}).
     */
    public Tensor gather(int dim, Tensor index, boolean sparseGrad) {
        return Aten.GATHER.call1(this, (long) dim, index, sparseGrad);
    }

    /** {@code Tensor.scatter}: out-of-place version of {@code torch.Tensor.scatter_}. */
    public Tensor scatter(int dim, Tensor index, Tensor src) {
        return Aten.SCATTER_SRC.call1(this, (long) dim, index, src);
    }

    /** {@code Tensor.scatter}: out-of-place version of {@code torch.Tensor.scatter_}. */
    public Tensor scatter(int dim, Tensor index, Object value) {
        return (value instanceof Tensor ? Aten.SCATTER_SRC : Aten.SCATTER_VALUE).call1(this, (long) dim, index, value);
    }

    /**
     * {@code Tensor.scatter_}: writes all values from the tensor {@code src} into {@code self} at the indices specified
     * in the {@code index} tensor.
     */
    public Tensor scatter_(int dim, Tensor index, Tensor src) {
        return writeWithoutOverlap(Aten.SCATTER_SRC, this, (long) dim, index, src);
    }

    /**
     * {@code Tensor.scatter_}: writes all values from the tensor {@code src} into {@code self} at the indices specified
     * in the {@code index} tensor.
     */
    public Tensor scatter_(int dim, Tensor index, Object value) {
        return writeWithoutOverlap(
                value instanceof Tensor ? Aten.SCATTER_SRC : Aten.SCATTER_VALUE, this, (long) dim, index, value);
    }

    /**
     * {@code Tensor.scatter(dim, index, src, reduce=)}: scatter that {@code "add"}s or {@code "multiply"}s src into the
     * indexed places (PyTorch deprecates it for {@link #scatterReduce}).
     */
    public Tensor scatter(int dim, Tensor index, Tensor src, String reduce) {
        return Aten.SCATTER_REDUCE_LEGACY.call1(this, (long) dim, index, src, reduce);
    }

    /** {@code Tensor.scatter(dim, index, value, reduce=)}: the scalar {@code "add"}ed or {@code "multiply"}d in. */
    public Tensor scatter(int dim, Tensor index, Number value, String reduce) {
        return Aten.SCATTER_VALUE_REDUCE.call1(this, (long) dim, index, value, reduce);
    }

    /** {@code Tensor.scatter_(dim, index, src, reduce=)}: in place. */
    public Tensor scatter_(int dim, Tensor index, Tensor src, String reduce) {
        return assignResult(Aten.SCATTER_REDUCE_LEGACY.call1(this, (long) dim, index, src, reduce));
    }

    /** {@code Tensor.scatter_(dim, index, value, reduce=)}: in place. */
    public Tensor scatter_(int dim, Tensor index, Number value, String reduce) {
        return assignResult(Aten.SCATTER_VALUE_REDUCE.call1(this, (long) dim, index, value, reduce));
    }

    /**
     * {@code Tensor.index_reduce(dim, index, source, reduce, include_self=True)}: reduces source's slices along dim
     * into the slices of self that the 1-d index names, with {@code "prod"}, {@code "mean"}, {@code "amax"} or
     * {@code "amin"}.
     */
    public Tensor indexReduce(int dim, Tensor index, Tensor source, String reduce) {
        return Aten.INDEX_REDUCE.call1(this, (long) dim, index, source, reduce, true);
    }

    /** {@code Tensor.index_reduce(dim, index, source, reduce, include_self=includeSelf)}. */
    public Tensor indexReduce(int dim, Tensor index, Tensor source, String reduce, boolean includeSelf) {
        return Aten.INDEX_REDUCE.call1(this, (long) dim, index, source, reduce, includeSelf);
    }

    /** {@code Tensor.index_reduce_(dim, index, source, reduce, include_self=includeSelf)}: in place. */
    public Tensor indexReduce_(int dim, Tensor index, Tensor source, String reduce, boolean includeSelf) {
        return assignResult(Aten.INDEX_REDUCE.call1(this, (long) dim, index, source, reduce, includeSelf));
    }

    /** An in-place op written as its out-of-place composite: the result copied into this tensor (recorded). */
    private Tensor assignResult(Tensor result) {
        InternalOverlap.check(impl);
        return copy_(result);
    }

    /** {@code Tensor.scatter_add}: out-of-place version of {@code torch.Tensor.scatter_add_}. */
    public Tensor scatterAdd(int dim, Tensor index, Tensor src) {
        return Aten.SCATTER_ADD.call1(this, (long) dim, index, src);
    }

    /**
     * {@code Tensor.scatter_add_}: adds all values from the tensor {@code src} into {@code self} at the indices
     * specified in the {@code index} tensor in a similar fashion as {@code torch.Tensor.scatter_}.
     */
    public Tensor scatterAdd_(int dim, Tensor index, Tensor src) {
        return writeWithoutOverlap(Aten.SCATTER_ADD, this, (long) dim, index, src);
    }

    /** {@code Tensor.scatter_reduce}: out-of-place version of {@code torch.Tensor.scatter_reduce_}. */
    public Tensor scatterReduce(int dim, Tensor index, Tensor src, String reduce) {
        return Aten.SCATTER_REDUCE_TWO.call1(this, (long) dim, index, src, reduce, true);
    }

    /** {@code Tensor.scatter_reduce}: out-of-place version of {@code torch.Tensor.scatter_reduce_}. */
    public Tensor scatterReduce(int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
        return Aten.SCATTER_REDUCE_TWO.call1(this, (long) dim, index, src, reduce, includeSelf);
    }

    /**
     * {@code Tensor.scatter_reduce_}: reduces all values from the {@code src} tensor to the indices specified in the
     * {@code index} tensor in the {@code self} tensor using the applied reduction defined via the {@code reduce}
     * argument ({@code "sum"}, {@code "prod"}, {@code "mean"}, {@code "amax"}, {@code "amin"}).
     */
    public Tensor scatterReduce_(int dim, Tensor index, Tensor src, String reduce) {
        return scatterReduce_(dim, index, src, reduce, true);
    }

    /**
     * {@code Tensor.scatter_reduce_}: reduces all values from the {@code src} tensor to the indices specified in the
     * {@code index} tensor in the {@code self} tensor using the applied reduction defined via the {@code reduce}
     * argument ({@code "sum"}, {@code "prod"}, {@code "mean"}, {@code "amax"}, {@code "amin"}).
     */
    public Tensor scatterReduce_(int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
        return writeWithoutOverlap(Aten.SCATTER_REDUCE_TWO, this, (long) dim, index, src, reduce, includeSelf);
    }

    /**
     * {@code Tensor.index_select}: returns a new tensor which indexes the {@code input} tensor along dimension
     * {@code dim} using the entries in {@code index}; see {@code torch.index_select}.
     */
    public Tensor indexSelect(int dim, Tensor index) {
        return Aten.INDEX_SELECT.call1(this, (long) dim, index);
    }

    /** {@code Tensor.index_add}: out-of-place version of {@code torch.Tensor.index_add_}. */
    public Tensor indexAdd(int dim, Tensor index, Tensor source) {
        return Aten.INDEX_ADD.call1(this, (long) dim, index, source, 1L);
    }

    /** {@code Tensor.index_add}: out-of-place version of {@code torch.Tensor.index_add_}. */
    public Tensor indexAdd(int dim, Tensor index, Tensor source, Object alpha) {
        return Aten.INDEX_ADD.call1(this, (long) dim, index, source, alpha);
    }

    /**
     * {@code Tensor.index_add_}: accumulate the elements of {@code alpha} times {@code source} into the {@code self}
     * tensor by adding to the indices in the order given in {@code index}.
     */
    public Tensor indexAdd_(int dim, Tensor index, Tensor source) {
        return indexAdd_(dim, index, source, 1L);
    }

    /**
     * {@code Tensor.index_add_}: accumulate the elements of {@code alpha} times {@code source} into the {@code self}
     * tensor by adding to the indices in the order given in {@code index}.
     */
    public Tensor indexAdd_(int dim, Tensor index, Tensor source, Object alpha) {
        return writeWithoutOverlap(Aten.INDEX_ADD, this, (long) dim, index, source, alpha);
    }

    /** {@code Tensor.index_copy}: out-of-place version of {@code torch.Tensor.index_copy_}. */
    public Tensor indexCopy(int dim, Tensor index, Tensor source) {
        return Aten.INDEX_COPY.call1(this, (long) dim, index, source);
    }

    /**
     * {@code Tensor.index_copy_}: copies the elements of {@code tensor} into the {@code self} tensor by selecting the
     * indices in the order given in {@code index}.
     */
    public Tensor indexCopy_(int dim, Tensor index, Tensor source) {
        return writeWithoutOverlap(Aten.INDEX_COPY, this, (long) dim, index, source);
    }

    /** {@code Tensor.index_fill}: out-of-place version of {@code torch.Tensor.index_fill_}. */
    public Tensor indexFill(int dim, Tensor index, Object value) {
        return (value instanceof Tensor ? Aten.INDEX_FILL_INT_TENSOR : Aten.INDEX_FILL_INT_SCALAR)
                .call1(this, (long) dim, index, value);
    }

    /**
     * {@code Tensor.index_fill_}: fills the elements of the {@code self} tensor with value {@code value} by selecting
     * the indices in the order given in {@code index}.
     */
    public Tensor indexFill_(int dim, Tensor index, Object value) {
        InternalOverlap.warn("index_fill_", "tensor[mask] = scalar", impl);
        return (value instanceof Tensor ? Aten.INDEX_FILL_INT_TENSOR : Aten.INDEX_FILL_INT_SCALAR)
                .inPlace(this, this, (long) dim, index, value);
    }

    /**
     * {@code Tensor.sort}: sorts the elements of the {@code input} tensor along a given dimension in ascending order by
     * value; see {@code torch.sort}.
     */
    public ValuesIndices sort() {
        return Aten.SORT_STABLE.pair(this, false, -1L, false);
    }

    /**
     * {@code Tensor.sort}: sorts the elements of the {@code input} tensor along a given dimension in ascending order by
     * value; see {@code torch.sort}.
     */
    public ValuesIndices sort(long dim) {
        return Aten.SORT_STABLE.pair(this, false, dim, false);
    }

    /**
     * {@code Tensor.sort}: sorts the elements of the {@code input} tensor along a given dimension in ascending order by
     * value; see {@code torch.sort}.
     */
    public ValuesIndices sort(long dim, boolean descending) {
        return Aten.SORT_STABLE.pair(this, false, dim, descending);
    }

    /**
     * {@code Tensor.sort}: sorts the elements of the {@code input} tensor along a given dimension in ascending order by
     * value; see {@code torch.sort}.
     */
    public ValuesIndices sort(boolean stable, long dim, boolean descending) {
        return Aten.SORT_STABLE.pair(this, stable, dim, descending);
    }

    /**
     * {@code Tensor.argsort}: returns the indices that sort a tensor along a given dimension in ascending order by
     * value; see {@code torch.argsort}.
     */
    public Tensor argsort() {
        return Aten.ARGSORT_STABLE.call1(this, false, -1L, false);
    }

    /**
     * {@code Tensor.argsort}: returns the indices that sort a tensor along a given dimension in ascending order by
     * value; see {@code torch.argsort}.
     */
    public Tensor argsort(long dim) {
        return Aten.ARGSORT_STABLE.call1(this, false, dim, false);
    }

    /**
     * {@code Tensor.argsort}: returns the indices that sort a tensor along a given dimension in ascending order by
     * value; see {@code torch.argsort}.
     */
    public Tensor argsort(long dim, boolean descending) {
        return Aten.ARGSORT_STABLE.call1(this, false, dim, descending);
    }

    /**
     * {@code Tensor.argsort}: returns the indices that sort a tensor along a given dimension in ascending order by
     * value; see {@code torch.argsort}.
     */
    public Tensor argsort(long dim, boolean descending, boolean stable) {
        return Aten.ARGSORT_STABLE.call1(this, stable, dim, descending);
    }

    /**
     * {@code Tensor.msort}: sorts the elements of the {@code input} tensor along its first dimension in ascending order
     * by value; see {@code torch.msort}.
     */
    public Tensor msort() {
        return Aten.MSORT.call1(this);
    }

    /**
     * {@code Tensor.topk}: returns the {@code k} largest elements of the given {@code input} tensor along a given
     * dimension; see {@code torch.topk}.
     */
    public ValuesIndices topk(long k) {
        return Aten.TOPK.pair(this, k, -1L, true, true);
    }

    /**
     * {@code Tensor.topk}: returns the {@code k} largest elements of the given {@code input} tensor along a given
     * dimension; see {@code torch.topk}.
     */
    public ValuesIndices topk(long k, long dim) {
        return Aten.TOPK.pair(this, k, dim, true, true);
    }

    /**
     * {@code Tensor.topk}: returns the {@code k} largest elements of the given {@code input} tensor along a given
     * dimension; see {@code torch.topk}.
     */
    public ValuesIndices topk(long k, long dim, boolean largest) {
        return Aten.TOPK.pair(this, k, dim, largest, true);
    }

    /**
     * {@code Tensor.topk}: returns the {@code k} largest elements of the given {@code input} tensor along a given
     * dimension; see {@code torch.topk}.
     */
    public ValuesIndices topk(long k, long dim, boolean largest, boolean sorted) {
        return Aten.TOPK.pair(this, k, dim, largest, sorted);
    }

    /**
     * {@code Tensor.kthvalue}: returns a namedtuple {@code (values, indices)} where {@code values} is the {@code k} th
     * smallest element of each row of the {@code input} tensor in the given dimension {@code dim}; see
     * {@code torch.kthvalue}.
     */
    public ValuesIndices kthvalue(long k) {
        return Aten.KTHVALUE.pair(this, k, -1L, false);
    }

    /**
     * {@code Tensor.kthvalue}: returns a namedtuple {@code (values, indices)} where {@code values} is the {@code k} th
     * smallest element of each row of the {@code input} tensor in the given dimension {@code dim}; see
     * {@code torch.kthvalue}.
     */
    public ValuesIndices kthvalue(long k, long dim) {
        return Aten.KTHVALUE.pair(this, k, dim, false);
    }

    /**
     * {@code Tensor.kthvalue}: returns a namedtuple {@code (values, indices)} where {@code values} is the {@code k} th
     * smallest element of each row of the {@code input} tensor in the given dimension {@code dim}; see
     * {@code torch.kthvalue}.
     */
    public ValuesIndices kthvalue(long k, long dim, boolean keepdim) {
        return Aten.KTHVALUE.pair(this, k, dim, keepdim);
    }

    /**
     * {@code Tensor.cummax}: returns a namedtuple {@code (values, indices)} where {@code values} is the cumulative
     * maximum of elements of {@code input} in the dimension {@code dim}; see {@code torch.cummax}.
     */
    public ValuesIndices cummax(long dim) {
        return Aten.CUMMAX.pair(this, dim);
    }

    /**
     * {@code Tensor.cummin}: returns a namedtuple {@code (values, indices)} where {@code values} is the cumulative
     * minimum of elements of {@code input} in the dimension {@code dim}; see {@code torch.cummin}.
     */
    public ValuesIndices cummin(long dim) {
        return Aten.CUMMIN.pair(this, dim);
    }

    /** {@code Tensor.unique}: returns the unique elements of the input tensor. */
    public Tensor unique() {
        return Aten._UNIQUE2.first(this, true, false, false);
    }

    /** {@code Tensor.unique}: returns the unique elements of the input tensor. */
    public UniqueResult unique(boolean sorted, boolean returnInverse, boolean returnCounts) {
        return Aten._UNIQUE2.unique(returnInverse, returnCounts, this, sorted, returnInverse, returnCounts);
    }

    /** {@code Tensor.unique}: returns the unique elements of the input tensor. */
    public UniqueResult unique(boolean sorted, boolean returnInverse, boolean returnCounts, long dim) {
        return Aten.UNIQUE_DIM.unique(returnInverse, returnCounts, this, dim, sorted, returnInverse, returnCounts);
    }

    /**
     * {@code Tensor.unique_consecutive}: eliminates all but the first element from every consecutive group of
     * equivalent elements.
     */
    public Tensor uniqueConsecutive() {
        return Aten.UNIQUE_CONSECUTIVE.first(this, false, false, null);
    }

    /**
     * {@code Tensor.unique_consecutive}: eliminates all but the first element from every consecutive group of
     * equivalent elements.
     */
    public UniqueResult uniqueConsecutive(boolean returnInverse, boolean returnCounts) {
        return Aten.UNIQUE_CONSECUTIVE.unique(returnInverse, returnCounts, this, returnInverse, returnCounts, null);
    }

    /**
     * {@code Tensor.unique_consecutive}: eliminates all but the first element from every consecutive group of
     * equivalent elements.
     */
    public UniqueResult uniqueConsecutive(boolean returnInverse, boolean returnCounts, long dim) {
        return Aten.UNIQUE_CONSECUTIVE.unique(returnInverse, returnCounts, this, returnInverse, returnCounts, dim);
    }

    /** {@code Tensor.histc}: computes the histogram of a tensor; see {@code torch.histc}. */
    public Tensor histc() {
        return Aten.HISTC.call1(this, 100L, 0.0, 0.0);
    }

    /** {@code Tensor.histc}: computes the histogram of a tensor; see {@code torch.histc}. */
    public Tensor histc(long bins) {
        return Aten.HISTC.call1(this, bins, 0.0, 0.0);
    }

    /** {@code Tensor.histc}: computes the histogram of a tensor; see {@code torch.histc}. */
    public Tensor histc(long bins, double min, double max) {
        return Aten.HISTC.call1(this, bins, min, max);
    }

    /**
     * {@code Tensor.bincount}: count the frequency of each value in an array of non-negative ints; see
     * {@code torch.bincount}.
     */
    public Tensor bincount() {
        return Aten.BINCOUNT.call1(this, null, 0L);
    }

    /**
     * {@code Tensor.bincount}: count the frequency of each value in an array of non-negative ints; see
     * {@code torch.bincount}.
     */
    public Tensor bincount(Tensor weights) {
        return Aten.BINCOUNT.call1(this, weights, 0L);
    }

    /**
     * {@code Tensor.bincount}: count the frequency of each value in an array of non-negative ints; see
     * {@code torch.bincount}.
     */
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
     * {@code Tensor.data = newData} ({@code Variable::set_data}): this tensor takes {@code newData}'s storage, geometry
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
     * {@code Tensor.register_post_accumulate_grad_hook(hook)}: {@code hook(this)} runs after a backward updated this
     * leaf's grad.
     */
    public RemovableHandle registerPostAccumulateGradHook(java.util.function.Consumer<Tensor> hook) {
        return Hooks.AUTOGRAD.registerPostAccumulateGradHook(this, hook);
    }

    /** The forward-AD tangents of this tensor, or null; only forward AD reads them (no PyTorch counterpart). */
    public ForwardGrad forwardGrads() {
        return forwardGrads;
    }

    /**
     * Replaces the forward-AD tangents (another tensor's, or null); only forward AD makes them (no PyTorch
     * counterpart).
     */
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
     * {@code Tensor.T}: the dimensions in reverse order ({@code permute(n-1, ..., 0)}), as PyTorch's {@code numpy_T}.
     * As in PyTorch, a tensor that is not 2-D gets a one-time {@code UserWarning}: {@link #mT()} transposes batches of
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

    /**
     * {@code Tensor.float()} ({@code float} is a Java keyword): {@code to(DType.FLOAT32)}, this tensor if already so.
     */
    public Tensor toFloat() {
        return to(DType.FLOAT32);
    }

    /** {@code Tensor.double()} ({@code double} is a Java keyword): {@code to(DType.FLOAT64)}. */
    public Tensor toDouble() {
        return to(DType.FLOAT64);
    }

    /** {@code Tensor.long()} ({@code long} is a Java keyword): {@code to(DType.INT64)}. */
    public Tensor toLong() {
        return to(DType.INT64);
    }

    /** {@code Tensor.int()} ({@code int} is a Java keyword): {@code to(DType.INT32)}. */
    public Tensor toInt() {
        return to(DType.INT32);
    }

    /** {@code Tensor.half()}: {@code to(DType.FLOAT16)}. */
    public Tensor half() {
        return to(DType.FLOAT16);
    }

    /** {@code Tensor.bfloat16()}: {@code to(DType.BFLOAT16)}. */
    public Tensor bfloat16() {
        return to(DType.BFLOAT16);
    }

    /** {@code Tensor.bool()}: {@code to(DType.BOOL)}. */
    public Tensor bool() {
        return to(DType.BOOL);
    }

    /**
     * {@code Tensor.tolist()}: the elements as nested {@code List}s, one level per dimension; a 0-d tensor gives its
     * element alone. Elements are Java's counterparts of Python's numbers: {@code Double} for floating dtypes,
     * {@code Long} for integer dtypes (uint64 values above {@link Long#MAX_VALUE} as their two's-complement bits),
     * {@code Boolean} for bool and a complex {@link Scalar} for complex dtypes.
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
