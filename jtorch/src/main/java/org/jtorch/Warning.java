package org.jtorch;

/**
 * One warning as {@link Warnings#catchWarnings()} records it (Python's {@code warnings.WarningMessage}): its category,
 * its text, and the source location of the first caller outside JTorch.
 *
 * @param file the source file name ({@code Train.java}), or {@code <unknown>} without debug information
 * @param line the line number, or a negative number when unknown
 */
public record Warning(Warnings.Category category, String message, String file, int line) {

    /** As Python prints a warning: {@code Train.java:12: UserWarning: message}. */
    @Override
    public String toString() {
        return file + ":" + line + ": " + category.pythonName() + ": " + message;
    }
}
