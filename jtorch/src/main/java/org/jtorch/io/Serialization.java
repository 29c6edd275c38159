package org.jtorch.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchTypeException;

/**
 * {@code torch.save} and {@code torch.load}: checkpoints that real PyTorch reads and writes.
 *
 * <p>{@link #save} writes PyTorch's zip format (what {@code torch.save} has written since 1.6) with pickle protocol 2:
 * tensors of every dtype (storage sharing between views preserved), nested maps (dicts, in insertion order;
 * {@link PyOrderedDict} for {@code OrderedDict}), lists, {@link PyTuple}s, strings, numbers, booleans and null — the
 * shapes of state dicts, optimizer state dicts and training checkpoints. The file is replaced atomically.
 *
 * <p>{@link #load} reads the zip format and the legacy pre-1.6 format. By default it is a weights-only load (PyTorch
 * 2.6+): a checkpoint may only name the globals of PyTorch 2.15's allowlist plus those added with
 * {@link #addSafeGlobals} or {@link #safeGlobals}; anything else fails with an {@link UnpicklingException} that names
 * the global. JTorch never runs code from a checkpoint, whatever the options: allowed globals are rebuilt in Java. See
 * {@code docs.pytorch.org/docs/stable/generated/torch.load.html}.
 *
 * <p>Every reader treats the file as hostile: a truncated, corrupted or forged file fails with a
 * {@link org.jtorch.TorchException} before anything large is allocated; I/O errors are {@link UncheckedIOException}s.
 */
public final class Serialization {
    private Serialization() {}

    /** {@code torch.save(obj, path)}: writes {@code obj} to {@code path} in PyTorch's zip format, atomically. */
    public static void save(Object obj, Path path) {
        try {
            CheckpointWriter.save(obj, path);
        } catch (IOException e) {
            throw new UncheckedIOException("torch.save: cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code torch.load(f, weights_only=True)} of a state dict, typed: the file must hold a map of names to tensors
     * (what {@code torch.save(model.state_dict(), f)} writes), else a {@link TorchTypeException} says what it holds.
     */
    public static Map<String, Tensor> loadStateDict(Path path) {
        Object loaded = load(path);
        if (!(loaded instanceof Map<?, ?> map)) {
            throw new TorchTypeException("loadStateDict: " + path + " holds a "
                    + (loaded == null ? "None" : loaded.getClass().getSimpleName())
                    + ", not a state dict (a map of names to tensors)");
        }
        LinkedHashMap<String, Tensor> out = new LinkedHashMap<>();
        for (var e : map.entrySet()) {
            if (!(e.getKey() instanceof String key) || !(e.getValue() instanceof Tensor t)) {
                throw new TorchTypeException("loadStateDict: " + path + " is not a state dict: entry " + e.getKey()
                        + " holds a "
                        + (e.getValue() == null
                                ? "None"
                                : e.getValue().getClass().getSimpleName())
                        + ", not a tensor (load it with Torch.load)");
            }
            out.put(key, t);
        }
        return out;
    }

    /** {@code torch.load(path)}: a weights-only load, storages restored to their saved devices. */
    public static Object load(Path path) {
        return load(path, LoadOptions.defaults());
    }

    /** {@code torch.load(path, map_location=..., weights_only=..., mmap=...)}. */
    public static Object load(Path path, LoadOptions options) {
        String what = String.valueOf(path.getFileName());
        Map<String, SafeGlobal> user = SafeGlobals.snapshot();
        try (MappedFile f =
                options.mmap() ? MappedFile.forViews(path, options.mmapMode()) : MappedFile.forCopying(path)) {
            MemorySegment file = f.segment();
            if (ZipReader.isZip(file)) return ZipCheckpoint.load(file, what, options, user, null);
            if (options.mmap()) {
                throw new org.jtorch.TorchException("mmap can only be used with files saved with "
                        + "`torch.save(_use_new_zipfile_serialization=True)`, "
                        + "please torch.save your checkpoint with this option in "
                        + "order to use mmap. (" + what + " is in the legacy format.)");
            }
            return LegacyCheckpoint.load(file, what, options, user, null);
        } catch (IOException e) {
            throw new UncheckedIOException("torch.load: cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code torch.serialization.get_unsafe_globals_in_checkpoint}: the globals in a checkpoint that a weights-only
     * load would refuse now, sorted. No storage data are read.
     */
    public static List<String> getUnsafeGlobalsInCheckpoint(Path path) {
        TreeSet<String> unsafe = new TreeSet<>();
        LoadOptions o = LoadOptions.defaults().mapLocation(Device.META);
        try (MappedFile f = MappedFile.forCopying(path)) {
            MemorySegment file = f.segment();
            Map<String, SafeGlobal> user = SafeGlobals.snapshot();
            String what = String.valueOf(path.getFileName());
            if (ZipReader.isZip(file)) ZipCheckpoint.load(file, what, o, user, unsafe);
            else LegacyCheckpoint.load(file, what, o, user, unsafe);
        } catch (IOException e) {
            throw new UncheckedIOException("torch.load: cannot read " + path + ": " + e.getMessage(), e);
        }
        return new ArrayList<>(unsafe);
    }

    /**
     * {@code torch.serialization.add_safe_globals(["module.Name", ...])}: allows these globals in weights-only loads of
     * every thread from now on. Calls of them load as {@link PyObject}s.
     */
    public static void addSafeGlobals(String... names) {
        SafeGlobals.add(Arrays.stream(names).map(SafeGlobal::of).toList());
    }

    /** {@code add_safe_globals} with Java factories for the allowed globals. */
    public static void addSafeGlobals(SafeGlobal... globals) {
        SafeGlobals.add(List.of(globals));
    }

    /**
     * {@code torch.serialization.safe_globals([...])}: allows these globals in weights-only loads on this thread until
     * the returned scope is closed: {@code try (var s = Serialization.safeGlobals("__main__.Foo")) { ... }}.
     */
    public static SafeGlobalsScope safeGlobals(String... names) {
        return SafeGlobals.push(Arrays.stream(names).map(SafeGlobal::of).toList());
    }

    /** {@code safe_globals} with Java factories for the allowed globals. */
    public static SafeGlobalsScope safeGlobals(SafeGlobal... globals) {
        return SafeGlobals.push(List.of(globals));
    }

    /** {@code torch.serialization.get_safe_globals()}: the names added by {@link #addSafeGlobals}. */
    public static List<String> getSafeGlobals() {
        return SafeGlobals.processNames();
    }

    /** {@code torch.serialization.clear_safe_globals()}: removes every name added by {@link #addSafeGlobals}. */
    public static void clearSafeGlobals() {
        SafeGlobals.clear();
    }
}
