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

    /** The signature of every kernel's entry point. */
    public static final MethodType RUN =
            MethodType.methodType(void.class, Object[].class, long[].class, long.class, long.class);

    /** Changes whenever {@link KernelBytecode} writes different code for the same listing. */
    private static final String FORMAT = "classfile-1\n";

    private static final String PACKAGE = KernelCompiler.class.getPackageName();
    private static final String PLACEHOLDER = "KERNEL_CLASS";
    private static final Map<String, CompiledKernel> CACHE = new ConcurrentHashMap<>();
    private static final AtomicLong GENERATED = new AtomicLong();
    private static final AtomicLong GENERATE_NANOS = new AtomicLong();

    /** A kernel ready to run: its class name, its readable listing and the handle of its {@code run} method. */
    public record CompiledKernel(String className, String source, MethodHandle run) {}

    /** The loaded form of each kernel, in order: kernels whose listing was seen before come from the cache. */
    public static List<CompiledKernel> compile(List<LoopKernel> kernels) {
        List<CompiledKernel> out = new ArrayList<>();
        for (LoopKernel k : kernels) {
            String key = KernelSource.generate(k, PACKAGE, PLACEHOLDER);
            out.add(CACHE.computeIfAbsent(key, listing -> load(k, listing)));
        }
        return out;
    }

    private static CompiledKernel load(LoopKernel kernel, String keyListing) {
        String name = className(kernel.name(), keyListing);
        byte[] bytes = DiskCache.load(name);
        if (bytes == null) {
            long start = System.nanoTime();
            bytes = KernelBytecode.generate(kernel, PACKAGE + "." + name);
            GENERATE_NANOS.addAndGet(System.nanoTime() - start);
            GENERATED.incrementAndGet();
            DiskCache.store(name, bytes);
        }
        try {
            MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(bytes, true);
            MethodHandle run = hidden.findStatic(hidden.lookupClass(), "run", RUN);
            return new CompiledKernel(name, keyListing.replace(PLACEHOLDER, name), run);
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

    /** A class name that tells which ops the kernel fuses and is unique for its listing and the code's format. */
    private static String className(String readable, String listing) {
        String ops = readable.replaceAll("[^A-Za-z0-9_]", "_");
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
