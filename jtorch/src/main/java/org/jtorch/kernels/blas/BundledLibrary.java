package org.jtorch.kernels.blas;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A native library that a jar on the class path ships as resources (the {@code org.bytedeco} natives jars), copied once
 * into a directory private to this user and loaded from there with its dependencies, in the order given.
 *
 * <p>Why copy: {@code dlopen} needs a file. Why a private directory: the process is about to run code from a shared
 * temporary directory, so one that another user created, or could write to, is refused (they could have planted a
 * library there).
 */
@SuppressWarnings("restricted") // loading native code is this class's job; needs --enable-native-access
final class BundledLibrary {
    /** The process-wide unwinder, which glibc dlopens by soname: a second copy in one process invites trouble. */
    static final String GCC_S = "libgcc_s.so.1";

    private final String resources;
    private final Path dir;

    /**
     * @param resources the class-path folder holding the files, e.g. {@code org/bytedeco/openblas/linux-x86_64/}
     * @param cacheName the directory's name in {@code java.io.tmpdir}, before the user's name: library and version
     */
    BundledLibrary(String resources, String cacheName) throws IOException {
        this.resources = resources;
        this.dir = privateDirectory(cacheName);
    }

    /** Throws unless this JVM runs on linux-x86_64, the platform of the bundled natives. */
    static void requireLinuxX64(String library, String override) {
        String os = System.getProperty("os.name"), arch = System.getProperty("os.arch");
        if (!os.equals("Linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new IllegalStateException(
                    "the bundled " + library + " is for linux-x86_64, not " + os + "/" + arch + "; " + override);
        }
    }

    /**
     * Loads {@code dependencies} (those the jar ships; {@link #GCC_S} only when the system has none), then
     * {@code library}, which must be shipped.
     */
    SymbolLookup load(String library, String... dependencies) throws IOException {
        for (String name : dependencies) {
            if (extract(name) && !(name.equals(GCC_S) && systemHas(GCC_S))) {
                SymbolLookup.libraryLookup(dir.resolve(name), Arena.global());
            }
        }
        if (!extract(library)) throw new IOException(resources + library + " is not on the class path");
        return SymbolLookup.libraryLookup(dir.resolve(library), Arena.global());
    }

    private static boolean systemHas(String soname) {
        try {
            SymbolLookup.libraryLookup(soname, Arena.global());
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** {@code ${java.io.tmpdir}/<cacheName>-<user>}, created if absent, refused unless private to this user. */
    private static Path privateDirectory(String cacheName) throws IOException {
        String user = System.getProperty("user.name").replaceAll("[^A-Za-z0-9._-]", "_");
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), cacheName + "-" + user);
        Files.createDirectories(
                dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        PosixFileAttributes attrs = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        Object owner = Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        Object self = Files.getAttribute(Path.of("/proc/self"), "unix:uid"); // this process's effective uid
        if (!attrs.isDirectory()
                || !owner.equals(self)
                || attrs.permissions().contains(PosixFilePermission.GROUP_WRITE)
                || attrs.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IOException(dir + " is not a directory owned by and writable only by this user");
        }
        return dir;
    }

    /**
     * Copies one resource into the directory unless a file of the same size is already there. Writes a temp file and
     * renames it, so a JVM starting at the same time never sees (or loads) a half-written library. Returns false if the
     * jar does not ship {@code name}.
     */
    private boolean extract(String name) throws IOException {
        // Through the class loader: in module org.jtorch, Class.getResource would search that module only.
        URL url = BundledLibrary.class.getClassLoader().getResource(resources + name);
        if (url == null) return false;
        URLConnection connection = url.openConnection();
        Path target = dir.resolve(name);
        if (Files.isRegularFile(target) && Files.size(target) == connection.getContentLengthLong()) return true;
        Path temp = Files.createTempFile(dir, name, ".part");
        try {
            try (InputStream in = connection.getInputStream()) {
                Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp); // only still there if the copy or the move failed
        }
        return true;
    }
}
