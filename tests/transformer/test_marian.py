"""transformer.marian refuses what it cannot open with one line that says why, and the model options Marian needs leave
the project's own models exactly as they were (their config, tensors, parameter count and checkpoints)."""

from __future__ import annotations

import json

import pytest
import torch
from safetensors.torch import load_file, save_file

from tests.transformer.checkpoints import refused
from tests.transformer.marian_models import SHAPES, save_random_marian, sources, transformers
from transformer.checkpoint import load_checkpoint, save_checkpoint
from transformer.config import MAX_PRETRAINED_PARAMETERS, MAX_VOCAB_SIZE, TransformerConfig
from transformer.data import SPECIALS, Vocab
from transformer.decoding import greedy_decode
from transformer.errors import ConfigError, DataError
from transformer.marian import marian_transformer, marian_transformer_config
from transformer.model import Transformer, parameter_count, positional_encoding_table
from transformer.trace import trace_pass
from transformer.translator import Translator

# the fields of a config's dict before Marian's options existed: a model without them has the same metadata
OLD_FIELDS = {
    "src_vocab_size",
    "tgt_vocab_size",
    "d_model",
    "d_ff",
    "n_heads",
    "n_layers",
    "d_k",
    "d_v",
    "dropout",
    "max_len",
    "look_ahead_mask",
    "pad_mask",
    "pe",
    "scale",
    "residual",
    "norm",
}
MARIAN_OPTIONS = {
    "n_dec_layers": 3,
    "activation": "swish",
    "logits_bias": True,
    "share_embeddings": True,
    "pe_layout": "halves",
    "emb_scale": True,
    "tie_output": True,
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return save_random_marian(SHAPES[0], tmp_path_factory.mktemp("marian"))


def config_of(folder) -> dict:
    return json.loads((folder / "config.json").read_text())


def copy_with(folder, tmp_path, config=None, weights=True):
    """A copy of the Marian folder in tmp_path, its config.json changed (or replaced) and its weights kept or not."""
    (tmp_path / "config.json").write_text(json.dumps(config if config is not None else config_of(folder)))
    if weights:
        (tmp_path / "model.safetensors").write_bytes((folder / "model.safetensors").read_bytes())
    return tmp_path


def one_line(error_type, call) -> str:
    """The message of the error call raises: of error_type, one readable line."""
    with pytest.raises(error_type) as info:
        call()
    message = str(info.value)
    assert 20 < len(message) < 400 and "\n" not in message, message
    return message


# ---------------------------------------------------------------- refusals, one line each


def test_another_architecture_is_refused_by_name(folder, tmp_path):
    bart = config_of(folder) | {"model_type": "bart", "architectures": ["BartForConditionalGeneration"]}
    message = one_line(ConfigError, lambda: marian_transformer(copy_with(folder, tmp_path, bart)))
    assert "bart" in message and "Marian" in message


def test_a_model_over_the_parameter_limit_is_refused_before_its_weights_are_read(folder, tmp_path):
    huge = config_of(folder) | {"vocab_size": 200_000, "decoder_vocab_size": 200_000, "d_model": 1024}
    huge |= {"encoder_layers": 12, "decoder_layers": 12, "encoder_ffn_dim": 4096, "decoder_ffn_dim": 4096}
    message = one_line(ConfigError, lambda: marian_transformer(copy_with(folder, tmp_path, huge, weights=False)))
    assert f"{MAX_PRETRAINED_PARAMETERS:,}" in message and "parameters" in message


def test_real_opus_mt_sizes_are_within_the_limits(folder):
    """opus-mt-zh-en: 65,001 pieces, d_model 512, 6 + 6 layers, 8 heads, ffn 2048: some 77 million parameters."""
    zh_en = config_of(folder) | {"vocab_size": 65_001, "decoder_vocab_size": 65_001, "d_model": 512, "dropout": 0.1}
    zh_en |= {"encoder_layers": 6, "decoder_layers": 6, "encoder_ffn_dim": 2048, "decoder_ffn_dim": 2048}
    zh_en |= {"encoder_attention_heads": 8, "decoder_attention_heads": 8, "max_position_embeddings": 512}
    zh_en |= {"pad_token_id": 65_000, "decoder_start_token_id": 65_000}
    cfg = marian_transformer_config(zh_en)
    assert 75_000_000 < parameter_count(cfg) < 80_000_000
    assert cfg.src_vocab_size > MAX_VOCAB_SIZE  # more than a project's checkpoint may hold


def test_pickled_weights_are_refused_with_the_conversion(folder, tmp_path):
    copy_with(folder, tmp_path, weights=False)
    (tmp_path / "pytorch_model.bin").write_bytes(b"\x80\x04 not read")
    message = one_line(DataError, lambda: marian_transformer(tmp_path))
    assert "unpickling" in message and "save_pretrained" in message and "model.safetensors" in message


@pytest.mark.parametrize(
    "change, words",
    [
        ({"normalize_before": True}, "normalize_before"),
        ({"encoder_ffn_dim": 64}, "encoder_ffn_dim"),
        ({"decoder_vocab_size": 41}, "two vocabularies"),
        ({"activation_function": "tanh"}, "tanh"),
        ({"d_model": "16"}, "d_model"),
        ({"pad_token_id": 40}, "pad_id"),
    ],
)
def test_a_config_the_model_cannot_be_is_refused(folder, tmp_path, change, words):
    message = one_line(ConfigError, lambda: marian_transformer(copy_with(folder, tmp_path, config_of(folder) | change)))
    assert words in message


def test_missing_damaged_or_absent_files_are_refused(folder, tmp_path):
    assert "config.json" in one_line(DataError, lambda: marian_transformer(tmp_path))
    (tmp_path / "config.json").write_text("[1, 2")
    assert "JSON" in one_line(DataError, lambda: marian_transformer(tmp_path))
    copy_with(folder, tmp_path)
    tensors = load_file(tmp_path / "model.safetensors")
    del tensors["model.decoder.layers.0.fc2.bias"]
    save_file(tensors, tmp_path / "model.safetensors")
    assert "lacks 1 tensor" in one_line(DataError, lambda: marian_transformer(tmp_path))
    tensors["model.decoder.layers.0.fc2.bias"] = torch.zeros(3)
    save_file(tensors, tmp_path / "model.safetensors")
    assert "fc2.bias" in one_line(DataError, lambda: marian_transformer(tmp_path))
    (tmp_path / "model.safetensors").write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{not json}      ")
    assert "safetensors" in one_line(DataError, lambda: marian_transformer(tmp_path))
    assert "not a folder" in one_line(DataError, lambda: marian_transformer(tmp_path / "config.json"))


# ---------------------------------------------------------------- the converted model in the project's machinery


def test_the_converted_model_is_marian_s_architecture_with_its_ids(folder):
    model, config = marian_transformer(folder)
    cfg = model.config
    assert (cfg.activation, cfg.pe_layout, cfg.norm) == ("swish", "halves", "post")
    assert cfg.share_embeddings and cfg.tie_output and cfg.logits_bias and cfg.emb_scale
    assert (cfg.n_layers, cfg.decoder_layers) == (2, 1)
    assert cfg.pad_id == cfg.decoder_start_id == config["pad_token_id"] == SHAPES[0].vocab - 1
    assert model.projection.weight is model.decoder.tgt_emb.weight is model.encoder.src_emb.weight
    assert not model.training


def test_halves_is_hugging_face_s_table_and_interleaved_is_unchanged():
    marian_table = transformers.models.marian.modeling_marian.MarianSinusoidalPositionalEmbedding
    for d_model in (16, 21):
        assert torch.equal(positional_encoding_table(30, d_model, "halves"), marian_table(30, d_model).create_weight())
    paper = positional_encoding_table(30, 16)
    assert torch.allclose(paper[:, 0::2], positional_encoding_table(30, 16, "halves")[:, :8], atol=1e-6)  # the sines
    assert not torch.equal(paper, positional_encoding_table(30, 16, "halves"))


def test_the_inside_view_traces_a_marian_model_with_its_swish(folder):
    model, _ = marian_transformer(folder)
    src = sources(SHAPES[0], n=1)
    dec = torch.tensor([[SHAPES[0].vocab - 1, 5, 6]])
    steps = trace_pass(model, src, dec, torch.tensor([[5, 6, 7]]))
    hidden = [s for s in steps if s.name == "hidden (swish)"]
    assert len(hidden) == 3 and all(s.kind == "hidden" for s in hidden)  # 2 encoder layers + 1 decoder layer
    logits = next(s for s in steps if s.name == "dec_logits")
    assert torch.allclose(logits.tensor, model(src, dec)[0], atol=1e-4)  # with the logits bias


# ---------------------------------------------------------------- the project's own models, unchanged


def test_the_defaults_add_nothing_to_a_project_model():
    cfg = TransformerConfig(10, 12)
    assert set(cfg.to_dict()) == OLD_FIELDS
    assert TransformerConfig.from_dict(cfg.to_dict()) == cfg
    model = Transformer(cfg)
    assert not hasattr(model, "logits_bias") and cfg.decoder_layers == cfg.n_layers
    assert all(not name.startswith("logits") for name in model.state_dict())
    assert model.decoder.tgt_emb.weight is not model.encoder.src_emb.weight


@pytest.mark.parametrize("options", [{}, {"tie_output": True}, MARIAN_OPTIONS, {"n_dec_layers": 1, "norm": "pre"}])
def test_parameter_count_counts_every_option(options):
    cfg = TransformerConfig(30, 30, d_model=16, d_ff=24, n_heads=2, **options)
    assert parameter_count(cfg) == Transformer(cfg).num_parameters()


@pytest.mark.parametrize(
    "options, words",
    [
        ({"activation": "tanh"}, "activation"),
        ({"pe_layout": "split"}, "pe_layout"),
        ({"share_embeddings": True, "tgt_vocab_size": 11}, "shared embeddings"),
        ({"logits_bias": 1}, "logits_bias"),
        ({"pad_id": 10}, "pad_id"),
        ({"decoder_start_id": -1}, "decoder_start_id"),
        ({"n_dec_layers": 0}, "n_dec_layers"),
        ({"n_dec_layers": 25}, "n_dec_layers"),
    ],
)
def test_options_out_of_range_are_refused(options, words):
    message = one_line(
        ConfigError, lambda: TransformerConfig(**({"src_vocab_size": 10, "tgt_vocab_size": 10} | options))
    )
    assert words in message


def shared_translator(**options) -> Translator:
    """A project model with Marian's options, one vocabulary on both sides."""
    vocab = Vocab((*SPECIALS, "我", "你", "I", "you", "love"))
    cfg = TransformerConfig(len(vocab), len(vocab), d_model=8, d_ff=16, n_heads=2, **options)
    torch.manual_seed(0)
    model = Transformer(cfg)
    with torch.no_grad():
        if cfg.logits_bias:
            model.logits_bias.normal_()
    return Translator(model.eval(), vocab, vocab, "auto")


def test_a_checkpoint_keeps_every_option_and_each_tensor_once(tmp_path):
    translator = shared_translator(**MARIAN_OPTIONS)
    loaded = load_checkpoint(save_checkpoint(translator, tmp_path / "m.safetensors"))
    assert loaded.config == translator.config
    assert set(load_file(tmp_path / "m.safetensors")) == set(translator.model.saved_tensors())
    assert "decoder.tgt_emb.weight" not in translator.model.saved_tensors()
    model = loaded.model
    assert model.projection.weight is model.decoder.tgt_emb.weight is model.encoder.src_emb.weight
    enc, dec = torch.tensor([[4, 5, 2]]), torch.tensor([[1, 6, 7]])
    assert torch.equal(model(enc, dec)[0], translator.model(enc, dec)[0])


def test_a_project_checkpoint_may_not_hold_a_pretrained_vocabulary():
    vocab = Vocab((*SPECIALS, *(f"w{i}" for i in range(MAX_VOCAB_SIZE + 1 - len(SPECIALS)))))
    cfg = TransformerConfig(len(vocab), len(vocab), d_model=2, d_ff=2, n_heads=1, n_layers=1, share_embeddings=True)
    assert cfg.src_vocab_size == MAX_VOCAB_SIZE + 1  # a config admits it (a pretrained model's)
    data = save_checkpoint(Translator(Transformer(cfg), vocab, vocab, "auto"))
    refused(data, f"at most {MAX_VOCAB_SIZE:,}")


def test_decoding_starts_from_the_configured_start_token():
    translator = shared_translator(decoder_start_id=4)  # "我", where a Marian model starts from <pad>
    result = greedy_decode(translator.model, torch.tensor([[4, 5, 2]]), translator.tgt_vocab, max_len=3)
    assert result.steps[0].dec_input == ["我"]
    assert greedy_decode(shared_translator().model, torch.tensor([[4, 5]]), translator.tgt_vocab, 3).steps[
        0
    ].dec_input == ["S"]
