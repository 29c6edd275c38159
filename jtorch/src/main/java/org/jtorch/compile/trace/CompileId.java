package org.jtorch.compile.trace;

/**
 * Which compile a trace record belongs to, PyTorch's {@code CompileId} with its attempt: the {@code frameId}-th
 * compiled function (frame), its {@code frameCompileId}-th compile (0, then one more per recompile), and the
 * {@code attempt}-th try of that compile (a compile that restarts, for instance after a graph break, tries again).
 *
 * @param frameId the compiled function, numbered from 0 in the order of first compile
 * @param frameCompileId the compile of that function, 0 for the first and one more per recompile
 * @param attempt the try of that compile, 0 unless it restarted
 */
public record CompileId(int frameId, int frameCompileId, int attempt) {
    /** Refuses negative numbers. */
    public CompileId {
        if (frameId < 0 || frameCompileId < 0 || attempt < 0) {
            throw new IllegalArgumentException("compile id numbers must be non-negative, got frame_id=" + frameId
                    + ", frame_compile_id=" + frameCompileId + ", attempt=" + attempt);
        }
    }

    /** The first attempt of a compile. */
    public static CompileId of(int frameId, int frameCompileId) {
        return new CompileId(frameId, frameCompileId, 0);
    }

    /** The same compile's next attempt (after a restart). */
    public CompileId nextAttempt() {
        return new CompileId(frameId, frameCompileId, attempt + 1);
    }

    /** As PyTorch and tlparse write it: {@code [0/1]}, with {@code _attempt} after a restart ({@code [0/1_2]}). */
    @Override
    public String toString() {
        return "[" + frameId + "/" + frameCompileId + (attempt == 0 ? "" : "_" + attempt) + "]";
    }
}
