package org.jtorch.storage;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import org.jtorch.DType;

/**
 * Primitive arrays whose contents are left as the heap had them, for op outputs their kernel overwrites: PyTorch's
 * {@code at::empty} memory. A zeroed array costs a pass over memory the kernel writes again at once (on the 2-core
 * machine of docs/benchmarks.md about 450 µs of a 3 MiB product's 1.2 ms).
 *
 * <p>The JDK allocates such arrays through {@code jdk.internal.misc.Unsafe.allocateUninitializedArray}, a compiler
 * intrinsic the JDK's own string and array code uses. Its package is not exported: a program opts in with
 * {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} (class path) or {@code =org.jtorch} (module path), as
 * JTorch's launchers, tests and benchmarks do. Without the flag every array is zeroed, as {@code new float[n]} is; the
 * results are the same either way, since only outputs whose every element the kernel writes come from here.
 *
 * <p>Where it saves nothing: HotSpot leaves out the zeroing only when code that its optimizing compiler compiled
 * allocates the array in the thread's local allocation buffer. An array too big for that buffer (any output of more
 * than a few hundred KiB) takes the runtime's slow path, which zeroes it whatever was asked; so does every allocation
 * before the intrinsic is compiled. Measured on the machine of docs/benchmarks.md: a 16 MiB float array took 1.7–1.9 ms
 * to allocate either way, the runtime's {@code memset} in the profile, which is why a 16 MiB {@code mul} took 3.2 ms
 * into a new output and 0.9 ms into a recycled one. For large outputs the memory that skips the pass is a recycled
 * array ({@link ArrayPool}, {@code MemoryScope}).
 *
 * <p>The system property {@code jtorch.poisonUninitialized=true} (or {@link #setPoison}) fills each such array with NaN
 * (floating kinds) or a byte pattern (integer kinds) instead: a kernel that reads an output element before writing it,
 * or leaves one unwritten, then shows in its results. {@code UninitializedOutputsTest} runs every op of the op table
 * both ways and requires the same bits.
 */
public final class UninitializedArrays {
    private UninitializedArrays() {}

    /** {@code Unsafe.allocateUninitializedArray(Class, int)} bound to the JDK's instance; null when not exported. */
    private static final MethodHandle ALLOCATE = lookup();

    private static volatile boolean poison = Boolean.getBoolean("jtorch.poisonUninitialized");

    /** Below this many bytes the JDK zeroes anyway (it allocates in the thread's buffer): not worth a call. */
    private static final long MIN_BYTES = 4096;

    private static MethodHandle lookup() {
        try {
            Class<?> unsafe = Class.forName("jdk.internal.misc.Unsafe");
            Object instance = unsafe.getMethod("getUnsafe").invoke(null);
            MethodType type = MethodType.methodType(Object.class, Class.class, int.class);
            return MethodHandles.lookup()
                    .findVirtual(unsafe, "allocateUninitializedArray", type)
                    .bindTo(instance);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null; // the package is not exported to JTorch: arrays are zeroed
        }
    }

    /** Whether arrays come uninitialized (the JVM exports {@code jdk.internal.misc} to JTorch). */
    public static boolean available() {
        return ALLOCATE != null;
    }

    /**
     * Turns the poison fill on or off for the arrays allocated from now on (the system property's setting, for a test
     * that compares an op's outputs with and without it).
     */
    public static void setPoison(boolean on) {
        poison = on;
    }

    /** A {@code kind} array of {@code n} elements whose contents are unspecified. */
    static Object allocate(DType.StorageKind kind, int n) {
        boolean skipZeroing = ALLOCATE != null && (long) n * Storage.slotBytes(kind) >= MIN_BYTES;
        // each case names its class as a constant, so that the compiler's intrinsic applies
        Object array =
                switch (kind) {
                    case BYTE -> skipZeroing ? uninitialized(byte.class, n) : new byte[n];
                    case SHORT -> skipZeroing ? uninitialized(short.class, n) : new short[n];
                    case INT -> skipZeroing ? uninitialized(int.class, n) : new int[n];
                    case LONG -> skipZeroing ? uninitialized(long.class, n) : new long[n];
                    case FLOAT -> skipZeroing ? uninitialized(float.class, n) : new float[n];
                    case DOUBLE -> skipZeroing ? uninitialized(double.class, n) : new double[n];
                };
        if (poison) poison(array);
        return array;
    }

    /** {@code array} (a recycled one, whose contents are another tensor's) poisoned if the poison fill is on. */
    static Object poisoned(Object array) {
        if (poison) poison(array);
        return array;
    }

    private static Object uninitialized(Class<?> component, int n) {
        try {
            return (Object) ALLOCATE.invokeExact(component, n);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static void poison(Object array) {
        switch (array) {
            case float[] a -> Arrays.fill(a, Float.NaN);
            case double[] a -> Arrays.fill(a, Double.NaN);
            case byte[] a -> Arrays.fill(a, (byte) 0x5A);
            case short[] a -> Arrays.fill(a, (short) 0x7E5A);
            case int[] a -> Arrays.fill(a, 0x5A5A5A5A);
            case long[] a -> Arrays.fill(a, 0x5A5A5A5A5A5A5A5AL);
            default -> throw new IllegalArgumentException(array.getClass().getName());
        }
    }
}
