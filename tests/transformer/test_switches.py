"""The architecture switches of TransformerConfig: each changes exactly what it says, and the defaults are today's
model (pinned in tests/fixtures/ before the switches existed), within tolerances a test justifies."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from tests.conftest import LOSS_RTOL, OUTPUT_TOL, PAIRS20
from transformer import TrainConfig, Transformer, TransformerConfig, Translator, train
from transformer.checkpoint import load_checkpoint, save_checkpoint
from transformer.data import parse_pairs
from transformer.errors import ConfigError
from transformer.model import Recorder, parameter_count

REPO = Path(__file__).resolve().parents[2]
PINNED = json.loads((REPO / "tests" / "fixtures" / "pinned_model.json").read_text())
# the bundled checkpoint's logits and decoder–encoder attention on the first 8 bundled pairs (bundled_outputs, the code
# that matched the hashes pinned before the switches existed; float32, as computed), pinned when the model was trained
PINNED_OUTPUTS = load_file(REPO / "tests" / "fixtures" / "pinned_bundled_outputs.safetensors")
ENC = torch.tensor([[4, 5, 6, 7, 0], [5, 6, 0, 0, 0]])  # (2, 5), padded
DEC = torch.tensor([[1, 4, 5, 6, 7, 0], [1, 6, 7, 0, 0, 0]])  # (2, 6), padded

VARIANTS = {
    "paper": {},
    "no-look-ahead": {"look_ahead_mask": False},
    "no-pad-mask": {"pad_mask": False},
    "no-masks": {"look_ahead_mask": False, "pad_mask": False},
    "learned-pe": {"pe": "learned"},
    "no-pe": {"pe": "none"},
    "no-scale": {"scale": False},
    "no-residual": {"residual": False},
    "pre-norm": {"norm": "pre"},
    "no-norm": {"norm": "none"},
    "no-residual-no-norm": {"residual": False, "norm": "none"},
}


def _model(seed: int = 0, **switches) -> Transformer:
    torch.manual_seed(seed)
    return Transformer(TransformerConfig(10, 10, d_model=16, n_heads=2, d_ff=32, n_layers=2, **switches)).eval()


class Steps(Recorder):
    """Records (module path, step name) in order, for checking which steps a variant takes."""

    def __init__(self, model):
        self.paths = {id(m): name for name, m in model.named_modules()}
        self.steps: list[tuple[str, str]] = []
        self.tensors: list[torch.Tensor] = []

    def __call__(self, module, name, tensor):
        self.steps.append((self.paths[id(module)], name))
        self.tensors.append(tensor)
        return tensor

    def __bool__(self):
        return True

    def names(self, path: str) -> list[str]:
        return [name for where, name in self.steps if where == path]


def _pairs20_losses(**settings) -> list[float]:
    fresh = Translator.create(PAIRS20, seed=0)
    return [r.loss for r in train(fresh, PAIRS20, TrainConfig(**{"epochs": 4, "seed": 0, **settings}))]


def bundled_outputs() -> dict[str, torch.Tensor]:
    """The bundled checkpoint's logits and decoder–encoder attention (flattened) on the first 8 bundled pairs, in eval
    mode: what tests/fixtures/pinned_bundled_outputs.safetensors pins (python -m tests.transformer.test_switches writes
    it again when the bundled model is retrained)."""
    pairs = parse_pairs((REPO / "assets" / "pairs.tsv").read_bytes())
    translator = load_checkpoint(REPO / "assets" / "model.safetensors")
    batch = translator.make_batch(pairs[:8])
    with torch.no_grad():
        logits, _ = translator.model.eval()(batch.enc_inputs, batch.dec_inputs)
        _, maps = translator.model(batch.enc_inputs, batch.dec_inputs, return_attn=True)
    return {"logits": logits.contiguous(), "dec_enc_attns": torch.cat([a.flatten() for a in maps.dec_enc_attns])}


def test_defaults_reproduce_the_pinned_model():
    """Within LOSS_RTOL and OUTPUT_TOL of the pinned figures: PyTorch repeats a result bit for bit on one machine,
    not across CPUs (an Intel Xeon and an AMD EPYC differ at 5e-5 on these losses)."""
    assert load_checkpoint(REPO / "assets" / "model.safetensors").config.variant == {}
    outputs = bundled_outputs()
    torch.testing.assert_close(outputs["logits"], PINNED_OUTPUTS["logits"], rtol=0, atol=OUTPUT_TOL)
    torch.testing.assert_close(outputs["dec_enc_attns"], PINNED_OUTPUTS["dec_enc_attns"], rtol=0, atol=OUTPUT_TOL)
    assert _pairs20_losses() == pytest.approx(PINNED["pairs20_losses_4_epochs"], rel=LOSS_RTOL)


def test_the_tolerances_still_catch_the_smallest_change_of_recipe_or_weights():
    """What justifies LOSS_RTOL and OUTPUT_TOL: a learning rate 1 % off moves the pinned losses by more than ten
    times LOSS_RTOL, and one weight of the bundled model nudged by 1 % moves its logits by more than OUTPUT_TOL;
    on one machine a run repeats bit for bit."""
    pinned = PINNED["pairs20_losses_4_epochs"]
    lr = TrainConfig().lr
    nudged = _pairs20_losses(lr=lr * 1.01)
    assert max(abs(a - b) / b for a, b in zip(nudged, pinned)) > 10 * LOSS_RTOL
    assert _pairs20_losses() == _pairs20_losses()  # the same machine computes both sides: bit for bit
    pairs = parse_pairs((REPO / "assets" / "pairs.tsv").read_bytes())
    translator = load_checkpoint(REPO / "assets" / "model.safetensors")
    batch = translator.make_batch(pairs[:8])
    with torch.no_grad():
        translator.model.projection.weight[5, 0] *= 1.01
        logits, _ = translator.model.eval()(batch.enc_inputs, batch.dec_inputs)
    assert (logits - PINNED_OUTPUTS["logits"]).abs().max() > OUTPUT_TOL


@pytest.mark.parametrize("switches", VARIANTS.values(), ids=VARIANTS.keys())
def test_every_variant_trains_with_the_fused_kernel_and_agrees_with_the_eager_path(switches):
    model = _model(**switches)
    with torch.no_grad():
        fused, none = model(ENC, DEC)
        eager, maps = model(ENC, DEC, return_attn=True)
    assert none is None and maps is not None
    assert torch.allclose(fused, eager, atol=1e-5)
    assert parameter_count(model.config) == model.num_parameters()


@pytest.mark.parametrize("switches", VARIANTS.values(), ids=VARIANTS.keys())
def test_every_variant_round_trips_through_a_checkpoint(switches):
    pairs = [("我 喜 欢 你", "I love you ."), ("你 好", "hello .")]
    translator = Translator.create(pairs, d_model=8, n_heads=2, d_ff=16, n_layers=1, **switches)
    loaded = load_checkpoint(save_checkpoint(translator))
    assert loaded.config == translator.config
    assert loaded.config.variant == switches


def test_bad_switch_values_name_the_field():
    with pytest.raises(ConfigError, match="pe must be one of sinusoidal, learned, none"):
        TransformerConfig(5, 5, pe="rotary")
    with pytest.raises(ConfigError, match="norm must be one of post, pre, none"):
        TransformerConfig(5, 5, norm="sandwich")
    with pytest.raises(ConfigError, match="look_ahead_mask must be true or false"):
        TransformerConfig(5, 5, look_ahead_mask="no")


def test_old_configs_without_switches_load_as_the_paper_model():
    old = TransformerConfig(7, 9).to_dict()
    for name in ("look_ahead_mask", "pad_mask", "pe", "scale", "residual", "norm"):
        del old[name]
    assert TransformerConfig.from_dict(old) == TransformerConfig(7, 9)


def _logits(model, dec):
    with torch.no_grad():
        return model(ENC, dec)[0]


def test_without_the_look_ahead_mask_a_later_target_token_changes_earlier_logits():
    later = DEC.clone()
    later[0, 4] = 9
    for switches, leaks in (({}, False), ({"look_ahead_mask": False}, True)):
        model = _model(**switches)
        before, after = _logits(model, DEC), _logits(model, later)
        assert not torch.allclose(before[0, 4:], after[0, 4:])  # the changed position itself always moves
        assert (not torch.allclose(before[0, :4], after[0, :4], atol=1e-6)) == leaks


def test_without_the_padding_mask_padding_changes_the_output():
    padded = torch.cat([ENC, torch.zeros(2, 3, dtype=torch.long)], dim=1)  # three more P on every source
    for switches, changes in (({}, False), ({"pad_mask": False}, True)):
        model = _model(**switches)
        with torch.no_grad():
            a, b = model(ENC, DEC)[0], model(padded, DEC)[0]
        assert (not torch.allclose(a, b, atol=1e-5)) == changes


def test_without_positional_encoding_permuting_the_source_permutes_the_encoder_output():
    source = torch.tensor([[4, 5, 6, 7, 8]])
    order = torch.tensor([3, 0, 4, 1, 2])
    for switches, equivariant in (({}, False), ({"pe": "none"}, True)):
        model = _model(**switches)
        with torch.no_grad():
            memory, permuted = model.encoder(source), model.encoder(source[:, order])
            logits, logits_permuted = model(source, DEC[:1])[0], model(source[:, order], DEC[:1])[0]
        assert torch.allclose(memory[:, order], permuted, atol=1e-5) == equivariant
        assert torch.allclose(logits, logits_permuted, atol=1e-5) == equivariant  # the decoder sees a bag of words


def test_learned_positions_are_a_trained_table():
    model = _model(pe="learned")
    table = model.encoder.pos_emb.pe
    assert isinstance(table, torch.nn.Parameter) and table.shape == (model.config.max_len, 16)
    assert "encoder.pos_emb.pe" in model.state_dict()
    assert "encoder.pos_emb.pe" not in _model().state_dict()  # the sinusoidal table is computed, not stored


def test_without_scaling_the_scores_are_sqrt_d_k_times_larger():
    scaled, unscaled = _model(), _model(scale=False)  # the same weights
    with torch.no_grad():
        _, a = scaled(ENC, DEC, return_attn=True)
        _, b = unscaled(ENC, DEC, return_attn=True)
    d_k = scaled.config.d_k
    assert torch.allclose(b.enc_self_scores[0], a.enc_self_scores[0] * math.sqrt(d_k), atol=1e-5)
    assert not torch.allclose(b.enc_self_attns[0], a.enc_self_attns[0])


def test_without_residuals_a_layer_forgets_its_input_when_its_sublayers_output_zero():
    for switches, remembers in (({}, True), ({"residual": False}, False)):
        model = _model(**switches)
        with torch.no_grad():
            for layer in model.encoder.layers:
                for linear in (layer.enc_self_attn.fc, layer.pos_ffn.fc2):
                    linear.weight.zero_()
                    linear.bias.zero_()
            a = model.encoder(torch.tensor([[4, 5, 6]]))
            b = model.encoder(torch.tensor([[7, 8, 9]]))
        assert (not torch.allclose(a, b)) == remembers


@pytest.mark.parametrize("norm", ["post", "pre", "none"])
def test_layer_norm_sits_where_the_switch_says(norm):
    model = _model(norm=norm)
    rec = Steps(model)
    with torch.no_grad():
        model(ENC, DEC, rec=rec)
    layer = rec.names("encoder.layers.0.norm1")
    expected = {
        "post": ["output + residual", "LayerNorm"],  # LayerNorm(x + sublayer(x)), the paper
        "pre": ["LayerNorm", "output + residual"],  # x + sublayer(LayerNorm(x))
        "none": ["output + residual"],
    }[norm]
    assert layer == expected
    assert rec.names("encoder.final_norm") == (["LayerNorm"] if norm == "pre" else [])
    has_params = any(name.endswith("norm1.weight") for name in model.state_dict())
    assert has_params == (norm != "none")


def test_switched_off_masks_are_not_computed():
    model = _model(look_ahead_mask=False, pad_mask=False)
    rec = Steps(model)
    with torch.no_grad():
        model(ENC, DEC, rec=rec)
    names = {name for _, name in rec.steps}
    assert not names & {"enc_self_attn_mask", "dec_self_attn_mask", "dec_enc_attn_mask", "attn_mask"}
    assert "scores (masked)" not in names


def test_the_recording_path_is_the_model_and_costs_nothing_unless_asked():
    model = _model()
    rec = Steps(model)
    with torch.no_grad():
        plain, _ = model(ENC, DEC)
        recorded, _ = model(ENC, DEC, rec=rec)
    assert torch.allclose(plain, recorded, atol=1e-6)
    assert rec.steps[0] == ("encoder", "enc_inputs") and rec.steps[-1] == ("projection", "dec_logits")
    assert torch.equal(rec.tensors[-1], recorded)


if __name__ == "__main__":  # after retraining the bundled model: pin its outputs again
    from safetensors.torch import save_file

    save_file(bundled_outputs(), str(REPO / "tests" / "fixtures" / "pinned_bundled_outputs.safetensors"))
