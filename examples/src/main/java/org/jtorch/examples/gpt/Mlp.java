package org.jtorch.examples.gpt;

import org.jtorch.Tensor;
import org.jtorch.nn.GELU;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;

/** The block's feed-forward network: Linear(C, 4C), GELU, Linear(4C, C). */
final class Mlp extends Module {
    private final Linear cFc;
    private final GELU gelu;
    private final Linear cProj;

    Mlp(GptConfig config) {
        cFc = register("c_fc", new Linear(config.nEmbd(), 4L * config.nEmbd(), false));
        gelu = register("gelu", new GELU());
        cProj = register("c_proj", new Linear(4L * config.nEmbd(), config.nEmbd(), false));
    }

    Linear outputProjection() {
        return cProj;
    }

    @Override
    public Tensor forward(Tensor x) {
        return cProj.call(gelu.call(cFc.call(x)));
    }
}
