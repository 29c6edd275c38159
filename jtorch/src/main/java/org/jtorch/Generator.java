package org.jtorch;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jtorch.kernels.cpu.Mt19937;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * {@code torch.Generator} for the CPU: PyTorch's mt19937 engine (see {@link Mt19937}) behind a lock.
 *
 * <p>Every random op takes the lock for its whole fill, as ATen does with the generator's mutex, so concurrent draws
 * from one generator never interleave inside an op and never corrupt its state; which op draws first is up to the
 * threads. {@link #getState()} and {@link #setState(Tensor)} use the byte layout of ATen's
 * {@code CPUGeneratorImplState} (5056 bytes, little-endian), so states move between JTorch and PyTorch.
 *
 * <p>A new generator is seeded with {@code 67280421310721} (ATen's {@code default_rng_seed_val}); the default generator
 * behind {@code Torch.rand} and friends is seeded nondeterministically at start-up, as in PyTorch.
 */
public final class Generator {
    /** ATen's {@code default_rng_seed_val}, the seed of {@code torch.Generator()}. */
    public static final long DEFAULT_SEED = 67280421310721L;

    /** Size of {@code CPUGeneratorImplState}, what {@link #getState()} returns. */
    public static final int STATE_SIZE = 5056;
    /** Size of {@code CPUGeneratorImplStateLegacy}, still accepted by {@link #setState(Tensor)}. */
    public static final int LEGACY_STATE_SIZE = 5048;

    private static final int OFFSET_STATE = 24;
    private static final int OFFSET_NORMAL_X = 5016;
    private static final int OFFSET_NORMAL_Y = 5024;
    private static final int OFFSET_NORMAL_RHO = 5032;
    private static final int OFFSET_NORMAL_VALID = 5040;
    private static final int OFFSET_FLOAT_NORMAL = 5048;
    private static final int OFFSET_FLOAT_NORMAL_VALID = 5052;

    private final ReentrantLock lock = new ReentrantLock();
    private final Mt19937 engine;
    private final Device device;

    /** {@code torch.Generator()}: a CPU generator seeded with {@link #DEFAULT_SEED}. */
    public Generator() {
        this(DEFAULT_SEED, Device.CPU);
    }

    /**
     * {@code torch.Generator(device)}: a generator of a backend device (the default generator a
     * {@link org.jtorch.accelerator.spi.DeviceBackend} hands out per device), with the CPU's mt19937 engine, state
     * layout and {@link #DEFAULT_SEED}.
     */
    public Generator(Device device) {
        this(DEFAULT_SEED, device);
    }

    private Generator(long seed, Device device) {
        if (device == Device.META) throw new TorchException("Generator: the meta device has no generator");
        this.engine = new Mt19937(seed);
        this.device = device;
    }

    /**
     * {@code torch.default_generator}: the generator random ops use when none is given; inside {@link #runWithDefault}
     * on this thread, the generator given there.
     */
    public static Generator defaultGenerator() {
        return THREAD_DEFAULT.isBound() ? THREAD_DEFAULT.get() : Default.INSTANCE;
    }

    /**
     * Runs {@code body} on this thread with {@code generator} as its {@link #defaultGenerator()}: the default generator
     * of a PyTorch {@code DataLoader} worker process, which the worker seeds with {@code base_seed + worker_id}. A
     * worker here is a thread, so the process-wide generator it would own becomes one scoped to the worker's thread;
     * {@code Torch.manualSeed} inside the body reseeds that one, as it would in the worker process.
     */
    public static void runWithDefault(Generator generator, Runnable body) {
        ScopedValue.where(THREAD_DEFAULT, java.util.Objects.requireNonNull(generator, "generator"))
                .run(body);
    }

    private static final ScopedValue<Generator> THREAD_DEFAULT = ScopedValue.newInstance();

    /** The default generator is created on first use, so its nondeterministic seed costs nothing until then. */
    private static final class Default {
        static final Generator INSTANCE = new Generator(nondeterministicSeed(), Device.CPU);
    }

    private static long nondeterministicSeed() {
        return new SecureRandom().nextLong();
    }

    /** {@code Generator.device}: the CPU, or the backend device it was made for. */
    public Device device() {
        return device;
    }

    /** {@code manual_seed(seed)}: reseeds and drops the cached normal samples. Negative seeds are read as uint64. */
    public Generator manualSeed(long seed) {
        lock.lock();
        try {
            engine.seed(seed);
        } finally {
            lock.unlock();
        }
        return this;
    }

    /** {@code seed()}: reseeds with a nondeterministic 64-bit value and returns it. */
    public long seed() {
        long s = nondeterministicSeed();
        manualSeed(s);
        return s;
    }

    /**
     * {@code initial_seed()}: the last seed set, 64 bits (read as unsigned, e.g. with {@link Long#toUnsignedString}).
     */
    public long initialSeed() {
        lock.lock();
        try {
            return engine.initialSeed();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code body} on the engine with the lock held, so its draws form one uninterrupted run of the stream. This
     * is how sampling kernels draw; user code has no need for it.
     */
    @SuppressWarnings("exports") // the sampling kernels' hook: Mt19937 is not exported, so it is not user API
    public <R> R withEngine(Function<Mt19937, R> body) {
        lock.lock();
        try {
            return body.apply(engine);
        } finally {
            lock.unlock();
        }
    }

    // ---- get_state / set_state --------------------------------------------------------------------

    /** {@code get_state()}: the state as a uint8 tensor of {@link #STATE_SIZE} bytes. */
    public Tensor getState() {
        byte[] bytes = getStateBytes();
        return Tensor.of(TensorImpl.of(Storage.wrap(bytes), 0, new long[] {bytes.length}, new long[] {1}, DType.UINT8));
    }

    /** The bytes of {@link #getState()}. */
    public byte[] getStateBytes() {
        Mt19937.Snapshot s = withEngine(Mt19937::snapshot);
        ByteBuffer b = ByteBuffer.allocate(STATE_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, s.seed())
                .putInt(8, s.left())
                .putInt(12, s.seeded() ? 1 : 0)
                .putLong(16, s.next());
        for (int i = 0; i < Mt19937.N; i++) b.putLong(OFFSET_STATE + 8 * i, Integer.toUnsignedLong(s.state()[i]));
        // ATen keeps the cached sample itself in normal_y; normal_x and normal_rho stay zero.
        if (s.hasNormalDouble()) b.putDouble(OFFSET_NORMAL_Y, s.normalDouble()).putInt(OFFSET_NORMAL_VALID, 1);
        if (s.hasNormalFloat())
            b.putFloat(OFFSET_FLOAT_NORMAL, s.normalFloat()).put(OFFSET_FLOAT_NORMAL_VALID, (byte) 1);
        return b.array();
    }

    /**
     * {@code set_state(new_state)}: a contiguous CPU uint8 tensor of {@link #STATE_SIZE} bytes, or of
     * {@link #LEGACY_STATE_SIZE} bytes (the pre-1.5 layout). The state is parsed and validated completely before
     * anything changes, so a refused state leaves the generator as it was.
     */
    public Generator setState(Tensor newState) {
        if (newState.device() != Device.CPU || newState.dtype() != DType.UINT8) {
            throw new TorchTypeException("RNG state must be a torch.ByteTensor");
        }
        if (!newState.isContiguous()) throw new TorchException("RNG state must be contiguous");
        checkSize(newState.numel());
        byte[] bytes = new byte[(int) newState.numel()];
        MemorySegment.copy(
                newState.impl().storage().segment(),
                newState.storageOffset(),
                MemorySegment.ofArray(bytes),
                0,
                bytes.length);
        return setState(bytes);
    }

    /** {@link #setState(Tensor)} from raw bytes. */
    public Generator setState(byte[] newState) {
        Mt19937.Snapshot parsed = parse(newState);
        lock.lock();
        try {
            engine.restore(parsed);
        } finally {
            lock.unlock();
        }
        return this;
    }

    private static void checkSize(long size) {
        if (size != STATE_SIZE && size != LEGACY_STATE_SIZE) {
            throw new TorchException("Expected either a CPUGeneratorImplStateLegacy of size " + LEGACY_STATE_SIZE
                    + " or a CPUGeneratorImplState of size " + STATE_SIZE + " but found the input RNG state size to be "
                    + size);
        }
    }

    private static Mt19937.Snapshot parse(byte[] bytes) {
        checkSize(bytes.length);
        int size = bytes.length;
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int[] words = new int[Mt19937.N];
        // The struct widens each word to 64 bits; ATen copies them back with a narrowing std::copy.
        for (int i = 0; i < Mt19937.N; i++) words[i] = (int) b.getLong(OFFSET_STATE + 8 * i);
        boolean hasDouble = b.getInt(OFFSET_NORMAL_VALID) != 0;
        double normalDouble = 0;
        boolean hasFloat = false;
        float normalFloat = 0;
        if (size == LEGACY_STATE_SIZE) {
            // The legacy layout cached the Box–Muller inputs: the sample is rho * sin(2 pi x).
            if (hasDouble)
                normalDouble = b.getDouble(OFFSET_NORMAL_RHO) * Math.sin(2.0 * Math.PI * b.getDouble(OFFSET_NORMAL_X));
        } else {
            if (hasDouble) normalDouble = b.getDouble(OFFSET_NORMAL_Y);
            hasFloat = bytes[OFFSET_FLOAT_NORMAL_VALID] != 0;
            if (hasFloat) normalFloat = b.getFloat(OFFSET_FLOAT_NORMAL);
        }
        Mt19937.Snapshot s = new Mt19937.Snapshot(
                b.getLong(0),
                b.getInt(8),
                b.getInt(12) != 0,
                b.getLong(16),
                words,
                hasDouble,
                normalDouble,
                hasFloat,
                normalFloat);
        if (!s.isValid()) throw new TorchException("Invalid mt19937 state");
        return s;
    }

    @Override
    public String toString() {
        return "Generator(device=" + device + ", initial_seed=" + Long.toUnsignedString(initialSeed()) + ")";
    }
}
