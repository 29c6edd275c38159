package org.jtorch.nn.attention;

import java.util.Optional;
import org.jtorch.Tensor;

/** {@code varlen_attn}'s result: {@code output} (T_q, H, D) and, when requested, {@code lse} (H, T_q). */
public record VarlenResult(Tensor out, Optional<Tensor> lse) {}
