package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No line of Java source in the repository (library, examples, benchmarks) is longer than 120 columns. The formatter
 * wraps code at that width but leaves long string literals and comments as they are; this catches them.
 */
class SourceLineLengthTest {
    private static final int MAX_COLUMNS = 120;
    private static final List<Path> SOURCE_ROOTS =
            List.of(Path.of("src"), Path.of("../examples/src"), Path.of("../benchmarks/src"));

    @Test
    void noLineIsLongerThan120Columns() throws IOException {
        List<String> tooLong = new ArrayList<>();
        for (Path root : SOURCE_ROOTS) {
            if (!Files.isDirectory(root)) continue;
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java"))
                        .sorted()
                        .toList()) {
                    List<String> lines = Files.readAllLines(f);
                    for (int i = 0; i < lines.size(); i++) {
                        int columns =
                                lines.get(i).codePointCount(0, lines.get(i).length());
                        if (columns > MAX_COLUMNS) tooLong.add(f.normalize() + ":" + (i + 1) + " (" + columns + ")");
                    }
                }
            }
        }
        assertEquals(List.of(), tooLong);
    }
}
