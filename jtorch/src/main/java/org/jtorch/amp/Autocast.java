package org.jtorch.amp;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Operator;

/**
 * An autocast region ({@code torch.autocast(device_type, dtype, enabled, cache_enabled)} used as a context manager),
 * closed by try-with-resources. Made by {@link Amp#autocast}.
 *
 * <p>PyTorch implements autocast as a dispatch key that wraps each listed op's entry: the wrapper casts the arguments
 * and calls the op with autocast excluded, so the ops the listed op is built from are not cast again. JTorch does the
 * same in two places. A region is an interpreter on the thread's dispatch stack ({@code DispatchState.Kind.AUTOCAST})
 * whose mode casts the arguments of the registered ops on {@link CpuAutocastLists} ({@code mm}, {@code cat}, the
 * linear-algebra ops…). The ops that PyTorch registers but JTorch composes in {@code nn.functional} ({@code linear},
 * the convolutions, {@code scaled_dot_product_attention}, the losses) would otherwise show autocast only their parts;
 * their entry points call {@link #run} with their policy, which casts and runs the composition with autocast excluded,
 * so their outputs have PyTorch's dtypes. This state lives in {@code org.jtorch.amp}, below {@code nn.functional}.
 *
 * <p>Casts are ops like any other: autograd records them, so gradients reach float32 parameters as float32. Within the
 * outermost region, the lower-precision copy of a float32 leaf that requires grad (a parameter) is made once and
 * reused, as PyTorch's autocast cache; the cache is emptied when the outermost region closes.
 */
public final class Autocast implements AutoCloseable {
    /** Per thread: how many autocast wrappers are running now, whose inner ops autocast must leave alone. */
    private static final ThreadLocal<int[]> EXCLUDED = ThreadLocal.withInitial(() -> new int[1]);

    private final Region region;
    private final DispatchState.Scope scope;

    Autocast(DType dtype, boolean enabled, boolean cacheEnabled) {
        DispatchState.Interpreter outer = DispatchState.innermostEntered(DispatchState.Kind.AUTOCAST);
        Map<Tensor, Tensor> cache = outer instanceof Region r ? r.cache : new IdentityHashMap<>();
        this.region = new Region(DispatchState.nextLevel(), dtype, enabled, cacheEnabled, cache);
        this.scope = DispatchState.enter(region);
    }

    /** The dtype the region casts to ({@code torch.get_autocast_dtype} inside it). */
    public DType dtype() {
        return region.dtype;
    }

    /** Whether the region casts ({@code torch.is_autocast_enabled} inside it). */
    public boolean enabled() {
        return region.enabled;
    }

    /** Leaves the region ({@code __exit__}); leaving the outermost one empties the cast cache. */
    @Override
    public void close() {
        scope.close();
        if (DispatchState.innermostEntered(DispatchState.Kind.AUTOCAST) == null) region.cache.clear();
    }

    /** The innermost region of this thread if it casts now, else null. */
    static Region active() {
        if (EXCLUDED.get()[0] > 0) return null;
        return DispatchState.innermostInEffect(DispatchState.Kind.AUTOCAST) instanceof Region r && r.enabled ? r : null;
    }

    /** The innermost region entered on this thread, enabled or not, or null. */
    static Region innermost() {
        return DispatchState.innermostEntered(DispatchState.Kind.AUTOCAST) instanceof Region r ? r : null;
    }

    /**
     * Whether an autocast region casts on this thread now ({@code torch.is_autocast_enabled("cpu")}, and false inside
     * an op that autocast already wrapped): the cheap check an {@code nn.functional} entry point makes before
     * {@link #run}.
     */
    public static boolean isActive() {
        return active() != null;
    }

    /**
     * The autocast wrapper of an op that JTorch composes from other ops (ATen's {@code WrapFunction_} for a
     * {@code KERNEL_CPU(op, policy)} entry): casts {@code args} by {@code policy} (nulls and ineligible tensors pass
     * unchanged) and runs {@code body} on them with autocast excluded, as ATen redispatches below the autocast key.
     * Outside an active region, runs {@code body} on {@code args} as they are.
     */
    public static Tensor run(CastPolicy policy, Function<Tensor[], Tensor> body, Tensor... args) {
        Region r = active();
        if (r == null) return body.apply(args);
        Tensor[] cast = new Tensor[args.length];
        DType to = r.target(policy, java.util.Arrays.asList(args));
        for (int i = 0; i < args.length; i++) cast[i] = r.cast(args[i], to);
        return excluded(() -> body.apply(cast));
    }

