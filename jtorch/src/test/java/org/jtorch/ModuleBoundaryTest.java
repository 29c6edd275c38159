package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a program on the module path sees of module {@code org.jtorch}: exactly the API packages, exported to everyone
 * and opened to no one, so that the op definitions, the dispatcher, the kernels and storage stay free to change.
 */
class ModuleBoundaryTest {
    /** The packages users program against (the public API, as the README's layout lists it). */
    private static final Set<String> API = Set.of(
            "org.jtorch",
            "org.jtorch.accelerator",
            "org.jtorch.accelerator.spi",
            "org.jtorch.amp",
            "org.jtorch.autograd",
            "org.jtorch.autograd.graph",
            "org.jtorch.compile",
            "org.jtorch.compile.trace",
            "org.jtorch.compile.trace.report",
            "org.jtorch.debug",
            "org.jtorch.distributed",
            "org.jtorch.distributions",
            "org.jtorch.export",
            "org.jtorch.fft",
            "org.jtorch.foreach",
            "org.jtorch.func",
            "org.jtorch.fx",
            "org.jtorch.io",
            "org.jtorch.library",
            "org.jtorch.linalg",
            "org.jtorch.nn",
            "org.jtorch.nn.attention",
            "org.jtorch.nn.functional",
            "org.jtorch.nn.init",
            "org.jtorch.nn.parallel",
            "org.jtorch.nn.utils",
            "org.jtorch.nn.utils.prune",
            "org.jtorch.nn.utils.rnn",
            "org.jtorch.onnx",
            "org.jtorch.optim",
            "org.jtorch.optim.lr",
            "org.jtorch.optim.swa",
            "org.jtorch.utils.data",
            "org.jtorch.utils.deterministic",
            "org.jtorch.utils.hooks");

    /** The library's own layers, named by the architecture: none of them may be exported. */
    private static final Set<String> INTERNAL = Set.of(
            "org.jtorch.ops",
            "org.jtorch.dispatch",
            "org.jtorch.kernels.blas",
            "org.jtorch.kernels.mpi",
            "org.jtorch.kernels.cpu",
            "org.jtorch.kernels.cpu.simd",
            "org.jtorch.storage",
            "org.jtorch.internal",
            // the classes protoc generates from onnx.proto: ONNX export writes with them, users never see them
            "org.jtorch.onnx.proto");

    @Test
    void theTestsRunInsideTheNamedModule() {
        Module module = Tensor.class.getModule();
        assertTrue(module.isNamed(), "the library's tests run on the module path");
        assertEquals("org.jtorch", module.getName());
        for (String p : INTERNAL) assertFalse(module.isExported(p), p + " is exported");
    }

    @Test
    void exactlyTheApiPackagesAreExportedToEveryone() {
        ModuleDescriptor d = descriptor();
        Set<String> exported = d.exports().stream()
                .map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(API), exported);
        for (ModuleDescriptor.Exports e : d.exports()) {
            assertFalse(e.isQualified(), e.source() + " is exported to chosen modules only");
        }
    }

    @Test
    void theInternalLayersExistAndAreNeitherExportedNorOpened() {
        ModuleDescriptor d = descriptor();
        assertTrue(d.packages().containsAll(INTERNAL), "an internal package moved: update this test");
        assertFalse(d.isOpen(), "an open module lets reflection into every package");
        assertEquals(Set.of(), d.opens());
    }

    @Test
    void theServiceLoaderUsesAreDeclared() {
        ModuleDescriptor d = descriptor();
        assertEquals(
                Set.of(
                        "org.jtorch.ops.AutogradLayer",
                        "org.jtorch.dispatch.VmapHooks",
                        "org.jtorch.dispatch.Operators$Table",
                        "org.jtorch.dispatch.IndexingHooks",
                        "org.jtorch.dispatch.VariableHooks",
                        "org.jtorch.DeviceTypes$Registry",
                        "org.jtorch.accelerator.spi.DeviceBackend"),
                d.uses());
        Map<String, List<String>> provides = new TreeMap<>();
        for (ModuleDescriptor.Provides p : d.provides()) provides.put(p.service(), p.providers());
        assertEquals(
                Map.of(
                        "org.jtorch.ops.AutogradLayer", List.of("org.jtorch.autograd.RecordingLayer"),
                        "org.jtorch.dispatch.Operators$Table", List.of("org.jtorch.ops.RegisteredOperators"),
                        "org.jtorch.dispatch.IndexingHooks", List.of("org.jtorch.ops.TensorIndexing"),
                        "org.jtorch.dispatch.VariableHooks", List.of("org.jtorch.autograd.TensorHooks"),
                        "org.jtorch.dispatch.VmapHooks", List.of("org.jtorch.func.FuncVmapHooks"),
                        "org.jtorch.DeviceTypes$Registry", List.of("org.jtorch.ops.BackendDeviceTypes")),
                provides);
    }

    /**
     * A module that requires org.jtorch, compiled by javac against the library on the module path: importing the API
     * packages compiles, importing any internal one fails with javac's "does not export" error.
     */
    @Test
    void aClientModuleSeesTheApiAndNoInternalPackage(@TempDir Path dir) throws Exception {
        String modulePath = System.getProperty("jdk.module.path");
        Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
        assumeTrue(modulePath != null && Files.isExecutable(javac), "needs the module path and a JDK's javac");

        Compilation api = compileClient(
                javac,
                modulePath,
                dir.resolve("api"),
                API,
                "public static Object use() { return org.jtorch.Torch.zeros(2).add(1.0); }");
        assertEquals(0, api.exit, api.log);

        Compilation internal = compileClient(javac, modulePath, dir.resolve("internal"), INTERNAL, "");
        assertTrue(internal.exit != 0, "a client compiled against internal packages");
        for (String p : INTERNAL) {
            String refused = "package " + p + " is declared in module org.jtorch, which does not export it";
            assertTrue(internal.log.contains(refused), p + " is visible to a client module:\n" + internal.log);
        }
    }

    private record Compilation(int exit, String log) {}

    /** Compiles module {@code client}: one class importing every package of {@code imports}, with {@code body}. */
    private static Compilation compileClient(Path javac, String modulePath, Path dir, Set<String> imports, String body)
            throws IOException, InterruptedException {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("client"));
        Files.writeString(src.resolve("module-info.java"), "module client { requires org.jtorch; }");
        StringBuilder cls = new StringBuilder("package client;\n");
        for (String p : new TreeSet<>(imports)) cls.append("import ").append(p).append(".*;\n");
        cls.append("public class Client { ").append(body).append(" }\n");
        Files.writeString(src.resolve("client/Client.java"), cls);
        List<String> cmd = new ArrayList<>(List.of(
                javac.toString(),
                "-d",
                dir.resolve("out").toString(),
                "--module-path",
                modulePath,
                "-Xlint:-incubating",
                src.resolve("module-info.java").toString(),
                src.resolve("client/Client.java").toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "javac timed out");
        return new Compilation(p.exitValue(), log);
    }

    /** The compiled descriptor ({@code module-info.class}), as the module system reads it. */
    private static ModuleDescriptor descriptor() {
        Module module = Tensor.class.getModule();
        if (module.isNamed()) return module.getDescriptor();
        try (InputStream in = Tensor.class.getResourceAsStream("/module-info.class")) {
            return ModuleDescriptor.read(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
