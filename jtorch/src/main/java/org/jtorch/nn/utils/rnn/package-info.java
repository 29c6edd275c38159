/**
 * {@code torch.nn.utils.rnn}: {@link org.jtorch.nn.utils.rnn.PackedSequence}, the batch of variable-length sequences
 * the recurrent layers accept, and the functions of {@link org.jtorch.nn.utils.rnn.Rnn} that pack, pad and unpad.
 */
package org.jtorch.nn.utils.rnn;