    private static <T> T excluded(java.util.function.Supplier<T> body) {
        int[] n = EXCLUDED.get();
        n[0]++;
        try {
            return body.get();
        } finally {
            n[0]--;
        }
    }

    /** The interpreter on the dispatch stack: its mode casts the listed registered ops. */
    static final class Region extends DispatchState.ModeInterpreter {
        final DType dtype;
        final boolean enabled;
        private final boolean cacheEnabled;
        final Map<Tensor, Tensor> cache;

        Region(int level, DType dtype, boolean enabled, boolean cacheEnabled, Map<Tensor, Tensor> cache) {
            super(DispatchState.Kind.AUTOCAST, level);
            this.dtype = dtype;
            this.enabled = enabled;
            this.cacheEnabled = cacheEnabled;
            this.cache = cache;
        }

        @Override
        public Object process(Operator op, Object[] args, Dispatcher.Next next) {
            // An outer region, or one inside a wrapped op, passes: only the innermost region in effect decides.
            CastPolicy policy = active() == this ? CpuAutocastLists.of(op.name()) : null;
            if (policy == null) return next.call(op, args);
            List<Tensor> tensors = new ArrayList<>();
            for (Object a : args) collect(a, tensors);
            DType to = target(policy, tensors);
            Object[] cast = new Object[args.length];
            for (int i = 0; i < args.length; i++) cast[i] = castValue(args[i], to);
            return excluded(() -> next.call(op, cast));
        }

        /** The dtype {@code policy} casts eligible arguments to ({@code promote_type} for PROMOTE). */
        DType target(CastPolicy policy, List<Tensor> tensors) {
            return switch (policy) {
                case LOWER_PRECISION_FP -> dtype;
                case FP32 -> DType.FLOAT32;
                case PROMOTE -> {
                    DType widest = dtype;
                    for (Tensor t : tensors) widest = prioritize(widest, t);
                    yield widest;
                }
            };
        }

        /**
         * ATen's {@code prioritize}: float64 arguments are ignored, float32 wins over the lower precision, and a mix of
         * float16 and bfloat16 has no answer (PyTorch raises rather than guess).
         */
        private DType prioritize(DType current, Tensor t) {
            if (!eligible(t) || t.dtype() == DType.FLOAT64) return current;
            DType next = t.dtype();
            if (current == DType.FLOAT32 || next == DType.FLOAT32) return DType.FLOAT32;
            if (current == dtype && next == dtype) return dtype;
            throw new TorchException("Unexpected floating ScalarType in at::autocast::prioritize");
        }

        /** ATen's {@code cached_cast}: a float32 parameter's lower-precision copy is made once per region. */
        Tensor cast(Tensor t, DType to) {
            if (!eligible(t) || t.dtype() == to) return t;
            boolean cacheable =
                    cacheEnabled && to == dtype && t.dtype() == DType.FLOAT32 && t.requiresGrad() && t.isLeaf();
            if (!cacheable) return t.to(to);
            Tensor c = cache.get(t);
            if (c == null) {
                c = t.to(to);
                cache.put(t, c);
            }
            return c;
        }

        private Object castValue(Object a, DType to) {
            if (a instanceof Tensor t) return cast(t, to);
            if (a instanceof Tensor[] ts) {
                Tensor[] out = new Tensor[ts.length];
                for (int i = 0; i < ts.length; i++) out[i] = cast(ts[i], to);
                return out;
            }
            if (a instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof Tensor) {
                List<Tensor> out = new ArrayList<>(list.size());
                for (Object o : list) out.add(o instanceof Tensor t ? cast(t, to) : (Tensor) o);
                return out;
            }
            return a;
        }

        private static void collect(Object a, List<Tensor> into) {
            if (a instanceof Tensor t) into.add(t);
            else if (a instanceof Tensor[] ts) into.addAll(java.util.Arrays.asList(ts));
            else if (a instanceof List<?> list) for (Object o : list) if (o instanceof Tensor t) into.add(t);
        }

        /** ATen's {@code is_eligible} on the CPU: a defined floating-point CPU tensor that is not float64. */
        private static boolean eligible(Tensor t) {
            return t != null && t.device() == Device.CPU && t.isFloatingPoint() && t.dtype() != DType.FLOAT64;
        }
    }
}
