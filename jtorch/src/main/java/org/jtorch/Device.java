package org.jtorch;

/**
 * Where a tensor's data lives. {@link #META} tensors carry shape, dtype and strides but no data:
 * every op on them runs its meta rule only.
 */
public enum Device {
    CPU("cpu"),
    META("meta");

    private final String type;

    Device(String type) { this.type = type; }

    /** PyTorch's device type string. */
    public String type() { return type; }

    /** Parses PyTorch's spelling ({@code "cpu"}, {@code "meta"}). */
    public static Device of(String name) {
        for (Device d : values()) {
            if (d.type.equals(name)) return d;
        }
        throw new IllegalArgumentException("Expected one of cpu, meta device type at start of device string: " + name);
    }

    @Override
    public String toString() { return type; }
}
