package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java snippet of the user guide ({@code docs/guide/*.md}) and the README's quick start compiles and prints what
 * the page says it prints, so neither can drift from the library.
 *
 * <p>A page's {@code ```java} blocks run in order as one program, the way a reader types them into one {@code main}:
 * later blocks see the variables of earlier ones, {@code import} lines are hoisted to the top, and the program gets no
 * other imports. Lines of the form {@code //> text} are the expected output: all of a page's {@code //>} lines, in
 * order, must equal what the program prints, line for line. The programs are compiled by {@code javac} against the
 * library and run on the class path with the two JVM flags the guide tells users to pass, each page in its own JVM, as
 * a user's program runs.
 */
class GuideSnippetsTest {
    private static final Path GUIDE = Path.of("..", "docs", "guide");
    private static final Path README = Path.of("..", "README.md");
    private static final String EXPECTED = "//>";
    /**
     * Pages whose snippets are test sources of their own, checked against the page by their test, rather than one
     * program: {@code training.md} ({@code guide.TrainingGuideTest}).
     */
    private static final List<String> OWN_TESTS = List.of("training.md");

    @TempDir
    static Path work;

    /** One page as a program: its class name, source and expected output. */
    record Program(String page, String className, String source, List<String> expected) {}

    static Program program(Path page, String className) throws IOException {
        Set<String> imports = new LinkedHashSet<>();
        StringBuilder body = new StringBuilder();
        List<String> expected = new ArrayList<>();
        boolean inJava = false;
        int lineNo = 0;
        for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
            lineNo++;
            String t = line.strip();
            if (!inJava) {
                inJava = t.equals("```java");
                if (inJava)
                    body.append("// ")
                            .append(page.getFileName())
                            .append(':')
                            .append(lineNo)
                            .append('\n');
                continue;
            }
            if (t.equals("```")) {
                inJava = false;
            } else if (t.startsWith("import ")) {
                imports.add(t);
            } else if (t.startsWith(EXPECTED)) {
                expected.add(t.equals(EXPECTED) ? "" : line.substring(line.indexOf(EXPECTED) + EXPECTED.length() + 1));
            } else {
                body.append(line).append('\n');
            }
        }
        assertFalse(inJava, page + ": a java block is not closed");
        StringBuilder src = new StringBuilder();
        for (String i : imports) src.append(i).append('\n');
        src.append("public final class ")
                .append(className)
                .append(" {\n    public static void main(String[] args) throws Exception {\n")
                .append(body)
                .append("    }\n}\n");
        return new Program(
                GUIDE.getParent().getParent().relativize(page).toString(), className, src.toString(), expected);
    }

    /** The guide's pages with Java, and the README's quick start. */
    static List<Program> programs() throws IOException {
        List<Program> all = new ArrayList<>();
        all.add(program(README, "Readme_quick_start"));
        try (Stream<Path> pages = Files.list(GUIDE)) {
            for (Path p : pages.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> !OWN_TESTS.contains(p.getFileName().toString()))
                    .sorted()
                    .toList()) {
                String name = p.getFileName().toString().replace(".md", "");
                Program program = program(p, "Guide_" + name.replace('-', '_'));
                if (!program.source().contains("// " + p.getFileName() + ":")) continue; // no Java on this page
                all.add(program);
            }
        }
        return all;
    }

    /** The library and OpenBLAS, as a class path (the library from the module path when the tests run on it). */
    private static String libraryPath() {
        String modulePath = System.getProperty("jdk.module.path");
        String classPath = System.getProperty("java.class.path");
        return modulePath == null ? classPath : modulePath + File.pathSeparator + classPath;
    }

    /** The JDK's one line on stderr for every program that adds an incubator module. */
    private static final String INCUBATOR_NOTICE = "WARNING: Using incubator modules: jdk.incubator.vector";

    /** Runs {@code cmd}; returns its standard output, failing on a non-zero exit or on anything else on stderr. */
    private static String run(List<String> cmd) throws IOException, InterruptedException {
        Path err = Files.createTempFile(work, "stderr", ".txt");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "timed out: " + cmd);
        String stderr = Files.readString(err).replace(INCUBATOR_NOTICE, "").strip();
        if (p.exitValue() != 0 || !stderr.isEmpty()) {
            throw new AssertionError("exit " + p.exitValue() + " of " + cmd + ":\n" + out + stderr);
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> everySnippetCompilesAndPrintsWhatTheGuideShows() throws Exception {
        List<Program> programs = programs();
        assertTrue(programs.size() >= 8, "the README and the guide's pages with Java: " + programs.size());
        Path src = Files.createDirectories(work.resolve("src")), classes = work.resolve("classes");
        List<String> javac = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                "-Xlint:all,-incubating",
                "-Werror",
                "-d",
                classes.toString(),
                "-cp",
                libraryPath()));
        for (Program p : programs) {
            Path file = src.resolve(p.className() + ".java");
            Files.writeString(file, p.source());
            javac.add(file.toString());
        }
        run(javac);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return programs.stream()
                .map(p -> DynamicTest.dynamicTest(p.page(), () -> {
                    String out = run(List.of(
                            java,
                            "--add-modules=jdk.incubator.vector",
                            "--enable-native-access=ALL-UNNAMED",
                            "-Djava.io.tmpdir=" + work,
                            "-cp",
                            classes + File.pathSeparator + libraryPath(),
                            p.className()));
                    assertEquals(String.join("\n", p.expected()), out.stripTrailing(), p.page() + " prints");
                }));
    }
}
