package org.jtorch.kernels.cpu.simd;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javax.management.ObjectName;

/**
 * Asks HotSpot's JIT compilers to always inline this package's small vector helpers: the methods that take or return a
 * vector (exp, erf, GELU, sigmoid and tanh, the per-op formulas of the loops, the fixed-order lane sum).
 *
 * <p>Why: a Vector API value lives in registers only while the code that uses it is compiled as one unit with the code
 * that made it. A helper that is not inlined receives an object of the abstract type {@code FloatVector}; C2 cannot
 * turn the operations on it into vector instructions, so each one allocates a vector object and runs lane by lane, 10
 * to 100 times slower. Whether C2 inlines a helper is decided by heuristics that depend on the order in which methods
 * became hot (at a call site it does not consider frequent, a helper that was compiled on its own first counts as
 * "already compiled into a medium method"), so the same TrainGpt run kept its GELU backward or its attention
 * exponentials boxed from warm-up to the end in some JVMs and not in others. The JDK marks its own helpers
 * {@code @ForceInline}, which only JDK classes may use; for other code the same decision comes from a compiler
 * directive (JEP 165), which {@link #install} adds once through the {@code DiagnosticCommand} MBean: the in-process
 * form of {@code jcmd <pid> Compiler.directives_add}.
 *
 * <p>The directive matches only the compilation of JTorch's own methods, so it shadows no directive a user added for
 * other code. {@code -Djtorch.simd.inlineDirective=false} leaves it out. On a JVM without the MBean (not HotSpot, or
 * without the {@code jdk.management} module) nothing is added and the kernels run as before.
 */
public final class VectorInlining {
    private VectorInlining() {}

    /** Methods always inlined: {@code method} of {@code owner}, or all of its methods for "*". */
    record Helper(Class<?> owner, String method) {}

    /** Every method of this package that takes or returns a vector (VectorInliningTest keeps the list complete). */
    static final List<Helper> PACKAGE_HELPERS = List.of(
            new Helper(FloatExp.class, "*"),
            new Helper(FloatErf.class, "*"),
            new Helper(FloatGates.class, "*"),
            new Helper(FloatGelu.class, "*"),
            new Helper(FloatLoops.Formulas.class, "*"),
            new Helper(BoxMullerSimd.class, "log"),
            new Helper(FloatSimd.class, "laneSum"));

    private static final String PROPERTY = "jtorch.simd.inlineDirective";
    private static final System.Logger LOG = System.getLogger(VectorInlining.class.getName());

    /** This package's helpers and those other packages add with {@link #alsoInline}. */
    private static final List<Helper> HELPERS = new ArrayList<>(PACKAGE_HELPERS);

    private static boolean installed;

    /**
     * Adds every method of {@code helpers} (a class of another package whose methods take or return vectors, such as
     * the generated kernels' runtime functions) to the directive, now if it is in place, else when it is added. HotSpot
     * uses the newest directive that matches, so the new one, listing all helpers, replaces the old.
     */
    public static synchronized void alsoInline(Class<?> helpers) {
        Helper h = new Helper(helpers, "*");
        if (HELPERS.contains(h)) return;
        HELPERS.add(h);
        if (installed) {
            installed = false;
            install();
        }
    }

    /**
     * Adds the directive to this JVM's compiler directive stack, once; returns whether it is in place. Called when the
     * first vector kernel class initialises, before any of them can have been compiled.
     */
    public static synchronized boolean install() {
        if (installed || !Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) return installed;
        Path file = null;
        try {
            file = Files.createTempFile("jtorch-inline-directive", ".json");
            Files.writeString(file, directive());
            Object reply = ManagementFactory.getPlatformMBeanServer()
                    .invoke(
                            new ObjectName("com.sun.management:type=DiagnosticCommand"),
                            "compilerDirectivesAdd",
                            new Object[] {new String[] {file.toString()}},
                            new String[] {String[].class.getName()});
            installed = String.valueOf(reply).contains("added");
            if (!installed) LOG.log(System.Logger.Level.DEBUG, "compiler directive refused: {0}", reply);
        } catch (Exception | LinkageError e) {
            // not HotSpot, no jdk.management, or no temporary directory: the kernels only lose this safeguard
            LOG.log(System.Logger.Level.DEBUG, "compiler directive not added", e);
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (java.io.IOException e) {
                    LOG.log(System.Logger.Level.DEBUG, "temporary directive file left behind", e);
                }
            }
        }
        return installed;
    }

    /**
     * The directive in HotSpot's JSON dialect: compilations of any {@code org.jtorch} method force-inline every helper
     * method ({@code +} pattern, class names in internal form).
     */
    static synchronized String directive() {
        String inline = HELPERS.stream()
                .map(h -> "\"+" + h.owner().getName().replace('.', '/') + "." + h.method() + "\"")
                .collect(Collectors.joining(", "));
        return "[{ match: [\"org/jtorch/*.*\"], inline: [" + inline + "] }]";
    }
}
