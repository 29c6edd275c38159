package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.source.doctree.DocCommentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePathScanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The javadoc is the API reference, so every member a user can reach has a comment: each public or protected type,
 * constructor, method, field and enum constant of the exported packages (as {@code module-info.java} lists them), and
 * each exported package its {@code package-info.java}. Doclint cannot enforce this without also demanding
 * {@code @param}/{@code @return} tags of the one-line comments, so the sources are read here with javac's tree API
 * (parsing only: no symbols are resolved, which keeps this to a couple of seconds). An {@code @Override} method is
 * exempt: javadoc copies the comment of the method it overrides.
 *
 * <p>{@code Torch} and {@code Tensor} mirror PyTorch function by function, so their comments must also name the
 * counterpart ({@code torch.…} or {@code Tensor.…}), which is what a user porting code searches for, or say that there
 * is none ("no PyTorch counterpart": the few hooks the library's own layers call).
 */
class DocumentedApiTest {
    private static final Path SOURCES = Path.of("src/main/java");

    /** One public or protected declaration: where it is, its name, and its comment's text (null if it has none). */
    record Declaration(String file, long line, String name, String comment) {
        @Override
        public String toString() {
            return file + ":" + line + " " + name;
        }
    }

    private static List<String> exported;
    private static List<Declaration> declarations;

    @BeforeAll
    static void parseExportedPackages() throws IOException {
        exported = Files.readAllLines(SOURCES.resolve("module-info.java")).stream()
                .map(String::strip)
                .filter(line -> line.startsWith("exports ") && line.endsWith(";"))
                .map(line ->
                        line.substring("exports ".length(), line.length() - 1).strip())
                .toList();
        List<Path> files = new ArrayList<>();
        for (String pkg : exported) {
            try (Stream<Path> list = Files.list(SOURCES.resolve(pkg.replace('.', '/')))) {
                list.filter(f -> f.toString().endsWith(".java")
                                && !f.getFileName().toString().equals("package-info.java"))
                        .forEach(files::add);
            }
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(null, null, null)) {
            JavacTask task = (JavacTask)
                    javac.getTask(null, fm, null, List.of("-proc:none"), null, fm.getJavaFileObjectsFromPaths(files));
            DocTrees docs = DocTrees.instance(task);
            List<Declaration> found = new ArrayList<>();
            for (CompilationUnitTree unit : task.parse()) {
                new Collector(unit, docs, found).scan(unit, null);
            }
            declarations = found;
        }
    }

    @Test
    void theScanSeesTheWholeApi() {
        // A scan that silently read nothing would pass the tests below: Torch alone has hundreds of public methods.
        assertTrue(exported.contains("org.jtorch") && exported.contains("org.jtorch.nn"), exported::toString);
        long torchMethods = declarations.stream()
                .filter(d -> d.file().endsWith("org/jtorch/Torch.java"))
                .count();
        assertTrue(torchMethods > 400, "only " + torchMethods + " declarations found in Torch.java");
        assertTrue(
                declarations.stream()
                        .anyMatch(d -> d.file().endsWith("org/jtorch/DType.java")
                                && d.name().equals("FLOAT32")),
                "enum constants are scanned");
    }

    @Test
    void everyPublicDeclarationHasAComment() {
        List<Declaration> undocumented = declarations.stream()
                .filter(d -> d.comment() == null || d.comment().isBlank())
                .toList();
        assertEquals(
                List.of(),
                undocumented.stream().map(Declaration::toString).toList(),
                undocumented.size() + " public or protected declarations of exported packages have no javadoc");
    }

    @Test
    void torchAndTensorNameTheirPyTorchCounterparts() {
        List<String> unnamed = declarations.stream()
                .filter(d ->
                        d.file().endsWith("org/jtorch/Torch.java") || d.file().endsWith("org/jtorch/Tensor.java"))
                .filter(d -> d.comment() != null)
                .filter(d -> !d.comment().contains("torch.")
                        && !d.comment().contains("Tensor.")
                        && !d.comment()
                                .replaceAll("\\s+", " ")
                                .toLowerCase(java.util.Locale.ROOT)
                                .contains("no pytorch counterpart"))
                .map(Declaration::toString)
                .toList();
        assertEquals(List.of(), unnamed, "comments naming no torch.* or Tensor.* counterpart");
    }

    @Test
    void everyExportedPackageHasAnOverview() {
        List<String> missing = exported.stream()
                .filter(pkg -> !Files.isRegularFile(
                        SOURCES.resolve(pkg.replace('.', '/')).resolve("package-info.java")))
                .collect(Collectors.toList());
        assertEquals(List.of(), missing, "exported packages without a package-info.java");
    }

    /** Walks one file, recording each declaration a user of the module can see. */
    private static final class Collector extends TreePathScanner<Void, Void> {
        private final CompilationUnitTree unit;
        private final DocTrees docs;
        private final List<Declaration> found;
        private final String file;
        /** Whether the enclosing type is an interface, whose members are public without saying so. */
        private boolean inInterface;

        Collector(CompilationUnitTree unit, DocTrees docs, List<Declaration> found) {
            this.unit = unit;
            this.docs = docs;
            this.found = found;
            String name = unit.getSourceFile().toUri().getPath();
            this.file = name.substring(name.indexOf("org/jtorch/"));
        }

        @Override
        public Void visitClass(ClassTree type, Void unused) {
            Set<Modifier> flags = type.getModifiers().getFlags();
            if (!(flags.contains(Modifier.PUBLIC) || flags.contains(Modifier.PROTECTED) || inInterface)) {
                return null; // nothing inside a hidden type is visible either
            }
            record(type.getSimpleName().toString());
            boolean outer = inInterface;
            inInterface = type.getKind() == Tree.Kind.INTERFACE || type.getKind() == Tree.Kind.ANNOTATION_TYPE;
            super.visitClass(type, unused);
            inInterface = outer;
            return null;
        }

        @Override
        public Void visitMethod(MethodTree method, Void unused) {
            ModifiersTree modifiers = method.getModifiers();
            boolean overrides = modifiers.getAnnotations().stream()
                    .anyMatch(a -> a.getAnnotationType().toString().equals("Override"));
            if (visible(modifiers.getFlags()) && !overrides) {
                record(method.getName().contentEquals("<init>") ? "constructor" : method.getName() + "()");
            }
            return null; // local and anonymous classes in bodies are not API
        }

        @Override
        public Void visitVariable(VariableTree variable, Void unused) {
            if (visible(variable.getModifiers().getFlags())) {
                record(variable.getName().toString());
            }
            return null;
        }

        private boolean visible(Set<Modifier> flags) {
            return flags.contains(Modifier.PUBLIC)
                    || flags.contains(Modifier.PROTECTED)
                    || (inInterface && !flags.contains(Modifier.PRIVATE));
        }

        private void record(String name) {
            DocCommentTree comment = docs.getDocCommentTree(getCurrentPath());
            long line = unit.getLineMap()
                    .getLineNumber(docs.getSourcePositions()
                            .getStartPosition(unit, getCurrentPath().getLeaf()));
            found.add(new Declaration(file, line, name, comment == null ? null : comment.toString()));
        }
    }
}
