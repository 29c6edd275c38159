package org.jtorch.internal;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.TorchException;

/**
 * The two JVM flags JTorch cannot run without, checked once when {@code Torch} is first used, so that a JVM started
 * without them fails with one line naming both flags instead of a {@code NoClassDefFoundError} for
 * {@code jdk/incubator/vector/Vector} deep inside the first kernel: the CPU kernels use the Vector API (an incubator
 * module in JDK 25, which the class path does not resolve unless asked), and OpenBLAS is called through the Foreign
 * Function and Memory API (restricted methods, which need native access).
 */
public final class JvmRequirements {
    static final String VECTOR_MODULE = "jdk.incubator.vector";

    private JvmRequirements() {}

    /** Throws a {@link TorchException} naming both flags if this JVM lacks either. */
    public static void check() {
        Module library = JvmRequirements.class.getModule();
        List<String> missing = missing(
                ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent(),
                library.isNativeAccessEnabled(),
                library.isNamed());
        if (!missing.isEmpty()) throw new TorchException(message(missing, library.isNamed()));
    }

    /** The flags a JVM in the given state lacks, in the order they are written on a command line. */
    static List<String> missing(boolean vectorModule, boolean nativeAccess, boolean onModulePath) {
        List<String> m = new ArrayList<>();
        if (!vectorModule) m.add("--add-modules=" + VECTOR_MODULE);
        if (!nativeAccess) m.add("--enable-native-access=" + (onModulePath ? "org.jtorch" : "ALL-UNNAMED"));
        return m;
    }

    /** One line: both flags as the class path needs them, the module path's variant, and what this JVM lacks. */
    static String message(List<String> missing, boolean onModulePath) {
        return "JTorch needs the JVM flags --add-modules=" + VECTOR_MODULE + " --enable-native-access=ALL-UNNAMED"
                + " (on the module path: --enable-native-access=org.jtorch); this JVM was started without "
                + String.join(" and ", missing)
                + (onModulePath ? " (JTorch is on the module path)" : " (JTorch is on the class path)");
    }
}
