package org.jtorch.io;

/**
 * A storage as a persistent id names it: {@code ('storage', type, key, location, numel)}, plus the legacy format's
 * optional view {@code (viewKey, viewOffset, viewSize)} (in elements of the storage type).
 */
record StorageRef(
        StorageType type, String key, String location, long numel, String viewKey, long viewOffset, long viewSize) {
    /** Bytes of the whole storage, {@code numel × element size}, or an exception when that overflows. */
    long nbytes() {
        try {
            return Math.multiplyExact(numel, type.elementSize());
        } catch (ArithmeticException e) {
            throw new org.jtorch.TorchException("storage '" + key + "' claims " + numel + " elements: too large");
        }
    }

    @Override
    public String toString() {
        return "storage '" + key + "' (" + type + ", " + location + ", " + numel + " elements)";
    }
}
