"""Train: choose the model's sizes and the optimiser's settings, train while watching the loss, save or load."""

import time

import pandas as pd
import streamlit as st

from transformer import TrainConfig, TransformerConfig, Translator
from transformer.checkpoint import load_checkpoint, save_checkpoint
from transformer.config import MAX_CHECKPOINT_BYTES
from transformer.data import build_vocabs, check_pairs
from transformer.errors import TransformerError
from transformer.model import parameter_count
from transformer.text import markdown
from transformer.train import train
from ui.i18n import t
from ui.state import CurrentModel, TrainingRun, bundled_model, current, page_setup, set_model
from viz.training import loss_accuracy_figure

L = page_setup()
ss = st.session_state

st.title(t("train.title", L))
st.markdown(t("train.intro", L))

HEAD_CHOICES = (1, 2, 4, 8, 16)
pairs = [(s, g) for s, g in ss.pairs if s.strip() and g.strip()]
errors = [p for p in check_pairs(ss.pairs, ss.tokenizer) if p.severity == "error"]

# --- settings -------------------------------------------------------------------------------------------
heads = [h for h in HEAD_CHOICES if ss.d_model % h == 0]
if ss.n_heads not in heads:
    fixed = max(h for h in heads if h <= ss.n_heads)
    st.info(t("train.heads_adjusted", L, old=ss.n_heads, new=fixed, d_model=ss.d_model))
    ss.n_heads = fixed
c1, c2 = st.columns(2, gap="large")
with c1:
    st.markdown(f"**{t('train.model_settings', L)}**")
    st.select_slider("d_model", [8, 16, 32, 64, 128, 256], key="d_model", help=t("help.d_model", L))
    st.select_slider("n_heads", heads, key="n_heads", help=t("help.n_heads", L, d_model=ss.d_model))
    st.select_slider("d_ff", [16, 32, 64, 128, 256, 512, 1024], key="d_ff", help=t("help.d_ff", L))
    st.slider("n_layers", 1, 6, key="n_layers", help=t("help.n_layers", L))
    st.slider("dropout", 0.0, 0.5, step=0.05, key="dropout", help=t("help.dropout", L))
with c2:
    st.markdown(f"**{t('train.train_settings', L)}**")
    st.select_slider(
        t("train.lr", L), [1e-4, 3e-4, 1e-3, 3e-3, 1e-2], key="lr", help=t("help.lr", L), format_func=lambda v: f"{v:g}"
    )
    st.slider(t("train.epochs", L), 5, 400, step=5, key="epochs", help=t("help.epochs", L))
    st.select_slider(t("train.batch_size", L), [1, 2, 4, 8, 16, 32, 64], key="batch_size", help=t("help.batch_size", L))
    st.number_input(t("train.seed", L), 0, 2**31 - 1, step=1, key="seed", help=t("help.seed", L))

sizes = dict(d_model=ss.d_model, n_heads=ss.n_heads, d_ff=ss.d_ff, n_layers=ss.n_layers, dropout=ss.dropout)
if pairs:
    src_vocab, tgt_vocab = build_vocabs(pairs, ss.tokenizer)
    n_params = parameter_count(TransformerConfig(len(src_vocab), len(tgt_vocab), **sizes))
    st.markdown(t("train.param_count", L, n=f"{n_params:,}", pairs=len(pairs), src=len(src_vocab), tgt=len(tgt_vocab)))


# --- training ---------------------------------------------------------------------------------------------
def _request_stop() -> None:
    if ss.get("training") is not None:
        ss.training.stop_requested = True


