package org.jtorch.compile.inductor.codegen;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jtorch.TorchException;
import org.jtorch.compile.inductor.ir.LoopKernel;

/**
 * Turns kernels into loaded classes and caches them by their listing, once per process.
 *
 * <p>A kernel class is specialised to its kernel's structure, not to its sizes: loop extents, strides, offsets and
 * gather sizes are run-time arguments ({@link KernelArguments}), and the listing used as the key names them instead of
 * holding their values, and leaves out the names of the fused ops. Kernels that differ only in sizes (the per-parameter
 * updates of an optimizer step, a model's layers) therefore share one class, which the JIT compiles once for all of
 * them.
 *
 * <p>Each kernel's class file is written directly by {@link KernelBytecode} with the JDK's {@code java.lang.classfile}
 * API: a few milliseconds per kernel, against javac's start-up and attribution of generated source, which cost tens of
 * seconds for a model's kernels on a loaded machine (docs/benchmarks.md has both latencies). The readable Java listing
 * of the kernel ({@link KernelSource}) is still produced from the same IR and layout: it is what the structured trace
 * shows, and it is the cache key (equal listings are equal kernels).
 *
 * <p>With {@code -Djtorch.inductor.cacheDir=DIR} the class files are also kept on disk, named by a hash of their
 * listing and of the bytecode generator's format, so a new process loads the kernels it generated before
 * ({@code DiskCache}).
 *
 * <p>Each class is defined as a hidden class of this package, so it can be unloaded with the last reference to its
 * kernel, and it is reached through a {@link MethodHandle} to its {@code run} method.
 */
public final class KernelCompiler {
    private KernelCompiler() {}

    /**
     * The signature of every kernel's entry point {@code run(buffers, args, lo, hi)}: {@code args} holds each buffer's
     * storage offset, then the kernel's sizes (see {@link Call#arguments()}).
     */
    public static final MethodType RUN =
            MethodType.methodType(void.class, Object[].class, long[].class, long.class, long.class);

    /** Changes whenever {@link KernelBytecode} writes different code for the same listing. */
    private static final String FORMAT = "classfile-2\n";

    private static final String PACKAGE = KernelCompiler.class.getPackageName();
    private static final String PLACEHOLDER = "KERNEL_CLASS";
    private static final Map<String, CompiledKernel> CACHE = new ConcurrentHashMap<>();
    private static final AtomicLong GENERATED = new AtomicLong();
    private static final AtomicLong GENERATE_NANOS = new AtomicLong();

    /** A kernel ready to run: its class name, its readable listing and the handle of its {@code run} method. */
    public record CompiledKernel(String className, String source, MethodHandle run) {}

    /** Where a kernel's class came from. */
    public enum Origin {
        /** Its class file was generated now. */
        GENERATED,
        /** Its class file was read from the on-disk cache. */
        DISK,
        /** A class already loaded in this process for a kernel of the same structure. */
        CACHE
    }

    /**
     * One kernel ready to launch: its (possibly shared) class, and the {@code args} of its {@code run} — a slot per
     * buffer for the storage offsets the launch fills in, then this kernel's sizes, strides and offsets.
     */
    public record Call(CompiledKernel kernel, long[] arguments, Origin origin) {
        /** Copies the arguments. */
        public Call {
            arguments = arguments.clone();
        }

        @Override
        public long[] arguments() {
            return arguments.clone();
        }
    }

    /** Each kernel's class and arguments, in order: kernels whose structure was seen before share its class. */
    public static List<Call> compile(List<LoopKernel> kernels) {
        List<Call> out = new ArrayList<>();
        for (LoopKernel k : kernels) {
            KernelLayout layout = KernelLayout.of(k);
            String key = KernelSource.generate(layout, PACKAGE, PLACEHOLDER, false);
            Origin[] origin = {Origin.CACHE};
            CompiledKernel compiled = CACHE.computeIfAbsent(key, listing -> {
                String name = className(k.name(), listing);
                byte[] bytes = DiskCache.load(name);
                origin[0] = bytes == null ? Origin.GENERATED : Origin.DISK;
                if (bytes == null) bytes = generate(layout, name);
                String source = KernelSource.generate(layout, PACKAGE, name, true);
                return new CompiledKernel(name, source, define(name, bytes));
            });
            out.add(new Call(compiled, layout.arguments().array(), origin[0]));
        }
        return out;
    }

    private static byte[] generate(KernelLayout layout, String name) {
        long start = System.nanoTime();
        byte[] bytes = KernelBytecode.generate(layout, PACKAGE + "." + name);
        GENERATE_NANOS.addAndGet(System.nanoTime() - start);
        GENERATED.incrementAndGet();
        DiskCache.store(name, bytes);
        return bytes;
    }

    private static MethodHandle define(String name, byte[] bytes) {
        try {
            MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(bytes, true);
            return hidden.findStatic(hidden.lookupClass(), "run", RUN);
        } catch (ReflectiveOperationException | LinkageError ex) {
            throw new TorchException("inductor: cannot load generated kernel " + name + ": " + ex, ex);
        }
    }

    /** Kernels whose class file was generated (not taken from the in-process or on-disk cache) since start-up. */
    public static long compiledCount() {
        return GENERATED.get();
    }

    /** Time spent writing kernels' class files since start-up, in nanoseconds. */
    public static long generateNanos() {
        return GENERATE_NANOS.get();
    }

    /** Forgets every cached kernel (the classes unload once no compiled graph holds them). */
    public static void clearCache() {
        CACHE.clear();
    }

    /**
     * A class name that tells which ops the first kernel of this structure fuses (node numbers dropped) and is unique
     * for its listing and the code's format.
     */
    private static String className(String readable, String listing) {
        String ops = readable.replaceAll("_[0-9]+", "").replaceAll("[^A-Za-z0-9_]", "_");
        if (ops.length() > 60) ops = ops.substring(0, 60);
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest((FORMAT + listing).getBytes(StandardCharsets.UTF_8));
            return "K_" + ops + "_" + HexFormat.of().formatHex(digest, 0, 6).toLowerCase(Locale.ROOT);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is a required JDK algorithm", e);
        }
    }
}
