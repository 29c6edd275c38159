package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.jtorch.Warnings.Action;
import org.jtorch.Warnings.Category;
import org.jtorch.testing.Views;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Warnings}: the actions, filters, call-site detection, recording and thread safety. Printed output is captured
 * by swapping {@code System.err}; every test starts and ends with no filters.
 */
class WarningsTest {
    private final PrintStream originalErr = System.err;
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void captureStderr() {
        Warnings.resetFilters();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setErr(originalErr);
        Warnings.resetFilters();
    }

    /** The printed warning lines so far. */
    private List<String> printed() {
        String s = err.toString(StandardCharsets.UTF_8);
        return s.isEmpty() ? List.of() : List.of(s.split("\\R"));
    }

    /** The line after the caller's: where the warning raised by the statement that follows the call comes from. */
    private static int nextLine() {
        return StackWalker.getInstance()
                        .walk(f -> f.skip(1).findFirst().orElseThrow())
                        .getLineNumber()
                + 1;
    }

    private static void warnFromHelper(String message) {
        Warnings.warn(message); // one call site, whatever the caller
    }

    // ---- actions ------------------------------------------------------------------------------------

    @Test
    void defaultPrintsOncePerCallSiteInPythonFormat() {
        int line = 0;
        for (int i = 0; i < 3; i++) {
            line = nextLine();
            Warnings.warn(Category.USER_WARNING, "default-site");
        }
        assertEquals(List.of("WarningsTest.java:" + line + ": UserWarning: default-site"), printed());
        int other = nextLine();
        Warnings.warn(Category.USER_WARNING, "default-site"); // another call site: shown again
        assertEquals(
                "WarningsTest.java:" + other + ": UserWarning: default-site",
                printed().get(1));
        warnFromHelper("default-helper");
        warnFromHelper("default-helper");
        warnFromHelper("default-helper-2"); // same site, another message: shown
        assertEquals(4, printed().size());
    }

    @Test
    void defaultRegistryDistinguishesCategories() {
        for (int i = 0; i < 2; i++) {
            Warnings.warn(Category.FUTURE_WARNING, "same text");
            Warnings.warn(Category.DEPRECATION_WARNING, "same text");
        }
        assertEquals(2, printed().size());
        assertTrue(printed().get(0).endsWith(": FutureWarning: same text"));
        assertTrue(printed().get(1).endsWith(": DeprecationWarning: same text"));
    }

    @Test
    void alwaysIgnoreAndOnce() {
        Warnings.filter(Category.RUNTIME_WARNING, Action.ALWAYS);
        for (int i = 0; i < 3; i++) Warnings.warn(Category.RUNTIME_WARNING, "always");
        assertEquals(3, printed().size());

        Warnings.filter(Category.RUNTIME_WARNING, Action.IGNORE); // the newest filter wins
        Warnings.warn(Category.RUNTIME_WARNING, "ignored");
        assertEquals(3, printed().size());

        Warnings.filter(Category.PERFORMANCE_WARNING, Action.ONCE);
        Warnings.warn(Category.PERFORMANCE_WARNING, "once-only");
        Warnings.warn(Category.PERFORMANCE_WARNING, "once-only"); // another call site, still not shown
        warnFromHelper("unaffected"); // other categories keep DEFAULT
        assertEquals(5, printed().size());
        assertTrue(printed().get(3).endsWith("PerformanceWarning: once-only"));
    }

