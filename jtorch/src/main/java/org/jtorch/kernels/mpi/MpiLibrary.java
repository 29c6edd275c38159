package org.jtorch.kernels.mpi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;

/**
 * Finds {@code libmpi.so} and opens it with {@code RTLD_GLOBAL}: Open MPI loads its transport components with
 * {@code dlopen} later, and they resolve Open MPI's own symbols from the global namespace, which a library opened by
 * {@link SymbolLookup#libraryLookup} (local) does not join.
 *
 * <p>The library is {@code -Djtorch.mpi=FILE} when set, else the first of {@code libmpi.so.40} and {@code libmpi.so}
 * that the dynamic linker finds (Debian's {@code libopenmpi3} package installs the former).
 */
@SuppressWarnings("restricted") // binding native code is this class's job; needs --enable-native-access
final class MpiLibrary {
    private MpiLibrary() {}

    private static final int RTLD_NOW = 0x2;
    private static final int RTLD_GLOBAL = 0x100;
    private static final List<String> SONAMES = List.of("libmpi.so.40", "libmpi.so");

    /** Opens the library; throws IllegalStateException saying what was tried when none loads. */
    static SymbolLookup open() {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        MethodHandle dlopen =
                linker.downcallHandle(libc.findOrThrow("dlopen"), FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
        MethodHandle dlerror = linker.downcallHandle(libc.findOrThrow("dlerror"), FunctionDescriptor.of(ADDRESS));
        String override = System.getProperty("jtorch.mpi");
        List<String> candidates =
                override != null ? List.of(Path.of(override).toAbsolutePath().toString()) : SONAMES;
        StringBuilder failures = new StringBuilder();
        for (String name : candidates) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment handle =
                        (MemorySegment) dlopen.invokeExact(arena.allocateFrom(name), RTLD_NOW | RTLD_GLOBAL);
                if (!handle.equals(MemorySegment.NULL)) {
                    // Now that it is loaded globally, a (local) lookup by the same name finds the same copy.
                    return SymbolLookup.libraryLookup(name, Arena.global());
                }
                MemorySegment error = (MemorySegment) dlerror.invokeExact();
                failures.append("; ")
                        .append(
                                error.equals(MemorySegment.NULL)
                                        ? name
                                        : error.reinterpret(4096).getString(0));
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("dlopen of " + name + " failed", t);
            }
        }
        throw new IllegalStateException("cannot load Open MPI's libmpi" + failures
                + " (install it: apt-get install openmpi-bin libopenmpi-dev, or point -Djtorch.mpi at a libmpi.so)");
    }
}
