package org.jtorch.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Torch;
import org.jtorch.autograd.GradMode;
import org.junit.jupiter.api.Test;

/** The per-thread interpreter stack: levels, lowering, scopes and the grad-mode flags. */
class DispatchStateTest {

    /** An interpreter that notes the name of each op reaching it under {@code tag}. */
    private record Probe(DispatchState.Kind kind, int level, List<String> seen, String tag)
            implements DispatchState.Interpreter {
        @Override
        public Dispatcher.Mode mode() {
            return (op, args, next) -> {
                seen.add(tag + ":" + op.name());
                return next.call(op, args);
            };
        }
    }

    private static Probe probe(DispatchState.Kind kind, List<String> seen, String tag) {
        return new Probe(kind, DispatchState.nextLevel(), seen, tag);
    }

    @Test
    void levelsAreStackPositionsAndOpsMeetTheInnermostFirst() {
        List<String> seen = new ArrayList<>();
        assertTrue(DispatchState.isPlainEager());
        Probe outer = probe(DispatchState.Kind.MODE, seen, "outer");
        try (var _ = DispatchState.enter(outer)) {
            Probe inner = probe(DispatchState.Kind.MODE, seen, "inner");
            assertEquals(outer.level() + 1, inner.level());
            try (var _ = DispatchState.enter(inner)) {
                assertFalse(DispatchState.isPlainEager());
                Torch.ones(2).neg();
            }
        }
        assertTrue(DispatchState.isPlainEager());
        assertEquals(List.of("inner:full", "outer:full", "inner:neg", "outer:neg"), seen);
    }

    @Test
    void aLevelThatSeesNoOpsKeepsTheEagerPathButCountsAsEntered() {
        DispatchState.Interpreter marker = new DispatchState.Interpreter() {
            final int level = DispatchState.nextLevel();

            @Override
            public DispatchState.Kind kind() {
                return DispatchState.Kind.GRAD;
            }

            @Override
            public int level() {
                return level;
            }

            @Override
            public Dispatcher.Mode mode() {
                return null;
            }
        };
        try (var _ = DispatchState.enter(marker)) {
            assertTrue(DispatchState.isPlainEager());
            assertSame(marker, DispatchState.innermostEntered(DispatchState.Kind.GRAD));
            assertTrue(DispatchState.anyEnteredBesides(DispatchState.Kind.GRAD, null));
            assertFalse(DispatchState.anyEnteredBesides(DispatchState.Kind.GRAD, marker));
        }
        assertNull(DispatchState.innermostEntered(DispatchState.Kind.GRAD));
    }

    @Test
    void runBelowLowersTheInterpreterAndThoseAboveItOnly() {
        List<String> seen = new ArrayList<>();
        Probe a = probe(DispatchState.Kind.FORWARD_AD, seen, "a");
        try (var _ = DispatchState.enter(a)) {
            Probe b = probe(DispatchState.Kind.FORWARD_AD, seen, "b");
            try (var _ = DispatchState.enter(b)) {
                DispatchState.runBelow(b, () -> Torch.ones(1));
                assertEquals(List.of("a:full"), seen);
                seen.clear();
                DispatchState.runBelow(a, () -> {
                    assertFalse(DispatchState.isInEffect(b));
                    assertNull(DispatchState.innermostInEffect(DispatchState.Kind.FORWARD_AD));
                    assertSame(b, DispatchState.innermostEntered(DispatchState.Kind.FORWARD_AD));
                    // entered while lowered: numbered above every entered level, and in effect
                    Probe c = probe(DispatchState.Kind.MODE, seen, "c");
                    assertEquals(b.level() + 1, c.level());
                    try (var _ = DispatchState.enter(c)) {
                        Torch.ones(1);
                    }
                    return null;
                });
                assertEquals(List.of("c:full"), seen);
                assertSame(b, DispatchState.innermostInEffect(DispatchState.Kind.FORWARD_AD));
                assertThrows(
                        IllegalStateException.class,
                        () -> DispatchState.runBelow(b, () -> DispatchState.runBelow(b, () -> null)));
            }
        }
    }

    @Test
    void scopesMustCloseInReverseOrderAndLevelsMustBeTheNextOne() {
        List<String> seen = new ArrayList<>();
        Probe a = probe(DispatchState.Kind.MODE, seen, "a");
        DispatchState.Scope first = DispatchState.enter(a);
        DispatchState.Scope second = DispatchState.enter(probe(DispatchState.Kind.MODE, seen, "b"));
        assertThrows(IllegalStateException.class, first::close);
        second.close();
        first.close();
        assertThrows(
                IllegalStateException.class,
                () -> DispatchState.enter(
                        new Probe(DispatchState.Kind.MODE, DispatchState.nextLevel() + 1, seen, "x")));
        assertTrue(DispatchState.isPlainEager());
    }

    @Test
    void gradModeFlagsLiveInTheStateOfTheirThread() throws Exception {
        DispatchState state = DispatchState.current();
        try (var _ = GradMode.inference(true)) {
            assertFalse(state.isGradEnabled());
            assertTrue(state.isInference());
            boolean[] other = new boolean[2];
            Thread t = new Thread(() -> {
                other[0] = GradMode.isEnabled();
                other[1] = GradMode.isInference();
            });
            t.start();
            t.join();
            assertTrue(other[0]);
            assertFalse(other[1]);
        }
        assertTrue(state.isGradEnabled());
        assertFalse(state.isInference());
    }
}
