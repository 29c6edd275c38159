package org.jtorch;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a tensor's data lives ({@code torch.device}): a device type and an optional index. {@link #CPU} and
 * {@link #META} are built in; {@link #META} tensors carry shape, dtype and strides but no data, and every op on them
 * runs its meta rule only. Other types come from accelerator backends
 * ({@link org.jtorch.accelerator.spi.DeviceBackend}).
 *
 * <p>Instances are interned: one object per (type, index), so {@code ==} and {@link #equals} agree and the dispatcher's
 * CPU test stays a reference comparison.
 */
public final class Device {
    private static final ConcurrentHashMap<String, Device> INTERNED = new ConcurrentHashMap<>();

    /** The host CPU. */
    public static final Device CPU = intern("cpu", -1);
    /** The meta device: shapes, no data. */
    public static final Device META = intern("meta", -1);

    private final String type;
    private final int index;

    private Device(String type, int index) {
        this.type = type;
        this.index = index;
    }

    private static Device intern(String type, int index) {
        return INTERNED.computeIfAbsent(index < 0 ? type : type + ":" + index, k -> new Device(type, index));
    }

    /** PyTorch's device type string ({@code "cpu"}, {@code "meta"}, a backend's type). */
    public String type() {
        return type;
    }

    /** {@code torch.device.index}: the device index, or -1 when none is given ({@code torch.device('cuda')}). */
    public int index() {
        return index;
    }

    /** Whether an index is given. */
    public boolean hasIndex() {
        return index >= 0;
    }

    /**
     * {@code torch.device(type, index)} for a backend device type. The type is not checked here (backends create their
     * devices while they load); {@link #of(String)} checks the spelling of user input.
     */
    public static Device of(String type, int index) {
        if (index < -1) throw new TorchException("Device index must be -1 or non-negative, got " + index);
        // one CPU and one meta device: "cpu:0" is the CPU, as a PyTorch tensor created there reports device 'cpu'
        if (type.equals("cpu")) return CPU;
        if (type.equals("meta")) return META;
        return intern(type, index);
    }

    /**
     * Parses PyTorch's spelling: {@code "cpu"}, {@code "meta"}, or a loaded backend's type with an optional index
     * ({@code "fake"}, {@code "fake:1"}).
     */
    public static Device of(String name) {
        if (name.equals("cpu")) return CPU;
        if (name.equals("meta")) return META;
        int colon = name.indexOf(':');
        String type = colon < 0 ? name : name.substring(0, colon);
        if (!DeviceTypes.isKnown(type)) {
            throw new IllegalArgumentException("Expected one of " + String.join(", ", DeviceTypes.known())
                    + " device type at start of device string: " + name);
        }
        if (colon < 0) return of(type, -1);
        String idx = name.substring(colon + 1);
        if (idx.isEmpty() || !idx.chars().allMatch(Character::isDigit) || idx.length() > 9) {
            throw new IllegalArgumentException("Invalid device string: '" + name + "'");
        }
        return of(type, Integer.parseInt(idx));
    }

    @Override
    public String toString() {
        return index < 0 ? type : type + ":" + index;
    }
}