    @Test
    void warnOnceIsOncePerProcessUnlessAFilterOrRecorderSaysOtherwise() {
        for (int i = 0; i < 2; i++) Warnings.warnOnce(Category.USER_WARNING, "warn-once");
        Warnings.warnOnce(Category.USER_WARNING, "warn-once"); // another call site: still not shown
        assertEquals(1, printed().size());
        assertTrue(printed().get(0).endsWith("UserWarning: warn-once"));
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            for (int i = 0; i < 2; i++) Warnings.warnOnce(Category.USER_WARNING, "warn-once");
            assertEquals(2, rec.records().size(), "a recorder ignores once-rules");
        }
        Warnings.filter(Category.USER_WARNING, Action.ERROR);
        assertThrows(TorchWarningException.class, () -> Warnings.warnOnce(Category.USER_WARNING, "warn-once"));
        assertEquals(1, printed().size());
    }

    @Test
    void errorThrowsWithTheCategory() {
        Warnings.filter(Category.FUTURE_WARNING, Action.ERROR);
        TorchWarningException e = assertThrows(
                TorchWarningException.class, () -> Warnings.warn(Category.FUTURE_WARNING, "becomes an error"));
        assertEquals("becomes an error", e.getMessage());
        assertSame(Category.FUTURE_WARNING, e.category());
        Warnings.warn(Category.USER_WARNING, "still a warning");
        assertEquals(1, printed().size());
    }

    @Test
    void errorFilterAppliesToWarningsRaisedInsideOps() {
        Warnings.filterAll(Action.ERROR); // python -W error
        Tensor expanded = Views.of(Torch.zeros(3), 0, new long[] {2, 3}, new long[] {0, 1});
        assertThrows(
                TorchWarningException.class,
                () -> expanded.maskedFill_(Torch.tensor(new boolean[] {true, false, true}), 1.0));
    }

    @Test
    void messageFiltersMatchThePrefixCaseInsensitively() {
        Warnings.filter(Category.USER_WARNING, Action.IGNORE, "noisy");
        Warnings.warn("Noisy kernel says hello");
        Warnings.warn("not noisy at the start");
        assertEquals(1, printed().size());
        assertTrue(printed().get(0).endsWith("UserWarning: not noisy at the start"));
    }

    @Test
    void resetFiltersRestoresDefault() {
        Warnings.filterAll(Action.IGNORE);
        Warnings.warn("hidden");
        assertEquals(0, printed().size());
        Warnings.resetFilters();
        Warnings.warn("shown after reset");
        assertEquals(1, printed().size());
    }

    // ---- call sites ---------------------------------------------------------------------------------

    @Test
    void theCallSiteIsTheFirstFrameOutsideTheLibrary() {
        Tensor expanded = Views.of(Torch.zeros(3), 0, new long[] {2, 3}, new long[] {0, 1});
        int line = nextLine();
        expanded.maskedFill_(Torch.tensor(new boolean[] {true, false, true}), 1.0);
        assertEquals(1, printed().size());
        assertTrue(
                printed()
                        .get(0)
                        .startsWith(
                                "WarningsTest.java:" + line + ": UserWarning: Use of masked_fill_ on expanded tensors"),
                printed().get(0));
    }

    // ---- recording ----------------------------------------------------------------------------------

    @Test
    void catchWarningsRecordsEverythingAndPrintsNothing() {
        Warnings.filter(Category.USER_WARNING, Action.ERROR);
        Warnings.filter(Category.FUTURE_WARNING, Action.IGNORE);
        List<Warning> records;
        int line;
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            for (int i = 0; i < 2; i++) Warnings.warn("repeated"); // not once, not an error
            line = nextLine();
            Warnings.warn(Category.FUTURE_WARNING, "ignored elsewhere");
            records = rec.records();
        }
        assertEquals(3, records.size());
        assertEquals(Category.USER_WARNING, records.get(0).category());
        assertEquals("repeated", records.get(1).message());
        Warning last = records.get(2);
        assertEquals(Category.FUTURE_WARNING, last.category());
        assertEquals("WarningsTest.java", last.file());
        assertEquals(line, last.line());
        assertEquals("WarningsTest.java:" + line + ": FutureWarning: ignored elsewhere", last.toString());
        assertEquals(List.of(), printed());
        // closed: the filters are back in charge
        assertThrows(TorchWarningException.class, () -> Warnings.warn("repeated"));
    }

    @Test
    void recordersNestAndMustCloseInOrder() {
        WarningRecorder outer = Warnings.catchWarnings();
        WarningRecorder inner = Warnings.catchWarnings();
        Warnings.warn("to inner");
        assertThrows(IllegalStateException.class, outer::close);
        inner.close();
        inner.close(); // twice: nothing
        Warnings.warn("to outer");
        outer.close();
        assertEquals(
                List.of("to inner"),
                inner.records().stream().map(Warning::message).toList());
        assertEquals(
                List.of("to outer"),
                outer.records().stream().map(Warning::message).toList());
        warnFromHelper("printed again");
        assertEquals(1, printed().size());
    }

    @Test
    void recordingIsPerThread() throws Exception {
        AtomicReference<Throwable> closeFromOtherThread = new AtomicReference<>();
        WarningRecorder rec = Warnings.catchWarnings(); // closed by hand: the other thread's close is the test
        try {
            Thread t = new Thread(() -> {
                Warnings.warn("from another thread");
                try {
                    rec.close();
                } catch (Throwable e) {
                    closeFromOtherThread.set(e);
                }
            });
            t.start();
            t.join();
            assertEquals(List.of(), rec.records());
        } finally {
            rec.close();
        }
        assertTrue(closeFromOtherThread.get() instanceof IllegalStateException);
        assertEquals(1, printed().size());
        assertTrue(printed().get(0).endsWith("UserWarning: from another thread"));
    }

    // ---- thread safety ------------------------------------------------------------------------------

    @Test
    void concurrentWarningsFromOneSitePrintOnce() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 500; i++) warnFromHelper("contended");
                    return null;
                }));
            }
            // filters change while warnings are raised; a filter change never breaks a concurrent warn
            Thread changer = new Thread(() -> {
                for (int i = 0; i < 200; i++) Warnings.filter(Category.DEPRECATION_WARNING, Action.IGNORE);
            });
            start.countDown();
            changer.start();
            for (Future<?> f : done) f.get();
            changer.join();
        } finally {
            pool.shutdown();
        }
        // a filter change resets the per-site registry (as in Python), so the line may reappear once per
        // change; without changes after the last one it is shown exactly once more at most
        long shown = printed().stream()
                .filter(s -> s.endsWith("UserWarning: contended"))
                .count();
        assertTrue(shown >= 1 && shown <= 201, "shown " + shown);
        err.reset();
        for (int i = 0; i < 100; i++) warnFromHelper("contended");
        assertTrue(printed().size() <= 1);
    }

    @Test
    void concurrentWarningsWithStableFiltersPrintExactlyOnce() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 1000; i++) warnFromHelper("stable");
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdown();
        }
        assertEquals(1, printed().size());
    }

    // ---- routing to System.Logger ---------------------------------------------------------------------

    /** A System.Logger that keeps what it is given. */
    private static final class RecordingLogger implements System.Logger {
        final List<String> lines = new ArrayList<>();

        @Override
        public String getName() {
            return Warnings.LOGGER_NAME;
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, java.util.ResourceBundle bundle, String msg, Throwable thrown) {
            lines.add(level + " " + msg);
        }

        @Override
        public void log(Level level, java.util.ResourceBundle bundle, String format, Object... params) {
            lines.add(level + " " + java.text.MessageFormat.format(format, params));
        }
    }

    @Test
    void capturedWarningsGoToTheLoggerAndBackToStderrWhenReleased() {
        RecordingLogger logger = new RecordingLogger();
        Warnings.captureWarnings(logger);
        int line;
        try {
            line = nextLine();
            Warnings.warn(Category.FUTURE_WARNING, "to the logger");
        } finally {
            Warnings.captureWarnings(false);
        }
        assertEquals(List.of("WARNING WarningsTest.java:" + line + ": FutureWarning: to the logger"), logger.lines);
        assertEquals(List.of(), printed());
        Warnings.warn(Category.FUTURE_WARNING, "to stderr");
        assertEquals(1, printed().size());
        assertTrue(printed().getFirst().endsWith(": FutureWarning: to stderr"));
    }
}
