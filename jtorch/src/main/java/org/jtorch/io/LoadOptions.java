package org.jtorch.io;

import java.util.Objects;
import org.jtorch.Device;

/**
 * The keyword arguments of {@code torch.load}: {@code LoadOptions.defaults().mapLocation(Device.META)}.
 *
 * @param weightsOnly {@code weights_only} (default true): only the allowlisted globals of PyTorch 2.15 plus
 *     {@link Serialization#addSafeGlobals user additions} may appear. With false, every other global loads as an inert
 *     {@link PyGlobal}/{@link PyObject}: JTorch never runs pickled code either way
 * @param mapLocation {@code map_location} as a device: every storage goes there ({@link Device#META}: shapes, dtypes
 *     and strides only, no data read). Null restores each storage to its saved location
 * @param mmap {@code mmap=True}: storages are views of a memory map of the file instead of copies (zip format only)
 * @param mmapMode how the file is mapped when {@code mmap} is on
 * @param verifyChecksums check each record's CRC-32 when its bytes are read (copying loads; PyTorch does not check).
 *     Memory-mapped storages are never read eagerly, so they are not checked
 */
public record LoadOptions(
        boolean weightsOnly, Device mapLocation, boolean mmap, MmapMode mmapMode, boolean verifyChecksums) {
    /** How {@code mmap=True} maps the file ({@code torch.serialization.set_default_mmap_options}). */
    public enum MmapMode {
        /**
         * Copy-on-write ({@code mmap.MAP_PRIVATE}, PyTorch's default): writes to loaded tensors stay in memory. Java
         * can only map privately through a channel opened for writing, so a file that this process may not write is
         * mapped {@link #READ_ONLY} instead.
         */
        PRIVATE,
        /** {@code mmap.MAP_SHARED}: in-place writes to loaded tensors go to the file. */
        SHARED,
        /** Read-only: an in-place write to a loaded tensor throws. */
        READ_ONLY
    }

    /** Requires an mmap mode (it matters only with {@code mmap=true}). */
    public LoadOptions {
        Objects.requireNonNull(mmapMode, "mmapMode");
    }

    /** {@code torch.load(f)}: weights only, saved locations, no mmap, checksums verified. */
    public static LoadOptions defaults() {
        return new LoadOptions(true, null, false, MmapMode.PRIVATE, true);
    }

    /**
     * {@code weights_only}: only tensors, containers and allow-listed globals are unpickled (PyTorch's default since
     * 2.6).
     */
    public LoadOptions weightsOnly(boolean on) {
        return new LoadOptions(on, mapLocation, mmap, mmapMode, verifyChecksums);
    }

    /** {@code map_location}: the device every loaded tensor goes to; null keeps each tensor's saved device. */
    public LoadOptions mapLocation(Device device) {
        return new LoadOptions(weightsOnly, device, mmap, mmapMode, verifyChecksums);
    }

    /** {@code map_location="cpu"} / {@code "meta"}. */
    public LoadOptions mapLocation(String device) {
        return mapLocation(Device.of(device));
    }

    /** {@code mmap}: map the checkpoint's storages from the file instead of reading them into memory. */
    public LoadOptions mmap(boolean on) {
        return new LoadOptions(weightsOnly, mapLocation, on, mmapMode, verifyChecksums);
    }

    /** How a mapped file is opened when {@code mmap} is on (see {@link MmapMode}). */
    public LoadOptions mmapMode(MmapMode mode) {
        return new LoadOptions(weightsOnly, mapLocation, mmap, mode, verifyChecksums);
    }

    /**
     * Whether each record's CRC-32 in the zip is checked, as PyTorch's reader does; off only to read a damaged file.
     */
    public LoadOptions verifyChecksums(boolean on) {
        return new LoadOptions(weightsOnly, mapLocation, mmap, mmapMode, on);
    }
}
