"""Greedy decoding: it always ends, records every step, runs without dropout and leaves the model's mode alone."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from transformer import DecodeStep, Translator, greedy_decode
from transformer import translator as translator_module
from transformer.data import PAD_ID
from transformer.errors import DataError

TINY = {"d_model": 16, "n_heads": 2, "d_ff": 32, "n_layers": 2}


@pytest.fixture
def untrained(pairs20) -> Translator:
    return Translator.create(pairs20, seed=1, **TINY)


def _enc(translator: Translator, sentence: str) -> torch.Tensor:
    return translator.encode_source(sentence)[0]


def _bias_towards(translator: Translator, token: str) -> None:
    """Make the output projection prefer `token` at every step, whatever the input."""
    with torch.no_grad():
        weight = translator.model.projection.weight
        weight.zero_()
        weight[translator.tgt_vocab.stoi[token]] = 1.0
        translator.model.decoder.layers[-1].norm3.bias.fill_(1.0)  # hidden state · row > 0 for that token only


@pytest.mark.parametrize("max_len", [1, 3, 50])
def test_untrained_model_stops(untrained, max_len):
    result = greedy_decode(untrained.model, _enc(untrained, "我吃饭"), untrained.tgt_vocab, max_len=max_len)
    assert result.stop_reason in ("eos", "max_len")
    assert 1 <= len(result.steps) <= max_len
    if result.stop_reason == "eos":
        assert result.steps[-1].token == "E"
        assert len(result.tokens) == len(result.steps) - 1
    else:
        assert len(result.steps) == max_len == len(result.tokens)
    assert "E" not in result.tokens


@pytest.mark.parametrize("special", ["S", "P"])
def test_output_never_contains_the_start_or_padding_token(untrained, special):
    """Translation.tokens is documented as 'output tokens without S/E'; S and P can never be a right answer.

    Greedy decoding takes the argmax over the whole vocabulary, so a model (untrained, or stopped after a few
    epochs) whose best guess is S or P prints "S S S …", and a chosen P is fed back as padding that the
    decoder's own mask then hides.
    """
    _bias_towards(untrained, special)
    result = greedy_decode(untrained.model, _enc(untrained, "我吃饭"), untrained.tgt_vocab, max_len=4)
    assert special not in result.tokens, f"greedy decoding output {result.tokens}"
    assert all(step.token != special for step in result.steps)


def test_stops_at_max_len_when_e_never_comes(untrained):
    _bias_towards(untrained, "cat")
    result = greedy_decode(untrained.model, _enc(untrained, "我吃饭"), untrained.tgt_vocab, max_len=6)
    assert result.stop_reason == "max_len"
    assert result.tokens == ["cat"] * 6
    assert len(result.steps) == 6


def test_stops_at_once_when_e_comes_first(untrained):
    _bias_towards(untrained, "E")
    result = greedy_decode(untrained.model, _enc(untrained, "我吃饭"), untrained.tgt_vocab)
    assert result.stop_reason == "eos"
    assert result.tokens == [] and result.text == ""
    assert [s.token for s in result.steps] == ["E"]


def test_decoding_never_runs_past_the_positional_table(pairs20):
    translator = Translator.create(pairs20, max_len=8, **TINY)
    _bias_towards(translator, "cat")
    result = translator.translate("我吃饭", max_len=50)
    assert result.stop_reason == "max_len"
    assert len(result.steps) == 7  # S plus 7 tokens fill the 8 positions


def test_every_step_is_recorded(untrained):
    _bias_towards(untrained, "the")
    weight = untrained.model.projection.weight
    with torch.no_grad():  # plus noise, so that the steps differ a little
        weight.add_(torch.randn(weight.shape, generator=torch.Generator().manual_seed(0)))
    enc = _enc(untrained, "他们去公园")  # 5 source tokens
    result = greedy_decode(untrained.model, enc, untrained.tgt_vocab, max_len=5)
    assert len(result.steps) == 5
    vocab = untrained.tgt_vocab
    heads, layers = TINY["n_heads"], TINY["n_layers"]
    chosen = []
    for t, step in enumerate(result.steps, start=1):
        assert isinstance(step, DecodeStep)
        assert step.step == t
        assert step.dec_input == ["S", *chosen]
        assert step.probs.shape == (len(vocab),)
        assert step.probs.sum().item() == pytest.approx(1.0, abs=1e-5)
        assert (step.probs >= 0).all()
        assert step.token_id == int(step.probs.argmax())
        assert step.token == vocab.itos[step.token_id]
        assert len(step.dec_self_attns) == len(step.dec_enc_attns) == layers
        for self_attn, cross in zip(step.dec_self_attns, step.dec_enc_attns):
            assert self_attn.shape == (heads, t, t)
            assert cross.shape == (heads, t, 5)
            assert torch.allclose(self_attn.sum(-1), torch.ones(heads, t), atol=1e-5)
            assert (self_attn.triu(1) == 0).all()  # no look-ahead while decoding either
        chosen.append(step.token)
    assert result.tokens == [t for t in chosen if t != "E"]
    assert len(result.enc_self_attns) == layers
    assert result.enc_self_attns[0].shape == (heads, 5, 5)


def test_without_attention_maps_the_steps_are_the_same(untrained):
    enc = _enc(untrained, "我会游泳")
    with_maps = greedy_decode(untrained.model, enc, untrained.tgt_vocab, max_len=4)
    without = greedy_decode(untrained.model, enc, untrained.tgt_vocab, max_len=4, return_attn=False)
    assert without.tokens == with_maps.tokens
    assert all(s.dec_self_attns == [] and s.dec_enc_attns == [] for s in without.steps)
    for a, b in zip(without.steps, with_maps.steps):
        assert torch.allclose(a.probs, b.probs, atol=1e-5)


@pytest.mark.parametrize("training", [True, False], ids=["train-mode", "eval-mode"])
def test_decoding_leaves_the_model_mode_alone(untrained, training):
    untrained.model.train(training)
    greedy_decode(untrained.model, _enc(untrained, "我吃饭"), untrained.tgt_vocab, max_len=3)
    assert untrained.model.training is training
    assert all(m.training is training for m in untrained.model.modules())
    untrained.translate_all(["我吃饭"], max_len=3)
    assert untrained.model.training is training


def test_decoding_runs_with_dropout_off(pairs20):
    translator = Translator.create(pairs20, dropout=0.5, **TINY)
    translator.model.train()
    enc = _enc(translator, "我吃饭")
    first = greedy_decode(translator.model, enc, translator.tgt_vocab, max_len=4)
    second = greedy_decode(translator.model, enc, translator.tgt_vocab, max_len=4)
    translator.model.eval()
    in_eval = greedy_decode(translator.model, enc, translator.tgt_vocab, max_len=4)
    for a, b, c in zip(first.steps, second.steps, in_eval.steps, strict=True):
        assert torch.equal(a.probs, b.probs)
        assert torch.equal(a.probs, c.probs)


def test_translate_all_agrees_with_translate(trained20, pairs20):
    translator, _ = trained20
    sentences = [s for s, _ in pairs20] + [
        "我喝茶",
        "你去公园吗",
        "猫很蓝",
        "我们在北京跳舞",
        "我爱你",
    ]  # unseen; 爱 unknown
    batched = translator.translate_all(sentences)
    one_by_one = [translator.translate(s).tokens for s in sentences]
    assert batched == one_by_one
    assert batched[: len(pairs20)] == [t.split() for _, t in pairs20]
    assert translator.translate_all([]) == []


def test_many_pairs_are_translated_and_evaluated_a_few_at_a_time_in_their_own_order(trained20, pairs20, monkeypatch):
    translator, _ = trained20
    sentences = [s for s, _ in pairs20] + ["我喝茶", "你去公园吗", "猫很蓝", "我们在北京跳舞", "我爱你"]
    one_by_one = [translator.translate(s).tokens for s in sentences]
    batch = translator.make_batch(pairs20)
    with torch.no_grad():  # the whole batch at once, as evaluation was done before it went a part at a time
        logits, _ = translator.model.eval()(batch.enc_inputs, batch.dec_inputs)
    real = batch.dec_outputs.ne(PAD_ID)
    whole_loss = F.cross_entropy(logits[real], batch.dec_outputs[real]).item()
    whole_accuracy = logits[real].argmax(-1).eq(batch.dec_outputs[real]).float().mean().item()

    widths = []
    real_forward, real_decode = translator.model.forward, translator_module.greedy_batch

    def forward(enc_inputs, dec_inputs, *args, **kwargs):
        widths.append((enc_inputs.size(0), enc_inputs.size(1)))
        return real_forward(enc_inputs, dec_inputs, *args, **kwargs)

    def decode(model, enc_inputs, *args, **kwargs):
        widths.append((enc_inputs.size(0), enc_inputs.size(1)))
        return real_decode(model, enc_inputs, *args, **kwargs)

    monkeypatch.setattr(translator_module, "EVAL_ROWS", 4)
    monkeypatch.setattr(translator_module, "greedy_batch", decode)
    monkeypatch.setattr(translator.model, "forward", forward)
    assert translator.translate_all(sentences) == one_by_one  # in the order asked, whatever the parts
    assert len(widths) == 7 and all(rows <= 4 for rows, _ in widths)
    assert widths[0][1] < widths[-1][1]  # the short sentences together, the long ones together
    widths.clear()
    evaluation = translator.evaluate(pairs20)
    assert evaluation.loss == pytest.approx(whole_loss, rel=1e-5)
    assert evaluation.token_accuracy == pytest.approx(whole_accuracy)
    assert evaluation.exact == 20 and [r[0] for r in evaluation.results] == [s for s, _ in pairs20]
    assert max(rows for rows, _ in widths) <= 4  # every forward pass, teacher-forced or greedy


def test_translating_an_empty_sentence_is_a_data_error(trained_seed):
    with pytest.raises(DataError, match="empty"):
        trained_seed.translate("  ")
