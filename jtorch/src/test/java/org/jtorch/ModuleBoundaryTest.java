package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What a program on the module path sees of module {@code org.jtorch}: exactly the API packages, exported to
 * everyone and opened to no one, so that the op definitions, the dispatcher, the kernels and storage stay
 * free to change.
 */
class ModuleBoundaryTest {
    /** The packages users program against (docs/API.md, the README's layout). */
    private static final Set<String> API = Set.of(
            "org.jtorch",
            "org.jtorch.accelerator", "org.jtorch.accelerator.spi",
            "org.jtorch.autograd", "org.jtorch.debug", "org.jtorch.foreach", "org.jtorch.func",
            "org.jtorch.io", "org.jtorch.linalg",
            "org.jtorch.nn", "org.jtorch.nn.attention", "org.jtorch.nn.functional", "org.jtorch.nn.init",
            "org.jtorch.nn.utils",
            "org.jtorch.optim", "org.jtorch.optim.lr");

    /** The library's own layers, named by the architecture: none of them may be exported. */
    private static final Set<String> INTERNAL = Set.of(
            "org.jtorch.ops", "org.jtorch.dispatch", "org.jtorch.kernels.blas", "org.jtorch.kernels.cpu",
            "org.jtorch.kernels.cpu.simd", "org.jtorch.storage", "org.jtorch.internal");

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
        Set<String> exported = d.exports().stream().map(ModuleDescriptor.Exports::source)
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
        assertEquals(Set.of("org.jtorch.dispatch.AutogradLayer", "org.jtorch.accelerator.spi.DeviceBackend"), d.uses());
        assertEquals(1, d.provides().size());
        ModuleDescriptor.Provides autograd = d.provides().iterator().next();
        assertEquals("org.jtorch.dispatch.AutogradLayer", autograd.service());
        assertEquals(List.of("org.jtorch.autograd.RecordingLayer"), autograd.providers());
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
