package org.jtorch.compile.inductor.codegen;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.jtorch.TorchException;
import org.jtorch.compile.inductor.ir.LoopKernel;

/**
 * Compiles kernels to classes and caches them by source, once per process.
 *
 * <p>Why Java source and {@code javax.tools} rather than the {@code java.lang.classfile} API: a kernel is a loop nest
 * over Vector API calls, and javac writes the bytecode of those (generic vector types, boxing-free intrinsics the JIT
 * recognizes) correctly by construction; the source is also what the structured trace shows. The cost is javac's
 * start-up, paid once per process and then amortized: all new kernels of a graph compile in one task, so a graph costs
 * one javac run, not one per kernel (docs/benchmarks.md has the measured latencies).
 *
 * <p>With {@code -Djtorch.inductor.cacheDir=DIR} the class files are also kept on disk, named by a hash of their
 * source, so a new process loads the kernels it generated before instead of compiling them ({@code DiskCache}).
 *
 * <p>Each class is defined as a hidden class of this package, so it can be unloaded with the last reference to its
 * kernel, and it is reached through a {@link MethodHandle} to its {@code run} method.
 */
public final class KernelCompiler {
    private KernelCompiler() {}

    /** The signature of every kernel's entry point. */
    public static final MethodType RUN =
            MethodType.methodType(void.class, Object[].class, long[].class, long.class, long.class);

    private static final String PACKAGE = KernelCompiler.class.getPackageName();
    private static final String PLACEHOLDER = "KERNEL_CLASS";
    private static final Map<String, CompiledKernel> CACHE = new ConcurrentHashMap<>();
    private static final AtomicLong COMPILED = new AtomicLong();
    private static final AtomicLong JAVAC_NANOS = new AtomicLong();

    /** A kernel ready to run: its class name, its source and the handle of its {@code run} method. */
    public record CompiledKernel(String className, String source, MethodHandle run) {}

    /**
     * The compiled form of each kernel, in order: kernels whose source was compiled before come from the cache, the
     * others compile together in one javac task.
     */
    public static List<CompiledKernel> compile(List<LoopKernel> kernels) {
        List<String> keys = new ArrayList<>();
        Map<String, String> missing = new LinkedHashMap<>(); // class name -> source
        Map<String, String> keyOfClass = new HashMap<>();
        for (LoopKernel k : kernels) {
            String key = KernelSource.generate(k, PACKAGE, PLACEHOLDER);
            keys.add(key);
            if (!CACHE.containsKey(key)) {
                String name = className(k.name(), key);
                missing.put(name, key.replace(PLACEHOLDER, name));
                keyOfClass.put(name, key);
            }
        }
        if (!missing.isEmpty()) {
            Map<String, byte[]> classes = new HashMap<>(DiskCache.load(missing.keySet()));
            Map<String, String> toCompile = new LinkedHashMap<>(missing);
            toCompile.keySet().removeAll(classes.keySet());
            if (!toCompile.isEmpty()) {
                Map<String, byte[]> compiled = javac(toCompile);
                DiskCache.store(compiled);
                classes.putAll(compiled);
            }
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            for (var e : missing.entrySet()) {
                try {
                    MethodHandles.Lookup hidden = lookup.defineHiddenClass(classes.get(e.getKey()), true);
                    MethodHandle run = hidden.findStatic(hidden.lookupClass(), "run", RUN);
                    CACHE.putIfAbsent(keyOfClass.get(e.getKey()), new CompiledKernel(e.getKey(), e.getValue(), run));
                } catch (ReflectiveOperationException ex) {
                    throw new TorchException("inductor: cannot load generated kernel " + e.getKey() + ": " + ex, ex);
                }
            }
            COMPILED.addAndGet(toCompile.size());
        }
        List<CompiledKernel> out = new ArrayList<>();
        for (String key : keys) out.add(CACHE.get(key));
        return out;
    }

    /** Kernels compiled by javac (not taken from the in-process or on-disk cache) since start-up. */
    public static long compiledCount() {
        return COMPILED.get();
    }

    /** Time spent in javac since start-up, in nanoseconds. */
    public static long javacNanos() {
        return JAVAC_NANOS.get();
    }

    /** Forgets every cached kernel (the classes unload once no compiled graph holds them). */
    public static void clearCache() {
        CACHE.clear();
    }

    /** A class name that tells which ops the kernel fuses and is unique for its source. */
    private static String className(String readable, String source) {
        String ops = readable.replaceAll("[^A-Za-z0-9_]", "_");
        if (ops.length() > 60) ops = ops.substring(0, 60);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(source.getBytes(StandardCharsets.UTF_8));
            return "K_" + ops + "_" + HexFormat.of().formatHex(digest, 0, 6).toLowerCase(Locale.ROOT);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is a required JDK algorithm", e);
        }
    }

    private static Map<String, byte[]> javac(Map<String, String> sources) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new TorchException(
                    "inductor: the JVM has no Java compiler (javax.tools); run on a JDK, not a JRE, or "
                            + "compile with backend \"aot_eager\"");
        }
        long start = System.nanoTime();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Map<String, ByteArrayOutputStream> classes = new HashMap<>();
        List<JavaFileObject> units = new ArrayList<>();
        for (var e : sources.entrySet()) units.add(new Source(e.getKey(), e.getValue()));
        try (StandardJavaFileManager standard =
                        javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8);
                JavaFileManager files = new InMemory(standard, classes)) {
            List<String> options = List.of(
                    "--add-modules", "jdk.incubator.vector", "-g:none", "-nowarn", "-proc:none", "-implicit:none");
            boolean ok = javac.getTask(null, files, diagnostics, options, null, units)
                    .call();
            if (!ok) {
                StringBuilder sb = new StringBuilder("inductor: generated kernel source does not compile:");
                for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                    if (d.getKind() == Diagnostic.Kind.ERROR) sb.append('\n').append(d);
                }
                throw new TorchException(sb.toString());
            }
        } catch (java.io.IOException e) {
            throw new TorchException("inductor: javac file manager failed: " + e, e);
        } finally {
            JAVAC_NANOS.addAndGet(System.nanoTime() - start);
        }
        Map<String, byte[]> out = new HashMap<>();
        for (String name : sources.keySet()) {
            ByteArrayOutputStream bytes = classes.get(PACKAGE + "." + name);
            if (bytes == null) throw new TorchException("inductor: javac wrote no class for " + name);
            out.put(name, bytes.toByteArray());
        }
        return out;
    }

    private static final class Source extends SimpleJavaFileObject {
        private final String code;

        Source(String className, String code) {
            super(URI.create("string:///" + PACKAGE.replace('.', '/') + "/" + className + ".java"), Kind.SOURCE);
            this.code = code;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return code;
        }
    }

    /** Keeps the class files javac writes in memory. */
    private static final class InMemory extends ForwardingJavaFileManager<JavaFileManager> {
        private final Map<String, ByteArrayOutputStream> classes;

        InMemory(JavaFileManager delegate, Map<String, ByteArrayOutputStream> classes) {
            super(delegate);
            this.classes = classes;
        }

        @Override
        public JavaFileObject getJavaFileForOutput(
                Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
            return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + ".class"), kind) {
                @Override
                public OutputStream openOutputStream() {
                    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                    classes.put(className, bytes);
                    return bytes;
                }
            };
        }
    }
}
