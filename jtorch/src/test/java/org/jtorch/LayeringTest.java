package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Lower layers never import higher ones (ARCHITECTURE.md): storage < kernels < ops/dispatch < API.
 * The value types every layer shares ({@code DType}, {@code Device}, {@code Scalar}, the exceptions,
 * {@code org.jtorch.internal}) are allowed everywhere; the user-facing {@code Tensor} only from ops and
 * dispatch up (kernels and {@code org.jtorch.internal} see {@code storage.TensorImpl}).
 */
class LayeringTest {
    private static final Path SRC = Path.of("src/main/java/org/jtorch");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import (?:static )?(org\\.jtorch\\.[\\w.]+);");
    private static final Pattern QUALIFIED = Pattern.compile("\\b(org\\.jtorch\\.(?:ops|dispatch|Torch|nn|optim|autograd)\\b)");

    /** package prefix → forbidden import prefixes. */
    private static final Map<String, List<String>> FORBIDDEN = Map.of(
            "storage", List.of("org.jtorch.kernels", "org.jtorch.ops", "org.jtorch.dispatch", "org.jtorch.Torch", "org.jtorch.Tensor"),
            "kernels", List.of("org.jtorch.ops", "org.jtorch.dispatch", "org.jtorch.Torch", "org.jtorch.Tensor"),
            "internal", List.of("org.jtorch.kernels", "org.jtorch.ops", "org.jtorch.dispatch", "org.jtorch.Torch",
                    "org.jtorch.Tensor"),
            "dispatch", List.of("org.jtorch.Torch"));

    @Test
    void lowerLayersDoNotImportHigherOnes() throws IOException {
        List<String> violations = new ArrayList<>();
        for (var entry : FORBIDDEN.entrySet()) {
            try (Stream<Path> files = Files.walk(SRC.resolve(entry.getKey()))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String text = Files.readString(f);
                    List<String> refs = new ArrayList<>();
                    Matcher m = IMPORT.matcher(text);
                    while (m.find()) refs.add(m.group(1));
                    Matcher q = QUALIFIED.matcher(text.replaceAll("(?m)^(package|import) .*$", ""));
                    while (q.find()) refs.add(q.group(1));
                    for (String ref : refs) {
                        for (String bad : entry.getValue()) {
                            if (ref.equals(bad) || ref.startsWith(bad + ".")) violations.add(SRC.relativize(f) + " → " + ref);
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), violations);
    }
}
