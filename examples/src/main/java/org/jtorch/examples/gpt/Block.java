package org.jtorch.examples.gpt;

import org.jtorch.Tensor;
import org.jtorch.nn.LayerNorm;
import org.jtorch.nn.Module;
import org.jtorch.nn.RMSNorm;

/** A pre-norm transformer block: {@code x + attn(ln_1(x))}, then {@code x + mlp(ln_2(x))}. */
final class Block extends Module {
    private final Module ln1;
    private final CausalSelfAttention attn;
    private final Module ln2;
    private final Mlp mlp;

    Block(GptConfig config) {
        ln1 = register("ln_1", norm(config));
        attn = register("attn", new CausalSelfAttention(config));
        ln2 = register("ln_2", norm(config));
        mlp = register("mlp", new Mlp(config));
    }

    CausalSelfAttention attention() {
        return attn;
    }

    Mlp mlp() {
        return mlp;
    }

    @Override
    public Tensor forward(Tensor x) {
        x = x.add(attn.call(ln1.call(x)));
        return x.add(mlp.call(ln2.call(x)));
    }

    static Module norm(GptConfig config) {
        return config.norm().equals("rmsnorm") ? new RMSNorm(config.nEmbd()) : new LayerNorm(config.nEmbd());
    }
}
