package org.jtorch.compile.trace;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.Set;

/**
 * The glog-style head of a record line, as PyTorch's trace formatter writes it and tlparse's pattern reads it:
 * {@code V1201 19:15:10.123456 17 org/jtorch/compile/Frames.java:42] } — the level ({@code V}, verbose: every trace
 * record is a debug record), month and day, local time to the microsecond, the writing thread's id, and the source file
 * and line of the code that emitted the record.
 */
final class GlogPrefix {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("MMdd HH:mm:ss.SSSSSS");
    /** The writer's classes, whose frames lie between the emitting code and the prefix. */
    private static final Set<String> WRITER = Set.of(
            StructuredTrace.class.getName(),
            Span.class.getName(),
            TraceFile.class.getName(),
            TraceRecord.class.getName(),
            GlogPrefix.class.getName());

    private static final StackWalker WALKER = StackWalker.getInstance();

    private GlogPrefix() {}

    static String now() {
        return "V" + TIME.format(LocalDateTime.now()) + " "
                + Thread.currentThread().threadId() + " " + caller() + "] ";
    }

    /** The first frame outside the writer: the compiler stage that emitted the record. */
    private static String caller() {
        Optional<StackWalker.StackFrame> frame = WALKER.walk(
                frames -> frames.filter(f -> !WRITER.contains(f.getClassName())).findFirst());
        return frame.map(GlogPrefix::location).orElse("unknown:0");
    }

    private static String location(StackWalker.StackFrame f) {
        return sourcePath(f.getClassName(), f.getFileName()) + ":" + Math.max(0, f.getLineNumber());
    }

    /**
     * A class's source file as a path ({@code org/jtorch/compile/Frames.java}), the Java counterpart of the Python
     * module paths PyTorch writes; {@code file} is the frame's source file name, null when the class has none.
     */
    static String sourcePath(String className, String file) {
        String pkg = packageOf(className);
        String name = file != null ? file : simpleName(className) + ".java";
        return pkg.isEmpty() ? name : pkg.replace('.', '/') + "/" + name;
    }

    static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }

    /** The class name without its package; nested classes keep their {@code Outer$Inner} form. */
    static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
