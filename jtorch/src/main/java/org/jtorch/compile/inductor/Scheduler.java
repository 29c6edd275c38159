package org.jtorch.compile.inductor;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.fx.GraphModule;

/** Orders and fuses the lowered steps. */
final class Scheduler {
    private Scheduler() {}

    static List<Object> schedule(Lowering l, GraphModule gm, List<String> decisions) {
        return new ArrayList<>(l.steps);
    }
}