def _start() -> TrainingRun:
    cfg = TrainConfig(epochs=ss.epochs, lr=ss.lr, batch_size=ss.batch_size, seed=int(ss.seed))
    translator = Translator.create(pairs, ss.tokenizer, cfg.seed, **sizes)
    every = max(1, cfg.epochs // 20)
    return TrainingRun(translator, pairs, cfg, train(translator, pairs, cfg, snapshot_every=every))


def _finish(run: TrainingRun, stopped: bool) -> None:
    translator = run.translator
    results = translator.exact_match(run.pairs)
    translator.summary["exact_match"] = sum(ok for *_, ok in results) / len(results)
    set_model(CurrentModel(translator, "trained", run.snapshots, run.pairs[0], results))
    ss.training = None
    ss.last_training = {
        "stopped": stopped,
        "epochs": translator.summary.get("epochs", 0),
        "seconds": translator.summary.get("seconds", 0.0),
    }


b1, b2, _ = st.columns([2, 2, 6])
start_clicked = b1.button(
    t("train.train", L), type="primary", disabled=bool(errors) or not pairs, key="train_button", width="stretch"
)
running = start_clicked or ss.get("training") is not None
b2.button(t("train.stop", L), on_click=_request_stop, disabled=not running, key="stop_button", width="stretch")
if errors:
    st.error(t("train.fix_data", L, n=len(errors)))

progress_slot, chart_slot = st.empty(), st.empty()
if start_clicked:
    ss.training = _start()
run = ss.get("training")
if run is not None:
    if not run.stop_requested:
        last_draw = 0.0
        for record in run.epochs:
            run.records.append(record)
            if record.snapshot is not None:
                run.snapshots.append((record.epoch, record.snapshot))
            progress_slot.progress(
                record.epoch / run.config.epochs,
                text=t(
                    "train.progress",
                    L,
                    epoch=record.epoch,
                    epochs=run.config.epochs,
                    loss=f"{record.loss:.4f}",
                    acc=f"{record.accuracy:.0%}",
                ),
            )
            if time.perf_counter() - last_draw > 0.5 or record.epoch == run.config.epochs:
                chart_slot.plotly_chart(
                    loss_accuracy_figure(run.records, t("train.loss", L), t("train.accuracy", L), t("train.epoch", L)),
                    key=f"live_{record.epoch}",
                )
                last_draw = time.perf_counter()
    _finish(run, stopped=run.stop_requested)
    st.rerun()  # the sidebar, drawn before training, now describes the new model

# --- results ----------------------------------------------------------------------------------------------
model = current()
summary = model.translator.summary
if model.source == "trained" and ss.get("last_training"):
    info = ss.last_training
    if info["stopped"]:
        st.warning(t("train.stopped", L, epochs=info["epochs"]))
    else:
        st.success(t("train.done", L, epochs=info["epochs"], seconds=f"{info['seconds']:.1f}"))
if summary.get("history"):
    progress_slot.empty()
    chart_slot.plotly_chart(
        loss_accuracy_figure(summary["history"], t("train.loss", L), t("train.accuracy", L), t("train.epoch", L)),
        key="history_chart",
    )
if model.results is not None:
    exact = sum(ok for *_, ok in model.results)
    m1, m2, m3 = st.columns(3)
    m1.metric(t("train.exact", L), f"{exact / len(model.results):.0%} ({exact}/{len(model.results)})")
    m2.metric(t("train.final_loss", L), f"{summary.get('loss', float('nan')):.4f}")
    m3.metric(t("train.time", L), f"{summary.get('seconds', 0.0):.1f} s")
    st.dataframe(
        pd.DataFrame(
            [(s, g, out, "✓" if ok else "✗") for s, g, out, ok in model.results],
            columns=[t("data.source", L), t("train.reference", L), t("train.output", L), "✓/✗"],
        ),
        hide_index=True,
        width="stretch",
        key="results_table",
    )

# --- checkpoints ------------------------------------------------------------------------------------------
st.header(t("ckpt.title", L))
st.markdown(t("ckpt.intro", L))
c1, c2, c3 = st.columns(3, gap="large")
with c1:
    data = model.cached("checkpoint", lambda: save_checkpoint(model.translator))
    st.download_button(
        t("ckpt.download", L),
        data,
        file_name="transformer.safetensors",
        mime="application/octet-stream",
        key="download_model",
        width="stretch",
    )
with c2:
    upload = st.file_uploader(
        t("ckpt.upload", L, mb=MAX_CHECKPOINT_BYTES // 1_000_000), type=["safetensors"], key="model_upload"
    )
    if upload is not None and upload.file_id != ss.get("model_upload_done"):
        ss.model_upload_done = upload.file_id
        warnings: list[str] = []
        try:
            loaded = load_checkpoint(upload.getvalue(), warnings)
        except TransformerError as exc:
            ss.ckpt_message = ("error", t("ckpt.rejected", L, name=upload.name, reason=str(exc)))
        else:
            uploaded = CurrentModel(loaded, "uploaded")
            set_model(uploaded)
            ss.ckpt_message = ("success", t("ckpt.loaded", L, name=upload.name))
            ss.ckpt_warnings = (uploaded.id, warnings)  # shown while this model is the current one
        st.rerun()
    warned_id, warnings = ss.get("ckpt_warnings", (None, []))
    for warning in warnings if warned_id == model.id else []:
        st.warning(markdown(warning))
with c3:
    if st.button(t("ckpt.bundled", L), key="bundled_button", width="stretch", disabled=model.source == "bundled"):
        set_model(bundled_model())
        ss.ckpt_message = ("success", t("ckpt.bundled_back", L))
        st.rerun()
if ss.get("ckpt_message"):
    kind, text = ss.ckpt_message
    (st.error if kind == "error" else st.success)(text)
