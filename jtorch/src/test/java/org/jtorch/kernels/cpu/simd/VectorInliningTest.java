package org.jtorch.kernels.cpu.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import javax.management.ObjectName;
import jdk.incubator.vector.Vector;
import jdk.incubator.vector.VectorMask;
import org.junit.jupiter.api.Test;

class VectorInliningTest {

    /** The JVM's own listing of its compiler directives, as {@code jcmd <pid> Compiler.directives_print} prints it. */
    private static String directivesInThisJvm() throws Exception {
        return String.valueOf(ManagementFactory.getPlatformMBeanServer()
                .invoke(
                        new ObjectName("com.sun.management:type=DiagnosticCommand"),
                        "compilerDirectivesPrint",
                        new Object[] {new String[0]},
                        new String[] {String[].class.getName()}));
    }

    @Test
    void theFirstVectorKernelPutsTheDirectiveOnTheJvmsStack() throws Exception {
        assertTrue(FloatSimd.lanes() > 0); // initialises the package's kernels
        String listing = directivesInThisJvm();
        assertTrue(listing.contains("matching: org/jtorch/*.*"), listing);
        assertTrue(listing.contains("+org/jtorch/kernels/cpu/simd/FloatExp.*"), listing);
        assertTrue(listing.contains("+org/jtorch/kernels/cpu/simd/FloatSimd.laneSum"), listing);
        assertTrue(VectorInlining.install(), "a second call reports the directive in place");
        // installed once: a second copy would only shadow the first
        assertEquals(
                listing.split("matching: org/jtorch/\\*\\.\\*", -1).length,
                directivesInThisJvm().split("matching: org/jtorch/\\*\\.\\*", -1).length);
    }

    @Test
    void helpersOfOtherPackagesJoinTheDirective() throws Exception {
        assertTrue(FloatSimd.lanes() > 0);
        // the generated kernels' runtime functions register themselves when a kernel first calls them
        Class.forName(
                "org.jtorch.compile.inductor.codegen.KernelRuntime",
                true,
                getClass().getClassLoader());
        String listing = directivesInThisJvm();
        String newest = listing.substring(0, listing.indexOf("Directive: (default)"));
        assertTrue(newest.contains("+org/jtorch/compile/inductor/codegen/KernelRuntime.*"), listing);
        int before = listing.split("matching: org/jtorch/", -1).length;
        VectorInlining.alsoInline(KernelRuntimeLike.class);
        String after = directivesInThisJvm();
        String top = after.substring(0, after.indexOf("Directive:", after.indexOf("Directive:") + 1));
        assertTrue(top.contains("+org/jtorch/kernels/cpu/simd/VectorInliningTest$KernelRuntimeLike.*"), after);
        assertTrue(top.contains("+org/jtorch/compile/inductor/codegen/KernelRuntime.*"), after);
        assertTrue(top.contains("+org/jtorch/kernels/cpu/simd/FloatExp.*"), after);
        assertEquals(before + 1, after.split("matching: org/jtorch/", -1).length, "one new directive, on top");
        VectorInlining.alsoInline(KernelRuntimeLike.class);
        assertEquals(after, directivesInThisJvm(), "a class already listed adds nothing");
    }

    /** Stands for another package's helper class. */
    static final class KernelRuntimeLike {}

    @Test
    void everyMethodOfThePackageThatTakesOrReturnsAVectorIsListed() throws Exception {
        List<String> missing = new ArrayList<>();
        for (Class<?> c : packageClasses()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.isSynthetic() || !handlesVectors(m)) continue;
                boolean listed = VectorInlining.PACKAGE_HELPERS.stream()
                        .anyMatch(h -> h.owner() == c
                                && (h.method().equals("*") || h.method().equals(m.getName())));
                if (!listed) missing.add(c.getSimpleName() + "." + m.getName());
            }
        }
        assertEquals(List.of(), missing, "vector helpers C2 might compile apart from their callers");
    }

    @Test
    void everyNamedHelperExists() {
        for (VectorInlining.Helper h : VectorInlining.PACKAGE_HELPERS) {
            if (h.method().equals("*")) continue;
            assertTrue(
                    Arrays.stream(h.owner().getDeclaredMethods())
                            .anyMatch(m -> m.getName().equals(h.method())),
                    h.toString());
        }
    }

    @Test
    void theDirectiveIsHotSpotsJsonDialect() {
        String d = VectorInlining.directive();
        assertTrue(d.startsWith("[{ match: [\"org/jtorch/*.*\"], inline: [\"+org/jtorch/kernels/cpu/simd/"), d);
        assertTrue(d.contains("\"+org/jtorch/kernels/cpu/simd/FloatLoops$Formulas.*\""), d);
        assertTrue(d.endsWith("] }]"), d);
    }

    private static boolean handlesVectors(Method m) {
        Stream<Class<?>> types = Stream.concat(Stream.of(m.getReturnType()), Arrays.stream(m.getParameterTypes()));
        return types.anyMatch(t -> Vector.class.isAssignableFrom(t) || VectorMask.class.isAssignableFrom(t));
    }

    /** Every class compiled into this package's directory of the main output. */
    private static List<Class<?>> packageClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path dir =
                Path.of(FloatSimd.class.getResource("FloatSimd.class").toURI()).getParent();
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (!name.endsWith(".class")) continue;
                classes.add(Class.forName(FloatSimd.class.getPackageName() + "." + name.replace(".class", "")));
            }
        }
        assertTrue(classes.size() > 10, "found the package's classes: " + classes);
        return classes;
    }
}
